// Rounds tab (RoCo and other round-based runs): each round's dialog as lanes, one column per robot, every plan
// attempt with its turns (PROCEED / EXECUTE, typed by a person), the plan, the five checks' verdicts with the
// failed check's feedback, and what the executed plan did. A projection of the trace (rocoRounds).
import { isRoundsEvent, rocoRounds, type RoundAttempt, type RoundsView } from './rocoRounds.js';
import type { TraceEvent } from '../../../protocol/trace.js';
import type { ViewEvent } from '../../../protocol/webview.js';
import { h } from '../../../../webview/common/dom.js';

export class RoundsTab {
  readonly root = h('div', { class: 'rounds-pane' });
  private events: TraceEvent[] = [];
  /** Whether the run has dialog rounds (RoCo's, not Action Contextualization's plan executions); else the tab is hidden. */
  hasRounds = false;
  private visible = false;
  private stale = true;
  private frame = 0;

  constructor(private readonly selectTurn: (turn: number) => void) {}

  reset(events: readonly ViewEvent[]): void {
    this.events = [];
    this.hasRounds = false;
    this.append(events);
  }

  append(events: readonly ViewEvent[]): void {
    // Trajectories (packed for the view) carry no dialog: only trace events are kept.
    for (const e of events) {
      if (e.type === 'trajectory_packed') continue;
      this.events.push(e);
      if (isRoundsEvent(e)) this.hasRounds = true;
    }
    this.invalidate();
  }

  show(): void {
    this.visible = true;
    this.invalidate();
  }

  hide(): void {
    this.visible = false;
  }

  private invalidate(): void {
    this.stale = true;
    if (this.visible && !this.frame) this.frame = requestAnimationFrame(() => this.render());
  }

  /** Renders now if shown and changed (also the test hook's flush). */
  render(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    if (!this.stale) return;
    this.stale = false;
    this.root.replaceChildren(renderRounds(rocoRounds(this.events), this.selectTurn));
  }
}

const OUTCOME: Record<RoundAttempt['outcome'], string> = { executed: '✔ executed', rejected: '✖ rejected by a check', unparsed: '✖ no valid plan', ended: '■ ended before its plan ran', open: '… in progress' };

export function renderRounds(v: RoundsView, selectTurn: (turn: number) => void): HTMLElement {
  if (v.rounds.length === 0) return h('p', { class: 'muted' }, 'This run has no rounds (its architecture does not count rounds).');
  const agents = v.agents.length > 0 ? v.agents : [...new Set(v.rounds.flatMap((r) => r.attempts.flatMap((a) => a.turns.map((t) => t.agent))))];
  const cols = `repeat(${agents.length}, minmax(0, 1fr))`;
  return h('div', { class: 'rounds' },
    ...v.rounds.map((r) =>
      h('section', { class: 'round' },
        h('h3', null, `Round ${r.round}`, r.success ? h('span', { class: `chip ${r.success.ok ? 'ok' : 'bad'}`, title: r.success.message }, r.success.ok ? 'reward > 0' : 'reward 0') : null),
        ...r.attempts.map((a) =>
          h('div', { class: `attempt ${a.outcome}` },
            h('div', { class: 'attempt-head' }, `Attempt ${a.attempt} · ${OUTCOME[a.outcome]}`),
            h('div', { class: 'lanes', style: `grid-template-columns: ${cols}` },
              ...agents.map((name) => h('div', { class: 'lane-head' }, name, v.humans.includes(name) ? h('span', { class: 'chip person' }, 'person') : null)),
              ...a.turns.map((t, i) =>
                h('div', { class: `lane-turn ${t.decision === 'EXECUTE' ? 'execute' : ''}`, style: `grid-column: ${Math.max(0, agents.indexOf(t.agent)) + 1}; grid-row: ${i + 2}`, 'data-turn': String(t.turn), title: `turn ${t.turn}: open in the Turn tab`, onclick: () => selectTurn(t.turn) },
                  h('div', { class: 'lane-meta' }, `turn ${t.turn}`, t.decision ? h('span', { class: `chip ${t.decision.toLowerCase()}` }, t.decision) : null, t.human ? h('span', { class: 'chip person' }, 'typed by a person') : null),
                  h('pre', null, t.text)),
              ),
            ),
            a.plan ? h('pre', { class: 'plan' }, a.plan.join('\n')) : null,
            a.checks.length > 0
              ? h('div', { class: 'checks' }, ...a.checks.map((c) => h('span', { class: `chip ${c.skipped ? 'skipped' : c.ok ? 'ok' : 'bad'}`, title: c.message ?? '' }, `${c.skipped ? '–' : c.ok ? '✓' : '✗'} ${c.name}`)))
              : null,
            a.result ? h('pre', { class: `result ${a.outcome === 'executed' ? '' : 'feedback'}` }, a.result) : null,
          ),
        ),
      ),
    ),
  );
}
