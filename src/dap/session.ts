// WaypointDebugSession: the Debug Adapter Protocol over EngineRuntime (src/core/debug). It only translates:
// requests become runtime calls, runtime events become DAP events; frames, scopes and values are turned into
// DAP ids here (Handles), lines are converted in one place. Launch attributes are validated with the schema in
// src/protocol/dap.ts. `initialized` is sent once the launch attributes are known, so breakpoints set before the
// run starts are verified against the run's architecture, prompt files and variant.
import { basename, resolve } from 'node:path';
import { DebugSession, Event, Handles, InitializedEvent, OutputEvent, Scope, Source, StackFrame, StoppedEvent, TerminatedEvent, Thread, ThreadEvent } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { EXCEPTION_FILTERS } from '../core/debug/breakpoints.js';
import { ExprEvalError, ExprSyntaxError, formatValue } from '../core/debug/expr.js';
import type { FrameInfo } from '../core/debug/frames.js';
import { EngineRuntime, type EngineRuntimeEvent, type RuntimeDeps } from '../core/debug/runtime.js';
import { REFERENCE_PROFILES, type ReferenceProfile } from '../core/llm/reference/policy.js';
import type { ModelSpec } from '../core/runs/launch.js';
import { RUNS_DIR, TRACE_FILE } from '../core/runs/runStore.js';
import { simulatorSpecProblem } from '../core/sim/connect.js';
import { LaunchArguments, STATUS_REQUEST, WAYPOINT_EVENTS } from '../protocol/dap.js';

export interface SessionHost extends RuntimeDeps {
  /** Environment the API key is read from (by the variable `apiKeyEnv` names); never logged. */
  env: Readonly<Record<string, string | undefined>>;
  /** Working folder: the default workspace. */
  cwd: string;
  /**
   * Loads and registers the architectures the workspace brings (.waypoint/architectures/<id>/); returns the refused
   * ones as `file:line: ...` lines by id. Absent: the registry's architectures only.
   */
  workspaceArchitectures?(workspace: string): Promise<{ id: string; line: string }[]>;
}

/** A value shown in Variables: an object or list to expand. */
type ValueRef = { value: unknown };

function isContainer(v: unknown): v is object {
  return typeof v === 'object' && v !== null && (Array.isArray(v) ? v.length > 0 : Object.keys(v).length > 0);
}

/** One line for a value in the Variables view: strings quoted, containers as a short preview. */
export function preview(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 2000 ? `${v.slice(0, 2000)}…` : v);
  if (Array.isArray(v)) {
    if (v.length > 0 && v.length <= 4 && v.every((x) => typeof x === 'number')) return `[${v.map((x) => formatValue(x)).join(', ')}]`;
    return `list (${v.length})`;
  }
  if (v && typeof v === 'object') {
    const keys = Object.keys(v);
    const o = v as Record<string, unknown>;
    if ('x' in o && 'y' in o && 'z' in o) return `{x: ${formatValue(o.x)}, y: ${formatValue(o.y)}, z: ${formatValue(o.z)}${keys.length > 3 ? ', …' : ''}}`;
    return `{${keys.slice(0, 4).join(', ')}${keys.length > 4 ? ', …' : ''}}`;
  }
  return formatValue(v);
}

export class WaypointDebugSession extends DebugSession {
  private readonly runtime: EngineRuntime;
  private readonly frames = new Map<number, FrameInfo>();
  private nextFrameId = 1;
  private readonly values = new Handles<ValueRef>();
  private readonly codeSources = new Map<string, { ref: number; name: string; text: string }>();
  private readonly codeByRef = new Map<number, { name: string; text: string }>();
  private configured!: () => void;
  private readonly configurationDone = new Promise<void>((r) => (this.configured = r));
  private lastException: { id: string; description?: string } | undefined;
  private ended = false;

  constructor(private readonly host: SessionHost) {
    super();
    this.setDebuggerLinesStartAt1(true);
    this.setDebuggerColumnsStartAt1(true);
    this.runtime = new EngineRuntime(host);
    this.runtime.on((e) => this.onRuntime(e));
  }

  private onRuntime(e: EngineRuntimeEvent): void {
    switch (e.type) {
      case 'stopped': {
        this.frames.clear();
        this.values.reset();
        this.lastException = e.reason === 'exception' ? { id: e.description ?? 'exception', description: e.text } : undefined;
        const ev = new StoppedEvent(e.reason, e.threadId, e.text) as DebugProtocol.StoppedEvent;
        ev.body.allThreadsStopped = true;
        if (e.description) ev.body.description = e.description;
        if (e.hitBreakpointIds) ev.body.hitBreakpointIds = e.hitBreakpointIds;
        this.sendEvent(ev);
        return;
      }
      case 'output':
        this.sendEvent(new OutputEvent(e.text, e.category));
        return;
      case 'thread':
        this.sendEvent(new ThreadEvent('started', e.thread.id));
        return;
      case 'run':
        this.sendEvent(new Event(WAYPOINT_EVENTS.run, { runId: e.runId, tracePath: e.tracePath, live: e.live, ...(e.parentTracePath ? { parentTracePath: e.parentTracePath } : {}), ...(e.fork ? { forkTurn: e.fork.turn } : {}) }));
        return;
      case 'position':
        this.sendEvent(new Event(WAYPOINT_EVENTS.position, { runId: e.runId, tracePath: e.tracePath, seq: e.seq, turn: e.turn, headSeq: e.headSeq, live: e.live }));
        return;
      case 'ended':
        if (this.ended) return;
        this.ended = true;
        this.sendEvent(new TerminatedEvent());
        return;
    }
  }

  protected override initializeRequest(response: DebugProtocol.InitializeResponse): void {
    response.body = {
      supportsConfigurationDoneRequest: true,
      supportsFunctionBreakpoints: true,
      supportsConditionalBreakpoints: true,
      supportsHitConditionalBreakpoints: true,
      supportsLogPoints: true,
      supportsEvaluateForHovers: true,
      supportsStepBack: true,
      supportsRestartFrame: true,
      supportsExceptionInfoRequest: true,
      supportsExceptionFilterOptions: true,
      supportsTerminateRequest: true,
      supportTerminateDebuggee: true,
      exceptionBreakpointFilters: EXCEPTION_FILTERS.map((f) => ({
        filter: f.filter,
        label: f.label,
        description: f.description,
        default: f.default,
        supportsCondition: true,
        conditionDescription: 'an expression, e.g. turn > 5 or consecutiveErrors >= 2',
      })),
    };
    this.sendResponse(response);
  }

  protected override configurationDoneRequest(response: DebugProtocol.ConfigurationDoneResponse): void {
    this.sendResponse(response);
    this.configured();
  }

  private fail(response: DebugProtocol.Response, err: unknown, id = 1001): void {
    const message = err instanceof Error ? err.message : String(err);
    this.sendErrorResponse(response, { id, format: message.replace(/[{}]/g, (c) => (c === '{' ? '(' : ')')), showUser: true });
  }

  protected override async launchRequest(response: DebugProtocol.LaunchResponse, raw: DebugProtocol.LaunchRequestArguments): Promise<void> {
    // VS Code adds its own keys (type, request, name, __sessionId, ...): validate only ours.
    const own = Object.fromEntries(Object.entries(raw as Record<string, unknown>).filter(([k]) => !k.startsWith('__') && !['type', 'request', 'name', 'noDebug', 'presentation', 'preLaunchTask', 'postDebugTask', 'internalConsoleOptions', 'debugServer', 'suppressMultipleSessionWarning'].includes(k)));
    const parsed = LaunchArguments.safeParse(own);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return this.fail(response, `invalid launch configuration: ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'schema mismatch'}`);
    }
    const a = parsed.data;
    try {
      const workspace = resolve(this.host.cwd, a.workspace ?? '.');
      // A workspace architecture that failed to load is the launch's error when it is the one launched, else a note.
      for (const r of (await this.host.workspaceArchitectures?.(workspace)) ?? []) {
        if (!a.trace && r.id === (a.architecture ?? 'malmm')) throw new Error(r.line);
        this.sendEvent(new OutputEvent(`warning: ${r.line}\n`, 'console'));
      }
      const simulator = a.simulator ?? 'embedded';
      const simProblem = simulatorSpecProblem(simulator);
      if (simProblem) throw new Error(simProblem);
      if (a.trace) {
        const tracePath = /[\\/]|\.jsonl$/.test(a.trace) ? resolve(workspace, a.trace) : resolve(workspace, RUNS_DIR, a.trace, TRACE_FILE);
        await this.runtime.prepareReplay({ workspace, tracePath, simulator, cache: a.cache ?? true, ...(a.model ? { model: this.modelSpec(a) } : {}) });
      } else {
        await this.runtime.prepareLive({
          workspace,
          arch: a.architecture ?? 'malmm',
          task: a.task ?? 'stack_blocks',
          seed: a.seed ?? 0,
          variant: a.variant,
          model: this.modelSpec(a),
          simulator,
          promptDir: a.prompts ? resolve(workspace, a.prompts) : undefined,
          limits: a.limits,
          codeTimeoutSecs: a.codeTimeoutSecs,
          cache: a.cache ?? true,
          stopOnEntry: a.stopOnEntry ?? false,
        });
      }
    } catch (err) {
      return this.fail(response, err);
    }
    this.sendEvent(new InitializedEvent());
    await this.configurationDone;
    try {
      await this.runtime.start();
    } catch (err) {
      return this.fail(response, err);
    }
    this.sendResponse(response);
  }

  /** The model from the launch attributes; an API key only from the adapter's environment. */
  private modelSpec(a: LaunchArguments): ModelSpec {
    const m = a.model ?? 'reference';
    if ((REFERENCE_PROFILES as readonly string[]).includes(m)) return { kind: 'reference', profile: m as ReferenceProfile };
    if (!m.startsWith('openai:') || m.length <= 'openai:'.length) throw new Error(`"model" must be ${REFERENCE_PROFILES.join(', ')} or openai:<model-name>, got '${m}'`);
    const keyVar = a.apiKeyEnv ?? 'OPENAI_API_KEY';
    return {
      kind: 'openai',
      model: m.slice('openai:'.length),
      baseUrl: a.baseUrl ?? 'https://api.openai.com/v1',
      apiKey: this.host.env[keyVar],
      temperature: a.temperature,
      maxTokens: a.maxTokens,
      ...(a.provider ? { provider: a.provider } : {}),
      ...(a.modelLabel ? { label: a.modelLabel } : {}),
      ...(a.clientId ? { clientId: a.clientId } : {}),
    };
  }

  protected override async setBreakPointsRequest(response: DebugProtocol.SetBreakpointsResponse, args: DebugProtocol.SetBreakpointsArguments): Promise<void> {
    const path = args.source.path;
    const specs = (args.breakpoints ?? []).map((b) => ({ line: this.convertClientLineToDebugger(b.line), condition: b.condition, hitCondition: b.hitCondition, logMessage: b.logMessage }));
    if (!path) {
      response.body = { breakpoints: specs.map(() => ({ verified: false, message: 'breakpoints go in .prompt files (this source has no path)' })) };
      return this.sendResponse(response);
    }
    const views = await this.runtime.setLineBreakpoints(path, specs);
    response.body = {
      breakpoints: views.map((v) => ({ id: v.id, verified: v.verified, ...(v.line !== undefined ? { line: this.convertDebuggerLineToClient(v.line) } : {}), ...(v.message ? { message: v.message } : {}), source: args.source })),
    };
    this.sendResponse(response);
  }

  protected override setFunctionBreakPointsRequest(response: DebugProtocol.SetFunctionBreakpointsResponse, args: DebugProtocol.SetFunctionBreakpointsArguments): void {
    const views = this.runtime.setFunctionBreakpoints(args.breakpoints.map((b) => ({ name: b.name, condition: b.condition, hitCondition: b.hitCondition })));
    response.body = { breakpoints: views.map((v) => ({ id: v.id, verified: v.verified, ...(v.message ? { message: v.message } : {}) })) };
    this.sendResponse(response);
  }

  protected override setExceptionBreakPointsRequest(response: DebugProtocol.SetExceptionBreakpointsResponse, args: DebugProtocol.SetExceptionBreakpointsArguments): void {
    const conditions: Record<string, string> = {};
    const filters = [...args.filters];
    for (const o of args.filterOptions ?? []) {
      filters.push(o.filterId);
      if (o.condition) conditions[o.filterId] = o.condition;
    }
    const views = this.runtime.setExceptionFilters([...new Set(filters)], conditions);
    response.body = { breakpoints: views.map((v) => ({ id: v.id, verified: v.verified, ...(v.message ? { message: v.message } : {}) })) };
    this.sendResponse(response);
  }

  protected override exceptionInfoRequest(response: DebugProtocol.ExceptionInfoResponse): void {
    const ex = this.lastException;
    response.body = { exceptionId: ex?.id ?? 'none', description: ex?.description, breakMode: 'always', details: { message: ex?.description } };
    this.sendResponse(response);
  }

  protected override threadsRequest(response: DebugProtocol.ThreadsResponse): void {
    response.body = { threads: this.runtime.threads().map((t) => new Thread(t.id, t.name)) };
    this.sendResponse(response);
  }

  private codeSource(key: string, name: string, text: string): Source {
    let entry = this.codeSources.get(key);
    if (!entry) {
      entry = { ref: this.codeSources.size + 1, name, text };
      this.codeSources.set(key, entry);
      this.codeByRef.set(entry.ref, entry);
    }
    return new Source(name, undefined, entry.ref, 'generated code (read-only)', 'waypoint-code');
  }

  protected override stackTraceRequest(response: DebugProtocol.StackTraceResponse, args: DebugProtocol.StackTraceArguments): void {
    const all = this.runtime.stack(args.threadId);
    const start = args.startFrame ?? 0;
    const slice = args.levels ? all.slice(start, start + args.levels) : all.slice(start);
    response.body = {
      totalFrames: all.length,
      stackFrames: slice.map((f) => {
        const id = this.nextFrameId++;
        this.frames.set(id, f);
        const source = f.source?.kind === 'prompt' ? new Source(basename(f.source.path), f.source.path) : f.source?.kind === 'code' ? this.codeSource(`${this.runtime.status().runId}:${f.source.key}`, f.source.name, f.source.text) : undefined;
        const frame = new StackFrame(id, f.name, source, this.convertDebuggerLineToClient(f.line ?? 1), 1) as DebugProtocol.StackFrame;
        frame.canRestart = f.canRestart;
        if (f.kind === 'episode' || f.kind === 'round' || f.kind === 'step') frame.presentationHint = 'subtle';
        if (!source) frame.line = 0;
        return frame;
      }),
    };
    this.sendResponse(response);
  }

  protected override scopesRequest(response: DebugProtocol.ScopesResponse, args: DebugProtocol.ScopesArguments): void {
    const frame = this.frames.get(args.frameId);
    if (!frame) return this.fail(response, `no frame ${args.frameId} (the debugger has moved since)`, 1002);
    response.body = {
      scopes: this.runtime.scopes(frame).map((s) => {
        const scope = new Scope(s.name, this.values.create({ value: s.value }), s.expensive ?? false) as DebugProtocol.Scope;
        if (s.presentationHint) scope.presentationHint = s.presentationHint;
        scope.namedVariables = Object.keys(s.value).length;
        return scope;
      }),
    };
    this.sendResponse(response);
  }

  protected override variablesRequest(response: DebugProtocol.VariablesResponse, args: DebugProtocol.VariablesArguments): void {
    const ref = this.values.get(args.variablesReference);
    const v = ref?.value;
    const entries: [string, unknown][] = Array.isArray(v) ? v.map((x, k) => [String(k), x]) : v && typeof v === 'object' ? Object.entries(v) : [];
    const from = args.start ?? 0;
    const page = args.count ? entries.slice(from, from + args.count) : entries.slice(from);
    response.body = {
      variables: page.map(([name, value]) => ({
        name,
        value: preview(value),
        type: Array.isArray(value) ? 'list' : value === null ? 'null' : typeof value,
        variablesReference: isContainer(value) ? this.values.create({ value }) : 0,
        ...(Array.isArray(value) ? { indexedVariables: value.length } : {}),
      })),
    };
    this.sendResponse(response);
  }

  protected override async evaluateRequest(response: DebugProtocol.EvaluateResponse, args: DebugProtocol.EvaluateArguments): Promise<void> {
    const frame = args.frameId !== undefined ? this.frames.get(args.frameId) : undefined;
    try {
      const r = await this.runtime.evaluate(args.expression, frame, args.context ?? 'repl');
      response.body = { result: r.text ?? preview(r.value), variablesReference: r.text === undefined && isContainer(r.value) ? this.values.create({ value: r.value }) : 0 };
      this.sendResponse(response);
    } catch (err) {
      if (err instanceof ExprSyntaxError || err instanceof ExprEvalError) return this.fail(response, err, 1003);
      throw err;
    }
  }

  protected override sourceRequest(response: DebugProtocol.SourceResponse, args: DebugProtocol.SourceArguments): void {
    const code = this.codeByRef.get(args.source?.sourceReference ?? args.sourceReference);
    if (!code) return this.fail(response, `no generated code with reference ${args.sourceReference}`, 1004);
    response.body = { content: code.text, mimeType: 'text/x-python' };
    this.sendResponse(response);
  }

  protected override continueRequest(response: DebugProtocol.ContinueResponse): void {
    response.body = { allThreadsContinued: true };
    this.sendResponse(response);
    this.runtime.continue();
  }

  protected override nextRequest(response: DebugProtocol.NextResponse): void {
    this.sendResponse(response);
    this.runtime.next();
  }

  protected override stepInRequest(response: DebugProtocol.StepInResponse): void {
    this.sendResponse(response);
    this.runtime.stepIn();
  }

  protected override stepOutRequest(response: DebugProtocol.StepOutResponse): void {
    this.sendResponse(response);
    this.runtime.stepOut();
  }

  protected override stepBackRequest(response: DebugProtocol.StepBackResponse): void {
    this.sendResponse(response);
    this.runtime.stepBack();
  }

  protected override reverseContinueRequest(response: DebugProtocol.ReverseContinueResponse): void {
    this.sendResponse(response);
    this.runtime.reverseContinue();
  }

  protected override pauseRequest(response: DebugProtocol.PauseResponse): void {
    this.sendResponse(response);
    this.runtime.pause();
  }

  protected override async restartFrameRequest(response: DebugProtocol.RestartFrameResponse, args: DebugProtocol.RestartFrameArguments): Promise<void> {
    const frame = this.frames.get(args.frameId);
    if (!frame) return this.fail(response, `no frame ${args.frameId} (the debugger has moved since)`, 1002);
    try {
      await this.runtime.restartFrame(frame);
    } catch (err) {
      return this.fail(response, err, 1005);
    }
    this.sendResponse(response);
  }

  protected override async terminateRequest(response: DebugProtocol.TerminateResponse): Promise<void> {
    await this.runtime.terminate();
    this.sendResponse(response);
    if (!this.ended) {
      this.ended = true;
      this.sendEvent(new TerminatedEvent());
    }
  }

  protected override async disconnectRequest(response: DebugProtocol.DisconnectResponse): Promise<void> {
    // The episode ends cleanly: cancelled, its trace closed with episode_end 'cancelled'.
    await this.runtime.terminate();
    this.sendResponse(response);
    this.shutdown();
  }

  /** The client went away (or asked to stop): end the episode first, then the process (stdio mode). */
  override shutdown(): void {
    const bail = setTimeout(() => super.shutdown(), 5000);
    void this.runtime.terminate().finally(() => {
      clearTimeout(bail);
      super.shutdown();
    });
  }

  protected override customRequest(command: string, response: DebugProtocol.Response): void {
    if (command === STATUS_REQUEST) {
      response.body = this.runtime.status();
      return this.sendResponse(response);
    }
    this.fail(response, `unknown request '${command}'`, 1006);
  }
}
