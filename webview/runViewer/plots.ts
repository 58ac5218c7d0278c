// Chart.js plots of the trajectory projection: end-effector x/y/z vs time with turn boundaries, the top-down
// x-y path with object positions, and gripper width. Each series is decimated to the canvas width (min/max per
// pixel bucket) before it reaches Chart.js, so a 100k-sample run draws a few thousand points. Hovering a point
// highlights its turn in the timeline; clicking selects it.
import {
  Chart, Legend, LinearScale, LineController, LineElement, PointElement, ScatterController, Tooltip,
  type ActiveElement, type ChartEvent, type Plugin,
} from 'chart.js';
import { decimateMinMax, decimatePath } from '../../src/core/trace/projections/decimate.js';
import type { TrajectorySeriesBuilder } from '../../src/core/trace/projections/trajectorySeries.js';
import { h } from '../common/dom.js';

Chart.register(LineController, ScatterController, LineElement, PointElement, LinearScale, Tooltip, Legend);

export type PlotName = 'position' | 'path' | 'gripper';
type Pt = { x: number; y: number };

export interface PlotHandlers {
  hoverTurn(turn: number | undefined): void;
  selectTurn(turn: number): void;
}

function cssVar(name: string, fallback: string): string {
  const v = getComputedStyle(document.body).getPropertyValue(name).trim();
  return v || fallback;
}

function palette() {
  return {
    x: cssVar('--vscode-charts-red', '#f14c4c'),
    y: cssVar('--vscode-charts-green', '#89d185'),
    z: cssVar('--vscode-charts-blue', '#3794ff'),
    width: cssVar('--vscode-charts-orange', '#d18616'),
    path: cssVar('--vscode-charts-purple', '#b180d7'),
    objects: cssVar('--vscode-charts-yellow', '#cca700'),
    fg: cssVar('--vscode-foreground', '#cccccc'),
    grid: cssVar('--vscode-editorWidget-border', '#454545'),
    band: cssVar('--vscode-editor-selectionBackground', 'rgba(38, 79, 120, 0.6)'),
    hover: cssVar('--vscode-editor-hoverHighlightBackground', 'rgba(38, 79, 120, 0.3)'),
  };
}

export class Plots {
  readonly root: HTMLElement;
  private charts = new Map<PlotName, Chart>();
  /** Per chart and dataset: the sample index behind each drawn point (for hover -> turn). */
  private indexMaps = new Map<PlotName, (Int32Array | undefined)[]>();
  private series: TrajectorySeriesBuilder | undefined;
  private drawnVersion = -1;
  private drawnWidth = -1;
  selectedTurn: number | undefined;
  hoverTurn: number | undefined;
  private resizeObserver: ResizeObserver;

  constructor(private readonly handlers: PlotHandlers) {
    const canvas = (name: PlotName, title: string, cls: string) =>
      h('figure', { class: `plot ${cls}` }, h('figcaption', null, title), h('div', { class: 'plot-canvas' }, h('canvas', { 'data-plot': name, 'aria-label': title })));
    this.root = h(
      'div',
      { class: 'plots' },
      h('p', { class: 'plots-empty hidden' }, 'No trajectory samples in this trace yet.'),
      canvas('position', 'End-effector position (m) vs sim time (s), turn boundaries dashed', 'wide'),
      canvas('path', 'Top-down path (x-y, m) with objects: ○ start, ■ latest', 'square'),
      canvas('gripper', 'Gripper width (m) vs sim time (s)', 'narrow'),
    );
    this.resizeObserver = new ResizeObserver(() => {
      if (this.series && this.width() !== this.drawnWidth) this.update(this.series);
    });
    this.resizeObserver.observe(this.root);
  }

  private width(): number {
    const c = this.root.querySelector<HTMLElement>('.plot.wide .plot-canvas');
    return Math.max(100, Math.round(c?.clientWidth ?? 800));
  }

  /** Rebuilds datasets when the samples or the width changed; otherwise only redraws highlights. */
  update(series: TrajectorySeriesBuilder): void {
    this.series = series;
    if (this.root.clientWidth === 0) return; // hidden tab: draw when shown
    const empty = series.length === 0 && series.objectMarkers().length === 0;
    this.root.querySelector('.plots-empty')!.classList.toggle('hidden', !empty);
    const width = this.width();
    if (series.version === this.drawnVersion && width === this.drawnWidth && this.charts.size === 3) {
      this.redraw();
      return;
    }
    this.drawnVersion = series.version;
    this.drawnWidth = width;
    const col = palette();
    const t = series.t;
    const ts = (ys: Float64Array, label: string, color: string) => {
      const idx = decimateMinMax(t, ys, width);
      const data: Pt[] = new Array(idx.length);
      for (let k = 0; k < idx.length; k++) data[k] = { x: t[idx[k]], y: ys[idx[k]] };
      return { idx, ds: { label, data, borderColor: color, backgroundColor: color, borderWidth: 1.5, pointRadius: 0, pointHoverRadius: 3 } };
    };
    const x = ts(series.x, 'x', col.x), y = ts(series.y, 'y', col.y), z = ts(series.z, 'z', col.z);
    const tRange = t.length ? { min: t[0], max: t[t.length - 1] } : { min: 0, max: 1 };
    this.set('position', [x.ds, y.ds, z.ds], [x.idx, y.idx, z.idx], col, true, [tRange]);
    const w = ts(series.gripperWidth, 'gripper width', col.width);
    this.set('gripper', [w.ds], [w.idx], col, true, [tRange]);

    const pidx = decimatePath(series.x, series.y, width);
    const path: Pt[] = Array.from(pidx, (i) => ({ x: series.x[i], y: series.y[i] }));
    const objs = series.objectMarkers();
    const sel = this.selectedPath(series);
    const datasets = [
      { label: 'end effector', data: path, showLine: true, borderColor: col.path, backgroundColor: col.path, borderWidth: 1.5, pointRadius: 0, pointHoverRadius: 3 },
      { label: 'selected turn', data: sel, showLine: true, borderColor: col.fg, backgroundColor: col.fg, borderWidth: 3, pointRadius: 0 },
      { label: 'objects (start)', data: objs.map((o) => ({ x: o.initial[0], y: o.initial[1] })), showLine: false, pointStyle: 'circle', pointRadius: 5, borderColor: col.objects, backgroundColor: 'transparent', borderWidth: 1.5 },
      { label: 'objects (latest)', data: objs.map((o) => ({ x: o.latest[0], y: o.latest[1] })), showLine: false, pointStyle: 'rect', pointRadius: 5, borderColor: col.objects, backgroundColor: col.objects },
    ];
    this.set('path', datasets, [pidx, undefined, undefined, undefined], col, false, squareRange([...path, ...datasets[2].data, ...datasets[3].data]));
  }

  private selectedPath(series: TrajectorySeriesBuilder): Pt[] {
    const out: Pt[] = [];
    if (this.selectedTurn === undefined) return out;
    for (const s of series.spans) {
      if (s.turn !== this.selectedTurn) continue;
      const step = Math.max(1, Math.floor((s.end - s.start) / 400));
      for (let i = s.start; i < s.end; i += step) out.push({ x: series.x[i], y: series.y[i] });
      out.push({ x: series.x[s.end - 1], y: series.y[s.end - 1] });
    }
    return out;
  }

  private set(name: PlotName, datasets: object[], idx: (Int32Array | undefined)[], col: ReturnType<typeof palette>, timeAxis: boolean, range?: { min: number; max: number }[]): void {
    this.indexMaps.set(name, idx);
    const existing = this.charts.get(name);
    if (existing) {
      existing.data.datasets = datasets as never;
      if (range?.[0]) Object.assign(existing.options.scales!.x!, range[0]);
      if (range?.[1]) Object.assign(existing.options.scales!.y!, range[1]);
      existing.update('none');
      return;
    }
    const canvas = this.root.querySelector<HTMLCanvasElement>(`canvas[data-plot="${name}"]`)!;
    const axis = (title: string, r?: { min: number; max: number }) => ({
      type: 'linear' as const, title: { display: true, text: title, color: col.fg }, ticks: { color: col.fg, maxTicksLimit: 8, includeBounds: false }, grid: { color: col.grid }, ...(r ?? {}),
    });
    const chart = new Chart(canvas, {
      type: timeAxis ? 'line' : 'scatter',
      data: { datasets: datasets as never },
      options: {
        animation: false,
        parsing: false,
        normalized: true,
        responsive: true,
        maintainAspectRatio: false,
        interaction: timeAxis ? { mode: 'nearest', intersect: false, axis: 'x' } : { mode: 'nearest', intersect: false },
        scales: {
          x: axis(timeAxis ? 'sim time (s)' : 'x (m)', range?.[0]),
          y: axis(timeAxis ? (name === 'gripper' ? 'width (m)' : 'position (m)') : 'y (m)', range?.[1]),
        },
        plugins: {
          legend: { labels: { color: col.fg, boxWidth: 12 } },
          tooltip: { callbacks: {
            title: (items) => (items[0] ? (timeAxis ? `t = ${items[0].parsed.x?.toFixed(2)} s` : `x = ${items[0].parsed.x?.toFixed(3)} m, y = ${items[0].parsed.y?.toFixed(3)} m`) : ''),
            footer: (items) => { const turn = this.turnOf(name, items[0]?.datasetIndex, items[0]?.dataIndex); return turn === undefined ? '' : `turn ${turn}`; },
          } },
        },
        onHover: (_e: ChartEvent, els: ActiveElement[]) => this.handlers.hoverTurn(this.turnOf(name, els[0]?.datasetIndex, els[0]?.index)),
        onClick: (_e: ChartEvent, els: ActiveElement[]) => {
          const turn = this.turnOf(name, els[0]?.datasetIndex, els[0]?.index);
          if (turn !== undefined) this.handlers.selectTurn(turn);
        },
      },
      plugins: timeAxis ? [this.turnBands(col)] : [this.objectLabels(col)],
    });
    canvas.addEventListener('mouseleave', () => this.handlers.hoverTurn(undefined));
    this.charts.set(name, chart);
  }

  private turnOf(name: PlotName, datasetIndex: number | undefined, index: number | undefined): number | undefined {
    if (datasetIndex === undefined || index === undefined || !this.series) return undefined;
    const map = this.indexMaps.get(name)?.[datasetIndex];
    if (!map) return undefined;
    const sample = map[index];
    return sample === undefined ? undefined : this.series.turn[sample];
  }

  /** Dashed lines at each execution turn's first sample, and bands for the selected and hovered turns. */
  private turnBands(col: ReturnType<typeof palette>): Plugin<'line'> {
    return {
      id: 'turnBands',
      beforeDatasetsDraw: (chart) => {
        const s = this.series;
        if (!s) return;
        const { ctx, chartArea: a, scales } = chart;
        const xs = scales.x;
        ctx.save();
        let lastLabelX = -Infinity;
        for (const span of s.spans) {
          const x0 = xs.getPixelForValue(span.tStartSecs);
          const x1 = xs.getPixelForValue(span.tEndSecs);
          if (span.turn === this.selectedTurn || span.turn === this.hoverTurn) {
            ctx.fillStyle = span.turn === this.selectedTurn ? col.band : col.hover;
            ctx.fillRect(x0, a.top, Math.max(2, x1 - x0), a.bottom - a.top);
          }
          if (x0 < a.left || x0 > a.right) continue;
          ctx.strokeStyle = col.grid;
          ctx.setLineDash([4, 3]);
          ctx.beginPath();
          ctx.moveTo(x0, a.top);
          ctx.lineTo(x0, a.bottom);
          ctx.stroke();
          ctx.setLineDash([]);
          // Label a boundary only when there is room since the last label (many turns on a long run).
          const label = `T${span.turn}`;
          ctx.font = '10px sans-serif';
          if (x0 - lastLabelX < ctx.measureText(label).width + 6) continue;
          lastLabelX = x0;
          ctx.fillStyle = col.fg;
          ctx.fillText(label, x0 + 2, a.top + 10);
        }
        ctx.restore();
      },
    };
  }

  private objectLabels(col: ReturnType<typeof palette>): Plugin<'scatter'> {
    return {
      id: 'objectLabels',
      afterDatasetsDraw: (chart) => {
        const s = this.series;
        if (!s) return;
        const { ctx, scales } = chart;
        ctx.save();
        ctx.fillStyle = col.fg;
        ctx.font = '11px sans-serif';
        // Objects often end up on top of each other (a block in its container): stack their labels.
        const placed: { x: number; y: number; w: number }[] = [];
        for (const o of s.objectMarkers()) {
          const w = ctx.measureText(o.name).width;
          const x = scales.x.getPixelForValue(o.latest[0]) + 7;
          let y = scales.y.getPixelForValue(o.latest[1]) - 6;
          while (placed.some((p) => Math.abs(p.y - y) < 12 && x < p.x + p.w && p.x < x + w)) y += 12;
          placed.push({ x, y, w });
          ctx.fillText(o.name, x, y);
        }
        ctx.restore();
      },
    };
  }

  /** Redraws highlights (selection/hover) without rebuilding data. */
  redraw(): void {
    const path = this.charts.get('path');
    if (path && this.series) {
      path.data.datasets[1].data = this.selectedPath(this.series);
      path.update('none');
    }
    this.charts.get('position')?.draw();
    this.charts.get('gripper')?.draw();
  }

  /** Datasets as drawn (for the test hook). */
  data(name: PlotName): { label: string; data: Pt[] }[] | undefined {
    const c = this.charts.get(name);
    return c?.data.datasets.map((d) => ({ label: String(d.label), data: (d.data as Pt[]).map((p) => ({ x: p.x, y: p.y })) }));
  }

  dispose(): void {
    this.resizeObserver.disconnect();
    for (const c of this.charts.values()) c.destroy();
    this.charts.clear();
  }
}

/** Equal-scale x and y ranges (metres) covering the points, with a margin, so the top-down view is not distorted. */
function squareRange(pts: Pt[]): { min: number; max: number }[] {
  if (pts.length === 0) return [{ min: -0.1, max: 0.6 }, { min: -0.4, max: 0.4 }];
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  for (const p of pts) {
    x0 = Math.min(x0, p.x); x1 = Math.max(x1, p.x);
    y0 = Math.min(y0, p.y); y1 = Math.max(y1, p.y);
  }
  const span = Math.max(x1 - x0, y1 - y0, 0.05) * 1.15;
  const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
  return [{ min: cx - span / 2, max: cx + span / 2 }, { min: cy - span / 2, max: cy + span / 2 }];
}
