// The comparison webview: a table per side (successes, rate with its 95 % interval, means) and the per-seed
// outcome matrix, whose cells open each run in the run viewer. Text goes in through textContent only.
import { CompareHostToView, type CompareViewToHost } from '../../src/protocol/sweep.js';
import { h, clear } from '../common/dom.js';
import { compareView } from './model.js';

const api = (window as unknown as { acquireVsCodeApi?: () => { postMessage(m: unknown): void } }).acquireVsCodeApi?.();
const post = (m: CompareViewToHost) => api?.postMessage(m);
const app = document.getElementById('app')!;

function render(msg: Extract<CompareHostToView, { type: 'init' }>): void {
  const v = compareView(msg.sweep);
  const cell = (c: ReturnType<typeof compareView>['matrix'][number]['on']) =>
    h('td', { class: `cell ${c.state}`, title: c.title }, c.tracePath ? h('a', { href: '#', role: 'button', onclick: (e: Event) => (e.preventDefault(), post({ type: 'openRun', tracePath: c.tracePath! })) }, c.label) : c.label);
  clear(app);
  app.append(
    h('h1', null, v.title),
    h('p', { class: 'sub' }, v.subtitle),
    h('table', { class: 'sides' }, h('thead', null, h('tr', null, ...['side', 'successes', 'rate [95% CI]', 'mean turns', 'mean model calls'].map((t) => h('th', null, t)))), h('tbody', null, ...v.sides.map((r) => h('tr', null, h('th', null, r.side), h('td', null, r.successes), h('td', null, r.rate), h('td', null, r.meanTurns), h('td', null, r.meanCalls))))),
    h('h2', null, 'Per seed'),
    h(
      'table',
      { class: 'matrix' },
      h('thead', null, h('tr', null, h('th', null, 'seed'), ...v.matrix.map((m) => h('th', { class: m.differs ? 'differs' : undefined }, m.seed)))),
      h('tbody', null, ...(['on', 'off'] as const).map((side) => h('tr', null, h('th', null, side), ...v.matrix.map((m) => cell(m[side]))))),
    ),
    h('p', null, v.summary, ' ', h('a', { href: '#', onclick: (e: Event) => (e.preventDefault(), post({ type: 'openFile' })) }, 'Open sweep.json')),
  );
}

window.addEventListener('message', (e: MessageEvent) => {
  const parsed = CompareHostToView.safeParse(e.data);
  if (!parsed.success) {
    console.warn(`compare view: ignored an invalid message: ${parsed.error.issues[0]?.message ?? 'schema mismatch'}`);
    return;
  }
  render(parsed.data);
});
post({ type: 'ready' });
