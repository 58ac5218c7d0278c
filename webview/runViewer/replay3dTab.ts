// The "3D" tab of the run viewer: playback controls (play/pause, scrub slider, time readout, speed 0.25x-4x,
// fit view) and the timeline/plot synchronisation. It holds no three.js: the renderer (replay3dView.ts) is
// a lazy bundle (bundles/replay3d.ts) loaded when the tab first opens, so the viewer's open time does not grow with it. Selecting a turn jumps
// to its first sample; playing marks the current turn in the timeline; the Plots tab draws a cursor at the
// replay time. Read-only test hook: window.__waypointReplay3d.
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import { Chart, type Plugin } from 'chart.js';
import './replay3d.css';
import { Scene3dBuilder, type Collision3d } from '../../src/core/trace/projections/scene3d.js';
import type { TrajectorySeriesBuilder } from '../../src/core/trace/projections/trajectorySeries.js';
import type { ViewEvent } from '../../src/protocol/webview.js';
import type { TraceEvent } from '../../src/protocol/trace.js';
import { h } from '../common/dom.js';
import { loadBundle } from '../common/lazyBundle.js';
import type { Replay3dBundle } from './bundles/replay3d.js';
import type { Replay3dView, ReplayStats } from './replay3dView.js';

export const REPLAY_SPEEDS = [0.25, 0.5, 1, 2, 4] as const;

export interface Replay3dHandlers {
  /** The sample under the playhead belongs to another turn (undefined: no samples). */
  currentTurn(turn: number | undefined, playing: boolean): void;
}

type Status = 'idle' | 'loading' | 'ready' | 'no-webgl' | 'error';

/** Replay time shown as a cursor on the time plots (undefined until the 3D tab has been used). */
let cursorTSecs: number | undefined;

const cursorPlugin: Plugin = {
  id: 'waypointReplayCursor',
  afterDatasetsDraw(chart) {
    const name = chart.canvas?.dataset.plot;
    if (cursorTSecs === undefined || (name !== 'position' && name !== 'gripper')) return;
    const x = chart.scales.x?.getPixelForValue(cursorTSecs);
    const a = chart.chartArea;
    if (x === undefined || !Number.isFinite(x) || x < a.left || x > a.right) return;
    const ctx = chart.ctx;
    ctx.save();
    ctx.strokeStyle = getComputedStyle(document.body).getPropertyValue('--vscode-foreground').trim() || '#cccccc';
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(x, a.top);
    ctx.lineTo(x, a.bottom);
    ctx.stroke();
    ctx.restore();
  },
};
Chart.register(cursorPlugin);

/** Marks the timeline row of the turn under the replay's playhead. */
export function markReplayTurn(timeline: HTMLElement, turn: number | undefined, scroll = false): void {
  for (const row of timeline.querySelectorAll<HTMLElement>('.turn-row')) {
    const on = turn !== undefined && Number(row.dataset.turn) === turn;
    row.classList.toggle('replay-current', on);
    if (on && scroll) row.scrollIntoView({ block: 'nearest' });
  }
}

function webglMissing(): string | undefined {
  try {
    const c = document.createElement('canvas');
    const gl = c.getContext('webgl2') ?? c.getContext('webgl');
    // Give the probe's context back now: browsers cap live WebGL contexts per page (~16).
    if (gl) gl.getExtension('WEBGL_lose_context')?.loseContext();
    if (gl) return undefined;
    return 'no WebGL context in this webview; hardware acceleration may be off';
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

export class Replay3dTab {
  readonly root: HTMLElement;
  scene3d = new Scene3dBuilder();
  private series: TrajectorySeriesBuilder | undefined;
  private view: Replay3dView | undefined;
  private loading: Promise<void> | undefined;
  private visible = false;
  /** Shown at least once: only then do the plots draw the replay cursor. */
  private used = false;
  status: Status = 'idle';
  private note = 'No trajectory samples in this trace yet.';
  /** Why there are no samples (set by the viewer from the run's outcome). */
  get emptyNote(): string {
    return this.note;
  }
  set emptyNote(text: string) {
    if (text === this.note) return;
    this.note = text;
    if (this.status === 'ready') this.refresh();
  }
  message = '';
  index = 0;
  playing = false;
  speed = 1;
  /** Set when the run arrived as an overview: the replay plays the overview's samples. */
  overview: { total: number; sent: number } | undefined;
  private playT = 0;
  private lastFrameMs = 0;
  private raf = 0;
  private turn: number | undefined;
  /** performance.now() marks of the first opening (for the benchmark and the test hook). */
  readonly timings = { showMs: NaN, moduleMs: NaN, firstFrameMs: NaN };
  private readonly el: { viewport: HTMLElement; legend: HTMLElement; message: HTMLElement; play: HTMLElement; slider: HTMLInputElement; readout: HTMLElement; speed: HTMLElement & { value: string } };

  constructor(private readonly handlers: Replay3dHandlers) {
    const play = h('vscode-button', { class: 'replay3d-play', title: 'Play / pause (Space)', onclick: () => this.toggle() }, '▶ Play');
    const slider = h('input', { type: 'range', class: 'replay3d-slider', min: '0', max: '0', step: '1', value: '0', 'aria-label': 'Replay time (sample)' });
    slider.addEventListener('input', () => this.seek(Number(slider.value), true));
    const speed = h('vscode-single-select', { class: 'replay3d-speed', title: 'Playback speed', 'aria-label': 'Playback speed' },
      ...REPLAY_SPEEDS.map((s) => h('vscode-option', { value: String(s), selected: s === 1 }, `${s}×`))) as HTMLElement & { value: string };
    speed.addEventListener('change', () => {
      const v = Number(speed.value);
      if (REPLAY_SPEEDS.includes(v as (typeof REPLAY_SPEEDS)[number])) this.speed = v;
    });
    const fit = h('vscode-button', { secondary: true, title: 'Frame the scene again', onclick: () => { if (this.series) this.view?.fit(); } }, 'Fit view');
    const readout = h('span', { class: 'replay3d-readout', 'aria-live': 'off' }, 't = –');
    const viewport = h('div', { class: 'replay3d-viewport' });
    const message = h('p', { class: 'replay3d-message hidden', role: 'status' });
    const legend = h('div', { class: 'replay3d-legend' },
      h('span', { class: 'swatch path' }), 'end-effector path (bright: done; other robots\' hands: orange, green, blue) ',
      h('span', { class: 'swatch waypoint' }), 'commanded waypoints (red: failed call; current turn larger) ',
      h('span', { class: 'swatch collision' }), 'collisions (the bodies glow red at that time)');
    this.root = h('div', { class: 'replay3d', tabindex: '-1' },
      h('div', { class: 'replay3d-toolbar' }, play, slider, readout, speed, fit), legend, message, viewport);
    this.root.addEventListener('keydown', (e) => this.onKey(e));
    window.addEventListener('resize', () => this.fitHeight());
    this.el = { viewport, message, play, slider, readout, speed, legend };
    installHook(this);
  }

  /** A new run (init): forget the previous one. */
  reset(series: TrajectorySeriesBuilder): void {
    this.pause();
    this.scene3d = new Scene3dBuilder();
    this.series = series;
    this.index = 0;
    this.turn = undefined;
    this.refresh();
  }

  /** New events (init or a live append). A playhead parked on the last sample follows new samples. */
  append(events: readonly (TraceEvent | ViewEvent)[], series: TrajectorySeriesBuilder): void {
    const before = this.scene3d.length;
    const follow = !this.playing && this.index >= before - 1;
    this.series = series;
    this.scene3d.append(events);
    this.refresh();
    if (follow && series.length > before) this.seek(series.length - 1, false);
  }

  /** Called when the tab is shown; the first call loads three.js and builds the scene. */
  show(): void {
    this.visible = true;
    this.used = true;
    if (Number.isNaN(this.timings.showMs)) this.timings.showMs = performance.now();
    if (this.status === 'idle') this.load();
    this.refresh();
    // The tab panel sizes to its content: give the pane the height left below it (after the tab is laid out).
    requestAnimationFrame(() => this.fitHeight());
  }

  private fitHeight(): void {
    if (!this.visible) return;
    const top = this.root.getBoundingClientRect().top;
    this.root.style.height = `${Math.max(320, Math.floor(window.innerHeight - top - 12))}px`;
  }

  hide(): void {
    this.visible = false;
    this.pause();
  }

  private load(): void {
    const missing = webglMissing();
    if (missing) {
      this.fail('no-webgl', `3D replay unavailable: WebGL could not be started (${missing}). The Plots tab shows the same trajectory.`);
      return;
    }
    this.status = 'loading';
    this.showMessage('Loading the 3D view…');
    this.loading ??= loadBundle<Replay3dBundle>('replay3d')
      .then(({ Replay3dView }) => {
        this.timings.moduleMs = performance.now() - this.timings.showMs;
        try {
          this.view = new Replay3dView(this.el.viewport, this.data(), (why) => this.fail('error', `3D replay stopped: ${why}. Reopen the run to restart it.`));
        } catch (err) {
          this.fail('no-webgl', `3D replay unavailable: WebGL could not be started (${err instanceof Error ? err.message : String(err)}). The Plots tab shows the same trajectory.`);
          return;
        }
        this.status = 'ready';
        this.refresh();
        this.view.renderNow();
        this.timings.firstFrameMs = performance.now() - this.timings.showMs;
      })
      .catch((err: unknown) => this.fail('error', `3D replay failed to load: ${err instanceof Error ? err.message : String(err)}`));
  }

  private fail(status: Status, message: string): void {
    this.status = status;
    this.pause();
    this.showMessage(message);
    this.el.viewport.classList.add('hidden');
    this.el.legend.classList.add('hidden');
  }

  private showMessage(text: string): void {
    this.message = text;
    this.el.message.textContent = text;
    this.el.message.classList.toggle('hidden', text === '');
  }

  private data() {
    return { scene3d: this.scene3d, series: this.series! };
  }

  /** Updates controls and (when shown and loaded) the scene after new data. */
  private refresh(): void {
    const n = this.series?.length ?? 0;
    this.el.slider.max = String(Math.max(0, n - 1));
    this.el.slider.disabled = n === 0;
    // Nothing to draw at all (a run that did not start): only the note, no empty canvas and idle controls.
    this.root.classList.toggle('replay3d-nothing', n === 0 && !this.scene3d.scene);
    if (this.index > n - 1) this.index = Math.max(0, n - 1);
    if (this.status === 'ready') {
      const notes: string[] = [];
      // No motion: say why; the scene, when the trace has one, is drawn as the episode started.
      if (n < 2) notes.push(this.scene3d.scene && n === 1 ? `${this.emptyNote} The scene is shown as it was at the start.` : `${this.emptyNote} The trace has no pose of the scene to show.`);
      else if (!this.scene3d.scene) notes.push('This trace has no scene geometry (no `scene` event): only the end-effector path and waypoints are drawn.');
      else if (!this.scene3d.hasPoses()) notes.push('The samples carry no body poses: bodies stay where the scene event put them; the end-effector path and waypoints move.');
      if (this.scene3d.length !== n) notes.push(`3D samples (${this.scene3d.length}) and plot samples (${n}) disagree; the replay may be off.`);
      if (this.overview) notes.push(`This long run plays from an overview: ${this.overview.sent.toLocaleString('en-US')} of its ${this.overview.total.toLocaleString('en-US')} samples (the Plots tab shows any span at full resolution).`);
      this.showMessage(notes.join(' '));
    }
    if (this.visible && this.view && this.series) {
      this.view.sync(this.data());
      this.view.setSample(this.index);
    }
    this.updateReadout();
  }

  /** Jumps to the first sample of `turn`, or of the next turn with samples (the state the turn started from). */
  selectTurn(turn: number | undefined): void {
    const s = this.series;
    if (turn === undefined || !s || s.length === 0) return;
    const span = s.spans.find((sp) => sp.turn >= turn);
    this.seek(span ? span.start : s.length - 1, false);
  }

  /** Moves the playhead to sample i. */
  seek(i: number, fromUser: boolean): void {
    const s = this.series;
    if (!s || s.length === 0) return;
    this.index = Math.max(0, Math.min(s.length - 1, Math.round(i)));
    this.playT = s.t[this.index];
    if (fromUser && this.playing) this.lastFrameMs = performance.now();
    this.el.slider.value = String(this.index);
    if (this.visible) this.view?.setSample(this.index);
    this.updateReadout();
  }

  toggle(): void {
    if (this.playing) this.pause();
    else this.play();
  }

  play(): void {
    const s = this.series;
    if (!s || s.length === 0 || this.playing) return;
    if (this.index >= s.length - 1) this.seek(0, false);
    this.playing = true;
    this.playT = s.t[this.index];
    this.lastFrameMs = performance.now();
    this.raf = requestAnimationFrame((now) => this.tick(now));
    this.view?.setInteractive({ playing: true });
    this.updateReadout();
  }

  pause(): void {
    if (this.raf) cancelAnimationFrame(this.raf);
    this.raf = 0;
    if (!this.playing) return;
    this.playing = false;
    this.view?.setInteractive({ playing: false });
    this.updateReadout();
  }

  private tick(now: number): void {
    const s = this.series;
    this.raf = 0;
    if (!this.playing || !s || s.length === 0) return;
    this.playT += (Math.max(0, now - this.lastFrameMs) / 1000) * this.speed;
    this.lastFrameMs = now;
    const end = s.t[s.length - 1];
    const i = this.playT >= end ? s.length - 1 : s.indexAt(this.playT);
    if (i !== this.index) {
      const t = this.playT;
      this.seek(i, false);
      this.playT = t;
    }
    if (this.playT >= end) {
      this.pause();
      return;
    }
    this.raf = requestAnimationFrame((n) => this.tick(n));
  }

  private updateReadout(): void {
    const s = this.series;
    const n = s?.length ?? 0;
    const label = this.playing ? '❚❚ Pause' : '▶ Play';
    if (this.el.play.textContent !== label) this.el.play.textContent = label;
    if (!s || n === 0) {
      this.el.readout.textContent = 't = –';
      cursorTSecs = undefined;
      this.setTurn(undefined);
      return;
    }
    const t = s.t[this.index];
    const turn = s.turn[this.index];
    this.el.readout.textContent = `t = ${t.toFixed(2)} / ${s.t[n - 1].toFixed(2)} s · turn ${turn} · sample ${this.index + 1}/${n}`;
    // Until the tab has been opened the playhead is nobody's concern: no cursor in the plots, no timeline mark.
    cursorTSecs = this.used ? t : undefined;
    this.setTurn(this.used ? turn : undefined);
  }

  private setTurn(turn: number | undefined): void {
    if (turn === this.turn) return;
    this.turn = turn;
    this.handlers.currentTurn(turn, this.playing);
  }

  get currentTurn(): number | undefined {
    return this.turn;
  }

  /** Run time at the playhead (the plots' time axis), or undefined without samples. */
  get tSecs(): number | undefined {
    return this.series?.length ? this.series.t[this.index] : undefined;
  }

  private onKey(e: KeyboardEvent): void {
    const t = e.target as HTMLElement | null;
    if (t && (/^(INPUT|SELECT|TEXTAREA|VSCODE-BUTTON|VSCODE-SINGLE-SELECT)$/.test(t.tagName))) return;
    if (e.key === ' ') this.toggle();
    else if (e.key === '.') this.seek(this.index + 1, true);
    else if (e.key === ',') this.seek(this.index - 1, true);
    else return;
    e.preventDefault();
    e.stopPropagation();
  }

  /** For the test hook. */
  inspect() {
    return { view: this.view, stats: this.view?.stats() as ReplayStats | undefined, collisions: this.scene3d.collisions() as readonly Collision3d[] };
  }
}

export interface Replay3dDebugHook {
  readonly status: Status;
  readonly message: string;
  readonly index: number;
  readonly tSecs: number | undefined;
  readonly turn: number | undefined;
  readonly playing: boolean;
  readonly speed: number;
  readonly timings: Replay3dTab['timings'];
  /** 'reduced' (no shadows, half-resolution frames while moving) after a slow first frame. */
  readonly quality: string | undefined;
  readonly glRenderer: string | undefined;
  stats(): ReplayStats | undefined;
  /** Pose of a body as drawn: [x, y, z, qw, qx, qy, qz]. */
  drawnPose(body: string): number[] | undefined;
  /** Pose of a body at sample i as recorded in the trace. */
  recordedPose(body: string, i: number): number[] | undefined;
  hotBodies(): string[];
  collisions(): { turn: number; a: string; b: string; sampleIndex: number; source: string }[];
  camera(): { position: number[]; target: number[] } | undefined;
  /** Renders and reads the frame back: corner colour and counts of clearly red/green/blue pixels. */
  pixels(): { corner: string; hues: { red: number; green: number; blue: number } };
  flush(): void;
}

declare global {
  interface Window {
    __waypointReplay3d?: Replay3dDebugHook;
  }
}

function installHook(tab: Replay3dTab): void {
  if (window.__waypointReplay3d) return;
  const hook: Replay3dDebugHook = {
    get status() { return tab.status; },
    get message() { return tab.message; },
    get index() { return tab.index; },
    get tSecs() { return tab.tSecs; },
    get turn() { return tab.currentTurn; },
    get playing() { return tab.playing; },
    get speed() { return tab.speed; },
    get timings() { return { ...tab.timings }; },
    get quality() { return tab.inspect().view?.quality; },
    get glRenderer() { return tab.inspect().view?.glRenderer; },
    stats: () => tab.inspect().stats,
    drawnPose: (body) => tab.inspect().view?.bodyPose(body),
    recordedPose: (body, i) => {
      const out = new Array<number>(7);
      return tab.scene3d.pose(i, tab.scene3d.body(body), out) ? out : undefined;
    },
    hotBodies: () => tab.inspect().view?.hotBodies() ?? [],
    collisions: () => tab.inspect().collisions.map((c) => ({ turn: c.turn, a: c.a, b: c.b, sampleIndex: c.sampleIndex, source: c.source })),
    camera: () => tab.inspect().view?.camera3(),
    pixels: () => tab.inspect().view?.pixels() ?? { corner: '', hues: { red: 0, green: 0, blue: 0 } },
    flush: () => tab.inspect().view?.renderNow(),
  };
  Object.defineProperty(window, '__waypointReplay3d', { value: Object.freeze(hook), writable: false, configurable: false });
}
