// Plan tab (Action Contextualization runs): every simulated execution of a task plan as a table (action,
// parameters, checks with expected and observed values, M_I, M_E, M_T), the parameters a retune changed marked and
// listed as a diff against the execution before, each independent run's Q and trial count with the run the
// multi-run selection kept, and the paper's Fig. 7-8 style chart: Q of every execution in order (failed ones
// marked) and trials per run. The tab's header shows only when the trace has plans. View model:
// actctxPlan.ts.
import {
  BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip,
  type ActiveElement, type ChartEvent,
} from 'chart.js';
import type { AcAttemptRow, AcStepRow, ActctxPlanBuilder } from './actctxPlan.js';
import { readableValueAxis } from '../../../../webview/common/chartAxis.js';
import { h } from '../../../../webview/common/dom.js';
import type { PlotHandlers } from '../../../../webview/runViewer/plots.js';

Chart.register(BarController, BarElement, CategoryScale, LineController, LineElement, PointElement, LinearScale, Tooltip, Legend);

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}

const fmt = (x: number | null, digits = 4) => (x === null ? '–' : x.toFixed(digits));

export interface ActctxChartData {
  labels: string[];
  datasets: { label: string; data: (number | null)[] }[];
}

export class ActctxPlanTab {
  readonly root: HTMLElement;
  private readonly tables: HTMLElement;
  private readonly runsEl: HTMLElement;
  private chart: Chart | undefined;
  private drawn = { from: undefined as ActctxPlanBuilder | undefined, version: -1 };
  private attempts: AcAttemptRow[] = [];

  constructor(
    private readonly handlers: PlotHandlers,
    /** The tab's header, shown only for traces with plans. */
    private readonly header: HTMLElement,
  ) {
    this.runsEl = h('section', { class: 'ac-runs' });
    this.tables = h('section', { class: 'ac-attempts' });
    this.root = h('div', { class: 'ac-plan' },
      h('p', { class: 'plots-empty ac-empty' }, 'This run has no task plans (the Plan tab is for Action Contextualization runs).'),
      h('figure', { class: 'plot wide ac-chart hidden' },
        h('figcaption', null, 'Q per plan execution in order (P = plan, R = retune, failed executions hollow) and trials per run (bars, right axis), as in the paper\'s Fig. 7-8'),
        h('div', { class: 'plot-canvas' }, h('canvas', { 'data-plot': 'actctx', 'aria-label': 'Q per plan execution' }))),
      this.runsEl,
      this.tables);
    this.header.classList.add('hidden');
  }

  update(b: ActctxPlanBuilder): void {
    const empty = b.attempts.length === 0;
    this.header.classList.toggle('hidden', empty);
    this.root.querySelector('.ac-empty')!.classList.toggle('hidden', !empty);
    this.root.querySelector('.ac-chart')!.classList.toggle('hidden', empty);
    if (empty) return;
    if (b === this.drawn.from && b.version === this.drawn.version) return;
    this.attempts = [...b.attempts];
    this.renderRuns(b);
    this.tables.replaceChildren(...this.attempts.map((a) => this.attemptTable(a)).reverse());
    if (this.root.clientWidth === 0) return; // hidden tab: the chart draws when shown
    this.drawn = { from: b, version: b.version };
    this.drawChart(b);
  }

  private renderRuns(b: ActctxPlanBuilder): void {
    const runs = b.runs();
    this.runsEl.replaceChildren(
      h('h3', null, runs.length > 1 ? `Multi-run selection: ${runs.length} runs` : 'Run'),
      h('table', { class: 'ac-runs-table' },
        h('thead', null, h('tr', null, ...['run', 'validated', 'Q', 'retunes', 'replans', 'trials', 'kept'].map((x) => h('th', null, x)))),
        h('tbody', null, ...runs.map((r) => h('tr', { class: r.chosen ? 'ac-chosen' : '' },
          h('td', null, String(r.run)), h('td', r.formatFailure ? { title: r.formatFailure } : null, r.formatFailure ? 'no: format failure' : r.success ? 'yes' : 'no'), h('td', null, fmt(r.q)), h('td', null, String(r.retunes)),
          h('td', null, String(r.replans)), h('td', null, String(r.trials)), h('td', null, r.chosen ? '✔ kept' : ''))))));
  }

  private attemptTable(a: AcAttemptRow): HTMLElement {
    const title = `${a.label} · run ${a.run} · ${a.kind} · ${a.success ? 'every check passed' : `failed at action ${a.failedIndex}`} · Q = ${fmt(a.q)} · ${a.simSecs.toFixed(1)} s simulated`;
    const diff = a.changes.length
      ? h('ul', { class: 'ac-diff' }, ...a.changes.map((c) => h('li', null, `${c.index} ${c.action}: ${c.param} `, h('del', null, c.before), ' → ', h('ins', null, c.after))))
      : a.sequence
        ? h('ul', { class: 'ac-diff' },
            ...a.sequence.added.map((x) => h('li', null, h('ins', null, `+ ${x}`))),
            ...a.sequence.removed.map((x) => h('li', null, h('del', null, `− ${x}`))),
            ...(a.sequence.moved.length ? [h('li', null, `moved: ${a.sequence.moved.join(', ')}`)] : []))
        : null;
    return h('details', { class: `ac-attempt ${a.success ? 'ok' : 'failed'}`, open: true, 'data-attempt': `${a.run}:${a.label}` },
      h('summary', null, h('a', { href: '#', onclick: ((e: Event) => { e.preventDefault(); this.handlers.selectTurn(a.turn); }) as EventListener }, `turn ${a.turn}`), ' ', title),
      diff,
      h('table', { class: 'ac-plan-table' },
        h('thead', null, h('tr', null, ...['#', 'action', 'parameters', 'checks (expected → observed)', 'M_I', 'M_E', 'M_T'].map((x) => h('th', null, x)))),
        h('tbody', null, ...a.steps.map((s) => this.stepRow(s)))),
      a.failureReason ? h('p', { class: 'ac-reason' }, a.failureReason) : null);
  }

  private stepRow(s: AcStepRow): HTMLElement {
    const params = Object.entries(s.named).map(([k, v]) => h('span', { class: s.changed.includes(k) ? 'ac-param changed' : 'ac-param', title: s.changed.includes(k) ? 'changed by the retune' : '' }, `${k}=${v}`));
    const checks = s.checks.map((c) => h('div', { class: c.ok ? 'ac-check ok' : 'ac-check failed' }, `${c.ok ? '✔' : '✘'} ${c.name}${c.args === '()' ? '()' : c.args.replace(/,\)$/, ')')} ${c.expected} → ${c.observed}`));
    return h('tr', { class: s.failed ? 'ac-failed' : '' },
      h('td', null, String(s.index)), h('td', null, s.action), h('td', null, ...params), h('td', null, ...checks),
      h('td', null, fmt(s.mI)), h('td', null, fmt(s.mE)), h('td', null, fmt(s.mT)));
  }

  private drawChart(b: ActctxPlanBuilder): void {
    const series = b.series();
    const runs = b.runs();
    const col = {
      q: cssVar('--vscode-charts-orange', '#d18616'), fail: cssVar('--vscode-charts-red', '#f14c4c'), trials: cssVar('--vscode-charts-blue', '#3794ff'),
      fg: cssVar('--vscode-foreground', '#cccccc'), grid: cssVar('--vscode-editorWidget-border', '#454545'),
    };
    const labels = series.map((x) => x.label);
    // Trials per run: one bar at each run's last execution.
    const trials = series.map((x, i) => (series.slice(i + 1).some((y) => y.run === x.run) ? null : runs.find((r) => r.run === x.run)?.trials ?? null));
    const data = {
      labels,
      datasets: [
        { type: 'line' as const, label: 'Q', data: series.map((x) => x.q), borderColor: col.q, backgroundColor: series.map((x) => (x.success ? col.q : 'transparent')), pointBorderColor: series.map((x) => (x.success ? col.q : col.fail)), pointRadius: 5, pointHoverRadius: 7, yAxisID: 'y', order: 0 },
        { type: 'bar' as const, label: 'trials per run', data: trials, backgroundColor: col.trials, borderColor: col.trials, maxBarThickness: 36, yAxisID: 'y1', order: 1 },
      ],
    };
    if (this.chart) {
      this.chart.data = data as never;
      this.chart.update('none');
      return;
    }
    const canvas = this.root.querySelector<HTMLCanvasElement>('canvas')!;
    const turnAt = (els: ActiveElement[]) => (els[0] ? series[els[0].index]?.turn : undefined);
    this.chart = new Chart(canvas, {
      type: 'bar',
      data: data as never,
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        interaction: { mode: 'index', intersect: false },
        scales: {
          x: { type: 'category', title: { display: true, text: 'plan execution', color: col.fg }, ticks: { color: col.fg }, grid: { color: col.grid } },
          y: { type: 'linear', position: 'left', title: { display: true, text: 'Q (mean M_T)', color: col.fg }, grid: { color: col.grid }, ...readableValueAxis({ color: col.fg }) },
          y1: { type: 'linear', position: 'right', beginAtZero: true, title: { display: true, text: 'trials', color: col.fg }, ticks: { color: col.fg, precision: 0 }, grid: { drawOnChartArea: false } },
        },
        plugins: { legend: { labels: { color: col.fg, boxWidth: 12 } } },
        onHover: (_e: ChartEvent, els: ActiveElement[]) => this.handlers.hoverTurn(turnAt(els)),
        onClick: (_e: ChartEvent, els: ActiveElement[]) => {
          const t = turnAt(els);
          if (t !== undefined) this.handlers.selectTurn(t);
        },
      },
    });
    canvas.addEventListener('mouseleave', () => this.handlers.hoverTurn(undefined));
  }

  /** Labels and datasets as drawn (for the test hook). */
  data(): ActctxChartData | undefined {
    const c = this.chart;
    if (!c) return undefined;
    return { labels: (c.data.labels ?? []).map(String), datasets: c.data.datasets.map((d) => ({ label: String(d.label), data: [...(d.data as (number | null)[])] })) };
  }

  dispose(): void {
    this.chart?.destroy();
    this.chart = undefined;
  }
}
