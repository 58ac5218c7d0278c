// Chart.js plots of the trajectory projection: end-effector x/y/z vs time with turn boundaries, the top-down
// x-y path with object positions, and gripper width; with several arms (RoCo), every robot's, each named (one
// line style per robot in the time plots, one colour per robot on the path and the gripper plot). Each series is
// decimated to the canvas width (min/max per pixel bucket) before it reaches Chart.js, so a 100k-sample run draws
// a few thousand points. Hovering a point
// highlights its turn in the timeline; clicking selects it. Dragging across a time plot zooms both time plots to
// that span (double-click or "Reset zoom" goes back); for a run sent as an overview the full samples of the span
// come from the host (WindowSource), and until they arrive the overview's samples of the span are drawn.
import {
  Chart, Legend, LinearScale, LineController, LineElement, PointElement, ScatterController, Tooltip,
  type ActiveElement, type ChartEvent, type Plugin,
} from 'chart.js';
import { decimateMinMax, decimatePath } from '../../src/core/trace/projections/decimate.js';
import type { TrajectorySeriesBuilder } from '../../src/core/trace/projections/trajectorySeries.js';
import type { TrajectoryWindowMessage } from '../../src/protocol/webview.js';
import { readableValueAxis } from '../common/chartAxis.js';
import { h } from '../common/dom.js';

Chart.register(LineController, ScatterController, LineElement, PointElement, LinearScale, Tooltip, Legend);

export type PlotName = 'position' | 'path' | 'gripper';
type Pt = { x: number; y: number };

export interface PlotHandlers {
  hoverTurn(turn: number | undefined): void;
  selectTurn(turn: number): void;
}

/** The host's full samples of a time span, for a run the view holds as an overview. */
export type WindowSource = (tFrom: number, tTo: number, buckets: number) => Promise<TrajectoryWindowMessage>;

export interface Zoom {
  min: number;
  max: number;
}

/** Time-plot columns as drawn: the local series, or a window the host sent. */
interface TimeColumns {
  t: ArrayLike<number>;
  x: ArrayLike<number>;
  y: ArrayLike<number>;
  z: ArrayLike<number>;
  width: ArrayLike<number>;
  turn: ArrayLike<number>;
  /** Several arms: each one's columns, named. */
  arms?: { name: string; x: ArrayLike<number>; y: ArrayLike<number>; z: ArrayLike<number>; width: ArrayLike<number> }[];
}

/** Line style of robot k in the time plots (x/y/z keep their colours). */
const ARM_DASH: number[][] = [[], [7, 3], [2, 2], [9, 3, 2, 3], [4, 4]];

/** Arm k's columns from a window's interleaved `arms` (5 per arm per sample). */
function windowArm(w: TrajectoryWindowMessage, k: number): { x: Float64Array; y: Float64Array; z: Float64Array; width: Float64Array } {
  const aw = w.armsWidth!;
  const col = (c: number) => Float64Array.from({ length: w.t.length }, (_, j) => w.arms![j * aw + 5 * k + c]!);
  return { x: col(0), y: col(1), z: col(2), width: col(4) };
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
  /** Per chart and dataset: the turn of each drawn point (for hover -> turn). */
  private turnMaps = new Map<PlotName, (Int32Array | undefined)[]>();
  private series: TrajectorySeriesBuilder | undefined;
  private drawnVersion = -1;
  private drawnWidth = -1;
  private drawnKey = '';
  /** Object labels of the top-down plot as last drawn (canvas pixels), for the test hook. */
  private labelBoxes: { name: string; x: number; y: number; w: number; h: number }[] = [];
  /** What the Plots tab says when the run has no motion (set by the viewer from the run's outcome). */
  emptyNote = 'No trajectory samples in this trace yet.';
  selectedTurn: number | undefined;
  hoverTurn: number | undefined;
  private resizeObserver: ResizeObserver;
  /** The time span both time plots show, when zoomed. */
  zoom: Zoom | undefined;
  /** Set for a run held as an overview: where the full samples of a zoomed span come from. */
  private windowSource: WindowSource | undefined;
  private overview: { total: number; sent: number } | undefined;
  /** The host's samples for the current zoom (undefined until they arrive, or when the view holds every sample). */
  private window: TrajectoryWindowMessage | undefined;
  private windowRequests = 0;
  /** Resolves when the current zoom is drawn at full resolution (for tests and the benchmark). */
  windowDrawn: Promise<void> = Promise.resolve();
  private readonly status: HTMLElement;
  private readonly captions: Record<PlotName, HTMLElement>;
  private readonly resetButton: HTMLElement;
  private drag: { name: PlotName; x0: number; box: HTMLElement } | undefined;
  private suppressClick = false;

  constructor(private readonly handlers: PlotHandlers) {
    this.captions = { position: h('figcaption', null), path: h('figcaption', null), gripper: h('figcaption', null) };
    const canvas = (name: PlotName, title: string, cls: string) => {
      this.captions[name].textContent = title;
      this.captions[name].dataset.single = title;
      return h('figure', { class: `plot ${cls}` }, this.captions[name], h('div', { class: 'plot-canvas' }, h('canvas', { 'data-plot': name, 'aria-label': title })));
    };
    this.status = h('span', { class: 'plots-status' });
    this.resetButton = h('vscode-button', { class: 'plots-reset hidden', secondary: true, title: 'Show the whole run (or double-click a time plot)', onclick: () => this.setZoom(undefined) }, 'Reset zoom');
    this.root = h(
      'div',
      { class: 'plots' },
      h('p', { class: 'plots-empty empty-note hidden', role: 'status' }),
      h('div', { class: 'plots-toolbar' }, this.status, this.resetButton),
      canvas('position', 'End-effector position (m) vs sim time (s), turn boundaries dashed', 'wide'),
      canvas('path', 'Top-down path (x-y, m) with objects: ○ start, ■ latest', 'square'),
      canvas('gripper', 'Gripper width (m) vs sim time (s)', 'narrow'),
    );
    this.resizeObserver = new ResizeObserver(() => {
      if (this.series && this.width() !== this.drawnWidth) this.update(this.series);
    });
    this.resizeObserver.observe(this.root);
    for (const name of ['position', 'gripper'] as const) this.enableZoom(name);
    window.addEventListener('mouseup', (e) => this.endDrag(e));
  }

  /** A new run (init): its overview state and where windows come from; the zoom is reset. */
  reset(overview: { total: number; sent: number } | undefined, source: WindowSource | undefined): void {
    this.overview = overview;
    this.windowSource = overview ? source : undefined;
    this.zoom = undefined;
    this.window = undefined;
    this.drawnKey = '';
  }

  /** Zooms both time plots to [min, max] seconds (undefined: the whole run). */
  setZoom(zoom: Zoom | undefined): void {
    if (zoom && !(zoom.max > zoom.min)) return;
    this.zoom = zoom;
    this.window = undefined;
    if (zoom && this.windowSource) {
      const req = ++this.windowRequests;
      const source = this.windowSource;
      this.windowDrawn = source(zoom.min, zoom.max, this.width())
        .then((w) => {
          if (req !== this.windowRequests) return;
          this.window = w;
          if (this.series) this.update(this.series);
        })
        .catch((err: Error) => {
          if (req === this.windowRequests) this.status.textContent = `Could not load the full samples of this span: ${err.message}`;
        });
    } else {
      this.windowDrawn = Promise.resolve();
    }
    if (this.series) this.update(this.series);
  }

  private enableZoom(name: PlotName): void {
    const holder = this.root.querySelector<HTMLElement>(`canvas[data-plot="${name}"]`)!.parentElement!;
    const xOf = (e: MouseEvent) => e.clientX - holder.getBoundingClientRect().left;
    holder.addEventListener('mousedown', (e) => {
      const chart = this.charts.get(name);
      if (!chart || e.button !== 0) return;
      const x = xOf(e);
      if (x < chart.chartArea.left || x > chart.chartArea.right) return;
      const box = h('div', { class: 'plot-zoom-box' });
      box.style.left = `${x}px`;
      box.style.top = `${chart.chartArea.top}px`;
      box.style.height = `${chart.chartArea.bottom - chart.chartArea.top}px`;
      holder.appendChild(box);
      this.drag = { name, x0: x, box };
    });
    holder.addEventListener('mousemove', (e) => {
      if (!this.drag || this.drag.name !== name) return;
      const a = Math.min(this.drag.x0, xOf(e)), b = Math.max(this.drag.x0, xOf(e));
      this.drag.box.style.left = `${a}px`;
      this.drag.box.style.width = `${b - a}px`;
    });
    holder.addEventListener('dblclick', () => this.setZoom(undefined));
  }

  private endDrag(e: MouseEvent): void {
    const d = this.drag;
    if (!d) return;
    this.drag = undefined;
    d.box.remove();
    const chart = this.charts.get(d.name);
    if (!chart) return;
    const x1 = e.clientX - chart.canvas.getBoundingClientRect().left;
    if (Math.abs(x1 - d.x0) < 5) return;
    this.suppressClick = true;
    setTimeout(() => (this.suppressClick = false), 0);
    const a = chart.scales.x.getValueForPixel(Math.min(d.x0, x1));
    const b = chart.scales.x.getValueForPixel(Math.max(d.x0, x1));
    if (a !== undefined && b !== undefined) this.setZoom({ min: a, max: b });
  }

  private width(): number {
    const c = this.root.querySelector<HTMLElement>('.plot.wide .plot-canvas');
    return Math.max(100, Math.round(c?.clientWidth ?? 800));
  }

  /** Rebuilds datasets when the samples or the width changed; otherwise only redraws highlights. */
  update(series: TrajectorySeriesBuilder): void {
    this.series = series;
    if (this.root.clientWidth === 0) return; // hidden tab: draw when shown
    // No motion: the time plots would be empty 0-1 axes, so they give way to a note saying why; the top-down plot
    // still shows where the objects were, when the trace says.
    // (One sample is the pose at reset: still no motion to plot over time.)
    const noMotion = series.length < 2;
    const noObjects = series.objectMarkers().length === 0;
    this.root.classList.toggle('no-motion', noMotion);
    this.root.classList.toggle('no-objects', noMotion && noObjects);
    const note = this.root.querySelector('.plots-empty')!;
    note.textContent = noMotion ? `${this.emptyNote}${noObjects ? '' : ' The top-down plot shows the objects where the episode started.'}` : '';
    note.classList.toggle('hidden', !noMotion);
    const width = this.width();
    const zoom = this.zoom;
    const key = `${zoom?.min},${zoom?.max},${this.window ? 'w' : ''}`;
    if (series.version === this.drawnVersion && width === this.drawnWidth && key === this.drawnKey && this.charts.size === 3) {
      this.redraw();
      return;
    }
    this.drawnVersion = series.version;
    this.drawnWidth = width;
    this.drawnKey = key;
    const col = palette();
    // The zoomed span at full resolution once the host sent it; otherwise what the view holds.
    const w0 = this.window;
    const names = Array.from({ length: series.armCount }, (_, k) => series.arm(k).name);
    const src: TimeColumns = w0
      ? { t: w0.t, x: w0.x, y: w0.y, z: w0.z, width: w0.gripperWidth, turn: w0.turn, ...(w0.arms && w0.armsWidth === 5 * names.length ? { arms: names.map((name, k) => ({ name, ...windowArm(w0, k) })) } : {}) }
      : { t: series.t, x: series.x, y: series.y, z: series.z, width: series.gripperWidth, turn: series.turn, ...(names.length ? { arms: names.map((_, k) => { const a = series.arm(k); return { name: a.name, x: a.x, y: a.y, z: a.z, width: a.gripperWidth }; }) } : {}) };
    const t = src.t;
    const ts = (ys: ArrayLike<number>, label: string, color: string, dash: number[] = []) => {
      const idx = decimateMinMax(t, ys, width, zoom?.min, zoom?.max);
      const data: Pt[] = new Array(idx.length);
      const turns = new Int32Array(idx.length);
      for (let k = 0; k < idx.length; k++) {
        data[k] = { x: t[idx[k]], y: ys[idx[k]] };
        turns[k] = src.turn[idx[k]];
      }
      return { turns, ds: { label, data, borderColor: color, backgroundColor: color, borderWidth: 1.5, borderDash: dash, pointRadius: 0, pointHoverRadius: 3 } };
    };
    const st = series.t;
    const tRange = zoom ?? (st.length ? { min: st[0], max: st[st.length - 1] } : { min: 0, max: 1 });
    const armColors = [col.path, col.width, col.y, col.z, col.x];
    const objs = series.objectMarkers();
    const sel = this.selectedPath(series);
    const objectSets = [
      { label: 'objects (start)', data: objs.map((o) => ({ x: o.initial[0], y: o.initial[1] })), showLine: false, pointStyle: 'circle', pointRadius: 5, borderColor: col.objects, backgroundColor: 'transparent', borderWidth: 1.5 },
      { label: 'objects (latest)', data: objs.map((o) => ({ x: o.latest[0], y: o.latest[1] })), showLine: false, pointStyle: 'rect', pointRadius: 5, borderColor: col.objects, backgroundColor: col.objects },
    ];
    const selected = { label: 'selected turn', data: sel, showLine: true, borderColor: col.fg, backgroundColor: col.fg, borderWidth: 3, pointRadius: 0 };
    if (src.arms) {
      // Every robot: x/y/z in their colours, one line style per robot; gripper and path one colour per robot.
      const pos = src.arms.flatMap((a, k) => [ts(a.x, `${a.name} x`, col.x, ARM_DASH[k % ARM_DASH.length]), ts(a.y, `${a.name} y`, col.y, ARM_DASH[k % ARM_DASH.length]), ts(a.z, `${a.name} z`, col.z, ARM_DASH[k % ARM_DASH.length])]);
      this.set('position', pos.map((p) => p.ds), pos.map((p) => p.turns), col, true, [tRange]);
      const grip = src.arms.map((a, k) => ts(a.width, a.name, armColors[k % armColors.length]!));
      this.set('gripper', grip.map((g) => g.ds), grip.map((g) => g.turns), col, true, [tRange]);
      const styles = src.arms.map((a, k) => `${a.name} ${['solid', 'dashed', 'dotted', 'dash-dot', 'even dashes'][k % ARM_DASH.length]}`).join(', ');
      this.captions.position.textContent = `End-effector position (m) of each robot vs sim time (s): ${styles}; turn boundaries in grey`;
      this.captions.gripper.textContent = 'Gripper width (m) of each robot vs sim time (s); 0 for a suction cup';
      this.captions.path.textContent = "Top-down path of each robot's end effector (x-y, m) with objects: ○ start, ■ latest";
      const paths = names.map((name, k) => {
        const a = series.arm(k);
        const idx = decimatePath(a.x, a.y, width);
        return { idx, ds: { label: name, data: Array.from(idx, (i) => ({ x: a.x[i], y: a.y[i] })), showLine: true, borderColor: armColors[k % armColors.length], backgroundColor: armColors[k % armColors.length], borderWidth: 1.5, pointRadius: 0, pointHoverRadius: 3 } };
      });
      const sets = [...paths.map((p) => p.ds), selected, ...objectSets];
      const turns = [...paths.map((p) => Int32Array.from(p.idx, (i) => series.turn[i])), undefined, undefined, undefined];
      this.set('path', sets, turns, col, false, squareRange([...paths.flatMap((p) => p.ds.data.filter((q) => Number.isFinite(q.x) && Number.isFinite(q.y))), ...objectSets[0]!.data, ...objectSets[1]!.data]));
    } else {
      for (const c of Object.values(this.captions)) c.textContent = c.dataset.single ?? '';
      const x = ts(src.x, 'x', col.x), y = ts(src.y, 'y', col.y), z = ts(src.z, 'z', col.z);
      this.set('position', [x.ds, y.ds, z.ds], [x.turns, y.turns, z.turns], col, true, [tRange]);
      const w = ts(src.width, 'gripper width', col.width);
      this.set('gripper', [w.ds], [w.turns], col, true, [tRange]);
      const pidx = decimatePath(series.x, series.y, width);
      const path: Pt[] = Array.from(pidx, (i) => ({ x: series.x[i], y: series.y[i] }));
      const datasets = [{ label: 'end effector', data: path, showLine: true, borderColor: col.path, backgroundColor: col.path, borderWidth: 1.5, pointRadius: 0, pointHoverRadius: 3 }, selected, ...objectSets];
      this.set('path', datasets, [Int32Array.from(pidx, (i) => series.turn[i]), undefined, undefined, undefined], col, false, squareRange([...path, ...objectSets[0]!.data, ...objectSets[1]!.data]));
    }
    this.describe();
  }

  /** The toolbar line: what the plots show (all samples, an overview, a zoomed span at full resolution or not). */
  private describe(): void {
    const n = (k: number) => k.toLocaleString('en-US');
    const zoom = this.zoom;
    this.resetButton.classList.toggle('hidden', !zoom);
    const span = zoom ? `${zoom.min.toFixed(2)}–${zoom.max.toFixed(2)} s: ` : '';
    let text: string;
    if (!zoom) {
      text = this.overview
        ? `Overview: ${n(this.overview.sent)} of the run's ${n(this.overview.total)} samples (every spike and turn boundary kept); drag across a time plot to see a span at full resolution.`
        : 'Drag across a time plot to zoom in; double-click to zoom out.';
    } else if (!this.overview) {
      text = `${span}every sample of the span (the view holds the whole run).`;
    } else if (!this.window) {
      text = `${span}loading the span's full samples…`;
    } else {
      text = this.window.full ? `${span}all ${n(this.window.count)} samples of the span.` : `${span}${n(this.window.count)} samples, drawn min/max per pixel (every spike kept); zoom further for single samples.`;
    }
    this.status.textContent = text;
  }

  /** The selected turn's stretch of the path; with several arms each robot's, apart (a NaN point breaks the line). */
  private selectedPath(series: TrajectorySeriesBuilder): Pt[] {
    const out: Pt[] = [];
    if (this.selectedTurn === undefined) return out;
    const tracks = series.armCount ? Array.from({ length: series.armCount }, (_, k) => series.arm(k)) : [series];
    for (const a of tracks) {
      if (out.length) out.push({ x: NaN, y: NaN });
      for (const s of series.spans) {
        if (s.turn !== this.selectedTurn) continue;
        const step = Math.max(1, Math.floor((s.end - s.start) / 400));
        for (let i = s.start; i < s.end; i += step) out.push({ x: a.x[i]!, y: a.y[i]! });
        out.push({ x: a.x[s.end - 1]!, y: a.y[s.end - 1]! });
      }
    }
    return out;
  }

  private set(name: PlotName, datasets: object[], turns: (Int32Array | undefined)[], col: ReturnType<typeof palette>, timeAxis: boolean, range?: { min: number; max: number }[]): void {
    this.turnMaps.set(name, turns);
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
    // A value over time that stays flat up to noise (a gripper that never moves) gets a readable axis.
    const valueAxis = (title: string) => ({ ...axis(title), ...readableValueAxis({ color: col.fg, maxTicksLimit: 8, includeBounds: false }) });
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
          y: timeAxis ? valueAxis(name === 'gripper' ? 'width (m)' : 'position (m)') : axis('y (m)', range?.[1]),
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
          if (this.suppressClick) return; // the end of a zoom drag
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
    if (datasetIndex === undefined || index === undefined) return undefined;
    return this.turnMaps.get(name)?.[datasetIndex]?.[index];
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
        // Zoomed in, most spans lie outside the plot: draw inside it only.
        ctx.beginPath();
        ctx.rect(a.left, a.top, a.right - a.left, a.bottom - a.top);
        ctx.clip();
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
        ctx.textBaseline = 'top';
        const markers = s.objectMarkers().flatMap((o) => [o.latest, o.initial].map((p) => ({ x: scales.x.getPixelForValue(p[0]), y: scales.y.getPixelForValue(p[1]) })));
        this.labelBoxes = placeLabels(
          s.objectMarkers().map((o) => ({ name: o.name, x: scales.x.getPixelForValue(o.latest[0]), y: scales.y.getPixelForValue(o.latest[1]), w: ctx.measureText(o.name).width })),
          markers,
          chart.chartArea,
        );
        for (const b of this.labelBoxes) ctx.fillText(b.name, b.x, b.y + 1);
        ctx.restore();
      },
    };
  }

  /** Redraws highlights (selection/hover) without rebuilding data. */
  redraw(): void {
    const path = this.charts.get('path');
    const sel = path?.data.datasets.find((d) => d.label === 'selected turn');
    if (path && sel && this.series) {
      sel.data = this.selectedPath(this.series);
      path.update('none');
    }
    this.charts.get('position')?.draw();
    this.charts.get('gripper')?.draw();
  }

  /** The zoom and what it shows (for the test hook). */
  zoomState(): { zoom?: Zoom; status: string; window?: { count: number; full: boolean; points: number } } {
    return {
      ...(this.zoom ? { zoom: { ...this.zoom } } : {}),
      status: this.status.textContent ?? '',
      ...(this.window ? { window: { count: this.window.count, full: this.window.full, points: this.window.t.length } } : {}),
    };
  }

  /** Object label boxes of the top-down plot as drawn (for the test hook). */
  labels(): { name: string; x: number; y: number; w: number; h: number }[] {
    return this.labelBoxes.map((b) => ({ ...b }));
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

type Box = { x: number; y: number; w: number; h: number };
const LABEL_H = 12;
const MARKER_R = 6;

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/**
 * Places one label per object next to its marker without overlapping another label or marker, inside the plot
 * area: right of the marker, then left, above, below, then further out in rows. Objects often sit on top of each
 * other (a stack, a block in its container), so several labels compete for the same spot.
 */
export function placeLabels(items: { name: string; x: number; y: number; w: number }[], markers: { x: number; y: number }[], area: { left: number; right: number; top: number; bottom: number }): (Box & { name: string })[] {
  const obstacles: Box[] = markers.map((m) => ({ x: m.x - MARKER_R, y: m.y - MARKER_R, w: 2 * MARKER_R, h: 2 * MARKER_R }));
  const placed: (Box & { name: string })[] = [];
  const inside = (b: Box) => b.x >= area.left && b.x + b.w <= area.right && b.y >= area.top && b.y + b.h <= area.bottom;
  for (const it of items) {
    const w = Math.ceil(it.w) + 2;
    const candidates: Box[] = [];
    for (let ring = 0; ring < 8; ring++) {
      const dy = ring * LABEL_H;
      candidates.push(
        { x: it.x + MARKER_R + 2, y: it.y - LABEL_H / 2 + dy, w, h: LABEL_H },
        { x: it.x - MARKER_R - 2 - w, y: it.y - LABEL_H / 2 + dy, w, h: LABEL_H },
        { x: it.x + MARKER_R + 2, y: it.y - LABEL_H / 2 - dy, w, h: LABEL_H },
        { x: it.x - MARKER_R - 2 - w, y: it.y - LABEL_H / 2 - dy, w, h: LABEL_H },
        { x: it.x - w / 2, y: it.y - MARKER_R - 2 - LABEL_H - dy, w, h: LABEL_H },
        { x: it.x - w / 2, y: it.y + MARKER_R + 2 + dy, w, h: LABEL_H },
      );
    }
    const free = (b: Box) => inside(b) && !placed.some((p) => overlaps(p, b)) && !obstacles.some((o) => overlaps(o, b));
    // Failing every spot (a crowded corner), the first one that at least misses the other labels.
    const box = candidates.find(free) ?? candidates.find((b) => !placed.some((p) => overlaps(p, b))) ?? candidates[0];
    placed.push({ ...box, name: it.name });
  }
  return placed;
}
