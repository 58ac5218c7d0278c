// What Restart Frame needs before it launches a fork: the prompt texts the earlier turns used (pinned, so the
// replayed turns render as the original did), which prompt files changed since, and the launch settings.
import { resolve } from 'node:path';
import type { Architectures } from '../architecture/registry.js';
import type { HostIO } from '../host.js';
import { REFERENCE_PROFILES, type ReferenceProfile } from '../llm/reference/policy.js';
import { loadVariants, resolveVariant, VARIANTS_FILE } from '../prompt/variants.js';
import type { EventOf, ForkInfo } from '../../protocol/trace.js';
import type { EventLog } from './eventLog.js';
import type { PromptTextStore } from './fork.js';
import type { LiveConfig, ReplayConfig } from './runtimeTypes.js';

/** Per prompt file: the text the turns before role call `rc` used, and whether the file has changed since. */
export async function forkPrompts(
  parent: EventLog,
  rc: number,
  call: EventOf<'role_call'>,
  start: EventOf<'episode_start'>,
  store: PromptTextStore,
): Promise<{ pins: Map<string, string>; unknown: string[]; changed: ForkInfo['changedFiles'] }> {
  const pins = new Map<string, string>();
  const unknown: string[] = [];
  const changed: ForkInfo['changedFiles'] = [];
  for (const ref of start.prompts) {
    const lastBefore = parent.findBack(rc - 1, (e) => e.type === 'role_call' && e.role === ref.role);
    const usedSha = (lastBefore >= 0 ? (parent.at(lastBefore) as EventOf<'role_call'>).promptSha256 : undefined) ?? ref.sha256;
    const text = store.textOf(ref.sha256) ?? store.textOf(usedSha);
    if (text !== undefined) pins.set(ref.path, text);
    else if (lastBefore >= 0) unknown.push(ref.role);
    const before = ref.role === call.role ? (call.promptSha256 ?? ref.sha256) : usedSha;
    const now = await store.current(ref.path);
    if (now && now.sha !== before) changed.push({ role: ref.role, path: ref.path, fromSha256: before, toSha256: now.sha });
  }
  return { pins, unknown, changed };
}

/** How a fork of the current run is launched: the live session's settings, or the recording's. */
export async function forkConfig(
  start: EventOf<'episode_start'>,
  o: { liveConfig: LiveConfig | undefined; replayConfig: ReplayConfig | undefined; io: HostIO; architectures: Architectures },
): Promise<LiveConfig> {
  if (o.liveConfig) return { ...o.liveConfig, stopOnEntry: false };
  const r = o.replayConfig!;
  let model = r.model;
  if (!model) {
    if (start.model.provider === 'reference' && (REFERENCE_PROFILES as readonly string[]).includes(start.model.model)) model = { kind: 'reference', profile: start.model.model as ReferenceProfile };
    else throw new Error(`the recording used ${start.model.label}; give "model" (and "baseUrl") in the launch configuration to fork it`);
  }
  let variant: string | undefined = start.variant;
  try {
    const arch = o.architectures.get(start.arch);
    resolveVariant(start.variant, await loadVariants(o.io, resolve(r.workspace, VARIANTS_FILE)), arch.builtInVariants);
  } catch {
    variant = undefined; // not defined here: the recorded ablation switches are applied on top of the default
  }
  const limits = Object.fromEntries(Object.entries(start.limits ?? {}).filter(([, v]) => typeof v !== 'string')) as Record<string, number | boolean>;
  return { workspace: r.workspace, arch: start.arch, task: start.task, seed: start.seed, variant, model, simulator: r.simulator, limits, codeTimeoutSecs: start.options.codeTimeoutSecs, cache: r.cache, stopOnEntry: false };
}
