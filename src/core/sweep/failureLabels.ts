// Failure labels: every failed episode gets labels from one taxonomy that merges the seeds' (MALMM, LMTG, RoCo,
// LLaMAR, Action Contextualization), assigned by rules over trace events. Each label carries the turn (and event
// seq) where the evidence begins, so the inspector opens the run viewer there. A pure projection of the trace:
// recomputable at any time; hand edits live beside it (labels.json in the sweep folder) and never in the trace.
import type { TraceEvent } from '../../protocol/trace.js';

export const FAILURE_LABELS = {
  name_error: 'NameError / undefined variable (MALMM)',
  code_error: 'other code error (MALMM, LMTG function definition)',
  missing_arguments: 'missing or wrong arguments to a robot API (MALMM)',
  format_error: 'unparseable answer (RoCo parse, LMTG planning format)',
  premature_completion: 'claimed done while the task was not (MALMM, LLaMAR premature Done)',
  incomplete_subgoal: 'ran out of turns or steps with goals left (MALMM incomplete subgoal)',
  time_cap: "ran into the engine's wall-clock or simulated-time cap (maxWallSecs, maxSimSecs)",
  hallucinated_state: 'acted on an object or value the scene does not have (MALMM)',
  collision: 'collision during a motion (MALMM, RoCo)',
  drop: 'object dropped or grasp lost (MALMM)',
  gripper_pose: 'grasp / gripper pose failed (LMTG)',
  ik_failure: 'no inverse-kinematics solution or unreachable (RoCo IK, LMTG calibration)',
  invalid_path: 'path or action rejected by the planner (RoCo invalid path)',
  constraint_violation: 'action violates a task or environment constraint (RoCo)',
  detection: 'object not found or perceived (LMTG detection)',
  failed_action: 'an action failed (LLaMAR failed action reasons)',
  repeated_failed_action: 'the same failed action again (LLaMAR)',
  failed_check: 'a check failed (Action Contextualization)',
  model_error: 'the model endpoint failed',
  engine_error: 'engine, prompt or simulator error',
  unexplained: 'failed without a labelled cause',
} as const;
export type FailureLabelId = keyof typeof FAILURE_LABELS;

export interface FailureLabel {
  label: FailureLabelId | (string & {});
  /** Turn where the evidence begins (the viewer opens here). */
  turn?: number;
  seq?: number;
  /** One line of evidence from the trace. */
  evidence: string;
  /** 'auto' from these rules, 'manual' edited by hand, 'judge' proposed by a model (never mixed up). */
  source: 'auto' | 'manual' | 'judge';
}

/** Classifies one failure text (a code error, a failed API call or action) into the taxonomy. */
export function classifyError(text: string): FailureLabelId {
  const t = text.toLowerCase();
  if (/nameerror|is not defined/.test(t)) return 'name_error';
  if (/missing \d* ?required|positional argument|unexpected keyword|typeerror|wrong number of arg|expected \d+ arg/.test(t)) return 'missing_arguments';
  if (/collision|collide|contact with/.test(t)) return 'collision';
  if (/drop|slipped|lost (the )?grip|not (being )?held|nothing (is )?held/.test(t)) return 'drop';
  if (/inverse kinematics|\bik\b|unreachable|out of reach|out of the workspace|calibrat/.test(t)) return 'ik_failure';
  if (/invalid path|path (is )?blocked|no (valid )?path|waypoint/.test(t)) return 'invalid_path';
  if (/grasp|gripper|orientation|yaw/.test(t)) return 'gripper_pose';
  if (/no (such )?object|unknown object|not found|cannot see|not visible|does not exist/.test(t)) return 'hallucinated_state';
  if (/constraint|not allowed|cannot (place|put|pick)|occupied/.test(t)) return 'constraint_violation';
  if (/detect/.test(t)) return 'detection';
  if (/syntaxerror|error|exception|traceback/.test(t)) return 'code_error';
  return 'failed_action';
}

/**
 * Where the agent claimed the task done: the role turn whose code called task_completed() (MALMM's Coder or single
 * agent, not the Executor turn that ran the block; TrajGen's main turn), else the last role turn (LLaMAR's
 * Verifier closing the last subtask, a detector's verdict). Undefined when no role answered.
 */
function claimOf(events: readonly TraceEvent[]): { turn: number; seq: number } | undefined {
  const wrote = new Map<string, { turn: number; seq: number }>();
  let claim: { turn: number; seq: number } | undefined;
  let lastRole: { turn: number; seq: number } | undefined;
  for (const e of events) {
    if (e.type === 'parsed_output' && e.ok && e.kind === 'code') wrote.set(e.role, { turn: e.turn, seq: e.seq });
    else if (e.type === 'model_response') lastRole = { turn: e.turn, seq: e.seq };
    else if (e.type === 'code_execution' && e.apiCalls.some((c) => c.fn === 'task_completed')) claim = wrote.get(e.role) ?? { turn: e.turn, seq: e.seq };
  }
  return claim ?? lastRole;
}

/** Labels of one episode from its events; [] for a success. Several labels when several things went wrong. */
export function labelFailure(events: readonly TraceEvent[]): FailureLabel[] {
  const end = events.find((e) => e.type === 'episode_end');
  if (!end || end.type !== 'episode_end' || end.success) return [];
  const out: FailureLabel[] = [];
  const seen = new Set<string>();
  const add = (label: FailureLabelId, e: { turn?: number; seq: number }, evidence: string) => {
    if (seen.has(label)) return;
    seen.add(label);
    out.push({ label, ...(e.turn !== undefined ? { turn: e.turn } : {}), seq: e.seq, evidence: evidence.split('\n')[0]!.slice(0, 200), source: 'auto' });
  };
  const failedActions = new Map<string, number>();
  for (const e of events) {
    switch (e.type) {
      case 'code_execution':
        if (!e.ok && e.error) add(classifyError(`${e.error.type}: ${e.error.message}`), e, `${e.error.type}: ${e.error.message}`);
        for (const c of e.apiCalls) if (!c.ok && c.error) add(classifyError(c.error), e, `${c.fn}: ${c.error}`);
        break;
      case 'parsed_output':
        if (!e.ok) add('format_error', e, e.error ?? `could not parse the ${e.role}'s ${e.kind}`);
        break;
      case 'action_result':
        for (const r of e.results) {
          if (r.ok) continue;
          const text = r.error ?? r.output ?? `${r.name} failed`;
          const sig = `${r.agent}:${r.name}:${text}`;
          const n = (failedActions.get(sig) ?? 0) + 1;
          failedActions.set(sig, n);
          if (n === 2) add('repeated_failed_action', e, `${r.agent} ${r.name} failed again: ${text}`);
          const cls = classifyError(text);
          add(cls === 'code_error' ? 'failed_action' : cls, e, `${r.agent} ${r.name}: ${text}`);
        }
        if (e.collisions && e.collisions.length > 0) add('collision', e, `collision ${e.collisions[0]!.a} / ${e.collisions[0]!.b}`);
        break;
      case 'check':
        if (!e.ok && e.name !== 'task_success') add('failed_check', e, `${e.name}: ${e.message}`);
        break;
      case 'error':
        add(e.kind === 'model_error' ? 'model_error' : 'engine_error', e, `${e.kind}: ${e.message}`);
        break;
      default:
        break;
    }
  }
  // How the episode ended says what kind of failure it was, whatever went wrong on the way.
  const lastTurn = [...events].reverse().find((e) => 'turn' in e && typeof e.turn === 'number') as { turn?: number } | undefined;
  const at = { turn: lastTurn?.turn, seq: end.seq };
  if (end.agentClaimedDone) add('premature_completion', claimOf(events) ?? at, `the agent claimed the task done (${end.reason}) but the success check failed`);
  else if (end.reason === 'wall_clock_cap' || end.reason === 'sim_time_cap') add('time_cap', at, `${end.reason}${end.message ? `: ${end.message}` : ''}`);
  else if (/cap|max_|limit|single_pass/.test(end.reason)) add('incomplete_subgoal', at, `${end.reason}${end.message ? `: ${end.message}` : ''}`);
  else if (end.reason === 'model_error') add('model_error', at, end.message ?? 'model error');
  else if (/error/.test(end.reason)) add('engine_error', at, `${end.reason}${end.message ? `: ${end.message}` : ''}`);
  if (out.length === 0) add('unexplained', at, `${end.reason}${end.message ? `: ${end.message}` : ''}`);
  return out;
}
