// Sweep throughput with 1 and 2 worker processes: the same real episodes (MuJoCo, Pyodide, the reference model over
// HTTP; MALMM's SA topology on stack_blocks_2, seeds 0..N-1, cache off so both runs do the same work), each run in a
// fresh workspace through the product path (runSweep + `waypoint sweep-worker` children, each keeping its sandbox
// and simulator warm between episodes). Prints episodes/s for both over the whole sweep and once every worker is
// warm, the ratios (goal >= 1.7 on 2 idle cores) and episodes/s per core. On a shared, loaded machine the ratio says
// more about the other load than about the sweep: the load average is printed beside it.
// Run: npm run bench:sweep [-- seeds]
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeClock, nodeIO } from '../../src/core/node/nodeHost.js';
import { ChildProcessWorker } from '../../src/core/sweep/childWorker.js';
import { runSweep } from '../../src/core/sweep/scheduler.js';
import { parseSweepSpec, planSweep } from '../../src/core/sweep/spec.js';

const SEEDS = Number(process.argv[2] ?? 6);
const CLI = join(process.cwd(), 'dist/cli.mjs');
if (!existsSync(CLI)) {
  console.log('sweep.bench: skipped, dist/cli.mjs is missing (npm run build)');
  process.exit(0);
}

/** CPU seconds used so far by this process and its reaped children (their worker threads included), from
 * /proc/self/stat (utime, stime, cutime, cstime in USER_HZ ticks, 100 per second on Linux); undefined elsewhere. */
function cpuSeconds(): number | undefined {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /s, '').split(' ');
    // After the command name, field 3 is the state; utime..cstime are fields 14-17 of the whole line.
    return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) / 100;
  } catch {
    return undefined;
  }
}

async function measure(workers: number): Promise<{ eps: number; secs: number; n: number; warmEps: number; cores?: number }> {
  const ws = mkdtempSync(join(tmpdir(), 'waypoint-bench-sweep-'));
  try {
    const spec = parseSweepSpec(`arch: malmm\ntasks: [stack_blocks_2]\nvariants: [sa]\nseeds: ${SEEDS}\nmodel: {name: reference}\ncache: false\n`, 'bench.yaml');
    const plan = await planSweep(spec, { io: nodeIO, workspace: ws, builtInPromptRoot: join(process.cwd(), 'prompts'), file: 'bench.yaml' });
    const pool = Array.from({ length: workers }, () => new ChildProcessWorker(CLI));
    const cpu0 = cpuSeconds();
    const t0 = performance.now();
    const finished: number[] = [];
    const r = await runSweep({ plan, io: nodeIO, clock: nodeClock, workspace: ws, builtInPromptRoot: join(process.cwd(), 'prompts'), sim: 'embedded', workers: pool, onProgress: (p) => p.last && finished.push(performance.now()) });
    const secs = (performance.now() - t0) / 1000;
    await Promise.all(pool.map((w) => w.close()));
    const cpu1 = cpuSeconds();
    // Cores kept busy on average (parent + workers, after the workers have exited and been reaped): one worker
    // process is not one core (the sandbox runs in a worker thread, the reference model's HTTP server and the
    // simulator on the main thread), so 2 cores / this figure bounds the speed-up two workers can reach.
    const cores = cpu0 !== undefined && cpu1 !== undefined ? (cpu1 - cpu0) / ((performance.now() - t0) / 1000) : undefined;
    if (r.status !== 'complete') throw new Error(`sweep ${r.status}`);
    // Warm throughput: from the moment as many episodes have ended as there are workers (each worker's cold start
    // is behind it) to the last one.
    const after = finished.slice(workers - 1);
    const warmEps = after.length > 1 ? (after.length - 1) / ((after.at(-1)! - after[0]!) / 1000) : NaN;
    return { eps: r.records.length / secs, secs, n: r.records.length, warmEps, cores };
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}

const load0 = loadavg()[0]!.toFixed(1);
const one = await measure(1);
const two = await measure(2);
const ratio = two.eps / one.eps;
console.log(
  `sweep.bench: ${one.n} episodes (malmm sa, stack_blocks_2, reference, cache off) · 1 worker ${one.eps.toFixed(3)} episodes/s (${one.secs.toFixed(1)} s) · 2 workers ${two.eps.toFixed(3)} episodes/s (${two.secs.toFixed(1)} s) · ratio ${ratio.toFixed(2)}x (goal >= 1.7 on 2 idle cores) · warm (after each worker's first episode): 1 worker ${one.warmEps.toFixed(3)}, 2 workers ${two.warmEps.toFixed(3)} episodes/s, ratio ${(two.warmEps / one.warmEps).toFixed(2)}x · ${(two.eps / 2).toFixed(3)} episodes/s per core at 2 workers · cores kept busy: 1 worker ${one.cores?.toFixed(2) ?? '?'}, 2 workers ${two.cores?.toFixed(2) ?? '?'} (so 2 idle cores allow at most ${one.cores ? Math.min(2, 2 / one.cores).toFixed(2) : '?'}x) · ${cpus().length} cores, load average ${load0} -> ${loadavg()[0]!.toFixed(1)}`,
);
