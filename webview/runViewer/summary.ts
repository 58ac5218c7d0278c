// Summary tab: why the episode ended, the error that decided it (and those recovered from), metrics (computed vs
// reported), motion scores and cost per role.
import type { MotionScoreBuilder } from '../../src/core/trace/projections/motionScores.js';
import type { FirstError, RunSummary } from '../../src/core/trace/projections/runSummary.js';
import { h } from '../common/dom.js';
import { roleLabel } from './roles.js';

export function renderSummary(s: RunSummary, motion: Pick<MotionScoreBuilder, 'actions' | 'summary'>, selectTurn: (turn: number) => void, openPrompt: (path: string) => void): HTMLElement {
  const m = s.metrics;
  const rep = s.reported;
  const row = (k: string, v: string | number, reported?: string | number) =>
    h('tr', null, h('th', null, k), h('td', { class: 'num' }, String(v)), h('td', { class: 'num muted' }, reported === undefined ? '' : String(reported)));
  const r = s.result;
  return h(
    'div',
    { class: 'run-summary' },
    h('section', { class: 'failure-summary' },
      h('h3', null, 'Outcome'),
      h('p', null, r.status === 'running' ? 'No episode_end yet: the run is in progress or was interrupted.' : `${r.status === 'success' ? '✔ success' : r.notStarted ? '✖ not started' : '✖ failure'} · reason ${r.reason}${r.message ? ` · ${r.message}` : ''}`),
      r.status !== 'running' ? h('p', { class: r.claimMismatch ? 'error-line' : 'muted' }, `Agent claimed done: ${r.agentClaimedDone ? 'yes' : 'no'}${r.claimMismatch ? ' (the simulator check disagrees)' : ''}`) : null,
      // The check's own words say what was (not) achieved, e.g. which block is how far from where it should be.
      r.status !== 'running'
        ? h('p', { class: `sim-check ${r.check ? (r.check.ok ? 'check ok' : 'check failed') : 'muted'}` },
            r.check ? `${r.check.ok ? '✔' : '✖'} Simulator check ${r.check.ok ? 'passed' : 'failed'}: ${r.check.message}` : `Simulator check: not run${r.notStarted ? ' (the run did not start)' : ''}.`)
        : null,
      renderErrors(s, selectTurn),
    ),
    h('section', null,
      h('h3', null, 'Metrics'),
      h('table', { class: 'metrics' },
        h('thead', null, h('tr', null, h('th', null, ''), h('th', null, 'from events'), h('th', null, 'episode_end'))),
        h('tbody', null,
          row('turns', m.turns, rep?.turns),
          row('model calls', m.modelCalls, rep?.modelCalls),
          row('cached calls', m.cachedCalls, rep?.cachedCalls),
          row('prompt tokens', m.promptTokens, rep?.promptTokens),
          row('completion tokens', m.completionTokens, rep?.completionTokens),
          row('code blocks', m.codeBlocks, rep?.codeBlocks),
          row('code errors', m.codeErrors, rep?.codeErrors),
          row('max consecutive code errors', m.maxConsecutiveCodeErrors),
          row('format errors', m.formatErrors, rep?.formatErrors),
          row('model errors', m.modelErrors),
          row('failed checks', m.failedChecks),
          row('trajectory samples', m.trajectorySamples),
          // Simulated time in all (retries' timelines included), as the CLI prints it and the plots' axis spans it.
          row('sim time (s)', m.simTotalSecs.toFixed(2), rep ? (rep.simTotalSecs ?? rep.simTimeSecs).toFixed(2) : undefined),
          Math.abs(m.simTotalSecs - m.simTimeSecs) >= 0.005 ? row('sim time of the final state (s)', m.simTimeSecs.toFixed(2), rep?.simTimeSecs.toFixed(2)) : null,
          row('wall time (ms)', m.durationMs.toFixed(0), rep?.durationMs.toFixed(0)))),
    ),
    renderMotion(motion, selectTurn),
    h('section', null,
      h('h3', null, 'Cost per role'),
      h('table', { class: 'metrics per-role' },
        h('thead', null, h('tr', null, ['role', 'calls', 'cached', 'failed', 'prompt tok', 'completion tok', 'latency (ms)'].map((c) => h('th', null, c)))),
        h('tbody', null, s.perRole.map((p) => h('tr', null, h('th', null, roleLabel(p.role)), [p.calls, p.cachedCalls, p.failedCalls, p.promptTokens, p.completionTokens, p.latencyMs.toFixed(0)].map((v) => h('td', { class: 'num' }, String(v)))))))),
    s.header
      ? h('section', null,
          h('h3', null, 'Prompts and ablations'),
          h('ul', { class: 'prompts' }, s.header.prompts.map((p) => h('li', null, `${roleLabel(p.role)}: `, h('a', { href: '#', class: 'prompt-link', onclick: (e: Event) => { e.preventDefault(); openPrompt(p.path); } }, p.path)))),
          h('ul', { class: 'ablations' }, Object.entries(s.header.ablations).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => h('li', { class: v ? 'on' : 'off' }, `${v ? '☑' : '☐'} ${k}`))))
      : null,
  );
}

/**
 * The error that decided a failed run (the last one not recovered from), or why there is none; then the errors the
 * agents recovered from (a retry that ran, a re-plan that passed), which did not decide the outcome.
 */
function renderErrors(s: RunSummary, selectTurn: (turn: number) => void): HTMLElement[] {
  const r = s.result;
  const line = (cls: string, label: string, e: FirstError) =>
    h('p', { class: cls }, `${label} (${e.kind.replace('_', ' ')}): ${e.message} `,
      e.turn !== undefined ? h('a', { href: '#', onclick: (ev: Event) => { ev.preventDefault(); selectTurn(e.turn!); } }, `→ turn ${e.turn}`) : null);
  const errors = (n: number) => `${n} error${n === 1 ? '' : 's'}`;
  if (r.status === 'running') return [s.firstError ? line('first-error', 'First error so far', s.firstError) : h('p', { class: 'muted' }, 'No errors so far.')];
  const out: HTMLElement[] = [];
  if (s.decidingError) out.push(line('deciding-error', 'Deciding error', s.decidingError));
  else if (r.status === 'failure') out.push(h('p', { class: 'deciding-error muted' }, `No unrecovered error: the episode ended by ${r.reason}.`));
  else if (!s.firstError) out.push(h('p', { class: 'muted' }, 'No errors.'));
  const { recovered, unrecovered } = s;
  if (recovered.first) out.push(line('recovered-errors muted', `Recovered from ${errors(recovered.count)} (a retry, repair or re-plan followed); the first`, recovered.first));
  // A success can carry errors nothing recovered from (a collision it went on after): they did not decide it.
  if (r.status === 'success' && unrecovered.first) out.push(line('unrecovered-errors muted', `${errors(unrecovered.count)} not recovered from, which did not stop it; the first`, unrecovered.first));
  return out;
}

/** Plan quality Q (mean M_T), min M_I and min clearance, with links to the turns of the worst actions. */
function renderMotion(motion: Pick<MotionScoreBuilder, 'actions' | 'summary'>, selectTurn: (turn: number) => void): HTMLElement {
  const ms = motion.summary();
  const sec = h('section', { class: 'motion-summary' }, h('h3', null, 'Motion scores'));
  if (ms.actions === 0) {
    sec.appendChild(h('p', { class: 'muted' }, 'No action metrics in this trace.'));
    return sec;
  }
  const link = (index: number | null) => {
    const a = index === null ? undefined : motion.actions[index];
    return a ? h('a', { href: '#', class: 'turn-link', onclick: (e: Event) => { e.preventDefault(); selectTurn(a.turn); } }, `#${a.index} ${a.fn}, turn ${a.turn}`) : '';
  };
  const row = (k: string, v: string, where: HTMLElement | string = '') => h('tr', { 'data-metric': k }, h('th', null, k), h('td', { class: 'num' }, v), h('td', null, where));
  const pair = ms.minClearancePair ? ` (${ms.minClearancePair.join(' ↔ ')})` : '';
  sec.appendChild(
    h('table', { class: 'metrics motion' },
      h('tbody', null,
        row('Q (mean M_T, episode)', ms.q === null ? '–' : ms.q.toFixed(3), `${ms.actions} actions, ${ms.moved} moved`),
        ms.plans.length > 1 ? ms.plans.map((p) => row(`Q (${p.label})`, p.q === null ? '–' : p.q.toFixed(3), `${p.actions} actions`)) : null,
        row('min M_I', ms.minMI === null ? '–' : ms.minMI.toFixed(3), link(ms.minMIAction)),
        row('min clearance (mm)', ms.minClearanceM === null ? '–' : (ms.minClearanceM * 1000).toFixed(1), h('span', null, link(ms.minClearanceAction), pair)),
        row('collisions', String(ms.collisions)),
        row('max held tilt (°)', ms.maxHeldTiltRad === null ? '–' : (ms.maxHeldTiltRad * 180 / Math.PI).toFixed(1)))),
  );
  return sec;
}
