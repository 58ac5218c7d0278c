// LLaMAR's metrics as the paper reports them, from the trace: one episode's success, transport rate and coverage
// (with the subtask counts they come from and a Clopper-Pearson interval on that proportion), balance with each
// robot's share, steps against the cap; and the aggregate over many episodes (success rate with a Clopper-Pearson
// interval, the others as means with a normal-approximation 95 % interval).
import type { CheckerState } from '../../../protocol/household.js';
import type { EventOf } from '../../../protocol/trace.js';
import { clopperPearson, meanInterval } from '../../../core/metrics/clopperPearson.js';

export interface Proportion {
  k: number;
  n: number;
  rate: number;
  low: number;
  high: number;
}

export interface HouseholdMetricsView {
  success: boolean;
  transport?: Proportion;
  coverage?: Proportion;
  balance?: { value: number; perAgent: Record<string, number> };
  steps?: { taken: number; cap?: number };
  reason: string;
  counts: [string, number][];
}

const prop = (k: number, n: number): Proportion => ({ k, n, rate: n === 0 ? 0 : k / n, ...clopperPearson(k, n) });

const COUNTS = ['failedActions', 'repeatedFailures', 'formatErrors', 'corrections', 'correctionsFollowed', 'prematureDone', 'verifierFalseDone'];

/** One episode's metrics, or undefined when the run is not a household run or has not ended. */
export function householdMetricsOf(end: EventOf<'episode_end'> | undefined, checker: CheckerState | undefined, cap?: number): HouseholdMetricsView | undefined {
  if (!end?.archMetrics || end.archMetrics.transportRate === undefined) return undefined;
  const m = end.archMetrics;
  const perAgent = Object.fromEntries(Object.entries(m).filter(([k]) => k.startsWith('credit.')).map(([k, v]) => [k.slice('credit.'.length), v]));
  const total = checker?.subtasks.length ?? m.totalSubtasks ?? 0;
  const done = checker ? checker.subtasks.filter((s) => s.done).length : (m.completedSubtasks ?? 0);
  return {
    success: end.success,
    transport: total > 0 ? prop(done, total) : undefined,
    coverage: checker && checker.coverageTotal.length > 0 ? prop(checker.coverageDone.length, checker.coverageTotal.length) : undefined,
    balance: m.balance !== undefined ? { value: m.balance, perAgent } : undefined,
    steps: m.steps !== undefined ? { taken: m.steps, cap } : undefined,
    reason: end.reason,
    counts: COUNTS.filter((k) => m[k] !== undefined).map((k) => [k, m[k]!]),
  };
}

export interface HouseholdAggregate {
  episodes: number;
  success: Proportion;
  transportRate?: ReturnType<typeof meanInterval>;
  coverage?: ReturnType<typeof meanInterval>;
  balance?: ReturnType<typeof meanInterval>;
  steps?: ReturnType<typeof meanInterval>;
}

/** The paper's table row over many episodes (their episode_end events). */
export function aggregateHouseholdRuns(ends: readonly EventOf<'episode_end'>[]): HouseholdAggregate {
  const col = (k: string) => ends.map((e) => e.archMetrics?.[k]).filter((v): v is number => typeof v === 'number');
  return {
    episodes: ends.length,
    success: prop(ends.filter((e) => e.success).length, ends.length),
    transportRate: meanInterval(col('transportRate'), [0, 1]),
    coverage: meanInterval(col('coverage'), [0, 1]),
    balance: meanInterval(col('balance'), [0, 1]),
    steps: meanInterval(col('steps'), [0, Infinity]),
  };
}
