// The live-run processes on the host side (no `vscode` here): `RunProcess` is one forked dist/runWorker.js (its
// own process group, so a kill also reaches the Pyodide worker it spawns), with validated messages; `RunProcesses`
// keeps one of them warm between live runs — loaded when a prompt opens (`prewarm`) or left over from the last
// run — and ends it after `idleMs` without a run. A run that needs a process while the warm one is busy gets a
// fresh one (cold); a process that was killed, failed a run or lost its channel is never reused.
import { fork, type ChildProcess } from 'node:child_process';
import { WORKER_FLAG } from './flag.js';
import { WorkerToHost, type HostToWorker, type SimulatorWire } from './protocol.js';

export interface RunProcessOptions {
  /** Module the child runs: dist/runWorker.js (or src/extension/live/workerEntry.ts under tsx in tests). */
  modulePath: string;
  /** Node flags for the child; default none (the extension host's own flags, e.g. --inspect, must not leak). */
  execArgv?: string[];
  log?(line: string): void;
}

type MessageListener = (m: WorkerToHost) => void;
type ExitListener = (code: number | null, signal: NodeJS.Signals | null) => void;

export class RunProcess {
  private readonly child: ChildProcess;
  private readonly messageListeners = new Set<MessageListener>();
  private readonly exitListeners = new Set<ExitListener>();
  private exitedWith: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** Set when the process cannot be trusted with another run (killed, failed, asked to leave). */
  retired = false;
  /** A start error (e.g. the module is missing), for the run that is waiting on this process. */
  startError: string | undefined;
  /** The sandbox and simulator are loaded (after `warm`, or after a run). */
  warm = false;
  readonly spawnedAtMs = performance.now();

  constructor(private readonly o: RunProcessOptions) {
    this.child = fork(o.modulePath, [WORKER_FLAG], {
      execArgv: o.execArgv ?? [],
      detached: process.platform !== 'win32',
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
    this.child.on('message', (raw) => {
      const parsed = WorkerToHost.safeParse(raw);
      if (!parsed.success) {
        this.o.log?.(`run process sent an invalid message (ignored): ${parsed.error.issues[0]?.message ?? 'schema mismatch'}`);
        return;
      }
      if (parsed.data.type === 'warmed') this.warm = parsed.data.error === undefined;
      // Between runs (warm-up, the sandbox reset after a run) nobody listens: log what the process says.
      if (parsed.data.type === 'log' && this.messageListeners.size === 0) this.o.log?.(parsed.data.message);
      for (const l of [...this.messageListeners]) l(parsed.data);
    });
    this.child.on('error', (err) => {
      this.startError ??= `could not start the run process: ${err.message}`;
      this.retired = true;
    });
    this.child.on('exit', (code, signal) => {
      this.exitedWith = { code, signal };
      this.retired = true;
      for (const l of [...this.exitListeners]) l(code, signal);
    });
    // An idle warm process must not keep the extension host alive, nor its pipes.
    this.child.unref();
    for (const s of [this.child.stdout, this.child.stderr]) (s as unknown as { unref?(): void } | null)?.unref?.();
    (this.child.channel as unknown as { unref?(): void } | undefined)?.unref?.();
  }

  get exited(): boolean {
    return this.exitedWith !== undefined;
  }

  get usable(): boolean {
    return !this.retired && !this.exited && this.child.connected;
  }

  send(m: HostToWorker): boolean {
    if (!this.child.connected) return false;
    this.child.send(m);
    return true;
  }

  onMessage(l: MessageListener): () => void {
    this.messageListeners.add(l);
    return () => this.messageListeners.delete(l);
  }

  onExit(l: ExitListener): () => void {
    if (this.exitedWith) {
      const { code, signal } = this.exitedWith;
      queueMicrotask(() => l(code, signal));
      return () => undefined;
    }
    this.exitListeners.add(l);
    return () => this.exitListeners.delete(l);
  }

  /** Keep the host's event loop alive while a run uses this process (and not while it idles). */
  setActive(active: boolean): void {
    const ch = this.child.channel as unknown as { ref?(): void; unref?(): void } | undefined;
    if (active) {
      this.child.ref();
      ch?.ref?.();
    } else {
      this.child.unref();
      ch?.unref?.();
    }
  }

  /** Ask the process to leave (it cancels a run in flight and closes its sandbox); kill it if it lingers. */
  end(graceMs = 3000): void {
    this.retired = true;
    if (this.exited) return;
    if (this.child.connected) this.child.disconnect();
    setTimeout(() => this.kill(), graceMs).unref();
  }

  /** The whole process group: the run process and the Pyodide worker it started. */
  kill(): void {
    this.retired = true;
    if (this.exited) return;
    try {
      if (process.platform !== 'win32' && this.child.pid) process.kill(-this.child.pid, 'SIGKILL');
      else this.child.kill('SIGKILL');
    } catch {
      this.child.kill('SIGKILL');
    }
  }
}

export interface RunProcessesOptions extends RunProcessOptions {
  /** Keep a process between runs (the `waypoint.run.keepWarm` setting, read each time). */
  keepWarm(): boolean;
  /** End a warm process after this long without a run. Default 15 minutes. */
  idleMs?: number;
}

export class RunProcesses {
  /** The process kept for the next run, if any. */
  private idle: RunProcess | undefined;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  /** Processes out with a run. */
  private leased = 0;

  constructor(private readonly o: RunProcessesOptions) {}

  /**
   * Start the warm process now (Pyodide, MuJoCo), unless one is kept already or warm start is off. Resolves when it
   * is loaded (`ms`: how long that took), could not load (`error`), or nothing was started (`skipped`).
   */
  prewarm(simulator: SimulatorWire, task?: string, primer?: { arch: string; builtInPromptRoot: string }): Promise<{ ms?: number; error?: string; skipped?: true }> {
    // A run in flight keeps its process afterwards: no second one.
    if (this.disposed || !this.o.keepWarm() || this.idle?.usable || this.leased > 0) return Promise.resolve({ skipped: true });
    const p = this.spawn();
    const warmed = new Promise<{ ms?: number; error?: string }>((resolve) => {
      const offMessage = p.onMessage((m) => {
        if (m.type !== 'warmed') return;
        offMessage();
        offExit();
        resolve({ ms: m.ms, ...(m.error ? { error: m.error } : {}) });
      });
      const offExit = p.onExit(() => {
        offMessage();
        resolve({ error: p.startError ?? 'the run process ended before it was warm' });
      });
    });
    p.send({ type: 'warm', simulator, ...(task ? { task } : {}), ...(primer ? { primer } : {}) });
    this.keep(p);
    // Loading is work in progress (keeps the host's event loop up); the loaded process then idles unreferenced.
    p.setActive(true);
    return warmed.finally(() => {
      if (this.idle === p) p.setActive(false);
    });
  }

  /** A process for one run: the warm one when it is free, else a new one. The caller gives it back with `release`. */
  acquire(): { process: RunProcess; warm: boolean } {
    this.leased++;
    const kept = this.idle;
    this.idle = undefined;
    clearTimeout(this.idleTimer);
    if (kept?.usable) return { process: kept, warm: kept.warm };
    kept?.end();
    return { process: this.spawn(), warm: false };
  }

  /** After a run: kept warm for the next one (if allowed and none is kept), else ended. */
  release(p: RunProcess, reusable: boolean): void {
    this.leased = Math.max(0, this.leased - 1);
    if (!reusable || !p.usable || this.disposed || !this.o.keepWarm() || this.idle?.usable) {
      p.end();
      return;
    }
    p.warm = true;
    this.keep(p);
  }

  /** Let the kept process go when warm start was switched off. */
  trim(): void {
    if (this.o.keepWarm() || !this.idle) return;
    clearTimeout(this.idleTimer);
    this.idle.end();
    this.idle = undefined;
  }

  /** A process is kept warm right now. */
  get hasWarm(): boolean {
    return this.idle?.usable === true;
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.idleTimer);
    this.idle?.end();
    this.idle = undefined;
  }

  private spawn(): RunProcess {
    return new RunProcess({ modulePath: this.o.modulePath, execArgv: this.o.execArgv, log: this.o.log });
  }

  private keep(p: RunProcess): void {
    this.idle?.end();
    this.idle = p;
    p.setActive(false);
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.idle === p) {
        this.o.log?.('run process: ended after a long idle time (the next live run starts cold)');
        this.idle = undefined;
        p.end();
      }
    }, this.o.idleMs ?? 15 * 60_000);
    this.idleTimer.unref();
  }
}
