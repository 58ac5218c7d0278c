// A sweep worker in its own process (`waypoint sweep-worker`, src/cli/sweepWorker.ts), so episodes run on several
// cores: the engine, the MuJoCo physics and the sandbox of one episode use this process's main thread and workers,
// not the parent's. Over the IPC channel: the parent sends a job, the child asks the parent's meter before every
// model request (rate limits and budget hold across all workers) and reports usage, then the record.
import { fork, type ChildProcess } from 'node:child_process';
import type { Meter } from './rateLimit.js';
import type { EpisodeRecord } from './record.js';
import type { EpisodeJob, EpisodeWorker } from './workers.js';

export type ParentToChild = { type: 'job'; job: EpisodeJob } | { type: 'grant'; id: number } | { type: 'cancel' };
export type ChildToParent =
  | { type: 'acquire'; id: number; est: number }
  | { type: 'settle'; id: number; tokens: number }
  | { type: 'spent'; promptTokens: number; completionTokens: number }
  | { type: 'result'; record: EpisodeRecord }
  | { type: 'failed'; message: string };

export class ChildProcessWorker implements EpisodeWorker {
  #child: ChildProcess | undefined;
  constructor(
    private readonly cliPath: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  #start(): ChildProcess {
    if (this.#child && this.#child.exitCode === null && !this.#child.killed) return this.#child;
    this.#child = fork(this.cliPath, ['sweep-worker'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: this.env, serialization: 'advanced' });
    return this.#child;
  }

  run(job: EpisodeJob, meter: Meter | undefined, signal?: AbortSignal): Promise<EpisodeRecord> {
    const child = this.#start();
    return new Promise<EpisodeRecord>((resolve, reject) => {
      const settles = new Map<number, { settle(tokens: number): void }>();
      const onMessage = (m: ChildToParent) => {
        switch (m.type) {
          case 'acquire':
            void (meter ? meter.acquire(m.est) : Promise.resolve({ settle: () => {} })).then((g) => {
              settles.set(m.id, g);
              if (child.connected) child.send({ type: 'grant', id: m.id } satisfies ParentToChild);
            });
            break;
          case 'settle':
            settles.get(m.id)?.settle(m.tokens);
            settles.delete(m.id);
            break;
          case 'spent':
            meter?.spent(m.promptTokens, m.completionTokens);
            break;
          case 'result':
            done();
            resolve(m.record);
            break;
          case 'failed':
            done();
            reject(new Error(`sweep worker: ${m.message}`));
            break;
        }
      };
      const onExit = (code: number | null) => {
        done();
        reject(new Error(`sweep worker exited (code ${code}) during ${job.episode.key}`));
      };
      const onAbort = () => child.connected && child.send({ type: 'cancel' } satisfies ParentToChild);
      const done = () => {
        child.off('message', onMessage);
        child.off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      child.send({ type: 'job', job } satisfies ParentToChild);
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
