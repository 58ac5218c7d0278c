// Host side of a paired sweep (no `vscode` here, so tests drive it directly): forks the sweep child, validates
// what it says, reports progress, and cancels within a grace period. The engine ends a cancelled episode by
// itself and the child then writes sweep.json marked 'cancelled'; if it is still alive after the grace, its
// process group (sandbox included) is killed and the sweep ends without a file.
import { fork, type ChildProcess } from 'node:child_process';
import { SweepFile } from '../../protocol/sweep.js';
import { SWEEP_WORKER_FLAG } from './flag.js';
import type { SimulatorWire } from './protocol.js';
import { SweepWorkerToHost, type HostToSweepWorker, type SweepWire } from './sweepProtocol.js';

export interface SweepRunOptions {
  /** dist/runWorker.js (or src/extension/live/workerEntry.ts under tsx in tests). */
  modulePath: string;
  execArgv?: string[];
  sweep: SweepWire;
  simulator: SimulatorWire;
  /** How long a cancelled sweep may take to stop by itself before it is killed. Default 15 s: an episode cancelled while the simulator and sandbox start ends only once they are up (~5 s, more under load). */
  cancelGraceMs?: number;
  log?(line: string): void;
}

export type SweepProgressMessage = Extract<SweepWorkerToHost, { type: 'progress' }>;

export type SweepRunResult = { ok: true; path: string; file: SweepFile } | { ok: false; message: string; cancelled: boolean };

export class SweepRun {
  readonly done: Promise<SweepRunResult>;
  private readonly child: ChildProcess;
  private readonly progressListeners = new Set<(p: SweepProgressMessage) => void>();
  private result: SweepRunResult | undefined;
  private failure: string | undefined;
  private cancelRequested = false;
  private exited = false;
  private killTimer: ReturnType<typeof setTimeout> | undefined;

  private constructor(private readonly o: SweepRunOptions) {
    const detached = process.platform !== 'win32';
    this.child = fork(o.modulePath, [SWEEP_WORKER_FLAG], { execArgv: o.execArgv ?? [], detached, stdio: ['ignore', 'pipe', 'pipe', 'ipc'], env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } });
    for (const s of [this.child.stdout, this.child.stderr]) {
      s?.setEncoding('utf8');
      s?.on('data', (chunk: string) => {
        for (const line of chunk.split('\n')) if (line.trim()) this.o.log?.(`sweep process: ${line}`);
      });
    }
    this.child.on('message', (raw) => this.onMessage(raw));
    this.done = new Promise<SweepRunResult>((resolve) => {
      this.child.on('error', (err) => {
        this.failure ??= `could not start the sweep process: ${err.message}`;
      });
      this.child.on('exit', (code, signal) => {
        this.exited = true;
        if (this.killTimer) clearTimeout(this.killTimer);
        resolve(this.result ?? { ok: false, cancelled: this.cancelRequested, message: this.failure ?? (this.cancelRequested ? 'sweep cancelled' : `the sweep process exited (${signal ? `signal ${signal}` : `code ${code}`}) before it finished`) });
      });
    });
  }

  static start(o: SweepRunOptions): SweepRun {
    const run = new SweepRun(o);
    const start: HostToSweepWorker = { type: 'start', sweep: o.sweep, simulator: o.simulator };
    run.child.send(start);
    return run;
  }

  onProgress(listener: (p: SweepProgressMessage) => void): () => void {
    this.progressListeners.add(listener);
    return () => this.progressListeners.delete(listener);
  }

  cancel(): void {
    if (this.cancelRequested || this.exited) return;
    this.cancelRequested = true;
    const msg: HostToSweepWorker = { type: 'cancel' };
    if (this.child.connected) this.child.send(msg);
    this.killTimer = setTimeout(() => this.kill(), this.o.cancelGraceMs ?? 15_000);
  }

  private kill(): void {
    if (this.exited) return;
    this.o.log?.('sweep process did not stop within the cancel grace; killing it');
    try {
      if (process.platform !== 'win32' && this.child.pid) process.kill(-this.child.pid, 'SIGKILL');
      else this.child.kill('SIGKILL');
    } catch {
      this.child.kill('SIGKILL');
    }
  }

  private onMessage(raw: unknown): void {
    const parsed = SweepWorkerToHost.safeParse(raw);
    if (!parsed.success) {
      this.o.log?.(`sweep process sent an invalid message (ignored): ${parsed.error.issues[0]?.message ?? 'schema mismatch'}`);
      return;
    }
    const m = parsed.data;
    if (m.type === 'progress') for (const l of this.progressListeners) l(m);
    else if (m.type === 'log') this.o.log?.(m.message);
    else if (m.type === 'failed') this.failure = m.message;
    else {
      const file = SweepFile.safeParse(m.file);
      if (file.success) this.result = { ok: true, path: m.path, file: file.data };
      else this.failure = `the sweep process sent an invalid sweep file: ${file.error.issues[0]?.path.join('.')} ${file.error.issues[0]?.message}`;
    }
  }
}
