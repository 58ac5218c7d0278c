// CodeSandbox on Pyodide in a separate, permission-restricted Node process (docs/security.md). One warm worker;
// a block that hits a limit or breaks the interpreter costs a respawn, started in the background at once.
// Several episodes may share it, one namespace each (RunCodeRequest.namespace; the warm pool does this when a
// sweep worker keeps several episodes in flight): their blocks queue for the one interpreter, and a respawn caused
// by one episode's block costs the others only their persisted globals, which their next block is told.
import type { ApiCallRecord } from '../../protocol/trace.js';
import type { Clock } from '../host.js';
import type { ApiCallResult } from '../sim/simulator.js';
import { pythonApiStubs } from './apiStubs.js';
import { defaultPyodideDir, defaultWorkerPath, findPackageRoot } from './locate.js';
import type { ApiCallSite, EpisodeResetReport, ReusableSandbox, RunCodeRequest, RunCodeResult } from './sandbox.js';
import { WorkerProcess, type WorkerSpawnOptions } from './workerProcess.js';

export interface PyodideSandboxOptions {
  /** Bundled worker script; default dist/sandboxWorker.mjs under the waypoint package root. */
  workerPath?: string;
  /** The pyodide package directory; default node_modules/pyodide under the package root. */
  pyodideDir?: string;
  /** Node binary for the worker; default this process's (Electron runs it with ELECTRON_RUN_AS_NODE). */
  nodePath?: string;
  /** Measures durationMs; default a monotonic clock. */
  clock?: Pick<Clock, 'nowMs'>;
  /** V8 heap cap of the worker, MiB (JavaScript objects; Python lives in the WebAssembly heap). Default 256. */
  jsHeapMiB?: number;
  /** Output kept per block; the rest is replaced by a truncation note. Default 1 MiB. */
  maxOutputBytes?: number;
  /** Limit on Pyodide start-up. Default 60 s. */
  startTimeoutSecs?: number;
  /** How often the worker's RSS is read while a block runs. Default 50 ms. */
  memoryPollMs?: number;
}

const MiB = 1024 * 1024;
// Room left between the WebAssembly heap cap and the RSS limit, so Python sees MemoryError before the hard kill.
const WASM_HEADROOM_BYTES = 24 * MiB;

const monotonicClock: Pick<Clock, 'nowMs'> = { nowMs: () => performance.now() };

function formatNumber(secs: number): string {
  return Number.isInteger(secs) ? String(secs) : String(Math.round(secs * 1000) / 1000);
}

class PyodideSandbox implements ReusableSandbox {
  private worker: WorkerProcess | undefined;
  private starting: Promise<WorkerProcess> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** Aborted by close(): a worker still loading Pyodide is killed at once rather than after it has loaded. */
  private readonly closing = new AbortController();
  /** The current worker holds globals persisted by an earlier block (of the default namespace). */
  private holdsGlobals = false;
  /** Namespaces in use: whether the worker holds their globals, and why they were lost (told to their next block). */
  private readonly spaces = new Map<string, { holdsGlobals: boolean; lost?: string }>();
  readonly namespaces = true;
  private readonly clock: Pick<Clock, 'nowMs'>;

  constructor(private readonly options: PyodideSandboxOptions) {
    this.clock = options.clock ?? monotonicClock;
  }

  warmUp(): Promise<void> {
    return this.serial(async () => {
      await this.ensureWorker();
    });
  }

  run(request: RunCodeRequest): Promise<RunCodeResult> {
    return this.serial(() => this.runNow(request));
  }

  resetNamespace(namespace?: string): Promise<void> {
    return this.serial(async () => {
      const w = this.worker;
      if (namespace === undefined) {
        this.holdsGlobals = false;
        this.spaces.clear();
      } else this.spaces.delete(namespace);
      if (!w?.alive) return;
      w.setActive(true);
      try {
        w.send(namespace === undefined ? { t: 'reset' } : { t: 'reset', ns: namespace });
        const reply = await w.next();
        if (reply.t !== 'reset_done') this.retire(w);
        if (reply.t === 'exit') throw new Error(`sandbox reset failed: ${reply.reason}`);
      } finally {
        w.setActive(false);
      }
    });
  }

  resetEpisode(): Promise<EpisodeResetReport> {
    return this.serial(async () => {
      this.holdsGlobals = false;
      this.spaces.clear();
      const w = this.worker;
      // No worker, or one being replaced after a kill: the next one starts fresh, nothing to put back.
      if (!w?.alive) return { restored: [], replaced: false };
      w.setActive(true);
      let reply;
      try {
        w.send({ t: 'reset_episode' });
        reply = await w.next();
      } finally {
        w.setActive(false);
      }
      if (reply.t === 'episode_reset' && reply.unrestorable.length === 0) return { restored: reply.restored, replaced: false };
      const reason =
        reply.t === 'episode_reset'
          ? `the last episode left what a reset cannot undo: ${reply.unrestorable.slice(0, 3).join('; ')}${reply.unrestorable.length > 3 ? '; ...' : ''}`
          : `the sandbox did not answer the reset (${reply.t === 'exit' ? reply.reason : reply.t})`;
      this.retire(w, reason);
      return { restored: reply.t === 'episode_reset' ? reply.restored : [], replaced: true, reason };
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.closing.abort();
    this.worker?.kill();
    this.worker = undefined;
    const starting = this.starting;
    this.starting = undefined;
    if (starting) (await starting.catch(() => undefined))?.kill();
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const result = this.queue.then(task, task);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private spawnOptions(): WorkerSpawnOptions {
    const o = this.options;
    const root = o.workerPath && o.pyodideDir ? '' : findPackageRoot();
    return {
      nodePath: o.nodePath ?? process.execPath,
      workerPath: o.workerPath ?? defaultWorkerPath(root),
      pyodideDir: o.pyodideDir ?? defaultPyodideDir(root),
      jsHeapMiB: o.jsHeapMiB ?? 256,
      startTimeoutSecs: o.startTimeoutSecs ?? 60,
      signal: this.closing.signal,
    };
  }

  /** Start a worker now (in the background after a kill), unless one is running or starting. */
  private spawn(): Promise<WorkerProcess> {
    if (!this.starting) {
      const starting = Promise.resolve()
        .then(() => WorkerProcess.start(this.spawnOptions()))
        .then((w) => {
          if (this.closed) w.kill();
          return w;
        });
      starting.catch(() => undefined); // Reported to whoever awaits it next (ensureWorker).
      this.starting = starting;
    }
    return this.starting;
  }

  private async ensureWorker(): Promise<WorkerProcess> {
    if (this.closed) throw new Error('sandbox is closed');
    if (this.worker?.alive) return this.worker;
    this.worker = undefined;
    const starting = this.spawn();
    try {
      this.worker = await starting;
    } finally {
      if (this.starting === starting) this.starting = undefined;
    }
    if (this.closed) throw new Error('sandbox is closed');
    return this.worker;
  }

  /**
   * Drop a worker that hit a limit or can no longer be trusted, and warm up its replacement. Every namespace but
   * `running`'s (whose own result says what happened) that held globals is told `reason` at its next block.
   */
  private retire(w: WorkerProcess, reason = 'the sandbox process was replaced', running?: string): void {
    w.kill();
    if (this.worker === w) this.worker = undefined;
    this.holdsGlobals = false;
    for (const [ns, space] of this.spaces) {
      if (space.holdsGlobals && ns !== running) space.lost ??= reason;
      space.holdsGlobals = false;
    }
    if (!this.closed) void this.spawn();
  }

  private async runNow(req: RunCodeRequest): Promise<RunCodeResult> {
    const { timeoutSecs, memoryMiB } = req.limits;
    if (!(timeoutSecs > 0) || !Number.isFinite(timeoutSecs)) throw new Error(`invalid limits.timeoutSecs ${timeoutSecs}: must be a positive number`);
    if (!(memoryMiB > 0) || !Number.isFinite(memoryMiB)) throw new Error(`invalid limits.memoryMiB ${memoryMiB}: must be a positive number`);
    const stubs = pythonApiStubs(req.api);
    const w = await this.ensureWorker();
    const ready = w.ready ?? { loadMs: 0, rssBytes: 0, wasmBytes: 0 };
    const limitBytes = memoryMiB * MiB;
    const wasmCapBytes = limitBytes - (ready.rssBytes - ready.wasmBytes) - WASM_HEADROOM_BYTES;
    if (wasmCapBytes <= ready.wasmBytes) {
      throw new Error(
        `invalid limits.memoryMiB ${memoryMiB}: the sandbox uses ~${Math.ceil(ready.rssBytes / MiB)} MiB after loading Pyodide; allow at least ${Math.ceil((ready.rssBytes + 2 * WASM_HEADROOM_BYTES) / MiB)}`,
      );
    }
    const ns = req.namespace;
    let space = ns !== undefined ? this.spaces.get(ns) : undefined;
    if (ns !== undefined && !space) this.spaces.set(ns, (space = { holdsGlobals: false }));
    const lostGlobals = space ? space.holdsGlobals : this.holdsGlobals;
    // Lost to another namespace's block since this one's last block: said once, with this block's result.
    const lostElsewhere = space?.lost;
    if (space) space.lost = undefined;
    if (req.persistNamespace) {
      if (space) space.holdsGlobals = true;
      else this.holdsGlobals = true;
    }
    const apiNames = req.api.map((a) => a.name);
    const known = new Set(apiNames);
    const apiCalls: ApiCallRecord[] = [];
    const maxOutputBytes = this.options.maxOutputBytes ?? MiB;
    let stdout = '';
    const t0 = this.clock.nowMs();

    // The time limit counts the block's own running time; time the host spends in onApiCall (simulating a motion)
    // is excluded, so a slow simulator does not fail correct code.
    const limitMs = timeoutSecs * 1000;
    let usedMs = 0;
    let sliceStart = t0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let killedFor: 'time' | 'memory' | undefined;
    let peakRss = 0;
    const stopClock = (): void => {
      clearTimeout(timer);
      usedMs += this.clock.nowMs() - sliceStart;
    };
    const startClock = (): void => {
      sliceStart = this.clock.nowMs();
      timer = setTimeout(() => {
        killedFor = 'time';
        w.kill();
      }, Math.max(0, limitMs - usedMs));
    };
    const poll = setInterval(() => {
      void w.rssBytes().then((rss) => {
        if (rss === undefined) return;
        peakRss = Math.max(peakRss, rss);
        if (rss > limitBytes && !killedFor) {
          killedFor = 'memory';
          w.kill();
        }
      });
    }, this.options.memoryPollMs ?? 50);

    w.setActive(true);
    w.send({ t: 'run', code: req.code, stubs, apiNames, persist: req.persistNamespace, wasmCapBytes, maxOutputBytes, ...(ns !== undefined ? { ns } : {}) });
    startClock();
    try {
      for (;;) {
        const e = await w.next();
        if (e.t === 'out') {
          // The worker caps output; the cap is enforced here too since the worker is not trusted.
          if (stdout.length <= maxOutputBytes + 256) stdout += e.text;
          continue;
        }
        if (e.t === 'api') {
          stopClock();
          const reply = known.has(e.fn)
            ? await this.callHost(req, e.fn, e.args, { index: apiCalls.length, ...(e.line !== undefined ? { line: e.line } : {}) })
            : ({ ok: false, error: `${e.fn} is not an API function of this task` } as const);
          apiCalls.push(
            reply.ok
              ? { fn: e.fn, args: e.args, ok: true, ...(reply.value !== undefined ? { value: reply.value } : {}), ...(reply.metrics ? { metrics: reply.metrics } : {}), ...(reply.detections ? { detections: reply.detections } : {}) }
              : { fn: e.fn, args: e.args, ok: false, error: reply.error },
          );
          w.send(reply.ok ? { t: 'api_result', ok: true, output: reply.output, value: reply.value } : { t: 'api_result', ok: false, error: reply.error });
          startClock();
          continue;
        }
        const durationMs = this.clock.nowMs() - t0;
        if (e.t === 'done') {
          // A block that failed says so itself; one that succeeded but left what cannot be undone costs its own
          // namespace too, which its next block is told like the others'.
          if (e.recycle) this.retire(w, e.unrestorable?.length ? `a block left what a reset cannot undo: ${e.unrestorable.slice(0, 2).join('; ')}` : `another episode's block broke the interpreter`, e.exitCode === 0 ? undefined : ns);
          const result: RunCodeResult = { ok: e.exitCode === 0, exitCode: e.exitCode, stdout, durationMs, apiCalls };
          if (e.error) {
            // CPython's MemoryError has no text; say which limit was hit.
            result.error =
              e.error.type === 'MemoryError' && e.error.message === ''
                ? { ...e.error, message: `out of memory: the block needed more than the sandbox memory limit of ${formatNumber(memoryMiB)} MiB allows` }
                : e.error;
          }
          return withLostNote(result, lostElsewhere);
        }
        // The worker died or misbehaved: a limit kill, a crash, or a protocol violation.
        this.retire(w, killedFor === 'time' ? `another episode's block hit the time limit of ${formatNumber(timeoutSecs)} s` : killedFor === 'memory' ? `another episode's block hit the memory limit of ${formatNumber(memoryMiB)} MiB` : `the sandbox process ended during another episode's block`, ns);
        const lost = lostGlobals || req.persistNamespace ? '; the sandbox restarted, so globals from earlier blocks are gone' : '';
        const error =
          killedFor === 'time'
            ? { type: 'TimeoutError', message: `time limit of ${formatNumber(timeoutSecs)} s exceeded${lost}` }
            : killedFor === 'memory'
              ? { type: 'MemoryError', message: `memory limit of ${formatNumber(memoryMiB)} MiB exceeded (${Math.round(peakRss / MiB)} MiB resident)${lost}` }
              : { type: 'SandboxError', message: `${e.t === 'exit' ? e.reason : `unexpected ${e.t} message from the sandbox`}${lost}` };
        return withLostNote({ ok: false, exitCode: killedFor === 'time' ? 124 : 137, stdout, error, durationMs, apiCalls }, lostElsewhere);
      }
    } finally {
      clearTimeout(timer);
      clearInterval(poll);
      w.setActive(false);
    }
  }

  private async callHost(req: RunCodeRequest, fn: string, args: unknown[], where: ApiCallSite): Promise<ApiCallResult> {
    try {
      return await req.onApiCall(fn, args, where);
    } catch (e) {
      // A throwing host is a bug on the host side; the code sees it as a failed call and the trace records it.
      return { ok: false, error: `host error in ${fn}: ${e instanceof Error ? e.message : String(e)}` };
    }
  }
}

/**
 * A block of a namespace whose globals were lost to another namespace's block (the process was replaced): the
 * block ran in a fresh namespace; its error says why names from earlier blocks are missing, and a block that
 * succeeded all the same says it first in its output. Either way the episode's trace records it.
 */
function withLostNote(result: RunCodeResult, reason: string | undefined): RunCodeResult {
  if (!reason) return result;
  const note = `the sandbox process was restarted (${reason}), so this episode's globals from earlier blocks are gone`;
  if (result.error) return { ...result, error: { ...result.error, message: `${result.error.message}; ${note}` } };
  return { ...result, stdout: `[${note}]\n${result.stdout}` };
}

/** A CodeSandbox running Python in Pyodide inside a separate, permission-restricted Node process. */
export function createPyodideSandbox(options: PyodideSandboxOptions = {}): ReusableSandbox {
  return new PyodideSandbox(options);
}
