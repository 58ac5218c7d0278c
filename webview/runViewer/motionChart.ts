// Plots tab: "Motion scores per action". M_I (dexterity) and M_E (clearance) as bars and M_T = M_I + M_E as
// points per robot action (x = action index, labelled with its turn), and Q = mean M_T as a dashed line.
// Hovering an action highlights its turn in the timeline; clicking selects it (same handlers as the other plots).
import {
  BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip,
  type ActiveElement, type ChartEvent, type Plugin,
} from 'chart.js';
import type { MotionAction, MotionScoreBuilder } from '../../src/core/trace/projections/motionScores.js';
import { readableValueAxis } from '../common/chartAxis.js';
import { h } from '../common/dom.js';
import type { PlotHandlers } from './plots.js';

Chart.register(BarController, BarElement, CategoryScale, LineController, LineElement, PointElement, LinearScale, Tooltip, Legend);

export interface MotionChartData {
  labels: string[];
  datasets: { label: string; data: (number | null)[] }[];
}

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}

export class MotionChart {
  readonly root: HTMLElement;
  private chart: Chart | undefined;
  private actions: MotionAction[] = [];
  private drawnVersion = -1;
  private drawnFrom: MotionScoreBuilder | undefined;
  selectedTurn: number | undefined;
  hoverTurn: number | undefined;

  constructor(private readonly handlers: PlotHandlers) {
    this.root = h('figure', { class: 'plot wide motion-scores' },
      h('figcaption', null, 'Motion scores per action: M_I dexterity, M_E clearance (bars), M_T = M_I + M_E (points), Q = mean M_T (dashed); below 0 = did not move'),
      h('p', { class: 'plots-empty motion-empty hidden' }, 'No action metrics in this trace (the simulator did not report any).'),
      h('div', { class: 'plot-canvas' }, h('canvas', { 'data-plot': 'motion', 'aria-label': 'Motion scores per action' })));
  }

  update(motion: MotionScoreBuilder): void {
    const empty = motion.actions.length === 0;
    this.root.querySelector('.motion-empty')!.classList.toggle('hidden', !empty);
    this.root.querySelector<HTMLElement>('.plot-canvas')!.classList.toggle('hidden', empty);
    if (empty || this.root.clientWidth === 0) return; // hidden tab: draw when shown
    if (motion === this.drawnFrom && motion.version === this.drawnVersion && this.chart) return this.redraw();
    this.drawnFrom = motion;
    this.drawnVersion = motion.version;
    this.actions = [...motion.actions];
    const q = motion.summary().q;
    const col = {
      mI: cssVar('--vscode-charts-blue', '#3794ff'), mE: cssVar('--vscode-charts-green', '#89d185'), mT: cssVar('--vscode-charts-orange', '#d18616'),
      q: cssVar('--vscode-charts-red', '#f14c4c'), fg: cssVar('--vscode-foreground', '#cccccc'), grid: cssVar('--vscode-editorWidget-border', '#454545'),
      band: cssVar('--vscode-editor-selectionBackground', 'rgba(38, 79, 120, 0.6)'), hover: cssVar('--vscode-editor-hoverHighlightBackground', 'rgba(38, 79, 120, 0.3)'),
    };
    const a = this.actions;
    const data = {
      labels: a.map((x) => `#${x.index} T${x.turn}`),
      datasets: [
        { type: 'bar' as const, label: 'M_I', data: a.map((x) => x.mI), backgroundColor: col.mI, borderColor: col.mI, order: 2 },
        { type: 'bar' as const, label: 'M_E', data: a.map((x) => x.mE), backgroundColor: col.mE, borderColor: col.mE, order: 2 },
        { type: 'line' as const, label: 'M_T', data: a.map((x) => x.mT), showLine: false, pointRadius: 5, pointHoverRadius: 7, pointStyle: 'rectRot', backgroundColor: col.mT, borderColor: col.mT, order: 1 },
        { type: 'line' as const, label: `Q = ${q === null ? '–' : q.toFixed(3)}`, data: a.map(() => q), borderColor: col.q, backgroundColor: col.q, borderDash: [6, 4], borderWidth: 1.5, pointRadius: 0, pointHitRadius: 0, order: 0 },
      ],
    };
    if (this.chart) {
      this.chart.data = data as never;
      this.chart.update('none');
      return;
    }
    const canvas = this.root.querySelector<HTMLCanvasElement>('canvas')!;
    const turnAt = (els: ActiveElement[]) => (els[0] ? this.actions[els[0].index]?.turn : undefined);
    this.chart = new Chart(canvas, {
      type: 'bar',
      data: data as never,
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        interaction: { mode: 'index', intersect: false },
        scales: {
          x: { type: 'category', title: { display: true, text: 'action (#index, turn)', color: col.fg }, ticks: { color: col.fg, autoSkip: true, maxRotation: 0 }, grid: { color: col.grid } },
          y: { type: 'linear', title: { display: true, text: 'score', color: col.fg }, grid: { color: col.grid }, ...readableValueAxis({ color: col.fg }) },
        },
        plugins: {
          legend: { labels: { color: col.fg, boxWidth: 12, sort: (x, y) => (x.datasetIndex ?? 0) - (y.datasetIndex ?? 0) } },
          tooltip: { filter: (item) => item.datasetIndex !== 3, itemSort: (x, y) => x.datasetIndex - y.datasetIndex, callbacks: {
            title: (items) => { const x = items[0] && this.actions[items[0].dataIndex]; return x ? `#${x.index} · turn ${x.turn} · ${x.fn}(${x.args})` : ''; },
            footer: (items) => { const x = items[0] && this.actions[items[0].dataIndex]; return x ? footer(x) : ''; },
          } },
        },
        onHover: (_e: ChartEvent, els: ActiveElement[]) => this.handlers.hoverTurn(turnAt(els)),
        onClick: (_e: ChartEvent, els: ActiveElement[]) => { const t = turnAt(els); if (t !== undefined) this.handlers.selectTurn(t); },
      },
      plugins: [this.turnBands(col)],
    });
    canvas.addEventListener('mouseleave', () => this.handlers.hoverTurn(undefined));
  }

  /** Bands behind the actions of the selected and hovered turns. */
  private turnBands(col: { band: string; hover: string }): Plugin<'bar'> {
    return {
      id: 'motionTurnBands',
      beforeDatasetsDraw: (chart) => {
        const { ctx, chartArea: area, scales } = chart;
        const n = this.actions.length;
        if (!n) return;
        const step = n > 1 ? Math.abs(scales.x.getPixelForValue(1) - scales.x.getPixelForValue(0)) : area.right - area.left;
        ctx.save();
        this.actions.forEach((x, i) => {
          if (x.turn !== this.selectedTurn && x.turn !== this.hoverTurn) return;
          ctx.fillStyle = x.turn === this.selectedTurn ? col.band : col.hover;
          ctx.fillRect(scales.x.getPixelForValue(i) - step / 2, area.top, step, area.bottom - area.top);
        });
        ctx.restore();
      },
    };
  }

  redraw(): void {
    this.chart?.draw();
  }

  /** Labels and datasets as drawn (for the test hook). */
  data(): MotionChartData | undefined {
    const c = this.chart;
    if (!c) return undefined;
    return { labels: (c.data.labels ?? []).map(String), datasets: c.data.datasets.map((d) => ({ label: String(d.label), data: [...(d.data as (number | null)[])] })) };
  }

  dispose(): void {
    this.chart?.destroy();
    this.chart = undefined;
  }
}

function footer(x: MotionAction): string {
  const pair = x.closestPair ? ` (${x.closestPair.join(' ↔ ')})` : '';
  const lines = [
    `start ${x.startSecs.toFixed(2)} s · ${x.durationSecs.toFixed(2)} s${x.moved ? '' : ' · did not move'}`,
    `clearance ${(x.minClearanceM * 1000).toFixed(1)} mm${pair}`,
  ];
  if (x.collisionCount) lines.push(`collisions ${x.collisionCount}`);
  if (x.maxHeldTiltRad !== null) lines.push(`held tilt ${(x.maxHeldTiltRad * 180 / Math.PI).toFixed(1)}°`);
  return lines.join('\n');
}
