// A finished episode as a test result (pure): passed when the simulator's success check passed; otherwise the
// failure label where the failure began (the sweep taxonomy, core/sweep/failureLabels.ts), the check's detail, the
// turn, and the role whose turn it was with the prompt file that role used (the message's location). An episode
// that could not run properly (model, prompt, simulator or engine error) is `errored`; a cancelled one `skipped`.
import { readFrontMatter } from '../../core/prompt/analyze/frontMatter.js';
import { FAILURE_LABELS, labelFailure } from '../../core/sweep/failureLabels.js';
import type { TraceEvent } from '../../protocol/trace.js';

/** The command a failure's link and its message menu run (package.json contributes it). */
export const OPEN_RUN_COMMAND = 'waypoint.openRunAtTurn';
/** TestMessage.contextValue of a failure with a run: `testing/message/context` shows "Open Run at the Failing Turn". */
export const FAILURE_CONTEXT = 'waypoint.episodeFailure';

export type TestStatus = 'passed' | 'failed' | 'errored' | 'skipped';

/** End reasons that mean the episode could not be judged (infrastructure or input), not that the agent failed. */
const ERRORED_REASONS = new Set(['model_error', 'prompt_error', 'simulator_error', 'invalid_input', 'engine_error']);

export interface TestOutcome {
  status: TestStatus;
  /** The episode's end reason (task_completed, turn_cap, ...), or why it did not run. */
  reason: string;
  durationMs?: number;
  runId?: string;
  tracePath?: string;
  turns?: number;
  /** The failure label where the failure began (first by evidence), with its one-line evidence. */
  label?: string;
  evidence?: string;
  /** The success check's verdict (`task_success` and its message), or the first failed check. */
  check?: { name: string; message: string };
  /** Turn where the failure began, the role whose turn it was, and the prompt file that role used. */
  turn?: number;
  role?: string;
  promptPath?: string;
  /** Every label of the episode, in order of evidence. */
  labels?: { label: string; turn?: number; evidence: string }[];
  /** The episode's end message or why it did not run. */
  message?: string;
  /** A problem found before the run (a prompt error): its file and 1-based line. */
  problemAt?: { path: string; line: number };
}

/** The role and its prompt at the failure: the event's own role, else the latest role call at or before it. */
function roleAt(events: readonly TraceEvent[], seq: number, turn: number | undefined): { role?: string; promptPath?: string } {
  const roleOf = (e: TraceEvent | undefined) => (e && 'role' in e && typeof e.role === 'string' ? e.role : undefined);
  // The event's own role; for an event without one (the episode's end), the role of the turn's events (code run).
  const own = roleOf(events.find((e) => e.seq === seq)) ?? (turn !== undefined ? roleOf(events.find((e) => 'turn' in e && e.turn === turn && roleOf(e) !== undefined)) : undefined);
  const calls = events.filter((e) => e.type === 'role_call' && e.seq <= seq);
  const call = [...calls].reverse().find((c) => own === undefined || (c.type === 'role_call' && c.role === own));
  if (!call || call.type !== 'role_call') return own ? { role: own } : {};
  return { role: call.role, promptPath: call.promptPath };
}

export function outcomeFromTrace(events: readonly TraceEvent[], run: { runId?: string; tracePath?: string; reason?: string; message?: string; wallMs?: number } = {}): TestOutcome {
  const start = events.find((e) => e.type === 'episode_start');
  const end = [...events].reverse().find((e) => e.type === 'episode_end');
  const runId = run.runId ?? (start?.type === 'episode_start' ? start.runId : undefined);
  const ids = { ...(runId ? { runId } : {}), ...(run.tracePath ? { tracePath: run.tracePath } : {}) };
  if (!end || end.type !== 'episode_end') {
    const reason = run.reason ?? 'engine_error';
    return { status: reason === 'cancelled' ? 'skipped' : 'errored', reason, ...ids, ...(run.wallMs !== undefined ? { durationMs: run.wallMs } : {}), message: run.message ?? 'the episode ended without an episode_end event' };
  }
  const base = { reason: end.reason, durationMs: end.metrics.durationMs, turns: end.metrics.turns, ...ids, ...(end.message ? { message: end.message } : {}) };
  const finalCheck = [...events].reverse().find((e) => e.type === 'check' && e.name === 'task_success');
  const failedCheck = events.find((e) => e.type === 'check' && !e.ok);
  const check = (finalCheck ?? failedCheck) as Extract<TraceEvent, { type: 'check' }> | undefined;
  const checkPart = check ? { check: { name: check.name, message: check.message } } : {};
  if (end.success) return { status: 'passed', ...base, ...checkPart };
  if (end.reason === 'cancelled') return { status: 'skipped', ...base };
  const labels = labelFailure(events);
  const first = labels.find((l) => l.turn !== undefined) ?? labels[0];
  const where = first?.seq !== undefined ? roleAt(events, first.seq, first.turn) : {};
  return {
    status: ERRORED_REASONS.has(end.reason) ? 'errored' : 'failed',
    ...base,
    ...checkPart,
    ...(first ? { label: first.label, evidence: first.evidence } : {}),
    ...(first?.turn !== undefined ? { turn: first.turn } : {}),
    ...where,
    labels: labels.map((l) => ({ label: l.label, ...(l.turn !== undefined ? { turn: l.turn } : {}), evidence: l.evidence })),
  };
}

/** 1-based line of a prompt's first template line (after the front matter), where a failure's location points. */
export function promptBodyLine(text: string): number {
  const fm = readFrontMatter(text);
  const lines = text.split('\n');
  let i = fm.present && fm.closeLine >= 0 ? fm.closeLine + 1 : 0;
  while (i < lines.length - 1 && lines[i]!.trim() === '') i++;
  return Math.min(i, Math.max(0, lines.length - 1)) + 1;
}

export function labelDescription(label: string): string | undefined {
  return (FAILURE_LABELS as Record<string, string>)[label];
}

/** One line for the output and (without the duration, which VS Code shows) the tree item's description. */
export function outcomeSummary(o: Pick<TestOutcome, 'status' | 'label' | 'turn' | 'reason' | 'durationMs'>, withDuration = true): string {
  const secs = withDuration && o.durationMs !== undefined ? ` · ${(o.durationMs / 1000).toFixed(1)} s` : '';
  switch (o.status) {
    case 'passed':
      return `✔ passed${secs}`;
    case 'failed':
      return `✖ ${o.label ?? o.reason}${o.turn !== undefined ? ` at turn ${o.turn}` : ''}${secs}`;
    case 'errored':
      return `⚠ ${o.reason}${secs}`;
    case 'skipped':
      return `○ ${o.reason}`;
  }
}

/**
 * The failure message as Markdown: the label and what it means, its evidence, the check's detail, the other
 * labels, and a link that opens the run viewer at the turn (`openUri`, a command URI the host builds).
 */
export function failureMarkdown(o: TestOutcome, openUri?: string): string {
  // Not `_`: intraword underscores are no emphasis, and the Test Results tree shows the message's text unrendered.
  const esc = (s: string) => s.replace(/([\\`*[\]<>])/g, '\\$1');
  const lines: string[] = [];
  if (o.status === 'errored' || !o.label) lines.push(`**${esc(o.reason)}**${o.message ? `: ${esc(o.message)}` : ''}`);
  else {
    const meaning = labelDescription(o.label);
    lines.push(`**${esc(o.label)}**${meaning ? ` (${esc(meaning)})` : ''}`);
    if (o.evidence) lines.push(esc(o.evidence));
  }
  if (o.check) lines.push(`\`${o.check.name}\`: ${esc(o.check.message)}`);
  const others = (o.labels ?? []).filter((l) => l.label !== o.label);
  if (others.length) lines.push(`Also: ${others.map((l) => `${esc(l.label)}${l.turn !== undefined ? ` (turn ${l.turn})` : ''}`).join(', ')}`);
  const at = o.turn !== undefined ? `turn ${o.turn}${o.role ? ` · ${esc(o.role)}` : ''}` : undefined;
  const ended = `ended ${esc(o.reason)}${o.turns !== undefined ? ` after ${o.turns} turns` : ''}`;
  if (openUri && o.tracePath) lines.push(`${at ? `Failure began at ${at}; ` : ''}${ended}. [Open the run at turn ${o.turn ?? 0}](${openUri})`);
  else lines.push(`${at ? `Failure began at ${at}; ` : ''}${ended}.`);
  return lines.join('\n\n');
}
