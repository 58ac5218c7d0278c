// Steps tab (LLaMAR runs): one row per high-level step with every robot's action (what the Actor wrote and the
// admissible action it became), whether it worked (the robots' feedback line and the simulator's reason), the
// Corrector's proposal, and the subtask lists as they evolve: added by the Planner, closed by the Verifier, and the
// checker's ground truth beside them (a Verifier closing more than the checker saw is marked).
import type { HouseholdRunView, HouseholdStep } from './householdSteps.js';
import { clear, h } from '../../../../webview/common/dom.js';

export interface StepsData {
  rows: { step: number; actions: string[]; ok: (boolean | undefined)[]; open: number; completed: number; checker?: string }[];
}

export class StepsTab {
  readonly root = h('div', { class: 'hs-pane' });
  private drawn: StepsData | undefined;

  constructor(private readonly onSelectTurn: (turn: number) => void) {}

  data(): StepsData | undefined {
    return this.drawn;
  }

  update(view: HouseholdRunView): void {
    clear(this.root);
    if (view.steps.length === 0) {
      this.root.append(h('p', { class: 'muted' }, 'No steps yet.'));
      this.drawn = { rows: [] };
      return;
    }
    const agents = view.agents;
    const head = h('tr', null, h('th', null, 'step'), agents.map((a, i) => h('th', { class: `fp-agent-${i}` }, a)), h('th', null, 'subtasks (Planner + / Verifier ✓)'), h('th', null, 'checker'));
    const rows = view.steps.map((st) => this.row(st, agents));
    this.root.append(
      h('p', { class: 'muted' }, `${view.steps.length} steps${view.maxSteps ? ` of at most ${view.maxSteps}` : ''}. Each robot's cell: the action it ran (what the Actor wrote, when different), ✓/✗ with the line the robots read next, the simulator's reason in grey, and the Corrector's proposal.`),
      h('table', { class: 'hs-table' }, h('thead', null, head), h('tbody', null, rows)),
    );
    this.drawn = {
      rows: view.steps.map((st) => ({
        step: st.step,
        actions: agents.map((a) => st.agents.find((x) => x.name === a)?.action ?? ''),
        ok: agents.map((a) => st.agents.find((x) => x.name === a)?.ok),
        open: st.open.length,
        completed: st.completed.length,
        checker: st.checker ? `${st.checker.done}/${st.checker.total}` : undefined,
      })),
    };
  }

  private row(st: HouseholdStep, agents: readonly string[]): HTMLElement {
    const cells = agents.map((name) => {
      const a = st.agents.find((x) => x.name === name);
      if (!a) return h('td', { class: 'muted' }, '–');
      return h('td', { class: a.ok === false ? 'hs-failed' : '' },
        h('div', { class: 'hs-action' }, `${a.ok === undefined ? '' : a.ok ? '✓ ' : '✗ '}${a.action ?? '–'}`),
        a.said && a.said !== a.action ? h('div', { class: 'muted hs-said' }, `wrote "${a.said}"${a.matchScore !== undefined && a.matchScore < 1 ? ` (similarity ${a.matchScore.toFixed(2)})` : ''}`) : null,
        a.ok === false && a.feedback ? h('div', { class: 'hs-feedback' }, a.feedback) : null,
        a.ok === false && a.detail ? h('div', { class: 'muted' }, a.detail) : null,
        a.correction ? h('div', { class: 'fp-correction' }, `→ ${a.correction}`) : null);
    });
    const verifierAhead = st.checker && st.completed.length > 0 && st.closed.length > 0 && st.checker.newlyDone.length === 0;
    const subtasks = h('td', { class: 'hs-subtasks' },
      st.added.map((x) => h('div', { class: 'hs-added' }, `+ ${x}`)),
      st.closed.map((x) => h('div', { class: 'hs-closed' }, `✓ ${x}`)),
      h('div', { class: 'muted' }, `${st.open.length} open · ${st.completed.length} completed${st.formatErrors ? ` · ${st.formatErrors} unusable answer${st.formatErrors > 1 ? 's' : ''}` : ''}`),
      st.failureReason ? h('div', { class: 'muted hs-reason' }, `Corrector: ${st.failureReason}`) : null);
    const checker = h('td', { class: verifierAhead ? 'hs-mismatch' : '' },
      st.checker ? `${st.checker.done}/${st.checker.total}${st.checker.success ? ' ✔' : ''}` : '',
      st.checker?.newlyDone.length ? h('div', { class: 'muted' }, st.checker.newlyDone.join(', ')) : null,
      verifierAhead ? h('div', { class: 'hs-flag' }, 'Verifier closed subtasks; the checker saw no progress') : null);
    const stepCell = h('td', null, st.turn !== undefined ? h('a', { href: '#', onclick: (e: Event) => { e.preventDefault(); this.onSelectTurn(st.turn!); } }, String(st.step)) : String(st.step));
    return h('tr', { 'data-step': String(st.step) }, stepCell, cells, subtasks, checker);
  }
}
