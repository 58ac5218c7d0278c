// EngineRuntime: what a debugger drives. It runs one live episode in this process under an EpisodeController (or
// walks a recorded trace), owns breakpoints, stepping (over/in/out, back, reverse continue), threads, frames,
// scopes, evaluation and Restart Frame (a fork), and reports typed events. It knows nothing of DAP: the adapter in
// src/dap only translates (the split vscode-mock-debug makes between its runtime and its session).
import { resolve } from 'node:path';
import { EpisodeController, type RuntimeEvent as ControllerEvent } from '../engine/controller.js';
import { readFrontMatter } from '../prompt/analyze/frontMatter.js';
import { loadVariants, resolveVariant, VARIANTS_FILE } from '../prompt/variants.js';
import { launchRun, resolvePromptPaths, type LaunchOptions, type LaunchResult } from '../runs/launch.js';
import type { CodeSandbox } from '../sandbox/sandbox.js';
import type { SimSnapshot, Simulator } from '../sim/simulator.js';
import { readTrace } from '../trace/reader.js';
import type { ForkInfo, TraceEvent } from '../../protocol/trace.js';
import { BreakpointSet, type BreakpointView, type FunctionBreakpointSpec, type LineBreakpointSpec } from './breakpointSet.js';
import { EXCEPTION_FILTERS, exceptionOf, type ArmedBreakpoint } from './breakpoints.js';
import { runConsoleCommand, type ConsoleResult } from './console.js';
import { EventLog, turnOf } from './eventLog.js';
import { evaluateExpr, ExprEvalError, tryParseExpr } from './expr.js';
import { normalizePath, PrefixReplay, PromptTextStore, recordedAnswers, SessionModel, type RecordedAnswer } from './fork.js';
import { PrefixPlayback, runSimulator, SnapshotBook } from './prefix.js';
import { EPISODE_THREAD, stackAt, threadOfEvent, threadsOf, type FrameInfo, type ThreadInfo } from './frames.js';
import { forkConfig, forkPrompts } from './forkPlan.js';
import type { PromptSession } from './promptBreakpoints.js';
import type { Decision, EngineRuntimeEvent, LiveConfig, LiveRun, ReplayConfig, RuntimeDeps } from './runtimeTypes.js';
import { scopeAt } from './scope.js';
import { scopesOf, type ScopeInfo } from './variables.js';

export type { EngineRuntimeEvent, LiveConfig, ReplayConfig, RuntimeDeps, StopReason } from './runtimeTypes.js';
export type { BreakpointView, FunctionBreakpointSpec, LineBreakpointSpec } from './breakpointSet.js';

export class EngineRuntime {
  private log = new EventLog();
  /** The event the debugger shows (a live episode waits at the log's head; stepping back moves only this). */
  private cursor = -1;
  private mode: 'none' | 'live' | 'replay' = 'none';
  private live: LiveRun | undefined;
  private liveConfig: LiveConfig | undefined;
  private replayConfig: ReplayConfig | undefined;
  private runId: string | undefined;
  private tracePath: string | undefined;
  private session: PromptSession | undefined;
  private readonly listeners = new Set<(e: EngineRuntimeEvent) => void>();
  private readonly store: PromptTextStore;
  private readonly model = new SessionModel();
  private pending: Decision | undefined;
  /** A fork's stop at the restarted role call (its ordinal among the run's role calls). */
  private forkStop: { ordinal: number; description: string } | undefined;
  private forks = 0;
  private ended = false;
  private terminated: Promise<void> | undefined;
  private readonly bps: BreakpointSet;
  /** Line to show in a role call's prompt, by role_call index (the line breakpoint that stopped there). */
  private readonly lineHints = new Map<number, number>();
  private readonly firstBodyLine = new Map<string, number>();
  private readonly reported = new Set<string>();
  private sharedSim: Promise<Simulator> | undefined;
  /** Simulator states saved at the role calls of the current run (time travel). */
  private book = new SnapshotBook();
  private readonly books = new WeakMap<EventLog, SnapshotBook>();
  /** A fork replaying its parent's recorded events until the restarted turn (snapshot forks). */
  private playback: { playback: PrefixPlayback; snapshot: SimSnapshot; ordinal: number } | undefined;
  /** How to start the current fork again by re-running its prefix, if the recorded replay cannot reach the turn. */
  private retryFork: (() => Promise<void>) | undefined;
  private sharedSandbox: CodeSandbox | undefined;

  constructor(private readonly deps: RuntimeDeps) {
    this.store = new PromptTextStore(deps.io);
    this.bps = new BreakpointSet({ architectures: deps.architectures, store: this.store, session: () => this.session, reportOnce: (m) => this.reportOnce(m) });
    this.setExceptionFilters(EXCEPTION_FILTERS.filter((f) => f.default).map((f) => f.filter));
  }

  on(listener: (e: EngineRuntimeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** After the current call returns, as DAP clients expect responses before the events they cause. */
  private emit(e: EngineRuntimeEvent): void {
    setImmediate(() => {
      for (const l of this.listeners) l(e);
    });
  }

  private say(text: string, category: 'console' | 'stderr' = 'console'): void {
    this.emit({ type: 'output', category, text: text.endsWith('\n') ? text : `${text}\n` });
  }

  /** Reports a problem once per session (a condition that fails on every event must not flood the console). */
  private reportOnce(message: string): void {
    if (this.reported.has(message)) return;
    this.reported.add(message);
    this.say(message, 'stderr');
  }

  get isLive(): boolean {
    return this.mode === 'live';
  }

  status(): { runId?: string; tracePath?: string; live: boolean; modelCalls: number; replayedCalls: number; forks: number } {
    return { runId: this.runId, tracePath: this.tracePath, live: this.mode === 'live', modelCalls: this.model.calls, replayedCalls: this.model.replay?.replayed ?? 0, forks: this.forks };
  }

  // ---------------------------------------------------------------- launch

  /** Prepares a live episode (prompt paths, variant) so breakpoints can be verified; `start()` runs it. */
  async prepareLive(c: LiveConfig): Promise<void> {
    const arch = this.deps.architectures.get(c.arch);
    const variants = await loadVariants(this.deps.io, resolve(c.workspace, VARIANTS_FILE));
    const variant = resolveVariant(c.variant ?? variants.active, variants, arch.builtInVariants);
    const paths = await resolvePromptPaths(this.deps.io, arch, { workspace: c.workspace, promptDir: c.promptDir, builtInPromptRoot: this.deps.builtInPromptRoot });
    const topology = variant.agent ?? arch.defaultTopology;
    this.session = {
      arch: arch.id,
      topology,
      roles: arch.topologies[topology]?.roles ?? [],
      promptPaths: Object.fromEntries(Object.entries(paths).map(([r, p]) => [r, normalizePath(p)])),
      variant: variant.name,
      ablations: variant.ablations,
    };
    for (const p of Object.values(paths)) await this.learnPrompt(p);
    this.liveConfig = c;
    this.mode = 'live';
  }

  async prepareReplay(c: ReplayConfig): Promise<void> {
    const text = await this.deps.io.readText(c.tracePath);
    const { events, warnings } = readTrace(text);
    const start = events[0];
    if (!start || start.type !== 'episode_start') throw new Error(`${c.tracePath} is not a Waypoint trace: its first event is not episode_start`);
    for (const w of warnings) this.say(`trace: ${w.message}`, 'stderr');
    this.log = new EventLog();
    for (const e of events) this.log.append(e);
    this.replayConfig = c;
    this.runId = start.runId;
    this.tracePath = c.tracePath;
    this.mode = 'replay';
    let roles: string[] = start.prompts.map((p) => p.role);
    try {
      roles = this.deps.architectures.get(start.arch).topologies[start.agentVariant]?.roles ?? roles;
    } catch {
      // A recording of an architecture this build does not have: its prompts still map to roles.
    }
    this.session = {
      arch: start.arch,
      topology: start.agentVariant,
      roles,
      promptPaths: Object.fromEntries(start.prompts.map((p) => [p.role, normalizePath(p.path)])),
      variant: start.variant,
      ablations: start.ablations,
    };
    for (const p of start.prompts) await this.learnPrompt(p.path);
  }

  /** Starts what was prepared: the live episode, or the walk of a recording (stopped at its first event). */
  async start(): Promise<void> {
    if (this.mode === 'live') {
      await this.startLive(this.liveConfig!, undefined);
      return;
    }
    if (this.mode === 'replay') {
      this.emit({ type: 'run', runId: this.runId!, tracePath: this.tracePath!, live: false });
      for (const t of threadsOf(this.log).slice(1)) this.emit({ type: 'thread', reason: 'started', thread: t });
      this.say(`replaying ${this.tracePath} (${this.log.length} events, no model calls): Step Back and Reverse Continue walk it backwards`);
      this.cursor = 0;
      this.stopAt(0, { reason: 'entry', description: 'start of the recorded run' });
      return;
    }
    throw new Error('nothing to start: launch first');
  }

  private async learnPrompt(path: string): Promise<void> {
    const cur = await this.store.current(path);
    if (!cur) return;
    const fm = readFrontMatter(cur.text);
    this.firstBodyLine.set(normalizePath(path), cur.text.slice(0, fm.bodyStart).split('\n').length);
  }

  /** The session's one simulator (a fork resets it instead of building another), as a run sees it. */
  private async sim(spec: string, arch: string): Promise<Simulator> {
    this.sharedSim ??= this.deps.createSimulator(spec, this.deps.architectures.find(arch)?.simulator);
    const real = await this.sharedSim;
    const sim = runSimulator(real, () => this.book);
    return this.playback ? this.playback.playback.simulator(sim) : sim;
  }

  private sandbox(): CodeSandbox {
    this.sharedSandbox ??= this.deps.createSandbox();
    const s = this.sharedSandbox;
    const shared: CodeSandbox = { warmUp: () => s.warmUp(), run: (r) => s.run(r), resetNamespace: () => s.resetNamespace(), close: async () => undefined };
    return this.playback ? this.playback.playback.sandbox(shared) : shared;
  }

  private async startLive(c: LiveConfig, fork: { info: ForkInfo; options: Partial<LaunchOptions> } | undefined): Promise<void> {
    const controller = new EpisodeController({ stopOnEntry: fork ? false : c.stopOnEntry });
    controller.setBreakpoints([{ id: 0, label: 'debugger', matches: (e) => this.shouldStop(e) }]);
    controller.on((e) => this.onController(e, controller));
    const parentBook = this.book;
    this.log = new EventLog();
    this.book = new SnapshotBook();
    if (fork) this.book.inherit(parentBook, fork.info.replayedCalls);
    this.books.set(this.log, this.book);
    this.cursor = -1;
    this.ended = false;
    this.lineHints.clear();
    for (const bp of this.bps.all()) bp.reset();
    const run: LiveRun = { controller, done: Promise.resolve(undefined) };
    this.live = run;
    this.mode = 'live';
    let started!: () => void;
    const startedP = new Promise<void>((r) => (started = r));
    const simSpec = c.simulator;
    run.done = launchRun(
      {
        workspace: c.workspace,
        arch: c.arch,
        task: c.task,
        seed: c.seed,
        variant: c.variant,
        promptDir: c.promptDir,
        builtInPromptRoot: this.deps.builtInPromptRoot,
        model: c.model,
        options: c.codeTimeoutSecs !== undefined ? { codeTimeoutSecs: c.codeTimeoutSecs } : {},
        limits: c.limits,
        cache: c.cache,
        controller,
        wrapModel: (client) => this.model.wrap(client),
        ...(fork ? { fork: fork.info, ...fork.options } : {}),
        onStart: (info) => {
          run.runId = info.runId;
          run.tracePath = info.tracePath;
          this.runId = info.runId;
          this.tracePath = info.tracePath;
          this.emit({ type: 'run', runId: info.runId, tracePath: info.tracePath, live: true, ...(fork ? { fork: fork.info, parentTracePath: fork.info.parentTracePath } : {}) });
          this.say(`${fork ? 'fork' : 'run'} ${info.runId} · model ${info.model.label} · trace ${info.tracePath}`);
          started();
        },
      },
      {
        io: this.store.host,
        clock: this.deps.clock,
        architectures: this.deps.architectures,
        createSimulator: () => this.sim(simSpec, c.arch),
        createSandbox: () => this.sandbox(),
      },
    ).then(
      (result) => {
        started();
        if (this.live === run) this.onLiveEnded(result);
        return result;
      },
      (err: unknown) => {
        started();
        if (this.live === run) {
          this.say(`the episode failed: ${err instanceof Error ? err.message : String(err)}`, 'stderr');
          this.finish('error');
        }
        return undefined;
      },
    );
    await startedP;
  }

  private onLiveEnded(result: LaunchResult): void {
    if (this.forkStop && this.retryFork) {
      // The recorded replay could not reach the restarted turn: run the earlier turns again instead.
      const retry = this.retryFork;
      this.retryFork = undefined;
      this.say(`fork: replaying the recording stopped short (${result.message ?? result.reason}); re-running the earlier turns instead`, 'stderr');
      void retry().catch((err: unknown) => {
        this.say(`fork failed: ${err instanceof Error ? err.message : String(err)}`, 'stderr');
        this.finish('error');
      });
      return;
    }
    const m = result.end.metrics;
    this.say(`episode ended: ${result.success ? 'success' : 'failure'} · ${result.reason}${result.message ? ` (${result.message})` : ''} · ${m.turns} turns, ${m.modelCalls} model calls (${m.cachedCalls} without a model) · trace ${result.tracePath}`);
    this.finish(result.reason === 'cancelled' ? 'cancelled' : result.success ? 'success' : 'failure');
  }

  private finish(status: 'success' | 'failure' | 'cancelled' | 'error'): void {
    if (this.ended) return;
    this.ended = true;
    this.emit({ type: 'ended', status });
  }

  // ---------------------------------------------------------------- the live episode's events

  private ingest(e: TraceEvent): number {
    const before = this.log.agents.length;
    if (this.log.append(e)) {
      if (this.log.agents.length > before) {
        const threads = threadsOf(this.log);
        for (const t of threads.slice(1 + before)) this.emit({ type: 'thread', reason: 'started', thread: t });
      }
      if (e.type === 'role_call') {
        // A fork's replayed turns never moved the real simulator: their states come from the parent's book.
        if (!this.playback || this.playback.playback.isLive) this.book.roleCall(this.log.roleCallCount - 1);
        if (!this.firstBodyLine.has(normalizePath(e.promptPath))) void this.learnPrompt(e.promptPath);
      }
    }
    return this.log.indexOfSeq(e.seq);
  }

  private shouldStop(e: TraceEvent): boolean {
    const i = this.ingest(e);
    const d = this.decide(i, true);
    if (d) this.pending = d;
    return d !== undefined;
  }

  private onController(e: ControllerEvent, controller: EpisodeController): void {
    if (this.live?.controller !== controller) return;
    if (e.type === 'trace_event') {
      this.ingest(e.event);
      return;
    }
    if (e.type === 'stopped') {
      const i = this.ingest(e.event);
      const d: Decision = (e.reason === 'breakpoint' || e.reason === 'step') && this.pending ? this.pending : { reason: e.reason === 'breakpoint' ? 'breakpoint' : e.reason };
      this.pending = undefined;
      const pb = this.playback;
      if (d.reason === 'restart' && pb && !pb.playback.isLive) {
        // The fork point: the real simulator takes over from the parent's saved state.
        void this.goLive(pb).then(
          () => this.stopAt(i, d),
          (err: unknown) => {
            this.say(`fork: cannot restore the simulator's saved state (${err instanceof Error ? err.message : String(err)}); the episode ends`, 'stderr');
            controller.cancel();
          },
        );
        return;
      }
      this.stopAt(i, d);
    }
  }

  private async goLive(pb: { playback: PrefixPlayback; snapshot: SimSnapshot; ordinal: number }): Promise<void> {
    const real = await this.sharedSim!;
    this.book.settle(pb.ordinal, pb.snapshot);
    await real.restore(pb.snapshot);
    pb.playback.goLive();
    this.retryFork = undefined;
  }

  private stopAt(i: number, d: Decision): void {
    this.cursor = i;
    const e = this.log.at(i);
    this.emit({ type: 'stopped', reason: d.reason, threadId: threadOfEvent(this.log, e), ...(d.description ? { description: d.description } : {}), ...(d.text ? { text: d.text } : {}), ...(d.hitBreakpointIds?.length ? { hitBreakpointIds: d.hitBreakpointIds } : {}) });
    this.emitPosition();
  }

  private emitPosition(): void {
    const e = this.log.at(this.cursor);
    const head = this.log.at(this.log.head);
    if (!e || !head || !this.runId || !this.tracePath) return;
    const turn = turnOf(e) ?? turnOf(this.log.at(this.log.findBack(this.cursor, (x) => turnOf(x) !== undefined)) ?? e);
    this.emit({ type: 'position', runId: this.runId, tracePath: this.tracePath, seq: e.seq, ...(turn !== undefined ? { turn } : {}), headSeq: head.seq, live: this.mode === 'live' && !this.ended });
  }

  /** Whether the debugger stops at event i (breakpoints, exception filters, a fork's restarted turn); logs logpoints. */
  private decide(i: number, forward: boolean): Decision | undefined {
    const e = this.log.at(i);
    if (!e) return undefined;
    if (this.forkStop) {
      // The replayed turns before a fork point stop nowhere: the user saw them in the parent.
      if (e.type !== 'role_call' || this.roleCallOrdinal(i) !== this.forkStop.ordinal) return undefined;
      const d = this.forkStop;
      this.forkStop = undefined;
      // Show the turn where the user's breakpoint in that prompt is, if there is one.
      const bpLine = this.bps.linesOf(e.promptPath).map((x) => x.line).sort((a, b) => a - b)[0];
      if (bpLine !== undefined) this.lineHints.set(i, bpLine);
      return { reason: 'restart', description: d.description };
    }
    const report = (m: string) => this.reportOnce(m);
    const hits: ArmedBreakpoint[] = [];
    for (const bp of this.bps.candidates(e)) {
      const r = bp.fires(this.log, i, report);
      if (r.logText !== undefined && forward) this.say(r.logText);
      if (r.stop) hits.push(bp);
    }
    if (hits.length === 0) return undefined;
    const first = hits[0]!;
    if (first.kind === 'line' && e.type === 'role_call') {
      const entry = this.bps.linesOf(e.promptPath).find((x) => x.bp === first);
      if (entry) this.lineHints.set(i, entry.line);
    }
    if (first.kind === 'exception') {
      const ex = exceptionOf(e);
      return { reason: 'exception', description: ex ? `${first.label}: ${ex.id}` : first.label, text: ex?.description };
    }
    const ids = hits.filter((b) => b.kind !== 'exception').map((b) => b.id);
    return { reason: first.kind === 'function' ? 'function breakpoint' : 'breakpoint', hitBreakpointIds: ids };
  }

  private roleCallOrdinal(i: number, log: EventLog = this.log): number {
    let n = 0;
    for (let j = 0; j < i; j++) if (log.at(j)!.type === 'role_call') n++;
    return n;
  }

  // ---------------------------------------------------------------- breakpoints

  /** Line breakpoints of one prompt file (replacing its previous ones), verified against this session's run. */
  setLineBreakpoints(path: string, specs: readonly LineBreakpointSpec[]): Promise<BreakpointView[]> {
    return this.bps.setLine(path, specs);
  }

  setFunctionBreakpoints(specs: readonly FunctionBreakpointSpec[]): BreakpointView[] {
    return this.bps.setFunction(specs);
  }

  setExceptionFilters(filters: readonly string[], conditions: Readonly<Record<string, string>> = {}): BreakpointView[] {
    return this.bps.setExceptionFilters(filters, conditions);
  }

  // ---------------------------------------------------------------- inspection

  threads(): ThreadInfo[] {
    return threadsOf(this.log);
  }

  stack(threadId: number): FrameInfo[] {
    if (this.cursor < 0) return [];
    const labels = Object.fromEntries((this.deps.architectures.find(this.log.start?.arch ?? '')?.roles ?? []).map((r) => [r.id, r.label]));
    return stackAt(this.log, threadId, this.cursor, {
      roleLabels: labels,
      promptLine: (rc, path) => this.lineHints.get(rc) ?? this.firstBodyLine.get(normalizePath(path)) ?? 1,
    });
  }

  scopes(frame: FrameInfo): ScopeInfo[] {
    const arch = this.log.start?.arch;
    return scopesOf(this.log, frame, { api: arch ? this.deps.architectures.apiFunctions(arch) : undefined });
  }

  /** Evaluates an expression (watch, hover, conditions) or, from the console, a command. */
  async evaluate(text: string, frame: FrameInfo | undefined, context: string): Promise<ConsoleResult> {
    const index = frame?.index ?? this.cursor;
    if (context === 'repl') {
      const cmd = await runConsoleCommand(text, {
        log: this.log,
        index,
        frame,
        live: this.mode === 'live' && !this.ended,
        store: this.store,
        send: (answer) => {
          this.model.typed = answer;
        },
        nextCallDescription: () => this.nextCallDescription(),
      });
      if (cmd) return cmd;
    }
    if (index < 0) throw new ExprEvalError('nothing to evaluate yet: the episode has not started');
    const parsed = tryParseExpr(text);
    if (!parsed.ok) throw parsed.error;
    const scope = scopeAt(this.log, index);
    try {
      return { value: evaluateExpr(parsed.expr, scope) };
    } catch (err) {
      // Hovering a template variable in the prompt ({{api}}) shows the value this turn rendered it with.
      const vars = scope.variables as Record<string, unknown> | undefined;
      if (context === 'hover' && err instanceof ExprEvalError && parsed.expr.kind === 'name' && vars && Object.prototype.hasOwnProperty.call(vars, parsed.expr.name)) {
        return { value: vars[parsed.expr.name] };
      }
      throw err;
    }
  }

  private nextCallDescription(): string {
    const e = this.log.at(this.log.head);
    if (e?.type === 'role_call' && !this.log.events.some((x) => x.type === 'model_response' && x.callId === e.callId)) return `${e.role} at turn ${e.turn} (about to be sent)`;
    return 'the next role call';
  }

  // ---------------------------------------------------------------- stepping

  continue(): void {
    this.advance(undefined);
  }

  /** Step Over: to the next role turn. */
  next(): void {
    this.advance((e) => e.type === 'role_call');
  }

  /** Step Into: into a turn's code, stopping at each robot call or action (or the next role turn). */
  stepIn(): void {
    this.advance((e) => e.type === 'api_call' || e.type === 'action' || e.type === 'role_call');
  }

  /** Step Out: from a robot call to the end of its block; from a turn to the end of its round, step or turn. */
  stepOut(): void {
    const e = this.log.at(this.cursor);
    if (!e) return this.continue();
    if (e.type === 'api_call') return this.advance((x) => x.type === 'code_execution' && x.turn === e.turn);
    if (e.type === 'action') return this.advance((x) => x.type === 'action_result' && x.actionId === e.actionId);
    if (e.round !== undefined && e.round > 0) return this.advance((x) => x.type === 'episode_end' || (x.round ?? 0) > e.round!);
    if (e.step !== undefined && e.step > 0) return this.advance((x) => x.type === 'episode_end' || (x.step ?? 0) > e.step!);
    const turn = turnOf(e) ?? 0;
    return this.advance((x) => x.type === 'episode_end' || (turnOf(x) ?? 0) > turn);
  }

  /** Step Back: to the previous role turn (walking recorded events; no model calls). */
  stepBack(): void {
    this.walkBack((e) => e.type === 'role_call');
  }

  /** Reverse Continue: back to the previous breakpoint or exception, or the start. */
  reverseContinue(): void {
    this.walkBack(undefined);
  }

  pause(): void {
    if (this.mode === 'live' && this.live && !this.live.controller.isStopped) this.live.controller.pause();
  }

  private advance(target: ((e: TraceEvent) => boolean) | undefined): void {
    // Walk forward over events already recorded (after stepping back, or in a recording).
    for (let i = this.cursor + 1; i <= this.log.head; i++) {
      if (target?.(this.log.at(i)!)) return this.stopAt(i, { reason: 'step' });
      const d = this.decide(i, true);
      if (d) return this.stopAt(i, d);
    }
    if (this.mode === 'replay' || this.ended || !this.live) {
      const end = this.log.head;
      this.stopAt(end, { reason: 'step', description: this.mode === 'replay' ? 'end of the recorded run' : 'the episode has ended' });
      return;
    }
    this.cursor = this.log.head;
    const c = this.live.controller;
    if (!c.isStopped) return;
    if (target) {
      c.step((e) => {
        const i = this.ingest(e);
        if (this.forkStop) return false;
        if (!target(e)) return false;
        this.pending = { reason: 'step' };
        return i >= 0;
      });
    } else c.continue();
  }

  private walkBack(target: ((e: TraceEvent) => boolean) | undefined): void {
    for (let i = this.cursor - 1; i >= 0; i--) {
      if (target?.(this.log.at(i)!)) return this.stopAt(i, { reason: 'step' });
      if (!target) {
        const d = this.decide(i, false);
        if (d) return this.stopAt(i, d);
      }
    }
    this.stopAt(0, { reason: 'step', description: 'start of the run' });
  }

  // ---------------------------------------------------------------- time travel

  /**
   * Restart Frame on a role turn: ends the current episode, then runs a fork of it that replays the earlier turns
   * with their recorded answers (no model calls; the simulator is reset and re-run) and calls that turn's role
   * again with the prompt files as they are now. Stops at the restarted turn.
   */
  async restartFrame(frame: FrameInfo): Promise<void> {
    if (!frame.canRestart) throw new Error('only a role turn (or the episode) can be restarted');
    const parent = this.log;
    const start = parent.start;
    if (!start) throw new Error('nothing to restart: the run has no episode_start');
    const rc = frame.kind === 'episode' ? parent.findForward(0, (e) => e.type === 'role_call') : (frame.roleCallIndex ?? -1);
    const call = parent.at(rc);
    if (!call || call.type !== 'role_call') throw new Error('this frame has no role call to restart');
    const ordinal = this.roleCallOrdinal(rc);
    const answers = recordedAnswers(parent, ordinal);

    // The texts the earlier turns used, so the re-run renders exactly what the original sent.
    const { pins, unknown, changed } = await forkPrompts(parent, rc, call, start, this.store);
    const config = await forkConfig(start, { liveConfig: this.liveConfig, replayConfig: this.replayConfig, io: this.deps.io, architectures: this.deps.architectures });
    // Where the parent's simulator state at that turn was saved, the earlier turns need not run again.
    const book = this.books.get(parent);
    const real = this.sharedSim ? await this.sharedSim : undefined;
    const snapshot = book && real && !start.options.persistNamespace ? await book.at(ordinal, real) : undefined;
    const base: ForkInfo = {
      parentRunId: start.runId,
      ...(this.tracePath ? { parentTracePath: this.tracePath } : {}),
      turn: call.turn,
      callId: call.callId,
      role: call.role,
      replayedCalls: answers.length,
      via: 'replay',
      changedFiles: changed,
      ...(unknown.length ? { prefixTextUnknown: unknown } : {}),
    };

    // End the episode being replaced; its trace closes 'cancelled'.
    const previous = this.live;
    this.live = undefined;
    if (previous && !this.ended) {
      previous.controller.cancel();
      await previous.done;
    }
    this.forks++;
    const changedText = changed.length ? `changed since: ${changed.map((c) => c.path.split(/[\\/]/).pop()).join(', ')}` : 'no prompt file changed';
    if (unknown.length) this.say(`the text ${unknown.join(', ')} used before turn ${call.turn} is not known to this session; those replayed turns render from the current file`, 'stderr');
    const parentLog = parent;
    const launch = async (via: 'snapshot' | 'replay'): Promise<void> => {
      this.say(
        `restarting turn ${call.turn} (${call.role}) as a fork of ${start.runId}: ${answers.length} earlier answers replayed without model calls, ` +
          (via === 'snapshot' ? 'the simulator restored from its state at that turn' : 'the simulator reset and the earlier turns re-run') +
          `; ${changedText}`,
      );
      this.forkStop = { ordinal, description: `fork of ${start.runId} at turn ${call.turn}` };
      this.model.calls = 0;
      this.model.replay = new PrefixReplay(
        answers,
        () => {
          // From the restarted turn on, prompt files are read from disk again.
          this.store.unpin();
          this.live?.controller.markPromptsStale();
        },
        (message) => this.say(`fork: ${message}`, 'stderr'),
      );
      if (answers.length > 0) this.store.pin(pins);
      this.playback = via === 'snapshot' && snapshot ? { playback: new PrefixPlayback(parentLog, () => this.log.length), snapshot, ordinal } : undefined;
      this.retryFork = via === 'snapshot' ? () => launch('replay') : undefined;
      this.mode = 'live';
      await this.startLive(config, {
        info: { ...base, via },
        options: {
          agent: start.agentVariant,
          promptPaths: Object.fromEntries(start.prompts.map((p) => [p.role, p.path])),
          ablations: start.ablations,
        },
      });
    };
    await launch(snapshot ? 'snapshot' : 'replay');
  }

  // ---------------------------------------------------------------- end

  /** Ends the session: a live episode is cancelled (its trace ends 'cancelled'); the simulator and sandbox close. */
  terminate(): Promise<void> {
    this.terminated ??= (async () => {
      const run = this.live;
      if (run && !this.ended) {
        run.controller.cancel();
        await run.done;
      }
      const sim = this.sharedSim;
      this.sharedSim = undefined;
      await Promise.allSettled([this.sharedSandbox?.close(), sim?.then((s) => s.close())]);
    })();
    return this.terminated;
  }

  /** The stop thread when none is given (DAP clients ask per thread). */
  get currentThread(): number {
    return threadOfEvent(this.log, this.log.at(this.cursor)) ?? EPISODE_THREAD;
  }
}
