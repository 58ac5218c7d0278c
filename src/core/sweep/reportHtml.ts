// `waypoint report <sweep>`: one self-contained HTML page (no network: inline CSS, inline SVG plot, a small inline
// script) with the matrix (success and Wilson interval per cell, coloured by significance against the baseline),
// each cell's episodes on click, the failure inspector (failures grouped by label and variant, each with the turn
// where it began and a link to its trace), and a success-rate plot with error bars. A projection of the records.
import { themeCss, type ReportTheme } from '../trace/reportThemes.js';
import type { SweepMatrix } from './matrix.js';
import { effectiveLabels, paperCells } from './matrix.js';
import { ALL_TASKS, insideText, oursText, thisRunLabel, type PaperComparison } from './paper.js';
import { FAILURE_LABELS, type FailureLabel } from './failureLabels.js';
import type { EpisodeRecord } from './record.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const pct = (x: number) => `${Math.round(100 * x)}%`;
const fmtP = (p: number) => (p < 0.001 ? '&lt;0.001' : `=${p.toFixed(3)}`);

export interface SweepReportInput {
  title: string;
  subtitle: string;
  matrix: SweepMatrix;
  records: EpisodeRecord[];
  manualLabels?: Record<string, FailureLabel[]>;
  /** Link target of an episode without an inlined transcript (relative path to its trace). */
  linkOf(r: EpisodeRecord): string;
  /** Transcripts of chosen episodes, inlined (one block per trace event, with the turn it belongs to). */
  transcripts?: { key: string; blocks: { turn?: number; text: string }[] }[];
  /** Nonce of the page's one inline script (the CSP allows nothing else). */
  nonce: string;
  /** The model judge's proposals (judge.json), shown apart and marked as a model's proposal; never counted above. */
  judge?: { model: string; proposals: Record<string, { labels: FailureLabel[] }> };
  /** Colour theme, as the run report's (default dark). */
  theme?: ReportTheme;
}

/**
 * The page's own colours per theme, beside the `--vscode-*` variables the run report defines (reportThemes.ts):
 * the significance tints of matrix cells and bars, and the highlight of a linked transcript turn. Text on each tint
 * keeps 4.5:1 (test/webview/sweepReport.test.ts measures it).
 */
const SWEEP_COLORS: Record<ReportTheme, Record<string, string>> = {
  dark: { base: '#2a3140', ns: 'transparent', better: '#1e4a2a', worse: '#5a2424', 'bar-base': '#6f86b3', 'bar-ns': '#5d6a80', 'bar-better': '#4caf50', 'bar-worse': '#e05656', target: '#4a3f10', 'target-border': '#e0a800', tag: '#3a3a3a', 'tag-judge': '#5a4215', 'tag-manual': '#1f3a60' },
  light: { base: '#f4f6fa', ns: 'transparent', better: '#d9f2dc', worse: '#f9dcdc', 'bar-base': '#8aa0c8', 'bar-ns': '#b9c4d6', 'bar-better': '#4caf50', 'bar-worse': '#e05656', target: '#fff6c9', 'target-border': '#e0a800', tag: '#eeeeee', 'tag-judge': '#fde7c2', 'tag-manual': '#d6e6ff' },
  'high-contrast': { base: '#000000', ns: '#000000', better: '#003300', worse: '#3d0000', 'bar-base': '#3794ff', 'bar-ns': '#ffffff', 'bar-better': '#89d185', 'bar-worse': '#f48771', target: '#3d3300', 'target-border': '#ffd700', tag: '#000000', 'tag-judge': '#000000', 'tag-manual': '#000000' },
};

function judgeSection(o: SweepReportInput, link: (r: EpisodeRecord, turn?: number) => string): string {
  if (!o.judge) return '';
  const byKey = new Map(o.records.map((r) => [r.key, r]));
  const rows = new Map<string, { r: EpisodeRecord; x: FailureLabel }[]>();
  for (const [key, p] of Object.entries(o.judge.proposals)) {
    const r = byKey.get(key);
    if (!r) continue;
    for (const x of p.labels) (rows.get(x.label) ?? rows.set(x.label, []).get(x.label)!).push({ r, x });
  }
  const cells = o.matrix.cells;
  const body = [...rows.entries()]
    .sort((a, b) => b[1].length - a[1].length)
    .map(([label, list]) => {
      const counts = cells.map((c) => `<td>${list.filter(({ r }) => r.cell === c).length}</td>`).join('');
      const items = list.map(({ r, x }) => `<li><a href="${esc(link(r, x.turn))}">${esc(r.cell)} · seed ${r.seed}${x.turn !== undefined ? ` · turn ${x.turn}` : ''}</a> <span class="src judge">judge</span> ${esc(x.evidence)}</li>`).join('');
      return `<tr class="judge-row"><th><details><summary>${esc(label)}</summary><ul>${items}</ul></details></th>${counts}</tr>`;
    })
    .join('');
  return `<h2>Model judge's proposals <span class="muted">proposed by ${esc(o.judge.model)}: a model's proposal, not checked by a person, not counted in the matrix or the inspector above</span></h2>
<table id="judge"><tr><th>proposed label</th>${cells.map((c) => `<th>${esc(c)}</th>`).join('')}</tr>${body}</table>`;
}

const paperRate = (x: PaperComparison, citation: string) => `${pct(x.rate)}${x.n !== undefined ? ` (n=${x.n})` : ' (n not stated)'}${x.ci ? ` [${pct(x.ci[0])}, ${pct(x.ci[1])}]` : ''}${x.source !== citation ? ` · ${esc(x.source)}` : ''}`;

/** "paper" beside "this run" per cell the paper reports (the sweep file's `paper:`), the fixture named as such. */
function paperSection(m: SweepMatrix): string {
  const p = m.paper;
  if (!p) return '';
  const head = `<h2>Paper beside this run <span class="muted">${esc(p.citation)}${p.metric ? `; the paper's rate counts ${esc(p.metric)}` : ''}</span></h2>${p.note ? `<p class="muted">${esc(p.note)}</p>` : ''}${p.fixture ? '<p class="fixture">This run\'s rates come from the scripted reference model: a fixture for exercising the tool, not a reproduction of the paper and not a result about language models.</p>' : ''}`;
  const cells = paperCells(m);
  if (cells.length === 0) return `${head}<p class="muted">The paper prints no number for these cells.</p>`;
  const rows = cells
    .map((c) => {
      const x = c.paper!;
      const ours = esc(oursText(c, ' · '));
      return `<tr><th>${esc(c.task === ALL_TASKS ? 'all tasks (pooled)' : c.task)}</th><th>${esc(c.cell)}</th><td>${paperRate(x, p.citation)}${x.note ? `<div class="muted">${esc(x.note)}</div>` : ''}</td><td>${ours}</td><td class="in-${insideText(x.inside).replace(/ /g, '-')}">${insideText(x.inside)}</td></tr>`;
    })
    .join('');
  return `${head}<table id="paper"><tr><th>task</th><th>column</th><th>paper</th><th>${esc(thisRunLabel(p.fixture))}</th><th>paper's rate in our Wilson 95% interval</th></tr>${rows}</table>`;
}

function plot(m: SweepMatrix): string {
  const cells = m.rows.flat().filter((c) => c.n > 0);
  const W = 640;
  const H = 220;
  const pad = 40;
  const bw = Math.min(60, (W - 2 * pad) / Math.max(1, cells.length) - 10);
  const y = (v: number) => H - pad + (-(H - 2 * pad) * v);
  const bars = cells
    .map((c, i) => {
      const x = pad + i * (bw + 10) + 5;
      const sig = c.vsBaseline?.significant ? (c.vsBaseline.direction === 'better' ? 'better' : 'worse') : c.vsBaseline ? 'ns' : 'base';
      return `<g><rect class="bar ${sig}" x="${x}" y="${y(c.rate!)}" width="${bw}" height="${y(0) - y(c.rate!)}"/><line class="err" x1="${x + bw / 2}" x2="${x + bw / 2}" y1="${y(c.ci95.low)}" y2="${y(c.ci95.high)}"/><line class="err" x1="${x + bw / 2 - 6}" x2="${x + bw / 2 + 6}" y1="${y(c.ci95.low)}" y2="${y(c.ci95.low)}"/><line class="err" x1="${x + bw / 2 - 6}" x2="${x + bw / 2 + 6}" y1="${y(c.ci95.high)}" y2="${y(c.ci95.high)}"/><text x="${x + bw / 2}" y="${H - pad + 14}" text-anchor="middle">${esc(m.tasks.length > 1 ? `${c.task}/${c.cell}` : c.cell)}</text></g>`;
    })
    .join('');
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((t) => `<line class="grid" x1="${pad}" x2="${W - 10}" y1="${y(t)}" y2="${y(t)}"/><text x="${pad - 6}" y="${y(t) + 4}" text-anchor="end">${pct(t)}</text>`).join('');
  return `<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="success rate per cell with 95% Wilson intervals">${ticks}${bars}</svg>`;
}

export function renderSweepReport(o: SweepReportInput): string {
  const m = o.matrix;
  const theme = o.theme ?? 'dark';
  const vars = themeCss(theme) + Object.entries(SWEEP_COLORS[theme]).map(([k, v]) => `--sw-${k}:${v};`).join('');
  const bodyClass = theme === 'light' ? 'vscode-light' : theme === 'high-contrast' ? 'vscode-high-contrast' : 'vscode-dark';
  const inlined = new Set((o.transcripts ?? []).map((t) => t.key));
  const anchor = (k: string) => `ep-${k.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const link = (r: EpisodeRecord, turn?: number) => (inlined.has(r.key) ? `#${anchor(r.key)}${turn !== undefined ? `-turn-${turn}` : ''}` : o.linkOf(r));
  const transcripts = (o.transcripts ?? [])
    .map((t) => {
      const r = o.records.find((x) => x.key === t.key);
      const seen = new Set<number>();
      const body = t.blocks
        .map((b) => {
          const id = b.turn !== undefined && !seen.has(b.turn) ? (seen.add(b.turn), ` id="${anchor(t.key)}-turn-${b.turn}"`) : '';
          return `<pre${id}>${esc(b.text)}</pre>`;
        })
        .join('');
      return `<section class="transcript" id="${anchor(t.key)}"><h3>${esc(r ? `${r.task} / ${r.cell} · seed ${r.seed} · ${r.success ? 'success' : `failed: ${r.reason}`}` : t.key)}</h3>${body}</section>`;
    })
    .join('');
  const byKey = new Map(o.records.map((r) => [r.key, r]));
  const version = (c: string) => (m.promptVersions?.[c] ? `<div class="prompts muted" title="prompt version: a hash of the prompt files this column's topology uses and its ablation switches">prompts ${esc(m.promptVersions[c])}</div>` : '');
  const head = `<tr><th>task</th>${m.cells.map((c) => `<th>${esc(c)}${c === m.baseline ? ' <span class="muted">(baseline)</span>' : ''}${version(c)}</th>`).join('')}</tr>`;
  const rows = m.rows
    .map((row) => {
      const tds = row.map((c) => {
        if (c.n === 0) return '<td class="empty">–</td>';
        const v = c.vsBaseline;
        const cls = !v ? 'base' : v.significant ? v.direction : 'ns';
        const test = v ? `<div class="test">McNemar p${fmtP(v.mcnemarP)} · ${v.onlyBaseline}↔${v.onlyThis} discordant of ${v.pairs} pairs · Fisher p${fmtP(v.fisherP)}</div>` : '<div class="test">baseline</div>';
        return `<td class="cell ${cls}" data-cell="${esc(`${c.task}/${c.cell}`)}" tabindex="0"><div class="rate">${c.successes}/${c.n} · ${pct(c.rate!)}</div><div class="ci">[${pct(c.ci95.low)}, ${pct(c.ci95.high)}]</div>${test}<div class="means">turns ${c.turns.mean?.toFixed(1)} · calls ${c.modelCalls.mean?.toFixed(1)} · tokens ${Math.round(c.tokens.mean ?? 0)}</div>${c.paper ? `<div class="paper">paper ${paperRate(c.paper, m.paper!.citation)} · ${insideText(c.paper.inside)}</div>` : ''}</td>`;
      });
      return `<tr><th>${esc(row[0]!.task)}</th>${tds.join('')}</tr>`;
    })
    .join('');
  const episodeLists = m.rows
    .flat()
    .map((c) => {
      const items = c.keys
        .map((k) => byKey.get(k)!)
        .map((r) => `<li class="${r.success ? 'ok' : 'fail'}"><a href="${esc(link(r))}">seed ${r.seed}${r.repeat ? ` r${r.repeat}` : ''}</a> ${r.success ? '✓' : '✗'} ${esc(r.reason)} · ${r.turns} turns${r.success ? '' : ` · ${effectiveLabels(r, o.manualLabels).map((l) => esc(l.label)).join(', ')}`}</li>`)
        .join('');
      return `<div class="episodes" data-for="${esc(`${c.task}/${c.cell}`)}" hidden><h3>${esc(`${c.task} / ${c.cell}`)}: episodes</h3><ul>${items}</ul></div>`;
    })
    .join('');
  const labels = Object.keys(m.labelTotals).sort((a, b) => sum(m.labelTotals[b]!) - sum(m.labelTotals[a]!));
  const failures = o.records.filter((r) => !r.success);
  const inspector = labels
    .map((l) => {
      const counts = m.cells.map((c) => `<td>${m.labelTotals[l]![c] ?? 0}</td>`).join('');
      const list = failures
        .flatMap((r) => effectiveLabels(r, o.manualLabels).filter((x) => x.label === l).map((x) => ({ r, x })))
        .map(({ r, x }) => `<li><a href="${esc(link(r, x.turn))}">${esc(r.cell)} · seed ${r.seed}${x.turn !== undefined ? ` · turn ${x.turn}` : ''}</a> <span class="src ${x.source}">${x.source}</span> ${esc(x.evidence)}</li>`)
        .join('');
      return `<tr class="label-row"><th title="${esc((FAILURE_LABELS as Record<string, string>)[l] ?? 'custom label')}"><details><summary>${esc(l)}</summary><ul>${list}</ul></details></th>${counts}</tr>`;
    })
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${o.nonce}'; img-src data:">
<title>${esc(o.title)}</title>
<style>
body{${vars}font:14px/1.45 system-ui,sans-serif;margin:24px;color:var(--vscode-foreground);background:var(--vscode-editor-background)}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:28px 0 8px}.muted{color:var(--vscode-descriptionForeground);font-weight:normal}
a{color:var(--vscode-textLink-foreground)}
table{border-collapse:collapse}th,td{border:1px solid var(--vscode-editorWidget-border);padding:6px 10px;text-align:left;vertical-align:top}
td.cell{cursor:pointer;min-width:190px}td.cell:hover,td.cell.sel{outline:2px solid var(--vscode-focusBorder)}
.base{background:var(--sw-base)}.ns{background:var(--sw-ns)}.better{background:var(--sw-better)}.worse{background:var(--sw-worse)}
.rate{font-weight:600;font-size:15px}.paper{font-size:12px;border-top:1px dashed var(--vscode-editorWidget-border);margin-top:3px;padding-top:2px}.fixture{font-weight:600}td.in-outside{font-weight:600}.ci,.test,.means,.prompts{font-size:12px;color:var(--vscode-descriptionForeground)}.prompts{font-weight:normal;font-family:ui-monospace,monospace}
.legend span{display:inline-block;padding:2px 8px;margin-right:6px;border:1px solid var(--vscode-editorWidget-border)}
li.fail{color:var(--vscode-errorForeground)}li.ok{color:var(--vscode-testing-iconPassed)}.src{font-size:11px;padding:0 4px;border-radius:3px;background:var(--sw-tag);border:1px solid var(--vscode-contrastBorder)}.src.judge{background:var(--sw-tag-judge)}.src.manual{background:var(--sw-tag-manual)}
svg text{font-size:11px;fill:var(--vscode-foreground)}.bar.base{fill:var(--sw-bar-base)}.bar.ns{fill:var(--sw-bar-ns)}.bar.better{fill:var(--sw-bar-better)}.bar.worse{fill:var(--sw-bar-worse)}.err{stroke:var(--vscode-foreground);stroke-width:1.5}.grid{stroke:var(--vscode-editorWidget-border)}
summary{cursor:pointer}\n.transcript pre{margin:0;padding:2px 8px;border-left:3px solid var(--vscode-editorWidget-border);white-space:pre-wrap;font:12px/1.4 ui-monospace,monospace}.transcript pre:target{background:var(--sw-target);border-left-color:var(--sw-target-border)}
</style></head><body class="${bodyClass}">
<h1>${esc(o.title)}</h1><div class="muted">${esc(o.subtitle)}</div>
<h2>Matrix <span class="muted">success [Wilson 95% interval]; colour: significant against the baseline at α=${m.alpha} (exact McNemar on paired seeds)</span></h2>
<div class="legend"><span class="base">baseline</span><span class="better">significantly better</span><span class="worse">significantly worse</span><span class="ns">not significant</span></div>
<table id="matrix">${head}${rows}</table>
<div id="episodes">${episodeLists}<p class="muted" id="hint">Click a cell for its episodes.</p></div>
${paperSection(m)}
<h2>Success rate <span class="muted">with 95% intervals</span></h2>
${plot(m)}
<h2>Failure inspector <span class="muted">${failures.length} failed episodes; labels from trace events (auto), hand edits (manual), model judge (judge, marked)</span></h2>
<table id="failures"><tr><th>label</th>${m.cells.map((c) => `<th>${esc(c)}</th>`).join('')}</tr>${inspector}</table>
${judgeSection(o, link)}
<h2>Transcripts <span class="muted">of chosen episodes (failure links jump to the turn where it began)</span></h2>
${transcripts || '<p class="muted">none chosen</p>'}
<script nonce="${o.nonce}">
for (const td of document.querySelectorAll('td.cell')) td.addEventListener('click', () => {
  document.querySelectorAll('td.cell').forEach((x) => x.classList.toggle('sel', x === td));
  document.querySelectorAll('.episodes').forEach((d) => (d.hidden = d.dataset.for !== td.dataset.cell));
  document.getElementById('hint').hidden = true;
});
</script>
</body></html>
`;
}

const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
