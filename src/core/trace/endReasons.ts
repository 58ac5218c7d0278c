// What ended an episode, in words, per end reason: the engine's own reasons here, each architecture's from the
// descriptions its manifest declares (`endReasons`). Summaries say this rather than "agent claimed completion",
// which is false where a check decides the end (RoCo's positive reward, Action Contextualization's validated plan).
import { isInfrastructureEnd, type ENGINE_END_REASONS } from '../../protocol/trace.js';

export const ENGINE_END_REASON_TEXT: Readonly<Record<(typeof ENGINE_END_REASONS)[number], string>> = {
  task_completed: 'the agent called task_completed()',
  task_failed: 'the agent called task_failed()',
  single_pass_done: 'the single plan-and-code pass ran to its end without task_completed()',
  max_consecutive_errors: 'too many failed blocks or unreadable answers in a row',
  turn_cap: 'the turn cap was reached',
  wall_clock_cap: "the episode's wall-clock cap (limit maxWallSecs) was reached",
  sim_time_cap: "the episode's cap on simulated time (limit maxSimSecs) was reached",
  model_error: 'the model endpoint failed',
  prompt_error: 'a prompt file could not be used',
  simulator_error: 'the simulator failed',
  sandbox_error: 'the code sandbox could not start',
  cancelled: 'cancelled before the end',
  invalid_input: 'the run could not start (bad input)',
  engine_error: "Waypoint's engine failed",
};

/** A manifest's sentence as a clause: no final full stop, a lower-case first word (names such as RoCo kept). */
function asClause(text: string): string {
  const t = text.trim().replace(/\.$/, '');
  return /^[A-Z][a-z]/.test(t) ? t[0]!.toLowerCase() + t.slice(1) : t;
}

/**
 * What ended the episode: the architecture's declared description of `reason` (its manifest's `endReasons`), else
 * the engine's; undefined for a reason neither knows (a newer trace, a workspace's own architecture).
 */
export function endReasonText(reason: string, archEndReasons: Readonly<Record<string, string>> = {}): string | undefined {
  if (Object.hasOwn(archEndReasons, reason)) return asClause(archEndReasons[reason]!);
  if (!Object.hasOwn(ENGINE_END_REASON_TEXT, reason)) return undefined;
  const text = ENGINE_END_REASON_TEXT[reason as keyof typeof ENGINE_END_REASON_TEXT];
  return isInfrastructureEnd(reason) ? `${text}: an infrastructure failure, not a task failure` : text;
}
