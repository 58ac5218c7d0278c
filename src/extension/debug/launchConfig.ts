// The launch configuration `⏵ Debug live test` and F5 without a launch.json start: the prompt's architecture and
// the run settings (task, seed, limits, simulator, cache). Pure, so it is unit-tested without VS Code; the model
// is added by the configuration provider (it may need SecretStorage or the chat-model bridge).
import type { ReferenceProfile } from '../../core/llm/reference/policy.js';
import { DEBUG_TYPE } from '../../protocol/dap.js';
import { limitsFromSettings, type WaypointSettings } from '../settings.js';

export interface DebugRequest {
  arch?: string;
  task?: string;
  seed?: number;
  variant?: string;
}

export function liveDebugConfig(s: WaypointSettings, promptArch: string | undefined, req: DebugRequest, workspace: string): Record<string, unknown> {
  const architecture = req.arch ?? promptArch ?? s.run.architecture;
  const task = req.task ?? s.run.task;
  const seed = req.seed ?? s.run.seed;
  return {
    type: DEBUG_TYPE,
    request: 'launch',
    name: `Debug ${architecture} · ${task} · seed ${seed}`,
    architecture,
    task,
    seed,
    ...(req.variant ? { variant: req.variant } : {}),
    workspace,
    simulator: s.simulator.kind === 'embedded' ? s.simulator.spec : s.simulator.endpoint,
    limits: limitsFromSettings(architecture, s),
    codeTimeoutSecs: s.run.codeTimeoutSecs,
    cache: s.run.useCache,
  };
}

/** Launch attributes for the model a run uses (see modelWire.ts); the key travels separately, in the adapter's environment. */
export function modelAttributes(wire: { kind: 'reference'; profile?: ReferenceProfile } | { kind: 'openai'; model: string; baseUrl: string; temperature?: number; maxTokens?: number; provider?: string; label?: string; clientId?: string }): Record<string, unknown> {
  // The profile is the model name the adapter takes: `reference` or `reference-flawed` (the seeded mistakes).
  if (wire.kind === 'reference') return { model: wire.profile ?? 'reference' };
  return {
    model: `openai:${wire.model}`,
    baseUrl: wire.baseUrl,
    ...(wire.temperature !== undefined ? { temperature: wire.temperature } : {}),
    ...(wire.maxTokens !== undefined ? { maxTokens: wire.maxTokens } : {}),
    ...(wire.provider ? { provider: wire.provider } : {}),
    ...(wire.label ? { modelLabel: wire.label } : {}),
    ...(wire.clientId ? { clientId: wire.clientId } : {}),
  };
}

/** Environment variable the extension hands an API key to the debug adapter in (never launch.json). */
export const DEBUG_KEY_ENV = 'WAYPOINT_DEBUG_API_KEY';
