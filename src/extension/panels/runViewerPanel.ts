// Host side of the run viewer webview (webview/runViewer): one panel per trace, created or revealed, revived after
// a reload by the serializer. The view posts `ready`; the host answers `init` with the trace (trajectories packed,
// decoded straight from the trace's columns; a run with very many samples as an overview, whose full samples the
// view asks for per zoom window) and, for a live run, `append` batches as events arrive. Every message from the
// view is parsed with the zod schema of src/protocol/webview.ts before it is acted on.
import { readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import { RUNS_DIR, TRACE_FILE } from '../../core/runs/runStore.js';
import { loadTraceForView, type ViewLoad } from '../../core/trace/viewData.js';
import type { EventOf, TraceEvent } from '../../protocol/trace.js';
import { packEvents, RunViewerUiState, shareMessages, ViewToHost, type HostToView, type ViewerWarning, type ViewEvent } from '../../protocol/webview.js';
import type { Ctx } from '../ctx.js';
import { Disposable } from './disposable.js';
import { promptPathCandidates, traceWorkspaceRoot } from './promptPath.js';
import { RUN_VIEWER_VIEW_TYPE } from './viewType.js';
import { renderViewerHtml } from './viewerHtml.js';
import { makeNonce } from './webviewPage.js';

const KNOWN_TRACES_KEY = 'waypoint.knownTraces';

/** Events of a run in progress: a live run's child process, or a debug session (which may also step back). */
export interface LiveEventSource {
  readonly events: readonly TraceEvent[];
  onEvents(listener: (events: TraceEvent[]) => void): () => void;
  readonly done: Promise<unknown>;
  /** The shown events went back (the debugger stepped back): the view starts over from `events`. */
  onReset?(listener: () => void): () => void;
}
const APPEND_BATCH_MS = 100;

export class RunViewerPanel extends Disposable {
  static readonly viewType = RUN_VIEWER_VIEW_TYPE;
  private static readonly panels = new Map<string, RunViewerPanel>();

  private ready = false;
  private live: LiveEventSource | undefined;
  private sentSeq = -1;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private events: readonly ViewEvent[] = [];
  /** The recorded trace as sent (kept to answer zoom windows of an overview); undefined for a live run. */
  private loaded: ViewLoad | undefined;
  /** The turn a debugger stopped at, selected when the view (re)initialises. */
  private debugTurn: number | undefined;
  /** The debugger's turn when the view did not have its events yet: selected by the append that brings them. */
  private pendingSelect: number | undefined;
  /** A recorded trace read and decoded while the page loads (the first `ready` uses it instead of reading again). */
  private prefetch: Promise<ViewLoad> | undefined;

  /** Opens the viewer on a trace (a run of this workspace, a colleague's file, or a run in progress). */
  static createOrShow(ctx: Ctx, tracePath: string, live?: LiveEventSource, column: vscode.ViewColumn = vscode.ViewColumn.Beside): RunViewerPanel {
    const open = RunViewerPanel.panels.get(tracePath);
    if (open) {
      if (live) open.attachLive(live);
      open.panel.reveal(undefined, true);
      return open;
    }
    const panel = vscode.window.createWebviewPanel(RunViewerPanel.viewType, titleFor(tracePath), { viewColumn: column, preserveFocus: true }, {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [vscode.Uri.file(ctx.asset('dist', 'webview')), vscode.Uri.file(ctx.asset('media'))],
    });
    const viewer = new RunViewerPanel(ctx, panel, tracePath);
    if (live) viewer.attachLive(live);
    else viewer.startPrefetch();
    return viewer;
  }

  /** The panel showing a trace, if one is open. */
  static forTrace(tracePath: string): RunViewerPanel | undefined {
    return RunViewerPanel.panels.get(tracePath);
  }

  /** Serializer entry: the view kept its run id in setState; find that run's trace again. */
  static async revive(ctx: Ctx, panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const ui = RunViewerUiState.safeParse(state ?? {});
    const runId = ui.success ? ui.data.runId : undefined;
    const tracePath = runId ? await RunViewerPanel.findTrace(ctx, runId) : undefined;
    panel.webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.file(ctx.asset('dist', 'webview')), vscode.Uri.file(ctx.asset('media'))] };
    if (!tracePath) {
      ctx.output.warn(`run viewer: cannot restore run ${runId ?? '(no run id in the panel state)'}: its trace was not found`);
      panel.dispose();
      return;
    }
    panel.title = titleFor(tracePath);
    new RunViewerPanel(ctx, panel, tracePath).startPrefetch();
  }

  /** Panels showing a run that used this prompt file (for the Re-run offer after a save). */
  static usingPrompt(path: string): RunViewerPanel[] {
    return [...RunViewerPanel.panels.values()].filter((p) => p.start?.prompts.some((ref) => ref.path === path));
  }

  private static async findTrace(ctx: Ctx, runId: string): Promise<string | undefined> {
    const candidates: string[] = [];
    const root = ctx.workspaceRoot();
    if (root) candidates.push(join(root, RUNS_DIR, runId, TRACE_FILE));
    const known = ctx.context.workspaceState.get<Record<string, string>>(KNOWN_TRACES_KEY, {});
    if (known[runId]) candidates.push(known[runId]);
    for (const c of candidates) {
      try {
        if ((await stat(c)).isFile()) return c;
      } catch {
        // not there; next candidate
      }
    }
    return undefined;
  }

  private constructor(
    private readonly ctx: Ctx,
    readonly panel: vscode.WebviewPanel,
    readonly tracePath: string,
  ) {
    super();
    RunViewerPanel.panels.set(tracePath, this);
    this._register(panel.onDidDispose(() => this.dispose()));
    this._register(panel.webview.onDidReceiveMessage((m: unknown) => void this.onMessage(m)));
    const webview = panel.webview;
    const dist = vscode.Uri.file(ctx.asset('dist', 'webview'));
    panel.iconPath = vscode.Uri.file(ctx.asset('media', 'icons', 'waypoint.svg'));
    webview.html = renderViewerHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'runViewer.js')).toString(),
      cssUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'runViewer.css')).toString(),
      nonce: makeNonce(),
      title: titleFor(tracePath),
    });
  }

  /**
   * Reads and decodes the recorded trace now, while the webview parses its bundle: the two take about as long as
   * each other for a long run, so the view's `ready` finds the data waiting instead of starting the read then.
   */
  private startPrefetch(): void {
    const p = readFile(this.tracePath, 'utf8').then((text) => loadTraceForView(text));
    p.catch(() => undefined); // sendInit reports a failure when it takes the promise
    this.prefetch = p;
  }

  get start(): EventOf<'episode_start'> | undefined {
    const start = this.events.find((e) => e.type === 'episode_start');
    return start?.type === 'episode_start' ? start : undefined;
  }

  get runId(): string | undefined {
    return this.start?.runId;
  }

  get isLive(): boolean {
    return this.live !== undefined;
  }

  /** Streams a run in progress into this panel. */
  attachLive(run: LiveEventSource): void {
    this.live = run;
    this.prefetch = undefined;
    this.events = run.events;
    this._register({ dispose: run.onEvents(() => this.scheduleFlush()) });
    if (run.onReset) this._register({ dispose: run.onReset(() => void (this.ready ? this.sendInit() : undefined)) });
    void run.done.then(() => {
      this.flush();
      this.live = undefined;
    });
    // The view may have been ready before the run attached (a re-run into an open panel): start it over.
    if (this.ready) this.sendInit();
  }

  private scheduleFlush(): void {
    if (!this.ready || this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.flush();
    }, APPEND_BATCH_MS);
  }

  private flush(): void {
    if (!this.ready || this.isDisposed) return;
    const events = this.live?.events;
    if (!events) return;
    const fresh = events.filter((e) => e.seq > this.sentSeq);
    const runId = this.runId;
    if (fresh.length === 0 || !runId) return;
    this.sentSeq = fresh[fresh.length - 1].seq;
    this.post({ type: 'append', runId, events: packEvents(fresh) });
    // The debugger's turn, sent once the view has its events (a fork's init can go out before its prefix is replayed).
    const pending = this.pendingSelect;
    if (pending !== undefined && fresh.some((e) => 'turn' in e && e.turn === pending)) {
      this.pendingSelect = undefined;
      this.post({ type: 'selectTurn', turn: pending });
    }
  }

  /** Selects a turn in the view (the debugger stopped there), after sending the events that reach it. */
  followDebugger(turn: number): void {
    // A panel still loading selects it with its first init.
    this.debugTurn = turn;
    if (!this.ready) return;
    this.flush();
    const known = (this.live?.events ?? this.events).some((e) => 'turn' in e && e.turn === turn);
    if (known) this.post({ type: 'selectTurn', turn });
    else this.pendingSelect = turn;
  }

  /** Selects a turn (a sweep episode's failure began there), as the debugger's position does. */
  showTurn(turn: number): void {
    this.followDebugger(turn);
  }

  get viewColumn(): vscode.ViewColumn | undefined {
    return this.panel.viewColumn;
  }

  private post(message: HostToView): void {
    void this.panel.webview.postMessage(message);
  }

  private async sendInit(): Promise<void> {
    let warnings: ViewerWarning[] = [];
    let overview: Extract<HostToView, { type: 'init' }>['overview'];
    this.loaded = undefined;
    if (this.live) {
      this.events = packEvents(this.live.events);
    } else {
      try {
        // The prefetch serves the first init only; a later one (a re-run into this panel) reads the file again.
        const pending = this.prefetch;
        this.prefetch = undefined;
        this.loaded = pending ? await pending : loadTraceForView(await readFile(this.tracePath, 'utf8'));
        this.events = this.loaded.events;
        warnings = this.loaded.warnings;
        overview = this.loaded.overview;
      } catch (err) {
        warnings = [{ kind: 'unreadable', message: `cannot read ${this.tracePath}: ${err instanceof Error ? err.message : String(err)}` }];
        this.events = [];
      }
    }
    const events = [...this.events];
    const runId = this.runId ?? basename(join(this.tracePath, '..'));
    if (this.runId) await this.remember(this.runId);
    this.sentSeq = events.length ? events[events.length - 1].seq : -1;
    const has = this.debugTurn !== undefined && events.some((e) => 'turn' in e && e.turn === this.debugTurn);
    const select = has ? { selectTurn: this.debugTurn } : {};
    this.pendingSelect = has ? undefined : this.debugTurn;
    // Each distinct chat message once; role_calls refer to it (a long run's init shrinks by megabytes).
    const shared = shareMessages(events);
    this.post({ type: 'init', runId, events: shared.events, messages: shared.messages, warnings, live: this.live !== undefined, ...(overview ? { overview } : {}), ...select });
  }

  /** Remembers where a trace outside this workspace's runs folder lives, so a reload can restore its panel. */
  private async remember(runId: string): Promise<void> {
    const state = this.ctx.context.workspaceState;
    const known = { ...state.get<Record<string, string>>(KNOWN_TRACES_KEY, {}) };
    if (known[runId] === this.tracePath) return;
    known[runId] = this.tracePath;
    const ids = Object.keys(known);
    for (const id of ids.slice(0, Math.max(0, ids.length - 200))) delete known[id];
    await state.update(KNOWN_TRACES_KEY, known);
  }

  private async onMessage(raw: unknown): Promise<void> {
    const parsed = ViewToHost.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      this.ctx.output.warn(`run viewer sent an invalid message (ignored): ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'schema mismatch'}`);
      return;
    }
    const m = parsed.data;
    switch (m.type) {
      case 'ready':
        this.ready = true;
        await this.sendInit();
        this.flush();
        return;
      case 'selectTurn':
        return;
      case 'invalidMessage':
        this.ctx.output.warn(`run viewer ignored a message from the host: ${m.message}`);
        return;
      case 'openPrompt': {
        const error = await this.openPrompt(m.path, m.line);
        this.post({ type: 'response', requestId: m.requestId, ok: error === undefined, ...(error ? { error } : {}) });
        return;
      }
      case 'trajectoryWindow': {
        if (!this.loaded) {
          this.post({ type: 'response', requestId: m.requestId, ok: false, error: 'this run is live: the view already holds every sample' });
          return;
        }
        this.post({ type: 'trajectoryWindow', requestId: m.requestId, ok: true, ...this.loaded.window(m.tFrom, m.tTo, m.buckets) });
        return;
      }
      case 'openRun': {
        const trace = await RunViewerPanel.findTrace(this.ctx, m.runId);
        if (trace) RunViewerPanel.createOrShow(this.ctx, trace, undefined, this.panel.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One);
        this.post({ type: 'response', requestId: m.requestId, ok: trace !== undefined, ...(trace ? {} : { error: `run ${m.runId} is not in this workspace's .waypoint/runs` }) });
        return;
      }
    }
  }

  /** Opens a prompt named by the trace at a 1-based line; returns a one-line error instead of throwing. */
  private async openPrompt(path: string, line: number | undefined): Promise<string | undefined> {
    // The path comes from a trace, which may come from anyone: open .prompt files only.
    if (!/\.prompt$/i.test(path)) return `not a .prompt file: ${path}`;
    const candidates = promptPathCandidates(path, { traceRoot: traceWorkspaceRoot(this.tracePath), workspaceRoot: this.ctx.workspaceRoot(), builtInPromptRoot: this.ctx.builtInPromptRoot });
    for (const c of candidates) {
      try {
        if (!(await stat(c)).isFile()) continue;
      } catch {
        continue;
      }
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(c));
      const pos = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
      await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, selection: new vscode.Range(pos, pos) });
      return undefined;
    }
    return `prompt file not found on this machine: ${path}`;
  }

  override dispose(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    if (RunViewerPanel.panels.get(this.tracePath) === this) RunViewerPanel.panels.delete(this.tracePath);
    super.dispose();
    this.panel.dispose();
  }
}

function titleFor(tracePath: string): string {
  const id = basename(join(tracePath, '..'));
  const m = /^\d{8}-(\d\d)(\d\d)(\d\d)-(.+)-([0-9a-f]{4})$/.exec(id);
  return m ? `Run ${m[4]} ${m[1]}:${m[2]}:${m[3]}` : `Run ${id}`;
}
