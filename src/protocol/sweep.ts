// The record of a paired on/off sweep: .waypoint/sweeps/<id>/sweep.json. Written by core/sweep/pairedSweep.ts,
// read by the CLI and the comparison webview (which parses it: a file on disk can hold anything).
import * as z from 'zod';

export const SWEEP_SCHEMA_VERSION = 1;

/** One episode of a sweep: a finished run, or a run that could not finish (recorded, never thrown). */
export const SweepOutcome = z.object({
  seed: z.number().int().nonnegative(),
  runId: z.string(),
  tracePath: z.string(),
  success: z.boolean(),
  reason: z.string(),
  message: z.string().optional(),
  turns: z.number().int().nonnegative(),
  modelCalls: z.number().int().nonnegative(),
});
export type SweepOutcome = z.infer<typeof SweepOutcome>;

export const SweepSideStats = z.object({
  /** Ablation switches this side ran with, laid over the base variant. */
  ablations: z.record(z.string(), z.boolean()),
  n: z.number().int().nonnegative(),
  successes: z.number().int().nonnegative(),
  /** successes / n; null when no episode finished. */
  rate: z.number().min(0).max(1).nullable(),
  /** Wilson score interval at 95 %. */
  ci95: z.object({ low: z.number().min(0).max(1), high: z.number().min(0).max(1) }),
  /** Clopper-Pearson ("exact") interval at 95 %, the one LLaMAR reports; absent in sweeps written before it. */
  exact95: z.object({ low: z.number().min(0).max(1), high: z.number().min(0).max(1) }).optional(),
  meanTurns: z.number().nullable(),
  meanModelCalls: z.number().nullable(),
});
export type SweepSideStats = z.infer<typeof SweepSideStats>;

export const SweepPair = z.object({
  seed: z.number().int().nonnegative(),
  on: SweepOutcome.nullable(),
  off: SweepOutcome.nullable(),
});
export type SweepPair = z.infer<typeof SweepPair>;

export const SweepComparison = z.object({
  on: SweepSideStats,
  off: SweepSideStats,
  pairs: z.array(SweepPair),
  /** Seeds where both sides ran and exactly one succeeded. */
  differing: z.number().int().nonnegative(),
});
export type SweepComparison = z.infer<typeof SweepComparison>;

export const SweepFile = z.object({
  schemaVersion: z.literal(SWEEP_SCHEMA_VERSION),
  id: z.string().regex(/^[A-Za-z0-9_.-]+$/),
  kind: z.literal('paired_ablation'),
  startedAt: z.string(),
  endedAt: z.string(),
  status: z.enum(['complete', 'cancelled']),
  arch: z.string(),
  task: z.string(),
  /** Base variant both sides start from. */
  variant: z.string(),
  ablation: z.string(),
  seeds: z.array(z.number().int().nonnegative()),
  model: z.object({ kind: z.string(), label: z.string() }),
  comparison: SweepComparison,
});
export type SweepFile = z.infer<typeof SweepFile>;

// ---- comparison webview messages (host <-> webview/compare); each side parses what it receives ----

export const CompareHostToView = z.discriminatedUnion('type', [z.object({ type: z.literal('init'), sweep: SweepFile, path: z.string() })]);
export type CompareHostToView = z.infer<typeof CompareHostToView>;

export const CompareViewToHost = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /** Open one episode of the sweep in the run viewer; the host only honours trace paths of this sweep. */
  z.object({ type: z.literal('openRun'), tracePath: z.string().min(1).max(4096) }),
  z.object({ type: z.literal('openFile') }),
]);
export type CompareViewToHost = z.infer<typeof CompareViewToHost>;

/** Trace paths a comparison panel may ask the host to open (and nothing else). */
export function sweepTracePaths(f: SweepFile): Set<string> {
  const paths = new Set<string>();
  for (const p of f.comparison.pairs) for (const o of [p.on, p.off]) if (o?.tracePath) paths.add(o.tracePath);
  return paths;
}
