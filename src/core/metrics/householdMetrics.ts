// The paper's episode metrics from a household checker state (LLaMAR, Sec. 5): success, transport rate (completed
// subtasks / all), coverage (task objects successfully interacted with / all), balance (min s_i / (max s_i + eps),
// s_i = subtasks credited to agent i). Pure, so the simulator, the architecture and the trace projections agree.
import type { CheckerState } from '../../protocol/household.js';

export interface CheckerMetrics {
  success: boolean;
  completed: number;
  total: number;
  transportRate: number;
  coverage: number;
  /** Completed subtasks credited to each agent (s_i). */
  perAgent: Record<string, number>;
  /** min s_i / (max s_i + 1e-4), as the paper defines Balance. */
  balance: number;
}

export const BALANCE_EPSILON = 1e-4;

export function checkerMetrics(state: CheckerState, agents: readonly string[]): CheckerMetrics {
  const total = state.subtasks.length;
  const completed = state.subtasks.filter((s) => s.done).length;
  const perAgent = Object.fromEntries(agents.map((a) => [a, state.subtasks.filter((s) => s.done && s.by === a).length]));
  const counts = Object.values(perAgent);
  const balance = counts.length === 0 ? 0 : Math.min(...counts) / (Math.max(...counts) + BALANCE_EPSILON);
  return {
    success: total > 0 && completed === total,
    completed,
    total,
    transportRate: total === 0 ? 0 : completed / total,
    coverage: state.coverageTotal.length === 0 ? 0 : state.coverageDone.length / state.coverageTotal.length,
    perAgent,
    balance,
  };
}
