// The run viewer: owns the projection of the run's events and the UI state (selected/hovered turn, tab), and
// renders header, timeline, detail, plots and summary from the projection. Rendering is batched per frame.
import { RunProjection } from '../../src/core/trace/projections/runProjection.js';
import { whyNoMotion } from '../../src/core/trace/projections/runSummary.js';
import type { RunViewerUiState, ViewerWarning, ViewMessage } from '../../src/protocol/webview.js';
import type { Channel } from '../common/rpc.js';
import type { WebviewApi } from '../common/vscode.js';
import { h } from '../common/dom.js';
import { renderDetail } from './detail.js';
import { CodeDiffView } from './diff.js';
import { renderHeader, renderWarnings } from './header.js';
import { MotionChart } from './motionChart.js';
import { Plots } from './plots.js';
import { markReplayTurn, Replay3dTab } from './replay3dTab.js'; // 3D replay tab (three.js loads on first open)
import { ARCHITECTURE_PROJECTIONS, createExtraViews, type ExtraViews } from './extraTabs.js';
import { renderSummary } from './summary.js';
import { markTimeline, renderTimeline } from './timeline.js';

type Tab = NonNullable<RunViewerUiState['tab']>;
const CORE_TABS: Tab[] = ['turn', 'plots', 'summary', '3d'];

export class RunViewer {
  proj = new RunProjection({ projections: ARCHITECTURE_PROJECTIONS });
  runId: string | undefined;
  warnings: ViewerWarning[] = [];
  /** Notes from the view itself (invalid messages, failed requests), shown in the banner. */
  notes: string[] = [];
  live = false;
  selectedTurn: number | undefined;
  hoverTurn: number | undefined;
  tab: Tab = 'turn';
  /** performance.now() marks, for the benchmark and the test hook. */
  readonly timings = { scriptStartMs: NaN, readyPostedMs: NaN, initReceivedMs: NaN, validateMs: NaN, projectMs: NaN, firstRenderMs: NaN, lastRenderMs: NaN };
  renders = 0;

  readonly diff = new CodeDiffView();
  readonly plots: Plots;
  /** Motion scores per action (Plots tab, below the trajectory plots). */
  readonly motionChart: MotionChart;
  /** 3D replay tab. */
  readonly replay: Replay3dTab;
  /** Tabs and summary sections only some runs have: the architectures' (src/architectures/views.ts) and perception's and reach's. */
  readonly extras: ExtraViews;
  private readonly tabIds: Tab[];
  private readonly extraHeaders = new Map<string, HTMLElement[]>();
  /** Core tabs that only some runs have a use for (header and panel), shown or hidden in renderExtras. */
  private readonly optionalCore = new Map<Tab, HTMLElement[]>();
  private readonly el: { header: HTMLElement; banner: HTMLElement; timeline: HTMLElement; detail: HTMLElement; plots: HTMLElement; summary: HTMLElement; tabs: HTMLElement };
  private pending = { timeline: false, detail: false, plots: false, summary: false, header: false, extras: false };
  private frame = 0;
  private followLive = true;

  constructor(root: HTMLElement, private readonly api: WebviewApi<RunViewerUiState>, private channel: Channel | undefined) {
    const saved = api.getState();
    this.runId = saved?.runId;
    this.selectedTurn = saved?.selectedTurn;
    if (saved?.tab) this.tab = saved.tab;
    this.plots = new Plots({ hoverTurn: (t) => this.setHover(t), selectTurn: (t) => this.select(t, true) });
    this.motionChart = new MotionChart({ hoverTurn: (t) => this.setHover(t), selectTurn: (t) => this.select(t, true) });
    this.plots.root.appendChild(this.motionChart.root);
    // 3D replay: its playhead marks its turn in the timeline (selection stays the user's).
    this.replay = new Replay3dTab({ currentTurn: (t, playing) => markReplayTurn(this.el.timeline, t, playing) });
    const header = h('header', { class: 'run-header' }, 'Waiting for the run…');
    const banner = h('div', { class: 'banner hidden', role: 'alert' });
    const timeline = h('div', { class: 'timeline', role: 'listbox', tabindex: '0', 'aria-label': 'Turns' });
    const detail = h('div', { class: 'detail-pane' });
    const plotsEl = h('div', { class: 'plots-pane' }, this.plots.root);
    const summary = h('div', { class: 'summary-pane' });
    this.extras = createExtraViews({ selectTurn: (t) => this.select(t, true), hoverTurn: (t) => this.setHover(t) });
    this.tabIds = [...CORE_TABS, ...this.extras.tabs.map((t) => t.id)];
    if (!this.tabIds.includes(this.tab)) this.tab = 'turn';
    const extraParts = this.extras.tabs.flatMap((t) => {
      const header = h('vscode-tab-header', { slot: 'header', 'data-tab': t.id, class: 'hidden' }, t.label);
      const panel = h('vscode-tab-panel', null, t.root);
      this.extraHeaders.set(t.id, [header, panel]);
      return [header, panel];
    });
    const tabs = h('vscode-tabs', { 'selected-index': String(this.tabIds.indexOf(this.tab)) },
      h('vscode-tab-header', { slot: 'header', 'data-tab': 'turn' }, 'Turn'),
      h('vscode-tab-panel', null, detail),
      ...this.optional('plots', h('vscode-tab-header', { slot: 'header', 'data-tab': 'plots' }, 'Plots'), h('vscode-tab-panel', null, plotsEl)),
      h('vscode-tab-header', { slot: 'header', 'data-tab': 'summary' }, 'Summary'),
      h('vscode-tab-panel', null, summary),
      ...this.optional('3d', h('vscode-tab-header', { slot: 'header', 'data-tab': '3d' }, '3D'), h('vscode-tab-panel', null, this.replay.root)),
      extraParts);
    tabs.addEventListener('vsc-tabs-select', (e) => {
      const idx = (e as CustomEvent<{ selectedIndex: number }>).detail.selectedIndex;
      const left = this.tab;
      this.tab = this.tabIds[idx] ?? 'turn';
      this.saveState();
      this.schedule(this.tab === 'plots' ? 'plots' : this.tab === 'summary' ? 'summary' : CORE_TABS.includes(this.tab) ? 'detail' : 'extras');
      if (this.tab === '3d') this.replay.show();
      else this.replay.hide();
      if (left !== this.tab) this.extras.tabs.find((t) => t.id === left)?.hide?.();
      this.extras.tabs.find((t) => t.id === this.tab)?.show?.();
    });
    root.append(header, banner,
      h('vscode-split-layout', { class: 'split', 'initial-handle-position': '34%', 'fixed-pane': 'start', 'min-start': '220px', 'min-end': '320px' },
        h('div', { slot: 'start', class: 'timeline-pane' }, h('div', { class: 'pane-title' }, 'Turns'), timeline),
        h('div', { slot: 'end', class: 'main-pane' }, tabs)));
    this.el = { header, banner, timeline, detail, plots: plotsEl, summary, tabs };
    document.addEventListener('keydown', (e) => this.onKey(e));
    if (this.tab === '3d') this.replay.show();
    this.extras.tabs.find((t) => t.id === this.tab)?.show?.();
  }

  setChannel(channel: Channel): void {
    this.channel = channel;
  }

  handle(m: Exclude<ViewMessage, { type: 'response' | 'trajectoryWindow' }>): void {
    switch (m.type) {
      case 'init': {
        this.timings.initReceivedMs = performance.now();
        const sameRun = m.runId === this.runId;
        this.proj = new RunProjection({ projections: ARCHITECTURE_PROJECTIONS });
        this.runId = m.runId;
        this.warnings = [...m.warnings];
        this.live = m.live ?? false;
        this.timings.validateMs = this.channel?.lastValidateMs ?? NaN;
        const channel = this.channel;
        this.plots.reset(m.overview, channel ? (tFrom, tTo, buckets) => channel.request({ type: 'trajectoryWindow', tFrom, tTo, buckets }) : undefined);
        this.replay.overview = m.overview;
        this.proj.append(m.events);
        this.replay.reset(this.proj.series);
        this.replay.append(m.events, this.proj.series);
        for (const t of this.extras.tabs) t.reset?.(m.events);
        const rows = this.proj.timeline.rows();
        this.timings.projectMs = performance.now() - this.timings.initReceivedMs;
        if (m.selectTurn !== undefined) this.selectedTurn = m.selectTurn;
        else if (!sameRun || !rows.some((r) => r.turn === this.selectedTurn)) this.selectedTurn = this.defaultTurn();
        this.followLive = this.live && this.selectedTurn === rows[rows.length - 1]?.turn;
        this.replay.selectTurn(this.selectedTurn);
        this.diff.dispose();
        this.saveState();
        this.schedule('header', 'timeline', 'detail', 'plots', 'summary', 'extras');
        break;
      }
      case 'append': {
        if (m.runId !== this.runId) {
          this.note(`ignored events for run ${m.runId}; this view shows ${this.runId ?? 'no run'}`);
          return;
        }
        if (m.warnings) this.warnings.push(...m.warnings);
        const before = this.proj.timeline.rows();
        const lastBefore = before[before.length - 1]?.turn;
        if (this.proj.append(m.events) === 0 && !m.warnings?.length) return;
        this.replay.append(m.events, this.proj.series);
        for (const t of this.extras.tabs) t.append?.(m.events);
        const rows = this.proj.timeline.rows();
        const touched = new Set(m.events.flatMap((e) => ('turn' in e && typeof e.turn === 'number' ? [e.turn] : [])));
        if (this.followLive && (this.selectedTurn === undefined || this.selectedTurn === lastBefore)) this.selectedTurn = rows[rows.length - 1]?.turn;
        this.schedule('header', 'timeline', 'plots', 'summary', 'extras');
        if (this.selectedTurn === undefined || touched.has(this.selectedTurn) || this.selectedTurn !== lastBefore) this.schedule('detail');
        if (m.events.some((e) => e.type === 'episode_end')) this.live = false;
        break;
      }
      case 'selectTurn':
        this.select(m.turn, false);
        break;
    }
  }

  /** The first turn (the task message); j/k or End move from there. */
  private defaultTurn(): number | undefined {
    const rows = this.proj.timeline.rows();
    return rows[0]?.turn;
  }

  note(message: string): void {
    this.notes.push(message);
    this.schedule('header');
  }

  select(turn: number, fromUser: boolean): void {
    const rows = this.proj.timeline.rows();
    if (!rows.some((r) => r.turn === turn)) return;
    this.replay.selectTurn(turn); // 3D playhead to the turn's start, also when the turn is already selected
    if (turn === this.selectedTurn) return;
    this.selectedTurn = turn;
    this.followLive = this.live && turn === rows[rows.length - 1]?.turn;
    markTimeline(this.el.timeline, this.selectedTurn, this.hoverTurn);
    this.el.timeline.querySelector(`[data-turn="${turn}"]`)?.scrollIntoView({ block: 'nearest' });
    this.saveState();
    if (fromUser && this.runId) this.channel?.post({ type: 'selectTurn', runId: this.runId, turn });
    this.schedule('detail');
    this.plots.selectedTurn = turn;
    this.plots.redraw();
    this.motionChart.selectedTurn = turn;
    this.motionChart.redraw();
  }

  private setHover(turn: number | undefined): void {
    if (turn === this.hoverTurn) return;
    this.hoverTurn = turn;
    markTimeline(this.el.timeline, this.selectedTurn, this.hoverTurn);
    this.plots.hoverTurn = turn;
    this.plots.redraw();
    this.motionChart.hoverTurn = turn;
    this.motionChart.redraw();
  }

  private move(delta: number): void {
    const rows = this.proj.timeline.rows();
    if (rows.length === 0) return;
    const i = rows.findIndex((r) => r.turn === this.selectedTurn);
    const next = i < 0 ? 0 : Math.max(0, Math.min(rows.length - 1, i + delta));
    this.select(rows[next].turn, true);
  }

  private onKey(e: KeyboardEvent): void {
    const t = e.target as HTMLElement | null;
    // Leave keys alone inside editors and text fields (Monaco's textarea included).
    if (t && (t.closest('.monaco-editor') || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName) || t.isContentEditable)) return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'j' || e.key === 'ArrowDown') this.move(1);
    else if (e.key === 'k' || e.key === 'ArrowUp') this.move(-1);
    else if (e.key === 'Home') this.move(-Infinity);
    else if (e.key === 'End') this.move(Infinity);
    else return;
    e.preventDefault();
  }

  openPrompt(path: string, line?: number): void {
    if (!this.channel) return;
    this.channel.request({ type: 'openPrompt', path, line }).catch((err: Error) => this.note(`could not open ${path}: ${err.message}`));
  }

  /** The original of a fork, in its own panel beside this one. */
  openRun(runId: string): void {
    if (!this.channel) return;
    this.channel.request({ type: 'openRun', runId }).catch((err: Error) => this.note(`could not open run ${runId}: ${err.message}`));
  }

  private saveState(): void {
    this.api.setState({ runId: this.runId, selectedTurn: this.selectedTurn, tab: this.tab });
  }

  private schedule(...parts: (keyof RunViewer['pending'])[]): void {
    for (const p of parts) this.pending[p] = true;
    if (!this.frame) this.frame = requestAnimationFrame(() => this.render());
  }

  /** Renders what is pending now (also used by the test hook to flush). */
  render(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    const p = this.pending;
    this.pending = { timeline: false, detail: false, plots: false, summary: false, header: false, extras: false };
    const summary = p.header || p.summary || p.plots || p.timeline || p.detail ? this.proj.summary.summary() : undefined;
    // Empty views say why they are empty (the run did not start, or ended before the robot moved).
    const noMotion = summary ? whyNoMotion(summary) : undefined;
    const noTurns = summary?.result.notStarted ? noMotion : undefined;
    if (p.header && summary) {
      renderHeader(this.el.header, summary, this.runId, this.live, (id) => this.openRun(id));
      renderWarnings(this.el.banner, this.warnings, this.notes, () => {
        this.notes = [];
        this.schedule('header');
      });
    }
    if (p.timeline) {
      renderTimeline(this.el.timeline, this.proj.timeline.rows(), this.selectedTurn, (t) => this.select(t, true), noTurns ? 'No turns: the run did not start (the reason is above).' : undefined, this.proj.summary.summary().header?.fork?.turn);
      markReplayTurn(this.el.timeline, this.replay.currentTurn);
    }
    if (p.detail) this.renderDetail(noTurns);
    if (noMotion) this.replay.emptyNote = noMotion;
    if (p.plots) {
      if (noMotion) this.plots.emptyNote = noMotion;
      this.plots.selectedTurn = this.selectedTurn;
      this.plots.update(this.proj.series);
      this.motionChart.selectedTurn = this.selectedTurn;
      this.motionChart.update(this.proj.motion);
    }
    if (p.summary && summary) this.el.summary.replaceChildren(renderSummary(summary, this.proj.motion, (t) => this.select(t, true), (path) => this.openPrompt(path)), ...this.extras.summaries(this.proj));
    if (p.extras) this.renderExtras();
    this.renders++;
    const now = performance.now();
    if (Number.isNaN(this.timings.firstRenderMs) && this.runId) this.timings.firstRenderMs = now;
    this.timings.lastRenderMs = now;
  }

  private optional(tab: Tab, header: HTMLElement, panel: HTMLElement): HTMLElement[] {
    this.optionalCore.set(tab, [header, panel]);
    return [header, panel];
  }

  /** Shows the tabs the run has what for, and redraws the one in view (the others redraw when opened). */
  private renderExtras(): void {
    // A view may say the run has no use for a tab of the viewer (a symbolic household has no motion to plot).
    const hidden = this.extras.hidden(this.proj);
    for (const [tab, els] of this.optionalCore) for (const el of els) el.classList.toggle('hidden', hidden.has(tab));
    for (const t of this.extras.tabs) {
      const on = t.applies(this.proj);
      for (const el of this.extraHeaders.get(t.id) ?? []) el.classList.toggle('hidden', !on);
      if (on && this.tab === t.id) t.update(this.proj);
    }
  }

  private renderDetail(emptyNote?: string): void {
    const row = this.proj.timeline.rows().find((r) => r.turn === this.selectedTurn);
    this.diff.dispose();
    const { el, afterMount } = renderDetail(
      {
        proj: this.proj,
        openPrompt: (path, line) => this.openPrompt(path, line),
        mountDiff: (host, a, b, lang) => this.diff.show(host, a, b, lang),
        selectTurn: (t) => this.select(t, true),
      },
      row,
      emptyNote,
    );
    this.el.detail.replaceChildren(el);
    this.el.detail.scrollTop = 0;
    afterMount();
  }
}
