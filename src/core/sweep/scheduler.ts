// Runs a planned sweep (or one shard of it): skips every episode whose record counts (resume: a killed sweep run
// again loses nothing and repeats nothing finished; planFile.ts says what counts), keeps `concurrency` episodes in
// flight spread over its workers (each up to its slots), meters model calls against the rate limits and the budget
// (the budget stops scheduling; episodes in flight finish), pauses and retries when the endpoint fails, and writes
// each finished episode's record at once.
// Two things stop it besides a cancel and the budget: an episode refused for its configuration (nothing about the
// variant was measured, and every other episode would be refused too) and a prompt edited while it ran (the trace
// ran other prompts than the plan's). Neither is written as a record. Statistics are computed from the records
// afterwards (matrix.ts), never here.
import { join } from 'node:path';
import type { Clock, HostIO } from '../host.js';
import { countsFor, isInfrastructureFailure, PLAN_FILE, ranOtherPrompts, refusalOf } from './planFile.js';
import type { RateLimiter } from './rateLimit.js';
import { costOf, type EpisodeRecord, type PriceTable } from './record.js';
import { shardOf, type PlannedSweep, type SweepEpisode } from './spec.js';
import { engineErrorRecord, readRecords, sweepDirOf, WorkerExitedError, type EpisodeJob, type EpisodeWorker } from './workers.js';

export interface SweepProgressInfo {
  /** Finished in this shard, including those found finished at the start. */
  done: number;
  total: number;
  skipped: number;
  running: number;
  elapsedMs: number;
  /** From this invocation's pace; null before the first episode ends. */
  etaMs: number | null;
  /** Running success counts per cell (all tasks). */
  rates: Record<string, { successes: number; n: number }>;
  spentTokens: number;
  spentCost: number;
  paused?: string;
  last?: EpisodeRecord;
}

export interface RunSweepOptions {
  plan: PlannedSweep;
  io: HostIO;
  clock: Clock;
  workspace: string;
  builtInPromptRoot: string;
  promptDir?: string;
  sim: string;
  /** Episode options besides the limits, for every episode. */
  options?: EpisodeJob['options'];
  shard?: { index: number; count: number };
  /** Where episodes run; each takes up to its `slots` at once. */
  workers: EpisodeWorker[];
  /** Episodes in flight over all workers (default, and at most, the sum of their slots), spread round-robin. */
  concurrency?: number;
  limiter?: RateLimiter;
  prices?: PriceTable;
  signal?: AbortSignal;
  onProgress?(p: SweepProgressInfo): void;
  /** An endpoint failure (or a simulator / sandbox that cannot start) pauses every worker, first for `firstDelayMs`, doubling to `maxDelayMs`; after `patienceMs` of failures the episode is recorded as failed. */
  endpointRetry?: { firstDelayMs?: number; maxDelayMs?: number; patienceMs?: number };
  sleep?(ms: number): Promise<void>;
}

/**
 * `refused`: an episode was refused for its configuration (`refusal` says which and why); `prompts_changed`: an
 * episode's trace ran other prompts than the plan's (a prompt file was edited while the sweep ran).
 */
export type SweepStatus = 'complete' | 'cancelled' | 'budget_exhausted' | 'refused' | 'prompts_changed';

export interface RunSweepResult {
  status: SweepStatus;
  dir: string;
  /** Records of this shard's episodes (finished now or before). */
  records: EpisodeRecord[];
  ran: number;
  skipped: number;
  spentTokens: number;
  spentCost: number;
  endpointPauses: number;
  /** With status 'refused': the episode's record (not written to the sweep folder). */
  refusal?: EpisodeRecord;
  /** With status 'prompts_changed': the episode whose trace ran other prompts than planned. */
  promptsChanged?: { key: string; cell: string; planned: string; ran: string };
}

export { isInfrastructureFailure, PLAN_FILE } from './planFile.js';

/** The plan as written into the sweep folder (the spec and every key), so `merge` and views need no YAML. */
export function planFileOf(plan: PlannedSweep): unknown {
  return { schemaVersion: 2, name: plan.name, spec: plan.spec, cells: plan.cells, seeds: plan.seeds, baseline: plan.baseline, model: { ...plan.model, apiKey: undefined }, ...(plan.simulator ? { simulator: plan.simulator } : {}), episodes: plan.episodes };
}

/**
 * One worker per episode slot: round-robin over the workers, each up to its slots, `concurrency` in all (so 8 over
 * 2 workers of 4 slots is 4 + 4, not 8 on the first).
 */
/**
 * How many times an episode runs when its worker process keeps dying under it. The other episodes of a dead process
 * run again too; one that has been in this many dead processes is recorded as an engine_error (likely its own doing,
 * e.g. a scene that aborts MuJoCo), so one bad episode cannot stop the sweep or loop forever.
 */
export const WORKER_EXIT_ATTEMPTS = 3;

export function lanes(workers: readonly EpisodeWorker[], concurrency?: number): EpisodeWorker[] {
  const cap = workers.map((w) => Math.max(1, w.slots ?? 1));
  const total = Math.min(concurrency ?? Infinity, cap.reduce((a, b) => a + b, 0));
  const out: EpisodeWorker[] = [];
  for (let round = 0; out.length < total; round++) {
    for (let i = 0; i < workers.length && out.length < total; i++) if (round < cap[i]!) out.push(workers[i]!);
  }
  return out;
}

export async function runSweep(o: RunSweepOptions): Promise<RunSweepResult> {
  if (o.workers.length === 0) throw new Error('runSweep: no workers');
  const dir = sweepDirOf(o.workspace, o.plan.name);
  const epDir = join(dir, 'episodes');
  await o.io.mkdirp(epDir);
  await o.io.writeText(join(dir, PLAN_FILE), JSON.stringify(planFileOf(o.plan), null, 2) + '\n');
  const mine = shardOf(o.plan.episodes, o.shard);
  const mineKeys = new Set(mine.map((e) => e.key));
  const byKey = new Map(mine.map((e) => [e.key, e]));
  const existing = (await readRecords(o.io, dir)).filter((r) => mineKeys.has(r.key) && countsFor(r, byKey.get(r.key)));
  const finished = new Map(existing.map((r) => [r.key, r]));
  const queue: SweepEpisode[] = mine.filter((e) => !finished.has(e.key));
  const skipped = existing.length;
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const retry = { firstDelayMs: 2000, maxDelayMs: 60_000, patienceMs: 15 * 60_000, ...o.endpointRetry };
  const budget = o.plan.spec.budget;
  const modelName = o.plan.model.kind === 'reference' ? (o.plan.model.profile ?? 'reference') : o.plan.model.model;
  // Spending so far counts finished episodes of earlier invocations, so a resumed sweep keeps the same budget.
  let spentTokens = existing.reduce((a, r) => a + r.promptTokens + r.completionTokens, 0);
  let spentCost = existing.reduce((a, r) => a + r.cost, 0);
  const meter = {
    acquire: async (est: number) => (o.limiter?.active ? o.limiter.acquire(est) : { settle: () => {} }),
    spent: (p: number, c: number) => {
      spentTokens += p + c;
      spentCost += costOf(modelName, p, c, o.prices);
    },
  };
  const overBudget = () => (budget?.tokens !== undefined && spentTokens >= budget.tokens) || (budget?.cost !== undefined && spentCost >= budget.cost);
  const rates: SweepProgressInfo['rates'] = {};
  const count = (r: EpisodeRecord) => {
    const x = (rates[r.cell] ??= { successes: 0, n: 0 });
    x.n++;
    if (r.success) x.successes++;
  };
  existing.forEach(count);
  const t0 = o.clock.nowMs();
  let ran = 0;
  let running = 0;
  let stopped: SweepStatus | undefined;
  let pausedUntil = 0;
  let pauseReason: string | undefined;
  let endpointPauses = 0;
  let refusal: EpisodeRecord | undefined;
  let promptsChanged: RunSweepResult['promptsChanged'];
  const progress = (last?: EpisodeRecord) => {
    const elapsedMs = o.clock.nowMs() - t0;
    const left = mine.length - finished.size;
    o.onProgress?.({ done: finished.size, total: mine.length, skipped, running, elapsedMs, etaMs: ran > 0 ? ((elapsedMs / ran) * left) / 1 : null, rates, spentTokens, spentCost, ...(pauseReason ? { paused: pauseReason } : {}), ...(last ? { last } : {}) });
  };

  const job = (episode: SweepEpisode): EpisodeJob => ({ episode, workspace: o.workspace, arch: o.plan.spec.arch, model: o.plan.model, limits: o.plan.spec.limits, cache: o.plan.spec.cache, builtInPromptRoot: o.builtInPromptRoot, promptDir: o.promptDir, sim: o.sim, prices: o.prices, ...(o.options || o.plan.spec.vision ? { options: { ...o.options, ...(o.plan.spec.vision ? { vision: true } : {}) } } : {}) });

  const loop = async (worker: EpisodeWorker) => {
    for (;;) {
      if (o.signal?.aborted) return void (stopped ??= 'cancelled');
      if (stopped) return;
      if (overBudget()) return void (stopped ??= 'budget_exhausted');
      const wait = pausedUntil - o.clock.nowMs();
      if (wait > 0) {
        await sleep(wait);
        continue;
      }
      const episode = queue.shift();
      if (!episode) return;
      running++;
      let failingSince: number | undefined;
      let delay = retry.firstDelayMs;
      let workerExits = 0;
      try {
        for (;;) {
          let rec: EpisodeRecord;
          try {
            rec = await worker.run(job(episode), meter, o.signal);
          } catch (err) {
            // A worker process ended by the same Ctrl-C (the terminal signals the whole process group).
            if (o.signal?.aborted) return void (stopped ??= 'cancelled');
            if (!(err instanceof WorkerExitedError)) throw err;
            // The process died under this episode: it runs again from its start in a new process.
            if (++workerExits < WORKER_EXIT_ATTEMPTS) continue;
            rec = engineErrorRecord(episode, `${err.message}, ${workerExits} times; not run again (the sweep went on)`, o.prices);
          }
          if (rec.reason === 'cancelled') {
            // Cut short by the user (only a stop of the sweep cancels its episodes): not an outcome; it runs again
            // on resume, even when the worker's record arrives before this process has seen the signal.
            stopped ??= 'cancelled';
            return;
          }
          if (refusalOf(rec)) {
            refusal ??= rec;
            stopped ??= 'refused';
            return;
          }
          if (ranOtherPrompts(rec, episode) && !isInfrastructureFailure(rec)) {
            promptsChanged ??= { key: rec.key, cell: rec.cell, planned: episode.promptVersion!, ran: rec.promptVersion! };
            stopped ??= 'prompts_changed';
            return;
          }
          const transient = isInfrastructureFailure(rec);
          failingSince ??= transient ? o.clock.nowMs() : undefined;
          if (transient && o.clock.nowMs() - failingSince! < retry.patienceMs) {
            // The endpoint is down: every worker waits, then this episode runs again from its start.
            endpointPauses++;
            pausedUntil = Math.max(pausedUntil, o.clock.nowMs() + delay);
            pauseReason = `${rec.reason === 'model_error' ? 'endpoint failing' : 'infrastructure failure'} (${(rec.message ?? rec.reason).slice(0, 120)}); retrying in ${Math.round(delay / 1000)} s`;
            progress();
            await sleep(delay);
            delay = Math.min(retry.maxDelayMs, delay * 2);
            continue;
          }
          pauseReason = undefined;
          await o.io.writeText(join(epDir, `${rec.key}.json`), JSON.stringify(rec) + '\n');
          finished.set(rec.key, rec);
          count(rec);
          ran++;
          break;
        }
      } finally {
        running--;
      }
      progress(finished.get(episode.key));
    }
  };
  progress();
  await Promise.all(lanes(o.workers, o.concurrency).map((w) => loop(w)));
  const records = mine.map((e) => finished.get(e.key)).filter((r): r is EpisodeRecord => r !== undefined);
  const status: SweepStatus = stopped ?? (records.length === mine.length ? 'complete' : 'cancelled');
  await o.io.writeText(join(dir, o.shard ? `status-${o.shard.index}-of-${o.shard.count}.json` : 'status.json'), JSON.stringify({ status, done: records.length, total: mine.length, ran, skipped, spentTokens, spentCost, endpointPauses, at: o.clock.isoNow() }, null, 2) + '\n');
  return { status, dir, records, ran, skipped, spentTokens, spentCost, endpointPauses, ...(refusal ? { refusal } : {}), ...(promptsChanged ? { promptsChanged } : {}) };
}
