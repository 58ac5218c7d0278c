// `waypoint sweep <file.yaml>`: tasks x variants x seeds x repeats from a sweep file, in worker processes, resumable
// (run it again after a kill: finished episodes are skipped), shardable (--shard i/n, or env/n for a Kubernetes
// Indexed Job's JOB_COMPLETION_INDEX). `waypoint merge <sweep-dir>...` combines shards' folders. Both print the
// Markdown matrix and write matrix.json / matrix.md beside the episode records.
import { cp, readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { nodeClock, nodeIO } from '../core/node/nodeHost.js';
import { builtInPromptRoot, findPackageRoot } from '../core/node/packageRoot.js';
import { createPyodideSandbox } from '../core/sandbox/index.js';
import { architectureManifests } from '../architectures/manifests.js';
import { architectures } from '../architectures/registry.js';
import { catalogOf, type TaskCatalog } from '../core/runs/taskCheck.js';
import { connectSimulator, isEmbeddedSpec, simulatorSpecProblem } from '../core/sim/connect.js';
import { ChildProcessWorker } from '../core/sweep/childWorker.js';
import { buildMatrix, matrixMarkdown, type SweepMatrix } from '../core/sweep/matrix.js';
import { RateLimiter } from '../core/sweep/rateLimit.js';
import type { EpisodeRecord, PriceTable } from '../core/sweep/record.js';
import { countedRecords, paperOptionsOf, readPlanFile } from '../core/sweep/planFile.js';
import { PLAN_FILE, runSweep, type SweepProgressInfo } from '../core/sweep/scheduler.js';
import { defaultWorkers, parseShard, slotsPerWorker, parseSweepSpec, planSweep, shardOf, SweepSpecError, workersProblem } from '../core/sweep/spec.js';
import { WarmWorkerResources } from '../core/sweep/warmDeps.js';
import { estimateSweep, estimateText } from '../core/sweep/estimate.js';
import { REFERENCE_PROFILES } from '../core/llm/reference/policy.js';
import { InProcessWorker, readRecords, type EpisodeWorker } from '../core/sweep/workers.js';
import type { FailureLabel } from '../core/sweep/failureLabels.js';
import { WORKSPACE_OPTIONS } from './commonOptions.js';
import { shutdownExitStatus, shutdownSignal, whileCleaningUp } from './lifecycle.js';
import { displayPath } from './run.js';
import { defineCommand, type OptionSpecs } from './options.js';

export const SWEEP_OPTIONS = {
  shard: { type: 'string', metavar: 'i/n', help: 'run slice i of n (0-based); env/n takes i from JOB_COMPLETION_INDEX (a Kubernetes Indexed Job)' },
  concurrency: { type: 'string', metavar: 'n', help: "episodes in flight at once, over all worker processes (default: the sweep file's concurrency)" },
  workers: { type: 'string', metavar: 'n', help: "worker processes the episodes in flight are spread over (default: the sweep file's workers, else one per core up to 4 and at least one per 16 episodes in flight, at most --concurrency)" },
  sim: { type: 'string', default: 'embedded', metavar: 'spec', help: 'simulator: embedded (embedded:robot=iiwa,grasp=weld,... sets up the tabletop), stdio:<command line> or ws://host:port' },
  prompts: { type: 'string', metavar: 'dir', help: 'folder with the role .prompt files (default: ./prompts/<arch> if present, else built-in)' },
  'in-process': { type: 'boolean', help: 'run episodes in this process instead of worker processes' },
  plan: { type: 'boolean', help: 'check the file and print the episodes per cell and the estimated model calls and tokens; run nothing, call no model' },
  quiet: { type: 'boolean', help: 'no progress line' },
  ...WORKSPACE_OPTIONS,
} as const satisfies OptionSpecs;
export type SweepArgs = { workspace?: string; shard?: string; concurrency?: string; workers?: string; sim?: string; prompts?: string; 'in-process'?: boolean; quiet?: boolean; plan?: boolean };

export const PRICES_FILE = '.waypoint/prices.yaml';

/** The workspace's price table (per million tokens, by model name), editable by hand. */
export async function loadPrices(workspace: string): Promise<PriceTable> {
  try {
    const y = parseYaml(await readFile(join(workspace, PRICES_FILE), 'utf8')) as { prices?: PriceTable } | null;
    return y?.prices ?? {};
  } catch {
    return {};
  }
}

const fmtMs = (ms: number) => (ms < 60_000 ? `${Math.round(ms / 1000)}s` : `${Math.floor(ms / 60_000)}m${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}s`);

/** One progress line: bar, counts, ETA and the running success rate of each cell. */
export function progressLine(p: SweepProgressInfo): string {
  const w = 20;
  const filled = p.total === 0 ? w : Math.round((w * p.done) / p.total);
  const rates = Object.entries(p.rates)
    .map(([c, r]) => `${c} ${r.successes}/${r.n}`)
    .join(' · ');
  return `[${'#'.repeat(filled)}${'.'.repeat(w - filled)}] ${p.done}/${p.total}${p.skipped ? ` (${p.skipped} resumed)` : ''} · ${p.running} running · ETA ${p.etaMs === null ? '?' : fmtMs(p.etaMs)}${rates ? ` · ${rates}` : ''}${p.paused ? ` · PAUSED: ${p.paused}` : ''}`;
}

async function readManualLabels(dir: string): Promise<Record<string, FailureLabel[]> | undefined> {
  try {
    return JSON.parse(await readFile(join(dir, 'labels.json'), 'utf8')) as Record<string, FailureLabel[]>;
  } catch {
    return undefined;
  }
}

/** matrix.json and matrix.md from the records in a sweep folder that count (all shards present there). */
export async function writeMatrix(dir: string): Promise<{ matrix: SweepMatrix; markdown: string; records: EpisodeRecord[] }> {
  const plan = await readPlanFile(nodeIO, dir);
  const records = await countedRecords(nodeIO, dir, plan);
  const versions = Object.fromEntries(plan.cells.flatMap((c) => (c.promptVersion ? [[c.name, c.promptVersion]] : [])));
  const matrix = buildMatrix(records, { tasks: plan.spec.tasks, cells: plan.cells.map((c) => c.name), baseline: plan.baseline, manualLabels: await readManualLabels(dir), ...paperOptionsOf(plan), ...(Object.keys(versions).length > 0 ? { promptVersions: versions } : {}) });
  const markdown = matrixMarkdown(matrix, { title: `${plan.name}: ${plan.spec.arch}, ${records.length}/${plan.episodes.length} episodes`, model: plan.spec.model });
  await nodeIO.writeText(join(dir, 'matrix.json'), JSON.stringify(matrix, null, 2) + '\n');
  await nodeIO.writeText(join(dir, 'matrix.md'), markdown);
  return { matrix, markdown, records };
}

const shellWord = (w: string) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);

/** The command that runs this sweep again (a resume): the same file and options, as the user can paste it. */
export function resumeCommand(file: string, a: SweepArgs, program = process.argv[1] && basename(process.argv[1]) === 'cli.mjs' ? `node ${displayPath(process.argv[1])}` : 'waypoint'): string {
  const words = ['sweep', file];
  for (const k of ['shard', 'concurrency', 'workers', 'sim', 'prompts', 'workspace'] as const) if (a[k] !== undefined && !(k === 'sim' && a[k] === 'embedded')) words.push(`--${k}`, a[k]!);
  for (const k of ['in-process', 'quiet'] as const) if (a[k]) words.push(`--${k}`);
  return `${program} ${words.map(shellWord).join(' ')}`;
}

/**
 * The tasks (and name, version) of a protocol simulator, asked of it once before planning. A server started beside
 * the sweep (a Kubernetes sidecar's WebSocket) may take a moment to listen: it is asked again for up to 30 s.
 */
async function probeSimulator(spec: string, arch: string, cwd: string): Promise<{ spec: string; catalog: TaskCatalog } | undefined> {
  if (isEmbeddedSpec(spec)) return undefined;
  let sim;
  for (let waited = 0; ; waited += 1000) {
    try {
      sim = await connectSimulator(spec, { cwd, family: architectureManifests.find(arch)?.simulator });
      break;
    } catch (err) {
      if (!/^wss?:/.test(spec) || waited >= 30_000 || shutdownSignal.aborted) throw new SweepSpecError(`cannot reach the simulator '${spec}' to check the sweep's tasks: ${err instanceof Error ? err.message : String(err)}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try {
    return { spec, catalog: catalogOf(sim) };
  } finally {
    await sim.close().catch(() => undefined);
  }
}

export async function sweepCommand(file: string | undefined, a: SweepArgs, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const fail = (m: string) => {
    process.stderr.write(`waypoint sweep: ${m}\n`);
    return 2;
  };
  if (!file) return fail('a sweep file is required: waypoint sweep <file.yaml>');
  const workspace = resolve(a.workspace ?? process.cwd());
  const root = findPackageRoot();
  const sim = a.sim ?? 'embedded';
  const simProblem = simulatorSpecProblem(sim);
  if (simProblem) return fail(simProblem);
  let plan;
  let shard;
  try {
    const path = resolve(file);
    const text = await readFile(path, 'utf8').catch(() => {
      throw new SweepSpecError(`cannot read ${path}`);
    });
    const spec = parseSweepSpec(text, file);
    if (a.concurrency !== undefined) {
      if (!/^\d+$/.test(a.concurrency) || Number(a.concurrency) < 1) throw new SweepSpecError(`--concurrency must be a positive integer, got '${a.concurrency}'`);
      spec.concurrency = Number(a.concurrency);
    }
    if (a.workers !== undefined) {
      if (!/^\d+$/.test(a.workers) || Number(a.workers) < 1 || Number(a.workers) > 64) throw new SweepSpecError(`--workers must be an integer from 1 to 64, got '${a.workers}'`);
      spec.workers = Number(a.workers);
    }
    if (a.workers !== undefined || a.concurrency !== undefined) {
      const problem = workersProblem(spec.workers, spec.concurrency, { workers: a.workers !== undefined ? '--workers' : 'workers:', concurrency: a.concurrency !== undefined ? '--concurrency' : 'concurrency:' });
      if (problem) throw new SweepSpecError(problem);
    }
    const simulator = architectures.find(spec.arch) ? await probeSimulator(sim, spec.arch, workspace) : undefined;
    plan = await planSweep(spec, { io: nodeIO, architectures, workspace, builtInPromptRoot: builtInPromptRoot(root), promptDir: a.prompts ? resolve(a.prompts) : undefined, file, ...(simulator ? { simulator } : {}), ...(isEmbeddedSpec(sim) && sim !== 'embedded' ? { embeddedSpec: sim } : {}) });
    shard = parseShard(a.shard ?? (process.env.JOB_COMPLETION_INDEX !== undefined && process.env.WAYPOINT_SHARDS ? `env/${process.env.WAYPOINT_SHARDS}` : undefined));
  } catch (err) {
    if (err instanceof SweepSpecError) return fail(err.message);
    throw err;
  }
  if (a.plan) {
    // The checks above ran (a bad file exits 2 as it would); nothing below them starts a worker or calls a model.
    const mine = { ...plan, episodes: shardOf(plan.episodes, shard) };
    const est = estimateSweep(mine, architectures.get(plan.spec.arch));
    out.write(estimateText(mine, est, { fixture: (REFERENCE_PROFILES as readonly string[]).includes(plan.spec.model.name), modelName: plan.spec.model.name }));
    return 0;
  }
  const prices = { ...(await loadPrices(workspace)), ...plan.spec.prices };
  const n = plan.spec.concurrency;
  const w = plan.spec.workers ?? defaultWorkers(n, availableParallelism());
  const cli = process.argv[1] && basename(process.argv[1]) === 'cli.mjs' ? process.argv[1] : join(root, 'dist', 'cli.mjs');
  // n episodes over w workers: the first n % w take one more (the scheduler's lanes fill them the same way).
  const workers: EpisodeWorker[] = slotsPerWorker(n, w).map((slots) =>
    a['in-process']
      ? new InProcessWorker(new WarmWorkerResources({ io: nodeIO, clock: nodeClock, architectures }, { createSandbox: () => createPyodideSandbox(), connect: (spec, o) => connectSimulator(spec, o) }, slots), undefined, slots)
      : new ChildProcessWorker(cli, process.env, slots),
  );
  const tty = Boolean(process.stderr.isTTY);
  let lastLog = 0;
  // Ctrl-C, SIGTERM, SIGHUP: the episodes in flight are cancelled (they run again on resume), the matrix of what
  // finished is written, and the command to resume is printed.
  return whileCleaningUp(async (signal) => {
    try {
      const r = await runSweep({
        plan,
        io: nodeIO,
        clock: nodeClock,
        workspace,
        builtInPromptRoot: builtInPromptRoot(root),
        promptDir: a.prompts ? resolve(a.prompts) : undefined,
        sim,
        shard,
        workers,
        concurrency: n,
        limiter: plan.spec.rateLimit ? new RateLimiter(plan.spec.rateLimit) : undefined,
        prices,
        signal,
        onProgress: (p) => {
          if (a.quiet) return;
          // A TTY gets one redrawn line; a log (CI) gets a line per finished episode at most every 2 s.
          if (tty) process.stderr.write(`\r\x1b[K${progressLine(p)}`);
          else if (p.done === p.total || nodeClock.nowMs() - lastLog > 2000 || p.paused) {
            lastLog = nodeClock.nowMs();
            process.stderr.write(progressLine(p) + '\n');
          }
        },
      });
      if (tty && !a.quiet) process.stderr.write('\r\x1b[K');
      const { markdown } = await writeMatrix(r.dir);
      if (r.records.length > 0 || r.status !== 'refused') out.write(markdown);
      out.write(`\n${r.status}: ${r.records.length} episodes in this ${shard ? `shard ${shard.index}/${shard.count}` : 'sweep'} (${r.ran} run now, ${r.skipped} already finished); tokens spent in all ${r.spentTokens}${r.spentCost ? `, cost ${r.spentCost.toFixed(4)}` : ''}\nsweep: ${r.dir}\n`);
      const again = resumeCommand(file, a);
      if (r.refusal) {
        const x = r.refusal;
        return fail(`episode ${x.key} (${x.task}, ${x.cell}, seed ${x.seed}) was refused before it measured anything: ${x.reason}: ${x.message ?? '(no message)'}\nNothing was recorded for it and the sweep stopped. Fix the sweep file, the variants or the prompts, then run: ${again}`);
      }
      if (r.promptsChanged) {
        const c = r.promptsChanged;
        process.stderr.write(`waypoint sweep: a prompt file changed while the sweep ran: column ${c.cell} was planned with prompts ${c.planned}, but episode ${c.key} ran ${c.ran}. Episodes that ran other prompts than planned are not counted. Run it again (only the episodes whose prompts changed run): ${again}\n`);
        return 1;
      }
      if (r.status === 'cancelled' && signal.aborted) {
        process.stderr.write(`waypoint sweep: interrupted: ${r.records.length} of ${shardOf(plan.episodes, shard).length} episodes finished and kept; the ones in flight run again. Resume with:\n  ${again}\n`);
        return shutdownExitStatus() ?? 130;
      }
      return r.status === 'complete' ? 0 : 1;
    } finally {
      await Promise.allSettled(workers.map((w) => w.close()));
    }
  });
}

/**
 * `waypoint merge <sweep-dir>... [--out dir]`: the shards' records (and their run folders, when the shards ran in
 * other workspaces) into one sweep folder, then the matrix over all of them. Shards of different sweep files refuse.
 */
export async function mergeCommand(dirs: string[], a: { out?: string }, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const fail = (m: string) => {
    process.stderr.write(`waypoint merge: ${m}\n`);
    return 2;
  };
  if (dirs.length === 0) return fail('name the shards\' sweep folders: waypoint merge <dir>... [--out dir]');
  const srcs = dirs.map((d) => resolve(d));
  const target = resolve(a.out ?? srcs[0]!);
  let planText: string | undefined;
  for (const d of srcs) {
    const t = await readFile(join(d, PLAN_FILE), 'utf8').catch(() => undefined);
    if (t === undefined) return fail(`${d} is not a sweep folder (no ${PLAN_FILE})`);
    const keys = (x: string) => JSON.stringify((JSON.parse(x) as { episodes: { key: string }[] }).episodes.map((e) => e.key));
    if (planText !== undefined && keys(t) !== keys(planText)) return fail(`${d} is a shard of a different sweep (its episode keys differ from ${srcs[0]})`);
    planText ??= t;
  }
  await nodeIO.mkdirp(join(target, 'episodes'));
  await nodeIO.writeText(join(target, PLAN_FILE), planText!);
  const targetWs = dirname(dirname(dirname(target)));
  let copied = 0;
  let conflicts = 0;
  const have = new Map((await readRecords(nodeIO, target)).map((r) => [r.key, r]));
  for (const d of srcs) {
    if (d === target) continue;
    const srcWs = dirname(dirname(dirname(d)));
    for (const r of await readRecords(nodeIO, d)) {
      const prev = have.get(r.key);
      if (prev) {
        if (prev.success !== r.success) conflicts++;
        continue;
      }
      await nodeIO.writeText(join(target, 'episodes', `${r.key}.json`), JSON.stringify(r) + '\n');
      have.set(r.key, r);
      copied++;
      // Traces come along so every record of the merged sweep opens in the run viewer.
      const from = join(srcWs, dirname(r.tracePath));
      const to = join(targetWs, dirname(r.tracePath));
      if (srcWs !== targetWs && (await nodeIO.exists(from))) await cp(from, to, { recursive: true });
    }
  }
  const { markdown, records } = await writeMatrix(target);
  out.write(markdown);
  const total = (JSON.parse(planText!) as { episodes: unknown[] }).episodes.length;
  out.write(`\nmerged ${srcs.length} folders: ${records.length}/${total} episodes (${copied} copied${conflicts ? `, ${conflicts} keys with differing outcomes kept from the first folder` : ''})\nsweep: ${target}\n`);
  return records.length === total ? 0 : 1;
}

export const sweepCmd = defineCommand({
  name: 'sweep',
  summary: 'tasks x variants x seeds from a sweep file, in worker processes; resumable, shardable; a Markdown matrix',
  positionals: [{ name: 'file.yaml', help: 'the sweep file (docs/sweeps.md)' }],
  options: SWEEP_OPTIONS,
  exitStatus: '0 finished, 1 stopped before every episode ran (budget, a prompt edited mid-sweep), 2 bad input or an episode refused for its configuration, 130/143/129 interrupted (it prints the command that resumes).',
  run: ({ values, positionals }) => sweepCommand(positionals[0], values),
});

export const mergeCmd = defineCommand({
  name: 'merge',
  summary: "combine shards' sweep folders and recompute the matrix",
  positionals: [{ name: 'sweep-dir', help: "the shards' sweep folders", repeats: true }],
  options: { out: { type: 'string', metavar: 'dir', help: 'folder to merge into', defaultText: 'the first folder' } },
  exitStatus: '0, 2 bad input.',
  run: ({ values, positionals }) => mergeCommand(positionals, values),
});
