// Runs a planned sweep (or one shard of it): skips every episode whose record exists (resume: a killed sweep run
// again loses nothing and repeats nothing finished), keeps `workers.length` episodes in flight, meters model calls
// against the rate limits and the budget (the budget stops scheduling; episodes in flight finish), pauses and
// retries when the endpoint fails, and writes each finished episode's record at once. Statistics are computed
// from the records afterwards (matrix.ts), never here.
import { join } from 'node:path';
import type { Clock, HostIO } from '../host.js';
import { isInfrastructureEnd } from '../../protocol/trace.js';
import type { RateLimiter } from './rateLimit.js';
import { costOf, type EpisodeRecord, type PriceTable } from './record.js';
import { shardOf, type PlannedSweep, type SweepEpisode } from './spec.js';
import { readRecords, sweepDirOf, type EpisodeJob, type EpisodeWorker } from './workers.js';

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
  /** One per concurrent episode. */
  workers: EpisodeWorker[];
  limiter?: RateLimiter;
  prices?: PriceTable;
  signal?: AbortSignal;
  onProgress?(p: SweepProgressInfo): void;
  /** An endpoint failure (or a simulator / sandbox that cannot start) pauses every worker, first for `firstDelayMs`, doubling to `maxDelayMs`; after `patienceMs` of failures the episode is recorded as failed. */
  endpointRetry?: { firstDelayMs?: number; maxDelayMs?: number; patienceMs?: number };
  sleep?(ms: number): Promise<void>;
}

export type SweepStatus = 'complete' | 'cancelled' | 'budget_exhausted';

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
}

export const PLAN_FILE = 'plan.json';

/**
 * A failure of the machinery, not of the agent: the endpoint down, a simulator or sandbox that could not start
 * (Pyodide's start-up timing out on an overloaded machine). Counting these as the variant's failures would make
 * the statistics lie, so the episode pauses and runs again; only past the patience is it recorded.
 */
export function isInfrastructureFailure(r: { reason: string; message?: string }): boolean {
  if (isInfrastructureEnd(r.reason)) return true;
  // Traces recorded before sandbox_error existed ended a sandbox that did not start as an engine_error.
  return r.reason === 'engine_error' && /failed to start|cannot start|start-up took longer/.test(r.message ?? '');
}

/** The plan as written into the sweep folder (the spec and every key), so `merge` and views need no YAML. */
export function planFileOf(plan: PlannedSweep): unknown {
  return { schemaVersion: 1, name: plan.name, spec: plan.spec, cells: plan.cells, seeds: plan.seeds, baseline: plan.baseline, model: { ...plan.model, apiKey: undefined }, episodes: plan.episodes };
}

export async function runSweep(o: RunSweepOptions): Promise<RunSweepResult> {
  if (o.workers.length === 0) throw new Error('runSweep: no workers');
  const dir = sweepDirOf(o.workspace, o.plan.name);
  const epDir = join(dir, 'episodes');
  await o.io.mkdirp(epDir);
  await o.io.writeText(join(dir, PLAN_FILE), JSON.stringify(planFileOf(o.plan), null, 2) + '\n');
  const mine = shardOf(o.plan.episodes, o.shard);
  const mineKeys = new Set(mine.map((e) => e.key));
  const existing = (await readRecords(o.io, dir)).filter((r) => mineKeys.has(r.key));
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
  const progress = (last?: EpisodeRecord) => {
    const elapsedMs = o.clock.nowMs() - t0;
    const left = mine.length - finished.size;
    o.onProgress?.({ done: finished.size, total: mine.length, skipped, running, elapsedMs, etaMs: ran > 0 ? ((elapsedMs / ran) * left) / 1 : null, rates, spentTokens, spentCost, ...(pauseReason ? { paused: pauseReason } : {}), ...(last ? { last } : {}) });
  };

  const job = (episode: SweepEpisode): EpisodeJob => ({ episode, workspace: o.workspace, arch: o.plan.spec.arch, model: o.plan.model, limits: o.plan.spec.limits, cache: o.plan.spec.cache, builtInPromptRoot: o.builtInPromptRoot, promptDir: o.promptDir, sim: o.sim, prices: o.prices, ...(o.options ? { options: o.options } : {}) });

  const loop = async (worker: EpisodeWorker) => {
    for (;;) {
      if (o.signal?.aborted) return void (stopped ??= 'cancelled');
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
      try {
        for (;;) {
          const rec = await worker.run(job(episode), meter, o.signal);
          if (o.signal?.aborted && rec.reason === 'cancelled') {
            // Cut short by the user: not an outcome; it runs again on resume.
            stopped ??= 'cancelled';
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
  await Promise.all(o.workers.map((w) => loop(w)));
  const records = mine.map((e) => finished.get(e.key)).filter((r): r is EpisodeRecord => r !== undefined);
  const status: SweepStatus = stopped ?? (records.length === mine.length ? 'complete' : 'cancelled');
  await o.io.writeText(join(dir, o.shard ? `status-${o.shard.index}-of-${o.shard.count}.json` : 'status.json'), JSON.stringify({ status, done: records.length, total: mine.length, ran, skipped, spentTokens, spentCost, endpointPauses, at: o.clock.isoNow() }, null, 2) + '\n');
  return { status, dir, records, ran, skipped, spentTokens, spentCost, endpointPauses };
}
