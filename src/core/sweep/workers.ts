// Where a sweep's episodes run. `runJob` is one episode through launchRun, named by its key, read back into a
// record. A worker runs up to `slots` jobs at once (the model call is the wait, so one process keeps several
// episodes going); the scheduler spreads the sweep's `concurrency` episodes in flight over its workers. In-process
// workers share the event loop (tests, --in-process); child-process workers (src/cli/sweepWorker.ts) give real
// parallelism on several cores. A worker gets its LaunchDeps from a DepsSource: WarmWorkerResources (warmDeps.ts)
// keeps a warm pool of sandboxes and simulators (sandboxes reset between episodes) without the scheduler knowing.
import { join, relative } from 'node:path';
import type { HostIO } from '../host.js';
import { launchRun, type LaunchDeps, type LaunchOptions, type LaunchResult, type ModelSpec } from '../runs/launch.js';
import { runDir } from '../runs/runStore.js';
import { readTrace } from '../trace/reader.js';
import { withEmbeddingMeter, withMeter, type Meter } from './rateLimit.js';
import { recordFromTrace, type EpisodeRecord, type PriceTable } from './record.js';
import type { SweepEpisode } from './spec.js';
import type { DepsSource } from './warmDeps.js';

export interface EpisodeJob {
  episode: SweepEpisode;
  workspace: string;
  arch: string;
  model: ModelSpec;
  limits?: Record<string, unknown>;
  cache: boolean;
  builtInPromptRoot: string;
  promptDir?: string;
  /** Simulator spec for the host to connect (embedded, stdio:..., ws://...). */
  sim: string;
  prices?: PriceTable;
  /** Episode options besides the limits (e.g. the code timeout), as `waypoint run` takes them. */
  options?: LaunchOptions['options'];
}

export interface EpisodeWorker {
  /** Jobs it runs at once (default 1); the scheduler gives it no more. */
  readonly slots?: number;
  run(job: EpisodeJob, meter: Meter | undefined, signal?: AbortSignal): Promise<EpisodeRecord>;
  close(): Promise<void>;
}

export type Launch = (options: LaunchOptions, deps: LaunchDeps) => Promise<LaunchResult>;

/**
 * One episode: a run folder named by the key (an interrupted earlier attempt is removed first), then its record.
 * launchRun records its own failures; should it still throw (a bug), the episode is an engine_error record and the
 * sweep goes on.
 */
export async function runJob(job: EpisodeJob, deps: LaunchDeps, meter: Meter | undefined, launch: Launch = launchRun, signal?: AbortSignal): Promise<EpisodeRecord> {
  const ep = job.episode;
  const dir = runDir(job.workspace, ep.key);
  if (await deps.io.exists(dir)) await deps.io.remove(dir);
  const { EpisodeController } = await import('../engine/controller.js');
  const controller = new EpisodeController();
  const onAbort = () => controller.cancel();
  signal?.addEventListener('abort', onAbort, { once: true });
  // An abort that came while the run folder was cleared fires no event for a listener added after it.
  if (signal?.aborted) controller.cancel();
  let r: LaunchResult;
  try {
    r = await launch(
      {
        workspace: job.workspace,
        arch: job.arch,
        task: ep.task,
        seed: ep.seed,
        variant: ep.variant,
        ablations: ep.ablations,
        builtInPromptRoot: job.builtInPromptRoot,
        promptDir: job.promptDir,
        model: job.model,
        limits: job.limits,
        cache: job.cache,
        cacheReference: job.cache,
        runId: ep.key,
        repeatIndex: ep.repeat,
        controller,
        ...(job.options ? { options: job.options } : {}),
      },
      meter
        ? {
            ...deps,
            wrapModel: (c) => withMeter(deps.wrapModel ? deps.wrapModel(c) : c, meter),
            wrapEmbeddings: (c) => withEmbeddingMeter(deps.wrapEmbeddings ? deps.wrapEmbeddings(c) : c, meter),
          }
        : deps,
    );
  } catch (err) {
    return engineErrorRecord(ep, err instanceof Error ? err.message : String(err), job.prices);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  const text = await deps.io.readText(r.tracePath).catch(() => undefined);
  // Without a readable trace, the launch's own end event is the record's source.
  const events = text !== undefined ? readTrace(text).events : [r.end];
  return recordFromTrace(ep, r.runId, relative(job.workspace, r.tracePath), events, job.prices);
}

/**
 * A worker process ended while an episode ran in it (a crash, an abort inside MuJoCo's WebAssembly, the kernel's
 * out-of-memory killer). The episode did not fail on its own account: the scheduler runs it again in a new process.
 */
export class WorkerExitedError extends Error {
  constructor(
    readonly key: string,
    readonly code: number | null,
    readonly signal: string | null,
  ) {
    super(`sweep worker process exited (${signal ? `signal ${signal}` : `code ${code}`}) during ${key}`);
    this.name = 'WorkerExitedError';
  }
}

/** The record of an episode that ended without a trace of its own outcome (the engine or its process failed). */
export function engineErrorRecord(ep: SweepEpisode, message: string, prices?: PriceTable): EpisodeRecord {
  return { ...recordFromTrace(ep, ep.key, '', [], prices), reason: 'engine_error', message, labels: [{ label: 'engine_error', evidence: message, source: 'auto' }] };
}

/**
 * Runs jobs in this process (up to `slots` at once). `deps`: a factory called once (fresh resources per episode,
 * as its deps create them) or a DepsSource such as WarmWorkerResources (warm between episodes, built with the same
 * number of slots; closed with the worker).
 */
export class InProcessWorker implements EpisodeWorker {
  #deps: LaunchDeps | undefined;
  constructor(
    private readonly deps: (() => LaunchDeps) | DepsSource,
    private readonly launch: Launch = launchRun,
    readonly slots = 1,
  ) {}
  run(job: EpisodeJob, meter: Meter | undefined, signal?: AbortSignal): Promise<EpisodeRecord> {
    const d = this.deps;
    const deps = typeof d === 'function' ? (this.#deps ??= d()) : d.depsFor(job);
    return runJob(job, deps, meter, this.launch, signal);
  }
  async close(): Promise<void> {
    if (typeof this.deps !== 'function') await this.deps.close();
  }
}

export function sweepDirOf(workspace: string, name: string): string {
  return join(workspace, '.waypoint', 'sweeps', name);
}

export async function readRecords(io: HostIO, sweepDir: string): Promise<EpisodeRecord[]> {
  const dir = join(sweepDir, 'episodes');
  if (!(await io.exists(dir))) return [];
  const out: EpisodeRecord[] = [];
  for (const f of (await io.list(dir)).sort()) {
    if (!f.endsWith('.json')) continue;
    try {
      const r = JSON.parse(await io.readText(join(dir, f))) as EpisodeRecord;
      // A record cut short by a kill is not a finished episode: it runs again.
      if (typeof r.key === 'string' && typeof r.success === 'boolean' && `${r.key}.json` === f) out.push(r);
    } catch {
      /* unreadable: not finished */
    }
  }
  return out;
}
