// Read-only inspection hook for tests and benchmarks (window.__waypointViewer). It returns copies, so a page
// script cannot change the viewer through it; `flush` only renders what is already pending.
import type { ArchitectureInspectors } from '../../src/architectures/views.js';
import type { MotionChartData } from './motionChart.js';
import type { PlotName } from './plots.js';
import type { PerceptionTabData } from './perception/perceptionTab.js';
import type { RunViewer } from './viewer.js';
import { Chart } from 'chart.js';

/** The viewer's own inspectors and, merged in, the architectures' views' (src/architectures/views.ts). */
export interface ViewerDebugHook extends ArchitectureInspectors {
  readonly ready: boolean;
  readonly runId: string | undefined;
  readonly selectedTurn: number | undefined;
  readonly hoverTurn: number | undefined;
  readonly tab: string;
  readonly eventCount: number;
  readonly invalidMessages: number;
  readonly notes: string[];
  readonly timings: RunViewer['timings'];
  rows(): { turn: number; role: string; routeTo?: string; outcome: string; summary: string; flags: string[] }[];
  warnings(): { line?: number; kind: string; message: string }[];
  chart(name: PlotName): { label: string; data: { x: number; y: number }[] }[] | undefined;
  /** Object labels of the top-down plot as drawn: canvas pixel boxes. */
  pathLabels(): { name: string; x: number; y: number; w: number; h: number }[];
  /** The "Motion scores per action" chart's labels and datasets as drawn. */
  motionChart(): MotionChartData | undefined;
  seriesLength(): number;
  /** The time plots' zoom, the toolbar text, and the host window drawn for it. */
  plotsZoom(): ReturnType<RunViewer['plots']['zoomState']>;
  /** Resolves once the current zoom is drawn at full resolution (at once when no window is needed). */
  plotsWindowDrawn(): Promise<void>;
  /** The Perception tab as drawn (runs with --perception estimated): the observation shown and its objects. */
  perception(): PerceptionTabData | undefined;
  diff(): { original: string; modified: string; sideBySide: boolean; originalDom: boolean; modifiedDom: boolean } | undefined;
  diffLineChanges(): Promise<number>;
  /** A drawn chart's axis as laid out: its range and tick labels (`canvas` is a CSS selector of the chart's canvas). */
  axis(canvas: string, axis: string): { min: number; max: number; labels: string[] } | undefined;
  flush(): void;
}

declare global {
  interface Window {
    __waypointViewer?: ViewerDebugHook;
  }
}

export function installDebugHook(viewer: RunViewer, invalidCount: () => number): void {
  const own: Omit<ViewerDebugHook, keyof ArchitectureInspectors> = {
    get ready() { return viewer.runId !== undefined && viewer.renders > 0 && !Number.isNaN(viewer.timings.firstRenderMs); },
    get runId() { return viewer.runId; },
    get selectedTurn() { return viewer.selectedTurn; },
    get hoverTurn() { return viewer.hoverTurn; },
    get tab() { return viewer.tab; },
    get eventCount() { return viewer.proj.eventCount; },
    get invalidMessages() { return invalidCount(); },
    get notes() { return [...viewer.notes]; },
    get timings() { return { ...viewer.timings }; },
    rows: () => viewer.proj.timeline.rows().map((r) => ({ turn: r.turn, role: r.role, routeTo: r.routeTo, outcome: r.outcome, summary: r.summary, flags: r.flags.map((f) => f.kind) })),
    warnings: () => viewer.warnings.map((w) => ({ ...w })),
    chart: (name) => viewer.plots.data(name),
    pathLabels: () => viewer.plots.labels(),
    motionChart: () => viewer.motionChart.data(),
    seriesLength: () => viewer.proj.series.length,
    plotsZoom: () => viewer.plots.zoomState(),
    plotsWindowDrawn: () => viewer.plots.windowDrawn,
    perception: () => viewer.extras.perception.data(),
    diff: () => viewer.diff.sides(),
    diffLineChanges: async () => (await viewer.diff.lineChanges()).length,
    axis: (canvas, axis) => {
      const el = document.querySelector<HTMLCanvasElement>(canvas);
      const scale = el ? Chart.getChart(el)?.scales[axis] : undefined;
      return scale ? { min: scale.min, max: scale.max, labels: scale.ticks.map((t) => String(t.label)) } : undefined;
    },
    flush: () => viewer.render(),
  };
  // The architectures' inspectors, from their views (an architecture without views has none to offer).
  const hook = Object.assign(own, viewer.extras.inspect) as ViewerDebugHook;
  Object.defineProperty(window, '__waypointViewer', { value: Object.freeze(hook), writable: false, configurable: false });
}
