// Summary tab section for household runs: the paper's metrics of this episode (success, transport rate and
// coverage with the counts and a Clopper-Pearson 95 % interval, balance with each robot's share, steps against
// the cap, why it ended) and the counts that explain them.
import { householdMetricsOf } from './householdMetrics.js';
import type { HouseholdStepsBuilder } from './householdSteps.js';
import { h } from '../../../../webview/common/dom.js';

const pct = (x: number) => `${(100 * x).toFixed(0)}%`;

export function householdSummary(household: HouseholdStepsBuilder): HTMLElement | undefined {
  if (!household.active) return undefined;
  const view = household.result();
  const m = householdMetricsOf(view.end, view.checker, view.maxSteps);
  const sec = h('section', { class: 'household-summary' }, h('h3', null, 'LLaMAR metrics'));
  if (!m) {
    sec.append(h('p', { class: 'muted' }, 'No episode_end with LLaMAR metrics yet.'));
    return sec;
  }
  const row = (k: string, v: string, note = '') => h('tr', { 'data-metric': k }, h('th', null, k), h('td', { class: 'num' }, v), h('td', { class: 'muted' }, note));
  sec.append(
    h('table', { class: 'metrics household' },
      h('tbody', null,
        row('success', m.success ? '1' : '0', `the checker's verdict; ended: ${m.reason}`),
        m.transport ? row('transport rate', m.transport.rate.toFixed(2), `${m.transport.k}/${m.transport.n} checker subtasks · 95% CI [${pct(m.transport.low)}, ${pct(m.transport.high)}] (Clopper-Pearson)`) : null,
        m.coverage ? row('coverage', m.coverage.rate.toFixed(2), `${m.coverage.k}/${m.coverage.n} task objects acted on · 95% CI [${pct(m.coverage.low)}, ${pct(m.coverage.high)}]`) : null,
        m.balance ? row('balance', m.balance.value.toFixed(2), Object.entries(m.balance.perAgent).map(([a, n]) => `${a} ${n}`).join(' · ') + ' subtasks (min / (max + 1e-4))') : null,
        m.steps ? row('steps', String(m.steps.taken), m.steps.cap ? `of at most ${m.steps.cap}` : '') : null,
        m.counts.map(([k, v]) => row(k, String(v))))),
    h('p', { class: 'muted' }, 'Success rate over many episodes, with its Clopper-Pearson interval: `npm run bench:llamar`.'),
  );
  return sec;
}
