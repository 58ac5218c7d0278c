// The sweep comparison view: the matrix (rows tasks, columns variants) with success and its Wilson 95 % interval per
// cell, coloured by a significant difference against the chosen baseline column (exact McNemar on paired seeds);
// a cell opens its episodes; failures grouped by label and variant; two variants on one seed side by side, aligned
// by turn, with the prompt diff on top and the first diverging turn highlighted. Text goes in by textContent only.
import type { SideBySide } from '../../src/core/trace/projections/sideBySide.js';
import { SweepMatrixHostToView, type SweepMatrixViewToHost, type ViewMatrix, type ViewMatrixCell } from '../../src/protocol/sweepMatrixView.js';
import { clear, h } from '../common/dom.js';

type Init = Extract<SweepMatrixHostToView, { type: 'init' }>;
type Rec = Init['records'][number];

const api = (window as unknown as { acquireVsCodeApi?: () => { postMessage(m: unknown): void } }).acquireVsCodeApi?.();
const post = (m: SweepMatrixViewToHost) => api?.postMessage(m);
const app = document.getElementById('app')!;

const pct = (x: number) => `${Math.round(100 * x)}%`;
const fmtP = (p: number) => (p < 0.001 ? '<0.001' : p.toFixed(3));
const link = (text: string, onClick: () => void, attrs: Record<string, string> = {}) => h('a', { href: '#', role: 'button', ...attrs, onclick: (e: Event) => (e.preventDefault(), onClick()) }, text);

let init: Init | undefined;
let baseline = '';
let selected: { task: string; cell: string } | { label: string; cell: string } | undefined;
const pairView = h('section', { id: 'pair' });

function cellClass(c: ViewMatrixCell, base: string): string {
  if (c.n === 0) return 'cell empty';
  if (c.cell === base) return 'cell baseline';
  const v = c.vsBaseline;
  return v?.significant ? `cell sig ${v.direction}` : 'cell ns';
}

function matrixTable(m: ViewMatrix): HTMLElement {
  return h(
    'table',
    { class: 'matrix' },
    h('thead', null, h('tr', null, h('th', null, 'task'), ...m.cells.map((c) =>
          h(
            'th',
            { class: c === m.baseline ? 'baseline' : undefined },
            c === m.baseline ? `${c} (baseline)` : c,
            // Which prompts the column ran: a prompt edit makes a new version (and re-runs its episodes).
            m.promptVersions?.[c] ? h('div', { class: 'prompt-version', title: 'prompt version: a hash of the rendered prompts of every role' }, `prompts ${m.promptVersions[c]}`) : null,
          ),
        ),
      ),
    ),
    h(
      'tbody',
      null,
      ...m.rows.map((row) =>
        h(
          'tr',
          null,
          h('th', null, row[0]?.task ?? ''),
          ...row.map((c) => {
            const v = c.vsBaseline;
            const title = c.n === 0 ? 'no episodes' : `${c.successes}/${c.n} succeeded; mean turns ${c.turns.mean?.toFixed(1) ?? '–'}${v ? `; vs ${v.baseline}: exact McNemar p=${fmtP(v.mcnemarP)} on ${v.pairs} paired seeds (${v.onlyBaseline} only baseline, ${v.onlyThis} only this), Fisher p=${fmtP(v.fisherP)}` : ''}`;
            return h(
              'td',
              { class: cellClass(c, m.baseline), title, 'data-task': c.task, 'data-cell': c.cell },
              c.n === 0
                ? '–'
                : [
                    link(`${c.successes}/${c.n} ${pct(c.rate ?? 0)}`, () => select({ task: c.task, cell: c.cell }), { class: 'rate' }),
                    h('div', { class: 'ci' }, `[${pct(c.ci95.low)}, ${pct(c.ci95.high)}]`),
                    v ? h('div', { class: 'p' }, `p=${fmtP(v.mcnemarP)} · ${v.onlyBaseline}↔${v.onlyThis}${v.significant ? ` · ${v.direction}` : ''}`) : null,
                    c.paper ? h('div', { class: 'paper' }, `paper ${paperRate(c.paper)} · ${insideText(c.paper.inside)}`) : null,
                  ],
            );
          }),
        ),
      ),
    ),
  );
}

const paperRate = (x: NonNullable<ViewMatrixCell['paper']>) => `${pct(x.rate)}${x.n !== undefined ? ` (n=${x.n})` : ' (n not stated)'}${x.ci ? ` [${pct(x.ci[0])}, ${pct(x.ci[1])}]` : ''}`;
const insideText = (inside: boolean | null) => (inside === null ? 'no episodes yet' : inside ? 'inside' : 'outside');

/** "paper" beside "this run" for every cell the paper reports; a reference model's run is named a fixture. */
function paperTable(m: ViewMatrix): HTMLElement | null {
  const p = m.paper;
  if (!p) return null;
  const cells = [...m.rows.flat(), ...(p.pooled ?? [])].filter((c) => c.paper);
  // Counted as the paper counts when it is not per episode (IV-B's trials: the unit is named).
  const ours = (c: ViewMatrixCell) => {
    const o = c.paper?.ours ?? c;
    return o.n === 0 ? '–' : `${o.successes}/${o.n}${c.paper?.ours ? ` ${c.paper.ours.unit}` : ''} ${pct(o.rate ?? 0)} [${pct(o.ci95.low)}, ${pct(o.ci95.high)}]`;
  };
  return h(
    'section',
    { id: 'paper' },
    h('h2', null, `Paper beside this run · ${p.citation}`),
    p.note ? h('p', { class: 'sub' }, p.note) : null,
    p.fixture ? h('p', { class: 'fixture' }, "This run's rates come from the scripted reference model: a fixture for exercising the tool, not a reproduction of the paper.") : null,
    cells.length === 0
      ? h('p', { class: 'sub' }, 'The paper prints no number for these cells.')
      : h(
          'table',
          { class: 'paper' },
          h('thead', null, h('tr', null, ...['task', 'column', 'paper', p.fixture ? 'this run — fixture (scripted reference model)' : 'this run', "paper's rate in our 95% interval"].map((t) => h('th', null, t)))),
          h('tbody', null, ...cells.map((c) => h('tr', null, h('th', null, c.task === 'all_tasks' ? 'all tasks (pooled)' : c.task), h('th', null, c.cell), h('td', null, `${paperRate(c.paper!)}${c.paper!.source !== p.citation ? ` · ${c.paper!.source}` : ''}`), h('td', null, ours(c)), h('td', { class: `in-${insideText(c.paper!.inside).replace(/ /g, '-')}` }, insideText(c.paper!.inside))))),
        ),
  );
}

function failureTable(records: Rec[], cells: string[]): HTMLElement {
  const counts = new Map<string, Map<string, number>>();
  for (const r of records) {
    if (r.success) continue;
    for (const l of r.labels) {
      const byCell = counts.get(l.label) ?? counts.set(l.label, new Map()).get(l.label)!;
      byCell.set(r.cell, (byCell.get(r.cell) ?? 0) + 1);
    }
  }
  if (counts.size === 0) return h('p', { class: 'sub' }, 'No failed episode.');
  return h(
    'table',
    { class: 'labels' },
    h('thead', null, h('tr', null, h('th', null, 'failure label'), ...cells.map((c) => h('th', null, c)))),
    h(
      'tbody',
      null,
      ...[...counts.keys()].sort().map((label) =>
        h('tr', null, h('th', null, label), ...cells.map((cell) => { const n = counts.get(label)!.get(cell) ?? 0; return h('td', null, n ? link(String(n), () => select({ label, cell })) : '0'); })),
      ),
    ),
  );
}

function episodesOf(sel: NonNullable<typeof selected>): Rec[] {
  const rs = init!.records.filter((r) => r.cell === sel.cell && ('task' in sel ? r.task === sel.task : !r.success && r.labels.some((l) => l.label === sel.label)));
  return rs.sort((a, b) => a.task.localeCompare(b.task) || a.seed - b.seed || a.repeat - b.repeat);
}

function episodesTable(): HTMLElement {
  if (!selected) return h('p', { class: 'sub' }, 'Click a cell of the matrix (or a count of the failure table) for its episodes.');
  const rs = episodesOf(selected);
  const heading = 'task' in selected ? `${selected.task} · ${selected.cell}` : `${selected.label} · ${selected.cell}`;
  return h(
    'div',
    null,
    h('h3', null, `Episodes: ${heading} (${rs.length})`),
    h(
      'table',
      { class: 'episodes' },
      h('thead', null, h('tr', null, ...['seed', 'repeat', 'task', 'outcome', 'turns', 'failure labels (open at the turn it began)', ...(init!.judge ? [`model judge's proposal (${init!.judge.model}; not checked)`] : []), ''].map((t) => h('th', null, t)))),
      h(
        'tbody',
        null,
        ...rs.map((r) =>
          h(
            'tr',
            { class: r.success ? 'ok' : 'failed' },
            h('td', null, r.seed),
            h('td', null, r.repeat),
            h('td', null, r.task),
            h('td', null, r.success ? '✓ success' : `✗ ${r.reason}`),
            h('td', null, r.turns),
            h('td', null, ...r.labels.flatMap((l, i) => [i ? ', ' : '', link(`${l.label}${l.turn !== undefined ? ` @${l.turn}` : ''}`, () => post({ type: 'openRun', key: r.key, ...(l.turn !== undefined ? { turn: l.turn } : {}) }))])),
            init!.judge
              ? h('td', { class: 'judge' }, ...(init!.judge.proposals[r.key] ?? []).flatMap((l, i) => [i ? ', ' : '', h('span', { class: 'proposal', title: `proposed by ${init!.judge!.model}: ${l.evidence ?? ''}` }, '⚖ ', link(`${l.label}${l.turn !== undefined ? ` @${l.turn}` : ''}`, () => post({ type: 'openRun', key: r.key, ...(l.turn !== undefined ? { turn: l.turn } : {}) })))]))
              : null,
            h('td', null, link('open run', () => post({ type: 'openRun', key: r.key }))),
          ),
        ),
      ),
    ),
  );
}

function select(sel: NonNullable<typeof selected>): void {
  selected = sel;
  render();
  document.querySelector('#episodes')?.scrollIntoView({ block: 'nearest' });
}

function pairForm(): HTMLElement {
  const d = init!;
  const opt = (v: string, cur?: string) => h('option', { value: v, selected: v === cur }, v);
  const task = h('select', { id: 'pair-task', 'aria-label': 'task' }, ...d.tasks.map((t) => opt(t)));
  const left = h('select', { id: 'pair-left', 'aria-label': 'left variant' }, ...d.cells.map((c) => opt(c, baseline)));
  const right = h('select', { id: 'pair-right', 'aria-label': 'right variant' }, ...d.cells.map((c) => opt(c, d.cells.find((x) => x !== baseline) ?? baseline)));
  const seeds = [...new Set(d.records.map((r) => `${r.seed}/${r.repeat}`))].sort((a, b) => parseInt(a) - parseInt(b) || a.localeCompare(b));
  const seed = h('select', { id: 'pair-seed', 'aria-label': 'seed' }, ...seeds.map((s) => opt(s)));
  const go = h('button', { id: 'pair-go', type: 'button' }, 'Side by side');
  go.addEventListener('click', () => {
    const [s, rep] = seed.value.split('/').map(Number);
    const find = (cell: string) => d.records.find((r) => r.task === task.value && r.cell === cell && r.seed === s && r.repeat === rep);
    const a = find(left.value);
    const b = find(right.value);
    if (!a || !b) {
      clear(pairView);
      pairView.append(h('p', { class: 'error' }, `No episode for ${!a ? left.value : right.value} on ${task.value}, seed ${seed.value}.`));
      return;
    }
    clear(pairView);
    pairView.append(h('p', { class: 'sub' }, 'Loading both transcripts…'));
    post({ type: 'pair', leftKey: a.key, rightKey: b.key });
  });
  return h('div', { class: 'pair-form' }, 'task ', task, ' left ', left, ' right ', right, ' seed/repeat ', seed, ' ', go);
}

function renderPair(leftKey: string, rightKey: string, v: SideBySide): void {
  clear(pairView);
  const rec = (k: string) => init!.records.find((r) => r.key === k)!;
  const [l, r] = [rec(leftKey), rec(rightKey)];
  const outcome = (x: SideBySide['left']) => (x.success ? '✓ success' : `✗ ${x.reason}`);
  pairView.append(
    h('h3', null, `${l.cell} vs ${r.cell} · ${l.task} · seed ${l.seed}${l.repeat ? ` repeat ${l.repeat}` : ''}`),
    h('p', { class: 'sub' }, `${l.cell}: ${outcome(v.left)} in ${v.left.turns} turns · ${r.cell}: ${outcome(v.right)} in ${v.right.turns} turns · `, v.firstDivergence === null ? 'the transcripts never diverge' : `first diverging turn: ${v.firstDivergence}`),
    h('h4', null, 'Prompt diff (each role\'s first rendered messages)'),
    ...(v.promptDiff.every((d) => d.same)
      ? [h('p', { class: 'sub' }, 'The rendered prompts are the same.')]
      : v.promptDiff.filter((d) => !d.same).map((d) => h('details', { open: true, class: 'pdiff' }, h('summary', null, d.role), h('pre', null, ...d.lines.map((x) => h('div', { class: x.op === '+' ? 'add' : x.op === '-' ? 'del' : 'ctx' }, `${x.op === '=' ? ' ' : x.op} ${x.text}`)))))),
    h(
      'table',
      { class: 'sxs' },
      h('thead', null, h('tr', null, h('th', null, 'turn'), h('th', null, link(l.cell, () => post({ type: 'openRun', key: leftKey }))), h('th', null, link(r.cell, () => post({ type: 'openRun', key: rightKey }))))),
      h(
        'tbody',
        null,
        ...v.rows.map((row) => {
          const side = (t: SideBySide['rows'][number]['left']) => h('td', { class: t?.error ? 'err' : undefined }, t ? [h('div', { class: 'role' }, t.role), h('pre', null, t.text)] : h('span', { class: 'sub' }, '(no turn)'));
          return h('tr', { class: row.turn === v.firstDivergence ? 'diverge' : row.same ? 'same' : 'differs', id: row.turn === v.firstDivergence ? 'first-divergence' : undefined }, h('th', null, row.turn === v.firstDivergence ? `${row.turn} ◆` : row.turn), side(row.left), side(row.right));
        }),
      ),
    ),
  );
  document.getElementById('first-divergence')?.scrollIntoView({ block: 'center' });
}

function render(): void {
  const d = init!;
  const m = d.matrices[baseline] ?? d.matrices[d.baseline]!;
  const base = h('select', { id: 'baseline', 'aria-label': 'baseline column' }, ...d.cells.map((c) => h('option', { value: c, selected: c === baseline }, c)));
  base.addEventListener('change', () => {
    baseline = base.value;
    render();
  });
  clear(app);
  app.append(
    h('h1', null, `Sweep ${d.name}`),
    h('p', { class: 'sub' }, d.subtitle),
    h('p', null, 'Baseline column ', base, h('span', { class: 'legend' }, ' ', h('span', { class: 'cell sig better' }, 'better'), ' ', h('span', { class: 'cell sig worse' }, 'worse'), ` (exact McNemar on paired seeds, p < ${m.alpha}) `, h('span', { class: 'cell ns' }, 'no significant difference'))),
    matrixTable(m),
    h('section', { id: 'episodes' }, episodesTable()),
    paperTable(m) ?? h('span', null),
    h('h2', null, 'Failures by label'),
    failureTable(d.records, d.cells),
    h('h2', null, 'Side by side'),
    pairForm(),
    pairView,
  );
}

window.addEventListener('message', (e: MessageEvent) => {
  const parsed = SweepMatrixHostToView.safeParse(e.data);
  if (!parsed.success) {
    console.warn(`sweep view: ignored an invalid message: ${parsed.error.issues[0]?.message ?? 'schema mismatch'}`);
    return;
  }
  const m = parsed.data;
  if (m.type === 'init') {
    init = m;
    baseline = m.baseline;
    render();
  } else if (m.error || !m.view) {
    clear(pairView);
    pairView.append(h('p', { class: 'error' }, m.error ?? 'no transcript'));
  } else renderPair(m.leftKey, m.rightKey, m.view as unknown as SideBySide);
});
post({ type: 'ready' });
