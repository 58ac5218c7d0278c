import { existsSync } from 'node:fs';
// Parent side of one sandbox worker process: spawn under Node's permission model, JSON lines over fds 3/4,
// validation of everything the worker says, RSS readings, and a hard kill.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import * as z from 'zod';
import { permissionFlag } from './locate.js';
import { FROM_WORKER_FD, TO_WORKER_FD, type FromWorker, type ToWorker, type WorkerConfig } from './protocol.js';

const BlockErrorSchema = z.object({ type: z.string(), message: z.string(), line: z.number().int().optional() });
const FromWorkerSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('ready'), loadMs: z.number(), rssBytes: z.number(), wasmBytes: z.number() }),
  z.object({ t: z.literal('api'), fn: z.string(), args: z.array(z.unknown()), line: z.number().int().positive().optional() }),
  z.object({ t: z.literal('out'), text: z.string() }),
  z.object({
    t: z.literal('done'),
    exitCode: z.union([z.literal(0), z.literal(1)]),
    error: BlockErrorSchema.optional(),
    recycle: z.boolean(),
    unrestorable: z.array(z.string()).optional(),
  }),
  z.object({ t: z.literal('reset_done') }),
  z.object({ t: z.literal('episode_reset'), restored: z.array(z.string()), unrestorable: z.array(z.string()) }),
  z.object({ t: z.literal('fatal'), message: z.string() }),
]);

/** A message from the worker, or the end of the worker. */
export type WorkerEvent = FromWorker | { t: 'exit'; reason: string };

export interface WorkerSpawnOptions {
  nodePath: string;
  workerPath: string;
  pyodideDir: string;
  /** V8 old-space cap of the worker, MiB. */
  jsHeapMiB: number;
  startTimeoutSecs: number;
  /** Aborting it kills a worker still starting (its host is closing: no need to wait for Pyodide to load). */
  signal?: AbortSignal;
}

export interface WorkerReady {
  loadMs: number;
  rssBytes: number;
  wasmBytes: number;
}

const MAX_LINE_BYTES = 64 * 1024 * 1024;
const TAIL_CHARS = 2000;

/** Node's command line for a worker: permission model with reads of the worker script and Pyodide only. */
export function workerNodeArgs(o: Pick<WorkerSpawnOptions, 'workerPath' | 'pyodideDir' | 'jsHeapMiB'>): string[] {
  const config: WorkerConfig = { pyodideDir: o.pyodideDir };
  return [
    permissionFlag(),
    `--allow-fs-read=${o.workerPath}`,
    `--allow-fs-read=${o.pyodideDir}`,
    // No eval/new Function: a JavaScript object reached from Python cannot be turned into arbitrary code.
    '--disallow-code-generation-from-strings',
    '--no-addons',
    `--max-old-space-size=${Math.max(64, Math.floor(o.jsHeapMiB))}`,
    '--no-warnings',
    o.workerPath,
    JSON.stringify(config),
  ];
}

export class WorkerProcess {
  private readonly queue: WorkerEvent[] = [];
  private waiter: ((e: WorkerEvent) => void) | undefined;
  private pending = '';
  private tail = '';
  private ended = false;
  private exitEvent: WorkerEvent | undefined;
  ready: WorkerReady | undefined;

  private constructor(private readonly child: ChildProcess) {
    const fromWorker = child.stdio[FROM_WORKER_FD] as Readable;
    fromWorker.setEncoding('utf8');
    fromWorker.on('data', (chunk: string) => this.onData(chunk));
    for (const s of [child.stdout, child.stderr]) {
      s?.setEncoding('utf8');
      s?.on('data', (chunk: string) => (this.tail = (this.tail + chunk).slice(-TAIL_CHARS)));
    }
    (child.stdio[TO_WORKER_FD] as Writable).on('error', () => {
      // EPIPE after the worker died; the 'exit' event reports the death.
    });
    child.on('error', (e) => this.end(`cannot start the sandbox worker: ${e.message}`));
    child.on('exit', (code, signal) => {
      const last = this.tail.trim().split('\n').pop() ?? '';
      this.end(`sandbox process exited (${signal ?? `code ${code ?? '?'}`})${last ? `: ${last.slice(0, 300)}` : ''}`);
    });
  }

  static async start(o: WorkerSpawnOptions): Promise<WorkerProcess> {
    // An empty environment: the parent's API keys and NODE_OPTIONS must not reach untrusted code.
    const env: Record<string, string> = process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {};
    const [command, args] = withParentDeathSignal(o.nodePath, workerNodeArgs(o));
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'], env, cwd: o.pyodideDir });
    const worker = new WorkerProcess(child);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      worker.kill();
    }, o.startTimeoutSecs * 1000);
    const onAbort = () => worker.kill();
    if (o.signal?.aborted) worker.kill();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const first = await worker.next();
      if (first.t === 'ready') {
        worker.ready = first;
        return worker;
      }
      worker.kill();
      const why = first.t === 'exit' || first.t === 'fatal' ? (first.t === 'exit' ? first.reason : first.message) : `unexpected ${first.t}`;
      const limit = timedOut ? `start-up took longer than ${o.startTimeoutSecs} s; ` : '';
      throw new Error(`sandbox worker failed to start: ${limit}${why} (worker ${o.workerPath})`);
    } finally {
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      worker.setActive(false);
    }
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return !this.ended;
  }

  send(message: ToWorker): void {
    if (this.ended) return;
    (this.child.stdio[TO_WORKER_FD] as Writable).write(JSON.stringify(message) + '\n');
  }

  /** The next event; after the worker ends, always its exit event. */
  next(): Promise<WorkerEvent> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve(queued);
    if (this.exitEvent) return Promise.resolve(this.exitEvent);
    return new Promise((resolve) => (this.waiter = resolve));
  }

  /** Keep the parent's event loop alive while a block runs; let an idle warm worker not hold the host open. */
  setActive(active: boolean): void {
    const handles = [this.child, this.child.stdio[FROM_WORKER_FD], this.child.stdio[TO_WORKER_FD], this.child.stdout, this.child.stderr];
    for (const h of handles) {
      const r = h as unknown as { ref?: () => void; unref?: () => void } | null;
      if (active) r?.ref?.();
      else r?.unref?.();
    }
  }

  kill(): void {
    if (!this.ended) this.child.kill('SIGKILL');
  }

  /** Resident set size of the worker from /proc (Linux); undefined where unavailable. */
  async rssBytes(): Promise<number | undefined> {
    if (this.child.pid === undefined || process.platform !== 'linux') return undefined;
    try {
      const status = await readFile(`/proc/${this.child.pid}/status`, 'utf8');
      const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
      return m ? Number(m[1]) * 1024 : undefined;
    } catch {
      return undefined; // The process is gone; its exit event says why.
    }
  }

  private onData(chunk: string): void {
    if (this.ended) return;
    this.pending += chunk;
    if (this.pending.length > MAX_LINE_BYTES) return this.protocolError('message larger than 64 MiB');
    let nl: number;
    while ((nl = this.pending.indexOf('\n')) >= 0) {
      const line = this.pending.slice(0, nl);
      this.pending = this.pending.slice(nl + 1);
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        return this.protocolError(`not JSON: ${line.slice(0, 80)}`);
      }
      const checked = FromWorkerSchema.safeParse(parsed);
      if (!checked.success) return this.protocolError(`bad message: ${line.slice(0, 80)}`);
      this.push(checked.data as FromWorker);
    }
  }

  private protocolError(detail: string): void {
    this.kill();
    this.end(`sandbox protocol violation (${detail})`);
  }

  private end(reason: string): void {
    if (this.ended) return;
    this.ended = true;
    this.exitEvent = { t: 'exit', reason };
    this.push(this.exitEvent);
  }

  private push(e: WorkerEvent): void {
    const w = this.waiter;
    if (w) {
      this.waiter = undefined;
      w(e);
    } else this.queue.push(e);
  }
}

/**
 * On Linux the worker is started through util-linux's `setpriv --pdeathsig KILL`, so the kernel kills it when its
 * host dies: a host killed with SIGKILL cannot run its own clean-up, and a worker spinning in an endless block would
 * otherwise burn a core until someone kills it by hand. Elsewhere the worker notices its closed pipe between blocks.
 */
export function withParentDeathSignal(command: string, args: string[]): [string, string[]] {
  if (process.platform === 'linux' && existsSync(SETPRIV)) return [SETPRIV, ['--pdeathsig', 'KILL', '--', command, ...args]];
  return [command, args];
}

const SETPRIV = '/usr/bin/setpriv';
