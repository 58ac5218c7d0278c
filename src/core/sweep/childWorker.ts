// A sweep worker in its own process (`waypoint sweep-worker`, src/cli/sweepWorker.ts), so episodes run on several
// cores: the engine, the MuJoCo physics and the sandbox of its episodes use this process's main thread and workers,
// not the parent's. One process keeps up to `slots` episodes in flight (the model call is the wait; they share one
// Pyodide interpreter, a namespace each, and one MuJoCo module). Over the IPC channel, every message names its job:
// the parent sends a job, the child asks the parent's meter before every model request (rate limits and budget hold
// across all workers) and reports usage, then the record.
import { fork, type ChildProcess } from 'node:child_process';
import type { Meter } from './rateLimit.js';
import type { EpisodeRecord } from './record.js';
import { WorkerExitedError, type EpisodeJob, type EpisodeWorker } from './workers.js';

export type ParentToChild = { type: 'job'; jobId: number; job: EpisodeJob } | { type: 'grant'; id: number } | { type: 'cancel'; jobId: number };
export type ChildToParent =
  | { type: 'acquire'; jobId: number; id: number; est: number }
  | { type: 'settle'; jobId: number; id: number; tokens: number }
  | { type: 'spent'; jobId: number; promptTokens: number; completionTokens: number }
  | { type: 'result'; jobId: number; record: EpisodeRecord }
  | { type: 'failed'; jobId: number; message: string };

/** The argument that tells `waypoint sweep-worker` how many episodes it runs at once. */
export const SLOTS_FLAG = '--slots';

interface Pending {
  key: string;
  child: ChildProcess;
  meter: Meter | undefined;
  settles: Map<number, { settle(tokens: number): void }>;
  resolve(r: EpisodeRecord): void;
  reject(e: Error): void;
}

export class ChildProcessWorker implements EpisodeWorker {
  #child: ChildProcess | undefined;
  readonly #jobs = new Map<number, Pending>();
  #nextJob = 1;
  constructor(
    private readonly cliPath: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
    /** Episodes this process runs at once (the scheduler sends no more). */
    readonly slots = 1,
    /**
     * Node flags of the worker process; default: this process's own (as fork does). A harness that runs under a
     * TypeScript loader passes [] (the CLI bundle needs none, and the loader costs each worker ~280 MB).
     */
    private readonly execArgv: string[] = process.execArgv,
  ) {}

  /** The worker process's id while one runs (benches read its memory; a test kills it). */
  get pid(): number | undefined {
    return this.#child && this.#child.exitCode === null ? this.#child.pid : undefined;
  }

  #start(): ChildProcess {
    // A process whose channel closed is dying (its 'exit' comes later): the next job goes to a new one.
    if (this.#child && this.#child.connected && this.#child.exitCode === null && !this.#child.killed) return this.#child;
    const child = fork(this.cliPath, ['sweep-worker', SLOTS_FLAG, String(this.slots)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: this.env, execArgv: this.execArgv, serialization: 'advanced' });
    // One listener for all jobs of this process, routed by job id.
    child.on('message', (m: ChildToParent) => this.#onMessage(child, m));
    child.once('exit', (code, signal) => {
      // Every episode in flight in this process ends with it (the next job starts a new process).
      const lost = [...this.#jobs.entries()].filter(([, p]) => p.child === child);
      for (const [id, p] of lost) {
        this.#jobs.delete(id);
        p.reject(new WorkerExitedError(p.key, code, signal));
      }
    });
    this.#child = child;
    return child;
  }

  #onMessage(child: ChildProcess, m: ChildToParent): void {
    const p = this.#jobs.get(m.jobId);
    if (!p) return;
    switch (m.type) {
      case 'acquire':
        void (p.meter ? p.meter.acquire(m.est) : Promise.resolve({ settle: () => {} })).then((g) => {
          p.settles.set(m.id, g);
          if (child.connected) child.send({ type: 'grant', id: m.id } satisfies ParentToChild);
        });
        break;
      case 'settle':
        p.settles.get(m.id)?.settle(m.tokens);
        p.settles.delete(m.id);
        break;
      case 'spent':
        p.meter?.spent(m.promptTokens, m.completionTokens);
        break;
      case 'result':
        this.#jobs.delete(m.jobId);
        p.resolve(m.record);
        break;
      case 'failed':
        this.#jobs.delete(m.jobId);
        p.reject(new Error(`sweep worker: ${m.message}`));
        break;
    }
  }

  run(job: EpisodeJob, meter: Meter | undefined, signal?: AbortSignal): Promise<EpisodeRecord> {
    const child = this.#start();
    const jobId = this.#nextJob++;
    return new Promise<EpisodeRecord>((resolve, reject) => {
      const onAbort = () => child.connected && child.send({ type: 'cancel', jobId } satisfies ParentToChild);
      const off = () => signal?.removeEventListener('abort', onAbort);
      this.#jobs.set(jobId, {
        key: job.episode.key,
        child,
        meter,
        settles: new Map(),
        resolve: (r) => (off(), resolve(r)),
        reject: (e) => (off(), reject(e)),
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        child.send({ type: 'job', jobId, job } satisfies ParentToChild);
      } catch {
        // The channel closed between the check above and here: the process is going, as in its 'exit' handler.
        this.#jobs.delete(jobId);
        off();
        reject(new WorkerExitedError(job.episode.key, child.exitCode, child.signalCode));
      }
    });
  }

  async close(): Promise<void> {
    const c = this.#child;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve());
      c.disconnect();
      // A worker that does not leave when its channel closes is ended.
      setTimeout(() => c.exitCode === null && c.kill(), 5000).unref();
    });
  }
}
