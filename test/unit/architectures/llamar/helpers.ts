// Runs LLaMAR episodes in-process for tests: the household simulator, the reference policies called directly (the
// role comes from the request metadata, as the reference server reads it), and optional scripted answers per role.
import { architectures } from '../../../../src/architectures/registry.js';
import { DEFAULT_EPISODE_OPTIONS, runEpisode, type EpisodeResult } from '../../../../src/core/engine/episode.js';
import type { ModelClient, ModelRequest } from '../../../../src/core/llm/client.js';
import type { EmbeddingClient } from '../../../../src/core/llm/embeddings.js';
import { registerReferencePolicies } from '../../../../src/core/llm/reference/policies.js';
import { defaultRolePolicies, roleDispatchPolicy, type ReferenceProfile } from '../../../../src/core/llm/reference/policy.js';
import { nodeIO } from '../../../../src/core/node/nodeHost.js';
import type { CodeSandbox } from '../../../../src/core/sandbox/sandbox.js';
import { resolveVariant } from '../../../../src/core/prompt/variants.js';
import { createHouseholdSimulator } from '../../../../src/core/sim/household/index.js';
import type { Simulator } from '../../../../src/core/sim/simulator.js';
import { MemoryTraceSink } from '../../../../src/core/trace/writer.js';
import type { TraceEvent } from '../../../../src/protocol/trace.js';

export const noSandbox: CodeSandbox = {
  warmUp: async () => {
    throw new Error('LLaMAR must not start a code sandbox');
  },
  resetNamespace: async () => {},
  close: async () => {},
  run: async () => {
    throw new Error('LLaMAR runs no code');
  },
};

/** Answers with the reference policy, unless `script` returns a text for the request (role, call index). */
export function policyClient(profile: ReferenceProfile = 'reference', script?: (role: string, nth: number, request: ModelRequest) => string | undefined): ModelClient & { requests: ModelRequest[] } {
  registerReferencePolicies(architectures);
  const policy = roleDispatchPolicy(defaultRolePolicies, profile);
  const count = new Map<string, number>();
  const requests: ModelRequest[] = [];
  return {
    id: `test-${profile}`,
    requests,
    async complete(request) {
      requests.push(request);
      const role = request.meta?.role ?? '?';
      const nth = (count.get(role) ?? 0) + 1;
      count.set(role, nth);
      const text = script?.(role, nth, request) ?? policy.answer(request.messages, { meta: request.meta, seed: request.seed });
      return { ok: true, text, latencyMs: 1, cached: false, attempts: 1 };
    },
  };
}

function withAblations<V extends { ablations: Record<string, boolean> }>(v: V, extra: Record<string, boolean> | undefined): V {
  return extra ? { ...v, ablations: { ...v.ablations, ...extra } } : v;
}

export interface LlamarRun {
  result: EpisodeResult;
  events: TraceEvent[];
}

export async function runLlamar(o: {
  task: string;
  seed?: number;
  agents?: number;
  variant?: string;
  limits?: Record<string, unknown>;
  model?: ModelClient;
  /** The run's embedding model (the action matcher's); absent: the lexical matcher. */
  embeddings?: EmbeddingClient;
  /** Ablation switches over the variant's (a prompt block's id → on/off). */
  ablations?: Record<string, boolean>;
  /** Another simulator (a remote one, one with cameras); default a fresh embedded household. */
  sim?: Simulator;
  /** The run's vision switch (frames as image parts). */
  vision?: boolean;
}): Promise<LlamarRun> {
  const arch = architectures.get('llamar');
  const sink = new MemoryTraceSink();
  const promptPaths = Object.fromEntries(arch.roles.map((r) => [r.id, `src/architectures/llamar/prompts/${r.promptFile}`]));
  const result = await runEpisode(
    {
      runId: 'llamar-test',
      arch,
      task: o.task,
      seed: o.seed ?? 0,
      variant: withAblations(resolveVariant(o.variant ?? 'default', { active: 'default', variants: {} }, arch.builtInVariants), o.ablations),
      promptPaths,
      options: { ...DEFAULT_EPISODE_OPTIONS, limits: o.limits ?? {}, ...(o.vision ? { vision: true } : {}) },
      model: { provider: 'reference', model: 'reference', label: 'reference (scripted, not an LLM)' },
      ...(o.agents !== undefined ? { agents: o.agents } : {}),
    },
    {
      io: nodeIO,
      clock: { nowMs: () => performance.now(), isoNow: () => '2026-11-24T00:00:00.000Z' },
      sim: o.sim ?? createHouseholdSimulator(),
      sandbox: noSandbox,
      model: o.model ?? policyClient(),
      ...(o.embeddings ? { embeddings: o.embeddings } : {}),
      sink,
    },
  );
  return { result, events: sink.events };
}
