// Sweep throughput with 1 and 2 worker processes: the same real episodes (MuJoCo, Pyodide, the reference model over
// HTTP; MALMM's SA topology on stack_blocks_2, seeds 0..N-1, cache off so both runs do the same work), each run in a
// fresh workspace through the product path (runSweep + `waypoint sweep-worker` children, each keeping its sandbox
// and simulator warm between episodes). Prints episodes/s for both over the whole sweep and once every worker is
// warm, the ratios (goal >= 1.7 on 2 idle cores, for the warm throughput: two cold starts at once share the two
// cores, which the whole-sweep ratio includes) and episodes/s per core. On a shared, loaded machine the ratio says
// more about the other load than about the sweep: the load average is printed beside it.
// Run: npm run bench:sweep [-- seeds]
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { architectures } from '../../src/architectures/registry.js';
import { nodeClock, nodeIO } from '../../src/core/node/nodeHost.js';
import { ChildProcessWorker } from '../../src/core/sweep/childWorker.js';
import { runSweep } from '../../src/core/sweep/scheduler.js';
import { parseSweepSpec, planSweep } from '../../src/core/sweep/spec.js';
import { freshCli } from '../helpers/dist.js';
import { processTree } from './processTree.js';

// 80 episodes: a warm episode takes about 0.1-0.2 s, a worker's cold start (Pyodide, MuJoCo) about 2-4 s, so with
// a handful of episodes the figure measures cold starts, not a sweep's throughput.
const SEEDS = Number(process.argv[2] ?? 80);
const CLI = freshCli();

/** CPU seconds used so far by this process and every live descendant (processTree.ts); undefined without /proc. */
function treeCpuSeconds(): number | undefined {
  try {
    return processTree().cpu;
  } catch {
    return undefined;
  }
}

async function measure(workers: number): Promise<{ eps: number; secs: number; n: number; warmEps: number; cores?: number; cpuPerEpisode?: number }> {
  const ws = mkdtempSync(join(tmpdir(), 'waypoint-bench-sweep-'));
  try {
    const spec = parseSweepSpec(`arch: malmm\ntasks: [stack_blocks_2]\nvariants: [sa]\nseeds: ${SEEDS}\nmodel: {name: reference}\ncache: false\n`, 'bench.yaml');
    const plan = await planSweep(spec, { io: nodeIO, architectures, workspace: ws, builtInPromptRoot: join(process.cwd(), 'src', 'architectures'), file: 'bench.yaml' });
    const pool = Array.from({ length: workers }, () => new ChildProcessWorker(CLI));
    const t0 = performance.now();
    const finished: number[] = [];
    let warmCpu0: number | undefined;
    const r = await runSweep({
      plan, io: nodeIO, clock: nodeClock, workspace: ws, builtInPromptRoot: join(process.cwd(), 'src', 'architectures'), sim: 'embedded', workers: pool,
      onProgress: (p) => {
        if (!p.last) return;
        finished.push(performance.now());
        // Every worker has finished its cold first episode: the warm window starts.
        if (finished.length === workers) warmCpu0 = treeCpuSeconds();
      },
    });
    const warmCpu1 = treeCpuSeconds();
    const secs = (performance.now() - t0) / 1000;
    await Promise.all(pool.map((w) => w.close()));
    // Cores kept busy while warm (parent + workers + their sandboxes): one worker is not one core (its sandbox
    // process and the engine overlap a little, V8's helper threads run beside them), so 2 cores / this figure for
    // one worker bounds the speed-up two workers can reach.
    const warmSecs = finished.length > workers ? (finished.at(-1)! - finished[workers - 1]!) / 1000 : NaN;
    const warmCpu = warmCpu0 !== undefined && warmCpu1 !== undefined ? warmCpu1 - warmCpu0 : undefined;
    const cores = warmCpu !== undefined ? warmCpu / warmSecs : undefined;
    const cpuPerEpisode = warmCpu !== undefined ? warmCpu / (finished.length - workers) : undefined;
    if (r.status !== 'complete') throw new Error(`sweep ${r.status}`);
    // Warm throughput: from the moment as many episodes have ended as there are workers (each worker's cold start
    // is behind it) to the last one.
    const after = finished.slice(workers - 1);
    const warmEps = after.length > 1 ? (after.length - 1) / ((after.at(-1)! - after[0]!) / 1000) : NaN;
    return { eps: r.records.length / secs, secs, n: r.records.length, warmEps, cores, cpuPerEpisode };
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}

const load0 = loadavg()[0]!.toFixed(1);
const one = await measure(1);
const two = await measure(2);
const ratio = two.eps / one.eps;
console.log(
  `sweep.bench: ${one.n} episodes (malmm sa, stack_blocks_2, reference, cache off) · 1 worker ${one.eps.toFixed(3)} episodes/s (${one.secs.toFixed(1)} s) · 2 workers ${two.eps.toFixed(3)} episodes/s (${two.secs.toFixed(1)} s) · whole sweep ratio ${ratio.toFixed(2)}x (cold starts included) · warm (after each worker's first episode): 1 worker ${one.warmEps.toFixed(3)}, 2 workers ${two.warmEps.toFixed(3)} episodes/s, warm ratio ${(two.warmEps / one.warmEps).toFixed(2)}x (goal >= 1.7 on 2 idle cores) · ${(two.eps / 2).toFixed(3)} episodes/s per core at 2 workers · cores kept busy while warm: 1 worker ${one.cores?.toFixed(2) ?? '?'}, 2 workers ${two.cores?.toFixed(2) ?? '?'} (so 2 idle cores allow at most ${one.cores ? Math.min(2, 2 / one.cores).toFixed(2) : '?'}x); CPU per warm episode ${one.cpuPerEpisode?.toFixed(3) ?? '?'} s with 1 worker, ${two.cpuPerEpisode?.toFixed(3) ?? '?'} s with 2 · ${cpus().length} cores, load average ${load0} -> ${loadavg()[0]!.toFixed(1)}`,
);
