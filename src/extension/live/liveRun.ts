// Host side of a live run (no `vscode` here, so tests drive it directly): forks the run child, validates what it
// says, keeps the events in order, and cancels within a grace period: `cancel` first asks the engine to stop
// (the trace then ends 'cancelled' by itself); if the child is still alive after the grace, its whole process
// group (sandbox included) is killed and the host closes the trace with episode_end 'cancelled'.
import { fork, type ChildProcess } from 'node:child_process';
import { appendFile, readFile } from 'node:fs/promises';
import { TraceEvent } from '../../protocol/trace.js';
import { readTrace } from '../../core/trace/reader.js';
import { WORKER_FLAG } from './flag.js';
import { WorkerToHost, type HostToWorker, type LaunchWire, type SimulatorWire } from './protocol.js';
import { cancelledTail } from './traceFinish.js';

export interface LiveRunOptions {
  /** Module the child runs: dist/runWorker.js (or src/extension/live/workerEntry.ts under tsx in tests). */
  modulePath: string;
  /** Node flags for the child; default none (the extension host's own flags, e.g. --inspect, must not leak). */
  execArgv?: string[];
  launch: LaunchWire;
  simulator: SimulatorWire;
  /** How long a cancelled run may take to end by itself before it is killed. Default 800 ms (cancel stops within a second). */
  cancelGraceMs?: number;
  log?(line: string): void;
}

export interface LiveRunResult {
  runId?: string;
  tracePath?: string;
  success: boolean;
  reason: string;
  message?: string;
  /** The child was killed after the cancel grace and the host wrote the trace's end. */
  killed: boolean;
}

type Listener<T> = (value: T) => void;

export class LiveRun {
  readonly events: TraceEvent[] = [];
  runId: string | undefined;
  tracePath: string | undefined;
  readonly done: Promise<LiveRunResult>;
  private readonly child: ChildProcess;
  private readonly eventListeners = new Set<Listener<TraceEvent[]>>();
  private readonly startListeners = new Set<Listener<{ runId: string; tracePath: string }>>();
  private result: Omit<LiveRunResult, 'killed'> | undefined;
  private failure: string | undefined;
  private cancelRequested = false;
  private killed = false;
  private exited = false;
  private killTimer: ReturnType<typeof setTimeout> | undefined;

  private constructor(private readonly o: LiveRunOptions) {
    const detached = process.platform !== 'win32';
    this.child = fork(o.modulePath, [WORKER_FLAG], {
      execArgv: o.execArgv ?? [],
      // Its own process group, so a kill also reaches the Pyodide sandbox it spawns.
      detached,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      // VS Code desktop's process.execPath is Electron: run it as plain Node.
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    });
    for (const s of [this.child.stdout, this.child.stderr]) {
      s?.setEncoding('utf8');
      s?.on('data', (chunk: string) => {
        for (const line of chunk.split('\n')) if (line.trim()) this.o.log?.(`run process: ${line}`);
      });
    }
    this.child.on('message', (raw) => this.onMessage(raw));
    this.done = new Promise<LiveRunResult>((resolve) => {
      this.child.on('error', (err) => {
        this.failure ??= `could not start the run process: ${err.message}`;
      });
      this.child.on('exit', (code, signal) => {
        this.exited = true;
        if (this.killTimer) clearTimeout(this.killTimer);
        void this.settle(code, signal).then(resolve);
      });
    });
  }

  static start(o: LiveRunOptions): LiveRun {
    const run = new LiveRun(o);
    const start: HostToWorker = { type: 'start', launch: o.launch, simulator: o.simulator };
    run.child.send(start);
    return run;
  }

  /** Events arrive in batches (one per IPC message or after a reconcile with the trace file). */
  onEvents(listener: Listener<TraceEvent[]>): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  onStarted(listener: Listener<{ runId: string; tracePath: string }>): () => void {
    this.startListeners.add(listener);
    return () => this.startListeners.delete(listener);
  }

  get isCancelRequested(): boolean {
    return this.cancelRequested;
  }

  cancel(): void {
    if (this.cancelRequested || this.exited) return;
    this.cancelRequested = true;
    const msg: HostToWorker = { type: 'cancel' };
    if (this.child.connected) this.child.send(msg);
    this.killTimer = setTimeout(() => this.kill(), this.o.cancelGraceMs ?? 800);
  }

  private kill(): void {
    if (this.exited) return;
    this.killed = true;
    this.o.log?.('run process did not stop within the cancel grace; killing it');
    try {
      if (process.platform !== 'win32' && this.child.pid) process.kill(-this.child.pid, 'SIGKILL');
      else this.child.kill('SIGKILL');
    } catch {
      this.child.kill('SIGKILL');
    }
  }

  private emit(events: TraceEvent[]): void {
    if (events.length === 0) return;
    this.events.push(...events);
    for (const l of this.eventListeners) l(events);
  }

  private onMessage(raw: unknown): void {
    const parsed = WorkerToHost.safeParse(raw);
    if (!parsed.success) {
      this.o.log?.(`run process sent an invalid message (ignored): ${parsed.error.issues[0]?.message ?? 'schema mismatch'}`);
      return;
    }
    const m = parsed.data;
    switch (m.type) {
      case 'started':
        this.runId = m.runId;
        this.tracePath = m.tracePath;
        for (const l of this.startListeners) l({ runId: m.runId, tracePath: m.tracePath });
        return;
      case 'event': {
        const e = TraceEvent.safeParse(m.event);
        if (!e.success) {
          this.o.log?.(`run process sent an invalid trace event (ignored): ${e.error.issues[0]?.path.join('.') ?? ''} ${e.error.issues[0]?.message ?? ''}`);
          return;
        }
        const last = this.events[this.events.length - 1];
        if (!last || e.data.seq > last.seq) this.emit([e.data]);
        return;
      }
      case 'done':
        this.runId ??= m.runId;
        this.tracePath ??= m.tracePath;
        this.result = { runId: m.runId, tracePath: m.tracePath, success: m.success, reason: m.reason, message: m.message };
        return;
      case 'failed':
        this.failure = m.message;
        return;
      case 'log':
        this.o.log?.(m.message);
        return;
    }
  }

  /** After the child exits: close a killed run's trace, and pick up any events the IPC channel did not deliver. */
  private async settle(code: number | null, signal: NodeJS.Signals | null): Promise<LiveRunResult> {
    if (this.tracePath) {
      try {
        let text = await readFile(this.tracePath, 'utf8');
        if (this.killed || (this.cancelRequested && !this.result)) {
          const tail = cancelledTail(text, 'cancelled by the user; the run process was stopped');
          if (tail) {
            await appendFile(this.tracePath, tail, 'utf8');
            text += tail;
          }
        }
        const last = this.events[this.events.length - 1];
        this.emit(readTrace(text).events.filter((e) => !last || e.seq > last.seq));
      } catch (err) {
        this.o.log?.(`could not read the trace after the run: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    const end = [...this.events].reverse().find((e) => e.type === 'episode_end');
    if (this.result && !this.killed) return { ...this.result, killed: false };
    if (end?.type === 'episode_end') return { runId: this.runId, tracePath: this.tracePath, success: end.success, reason: end.reason, message: end.message, killed: this.killed };
    const why = this.failure ?? `the run process exited (${signal ? `signal ${signal}` : `code ${code}`}) before the episode ended`;
    return { runId: this.runId, tracePath: this.tracePath, success: false, reason: this.cancelRequested ? 'cancelled' : 'engine_error', message: why, killed: this.killed };
  }
}
