// One finished episode of a sweep, as the sweep folder keeps it (episodes/<key>.json): the outcome, the counters
// the statistics need, cost, and the automatic failure labels, all read from the run's trace. The trace stays the
// truth: `recordFromTrace` recomputes a record from it at any time.
import type { EventOf, TraceEvent } from '../../protocol/trace.js';
import { labelFailure, type FailureLabel } from './failureLabels.js';
import { promptIdentityOfStart, promptVersion } from './promptVersion.js';
import type { SweepEpisode } from './spec.js';

export interface PriceTable {
  [model: string]: { inputPerMTok: number; outputPerMTok: number };
}

export interface EpisodeRecord {
  key: string;
  task: string;
  cell: string;
  variant: string;
  ablations: Record<string, boolean>;
  seed: number;
  repeat: number;
  runId: string;
  /** Relative to the workspace (so shards' folders merge on another machine). */
  tracePath: string;
  /**
   * The prompt version the trace says ran (promptVersion.ts, from episode_start's prompt hashes, topology and
   * ablations). A sweep counts a record only when this equals its plan's; records written before it existed lack it.
   */
  promptVersion?: string;
  success: boolean;
  reason: string;
  message?: string;
  agentClaimedDone: boolean;
  turns: number;
  rounds?: number;
  steps?: number;
  modelCalls: number;
  cachedCalls: number;
  promptTokens: number;
  completionTokens: number;
  /** Money by the price table; 0 for a model without a price (the reference model is free). */
  cost: number;
  /** By role: calls, cache misses, tokens (prompt + completion, and each), and their cost by the price table. */
  callsByRole: Record<string, { calls: number; uncached: number; tokens: number; promptTokens?: number; completionTokens?: number; cost?: number }>;
  latencyMs: number;
  durationMs: number;
  codeErrors: number;
  archMetrics: Record<string, number>;
  labels: FailureLabel[];
}

export function costOf(model: string, promptTokens: number, completionTokens: number, prices: PriceTable | undefined): number {
  const p = prices?.[model];
  return p ? (promptTokens * p.inputPerMTok + completionTokens * p.outputPerMTok) / 1e6 : 0;
}

export function recordFromTrace(ep: SweepEpisode, runId: string, tracePath: string, events: readonly TraceEvent[], prices?: PriceTable): EpisodeRecord {
  const start = events.find((e): e is EventOf<'episode_start'> => e.type === 'episode_start');
  const end = events.find((e): e is EventOf<'episode_end'> => e.type === 'episode_end');
  const callsByRole: EpisodeRecord['callsByRole'] = {};
  let latencyMs = 0;
  for (const e of events) {
    if (e.type !== 'model_response') continue;
    const r = (callsByRole[e.role] ??= { calls: 0, uncached: 0, tokens: 0, promptTokens: 0, completionTokens: 0, cost: 0 });
    r.calls++;
    if (!e.cached) r.uncached++;
    r.promptTokens! += e.usage?.promptTokens ?? 0;
    r.completionTokens! += e.usage?.completionTokens ?? 0;
    r.tokens += (e.usage?.promptTokens ?? 0) + (e.usage?.completionTokens ?? 0);
    latencyMs += e.latencyMs;
  }
  const model = start?.model.model ?? '';
  for (const r of Object.values(callsByRole)) r.cost = costOf(model, r.promptTokens!, r.completionTokens!, prices);
  const m = end?.metrics;
  const promptTokens = m?.promptTokens ?? 0;
  const completionTokens = m?.completionTokens ?? 0;
  return {
    key: ep.key,
    task: ep.task,
    cell: ep.cell,
    variant: ep.variant,
    ablations: ep.ablations,
    seed: ep.seed,
    repeat: ep.repeat,
    runId,
    tracePath,
    ...(start ? { promptVersion: promptVersion(promptIdentityOfStart(start)) } : {}),
    success: end?.success ?? false,
    reason: end?.reason ?? 'engine_error',
    ...(end?.message ? { message: end.message } : !end ? { message: 'the trace has no episode_end' } : {}),
    agentClaimedDone: end?.agentClaimedDone ?? false,
    turns: m?.turns ?? 0,
    ...(m?.rounds !== undefined ? { rounds: m.rounds } : {}),
    ...(m?.steps !== undefined ? { steps: m.steps } : {}),
    modelCalls: m?.modelCalls ?? 0,
    cachedCalls: m?.cachedCalls ?? 0,
    promptTokens,
    completionTokens,
    cost: costOf(model, promptTokens, completionTokens, prices),
    callsByRole,
    latencyMs,
    durationMs: m?.durationMs ?? 0,
    codeErrors: m?.codeErrors ?? 0,
    archMetrics: end?.archMetrics ?? {},
    labels: end ? labelFailure(events) : [{ label: 'engine_error', evidence: 'the trace has no episode_end', source: 'auto' }],
  };
}
