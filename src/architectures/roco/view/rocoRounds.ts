// RoCo's rounds as lanes (a view model for the run viewer's Rounds tab): per round, each plan attempt's dialog
// turns by robot (what each said, PROCEED / EXECUTE, typed by a person or not), the plan the dialog ended with,
// the five checks' verdicts with the failed check's feedback text, and what the executed plan did. Works for
// any architecture whose rounds hold a dialog or checked plans (`isRoundsEvent`); other round counters (Action
// Contextualization's plan executions, which its Plan tab shows) are not dialog rounds.
import type { TraceEvent } from '../../../protocol/trace.js';

export interface LaneTurn {
  turn: number;
  agent: string;
  text: string;
  decision?: 'PROCEED' | 'EXECUTE' | 'NONE';
  human?: boolean;
}

export interface AttemptCheck {
  name: string;
  ok: boolean;
  skipped?: boolean;
  message?: string;
}

export interface RoundAttempt {
  attempt: number;
  turns: LaneTurn[];
  /** The plan lines the dialog ended with (parsed), if it parsed. */
  plan?: string[];
  checks: AttemptCheck[];
  /**
   * 'executed' (passed and moved), 'rejected' (a check failed), 'unparsed' (no valid EXECUTE block), 'ended' (the
   * episode ended before its plan ran), or still open (the run is going on).
   */
  outcome: 'executed' | 'rejected' | 'unparsed' | 'ended' | 'open';
  /** The simulator's report of the executed plan, or the first failure's text. */
  result?: string;
}

export interface RoundLanes {
  round: number;
  attempts: RoundAttempt[];
  /** The success check after the round's execution. */
  success?: { ok: boolean; message: string };
}

export interface RoundsView {
  agents: string[];
  humans: string[];
  rounds: RoundLanes[];
}

/** A point as (x, y, z); a list of points (a PATH) as PATH [(..), ..]. */
function argText(x: unknown): string {
  if (!Array.isArray(x)) return String(x);
  if (x.every((v) => typeof v === 'number')) return `(${x.join(', ')})`;
  return `PATH [${x.map(argText).join(', ')}]`;
}

function planLine(a: { agent?: unknown; name?: unknown; args?: unknown }): string {
  const args = Array.isArray(a.args) ? a.args.map(argText).join(' ') : '';
  return `NAME ${String(a.agent)} ACTION ${String(a.name)}${args ? ` ${args}` : ''}`;
}

/** An event of a dialog round: a robot's dialog turn, a plan, or one of the plan's checks, with a round counter. */
export function isRoundsEvent(e: { type: string; round?: unknown; kind?: unknown; name?: unknown }): boolean {
  if (typeof e.round !== 'number') return false;
  if (e.type === 'parsed_output') return e.kind === 'dialog' || e.kind === 'plan';
  return e.type === 'check' && typeof e.name === 'string' && e.name.startsWith('plan: ');
}

export function rocoRounds(events: readonly TraceEvent[]): RoundsView {
  const view: RoundsView = { agents: [], humans: [], rounds: [] };
  let round: RoundLanes | undefined;
  let attempt: RoundAttempt | undefined;
  const open = (): RoundAttempt => {
    if (!attempt || attempt.outcome !== 'open') {
      attempt = { attempt: (round?.attempts.length ?? 0) + 1, turns: [], checks: [], outcome: 'open' };
      round!.attempts.push(attempt);
    }
    return attempt;
  };
  const humanCalls = new Set<string>();
  for (const e of events) {
    if (e.type === 'episode_start') {
      view.agents = [...(e.agents ?? [])];
      const humans = (e as { humans?: unknown }).humans;
      view.humans = Array.isArray(humans) ? humans.map(String) : [];
      continue;
    }
    if (e.type === 'episode_end') {
      // Nothing is in progress once the episode has ended: an attempt still open never ran its plan.
      for (const a of view.rounds.flatMap((x) => x.attempts)) {
        if (a.outcome !== 'open') continue;
        a.outcome = 'ended';
        a.result = `the episode ended (${e.reason}) before this attempt's plan ran`;
      }
      continue;
    }
    const r = (e as { round?: number }).round;
    if (typeof r !== 'number') continue;
    if (!round || round.round !== r) {
      round = { round: r, attempts: [] };
      attempt = undefined;
      view.rounds.push(round);
    }
    switch (e.type) {
      case 'role_call':
        if (e.human) humanCalls.add(e.callId);
        break;
      case 'chat_message': {
        const a = open();
        a.turns.push({ turn: e.turn, agent: e.speaker, text: e.content });
        break;
      }
      case 'parsed_output': {
        const value = (e as { value?: Record<string, unknown> }).value;
        if (e.kind === 'dialog' && value) {
          const t = [...(attempt?.turns ?? [])].reverse().find((x) => x.turn === e.turn);
          if (t) {
            t.decision = (value['decision'] as LaneTurn['decision']) ?? 'NONE';
            if (value['human'] || humanCalls.has(e.callId)) t.human = true;
          }
        } else if (e.kind === 'plan' && e.ok && value && Array.isArray(value['actions'])) {
          open().plan = (value['actions'] as { agent?: unknown; name?: unknown; args?: unknown }[]).map(planLine);
        }
        break;
      }
      case 'check': {
        if (e.name === 'task_success') {
          round.success = { ok: e.ok, message: e.message };
          break;
        }
        if (!e.name.startsWith('plan: ')) break;
        const a = open();
        const skipped = (e as { skipped?: boolean }).skipped;
        a.checks.push({ name: e.name.slice('plan: '.length), ok: e.ok, ...(skipped ? { skipped } : {}), ...(e.ok ? {} : { message: e.message }) });
        if (e.name === 'plan: parse' && !e.ok && !a.plan) {
          a.outcome = 'unparsed';
          a.result = e.message;
        }
        break;
      }
      case 'action_result': {
        if (!attempt || attempt.outcome !== 'open') break;
        const ok = e.results.some((x) => x.ok);
        const failed = attempt.checks.find((c) => !c.ok && !c.skipped);
        attempt.outcome = ok && !failed ? 'executed' : 'rejected';
        attempt.result = ok && !failed ? (e.results.find((x) => x.ok)?.output ?? '') : (failed?.message ?? e.results.find((x) => x.error)?.error ?? '');
        break;
      }
    }
  }
  return view;
}
