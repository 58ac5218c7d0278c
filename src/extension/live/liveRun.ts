// Host side of a live run (no `vscode` here, so tests drive it directly): hands the run to a run process (the
// warm one from `RunProcesses` when given and free, else a fresh one), validates what it says, keeps the events in
// order, and cancels within a grace period: `cancel` first asks the engine to stop (the trace then ends
// 'cancelled' by itself); if the run has not ended after the grace, the process group (sandbox included) is
// killed and the host closes the trace with episode_end 'cancelled'. A run ends at the process's `done` (the
// process then stays warm for the next run, or is let go) or when the process exits.
import { appendFile, readFile } from 'node:fs/promises';
import { TraceEvent } from '../../protocol/trace.js';
import { readTrace } from '../../core/trace/reader.js';
import type { LaunchWire, SimulatorWire, WorkerToHost } from './protocol.js';
import { RunProcess, type RunProcesses } from './runProcess.js';
import { cancelledTail } from './traceFinish.js';

export interface LiveRunOptions {
  /** Module the child runs: dist/runWorker.js (or src/extension/live/workerEntry.ts under tsx in tests). */
  modulePath: string;
  /** Node flags for the child; default none (the extension host's own flags, e.g. --inspect, must not leak). */
  execArgv?: string[];
  launch: LaunchWire;
  simulator: SimulatorWire;
  /** Where a warm process comes from and goes back to; without it the run gets a process of its own, ended after. */
  processes?: RunProcesses;
  /** How long a cancelled run may take to end by itself before it is killed. Default 800 ms (cancel stops within a second). */
  cancelGraceMs?: number;
  log?(line: string): void;
  /**
   * A person's turn in a robot's seat (`launch.human`): what they see; resolves with what they typed, or null when
   * they gave up (the episode is then cancelled). Without it such turns are answered null.
   */
  askHuman?(turn: HumanAsk): Promise<string | null>;
}

export type HumanAsk = Omit<Extract<WorkerToHost, { type: 'human_ask' }>, 'type' | 'id'>;

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
  /** The run went to a process that had the sandbox and simulator loaded already. */
  readonly warm: boolean;
  private readonly process: RunProcess;
  private readonly eventListeners = new Set<Listener<TraceEvent[]>>();
  private readonly startListeners = new Set<Listener<{ runId: string; tracePath: string }>>();
  private result: Omit<LiveRunResult, 'killed'> | undefined;
  private failure: string | undefined;
  private cancelRequested = false;
  private killed = false;
  private ended = false;
  private killTimer: ReturnType<typeof setTimeout> | undefined;

  private constructor(private readonly o: LiveRunOptions) {
    const taken = o.processes?.acquire() ?? { process: new RunProcess({ modulePath: o.modulePath, execArgv: o.execArgv, log: o.log }), warm: false };
    this.process = taken.process;
    this.warm = taken.warm;
    this.process.setActive(true);
    this.done = new Promise<LiveRunResult>((resolve) => {
      const offMessage = this.process.onMessage((m) => {
        this.onMessage(m);
        if (m.type === 'done' || m.type === 'failed') finish(null, null);
      });
      const offExit = this.process.onExit((code, signal) => finish(code, signal));
      const finish = (code: number | null, signal: NodeJS.Signals | null) => {
        if (this.ended) return;
        this.ended = true;
        offMessage();
        offExit();
        if (this.killTimer) clearTimeout(this.killTimer);
        this.failure ??= this.process.startError;
        void this.settle(code, signal).then((r) => {
          this.process.setActive(false);
          // A process that finished its run cleanly serves the next one warm; anything else is let go.
          const reusable = this.result !== undefined && !this.killed && !this.failure;
          if (o.processes) o.processes.release(this.process, reusable);
          else this.process.end();
          resolve(r);
        });
      };
    });
  }

  static start(o: LiveRunOptions): LiveRun {
    const run = new LiveRun(o);
    if (!run.process.send({ type: 'start', launch: o.launch, simulator: o.simulator })) run.failure = run.process.startError ?? 'the run process is not connected';
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
    if (this.cancelRequested || this.ended) return;
    this.cancelRequested = true;
    this.process.send({ type: 'cancel' });
    this.killTimer = setTimeout(() => this.kill(), this.o.cancelGraceMs ?? 800);
  }

  private kill(): void {
    if (this.ended) return;
    this.killed = true;
    this.o.log?.('run process did not stop within the cancel grace; killing it');
    this.process.kill();
  }

  private emit(events: TraceEvent[]): void {
    if (events.length === 0) return;
    this.events.push(...events);
    for (const l of this.eventListeners) l(events);
  }

  private onMessage(m: WorkerToHost): void {
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
      case 'warmed':
        return;
      case 'human_ask': {
        const { type: _t, id, ...turn } = m;
        const answer = (text: string | null) => void this.process.send({ type: 'human_answer', id, text });
        if (!this.o.askHuman) {
          this.o.log?.(`${m.agent}'s seat is a person's, but this host cannot ask one: the turn is given up`);
          answer(null);
          return;
        }
        this.o.askHuman(turn).then(answer, (err: unknown) => {
          this.o.log?.(`asking the person in ${m.agent}'s seat failed: ${err instanceof Error ? err.message : String(err)}`);
          answer(null);
        });
        return;
      }
    }
  }

  /** After the run ended (`done`, `failed` or the process's exit): close a killed run's trace, and pick up any events the IPC channel did not deliver. */
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
