// Sweep throughput against a slow model endpoint (issue 28): a proxy holds every request for a fixed delay before
// passing it to the reference server (test/helpers/latencyProxy.ts), and real sweeps run through the product path
// (runSweep + `waypoint sweep-worker` children with several episodes in flight each, cache off) at 8 / 32 / 64
// episodes in flight, beside the old way (8 worker processes, one episode each). Per cell it prints the episodes,
// the model calls, the wall time (whole, and from the first model call, i.e. without the workers' cold start), the
// ideal (calls x latency / in flight), their ratio, the peak RSS of the whole process tree (this process, which
// also serves the model and the proxy, and every descendant, summed from /proc), the most requests in flight at
// the proxy, and the CPU seconds per episode of the tree (the work outside the model call: when episodes x that /
// cores approaches the ideal, the CPU is what limits the ratio). Goals on a 2-core machine: ratio <= 1.3 at 64 in
// flight, tree < 3 GB. A second line gives the two other bounds on the wall time: the longest episode's calls x the
// latency (its calls wait one after another, so one wave of episodes of unequal length cannot end sooner) and
// episodes x CPU per episode / cores.
// MALMM runs its SA topology on stack_blocks (the full MALMM topology makes ~80 calls an episode); RoCo its dialog
// on sort_cubes.
// Run: npm run bench:slow-endpoint [-- --latency 0.5,2 --inflight 8,32,64 --arch malmm,roco --waves 1 --baseline 8]
//   --waves w: w x in-flight episodes per cell (1: one wave; more measures warm steady state); --baseline 0: skip it;
//   --jitter j: each call's delay uniform within +-j of the latency (seeded), as a real endpoint's varies.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { architectures } from '../../src/architectures/registry.js';
import { registerReferencePolicies } from '../../src/core/llm/reference/policies.js';
import { startReferenceServer } from '../../src/core/llm/reference/server.js';
import { nodeClock, nodeIO } from '../../src/core/node/nodeHost.js';
import { ChildProcessWorker } from '../../src/core/sweep/childWorker.js';
import { runSweep } from '../../src/core/sweep/scheduler.js';
import { defaultWorkers, parseSweepSpec, planSweep, slotsPerWorker } from '../../src/core/sweep/spec.js';
import { freshCli } from '../helpers/dist.js';
import { startLatencyProxy, type LatencyProxy } from '../helpers/latencyProxy.js';
import { processTree } from './processTree.js';

const CASES: Record<string, { task: string; variant: string }> = {
  malmm: { task: 'stack_blocks', variant: 'sa' },
  roco: { task: 'sort_cubes', variant: 'dialog' },
};

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
}
const list = (name: string, fallback: string) => flag(name, fallback).split(',').map((x) => x.trim()).filter(Boolean);
const numbers = (name: string, fallback: string) =>
  list(name, fallback).map((x) => {
    const n = Number(x);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`slowEndpoint.bench: --${name} takes positive numbers separated by commas, got '${x}'`);
    return n;
  });

const LATENCIES = numbers('latency', '0.5,2');
const INFLIGHT = numbers('inflight', '8,32,64').map(Math.round);
const ARCHS = list('arch', 'malmm,roco');
const WAVES = Math.max(1, Math.round(Number(flag('waves', '1'))));
const BASELINE = Math.round(Number(flag('baseline', '8')));
// 0: every call waits exactly the latency; j > 0: uniformly within +-j of it (seeded), the ideal then from the
// delays actually added.
const JITTER = Number(flag('jitter', '0'));
if (!(JITTER >= 0 && JITTER <= 1)) throw new Error(`slowEndpoint.bench: --jitter takes a fraction from 0 to 1, got '${flag('jitter', '0')}'`);
for (const a of ARCHS) if (!CASES[a]) throw new Error(`slowEndpoint.bench: --arch ${a}: one of ${Object.keys(CASES).join(', ')}`);
const CLI = freshCli();
const ROOT = join(process.cwd(), 'src', 'architectures');
const CORES = availableParallelism();

const tree = () => processTree({ rss: true });

interface Cell {
  arch: string;
  latency: number;
  label: string;
  inflight: number;
  workers: number;
  episodes: number;
  successes: number;
  calls: number;
  wall: number;
  wallFromFirstCall: number;
  ideal: number;
  peakRss: number;
  maxInFlight: number;
  cpuPerEpisode: number;
  /** Of cpuPerEpisode, this process's share: the reference server, the proxy and the scheduler (a remote endpoint's
   * work would not compete for these cores). */
  benchCpuPerEpisode: number;
  /** The most model calls one episode made: its calls wait in turn, so no schedule ends before longest x latency. */
  longestCalls: number;
}

async function cell(proxy: LatencyProxy, arch: string, latency: number, inflight: number, workers: number, label: string): Promise<Cell> {
  const ws = mkdtempSync(join(tmpdir(), 'waypoint-bench-slow-'));
  const { task, variant } = CASES[arch]!;
  const episodes = inflight * WAVES;
  // Workers as `waypoint sweep` starts them: without this bench's TypeScript loader (inherited, it added ~280 MB
  // and start-up CPU to every worker process).
  const pool = slotsPerWorker(inflight, workers).map((slots) => new ChildProcessWorker(CLI, process.env, slots, []));
  let peakRss = 0;
  const sample = setInterval(() => (peakRss = Math.max(peakRss, tree().rss)), 200);
  try {
    const text = `name: slow\narch: ${arch}\ntasks: [${task}]\nvariants: [${variant}]\nseeds: ${episodes}\nmodel: {name: reference, baseUrl: '${proxy.url}'}\ncache: false\nconcurrency: ${inflight}\nworkers: ${workers}\n`;
    const plan = await planSweep(parseSweepSpec(text, 'slow.yaml'), { io: nodeIO, architectures, workspace: ws, builtInPromptRoot: ROOT, file: 'slow.yaml' });
    proxy.reset();
    const cpu0 = tree().cpu;
    const own0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await runSweep({ plan, io: nodeIO, clock: nodeClock, workspace: ws, builtInPromptRoot: ROOT, sim: 'embedded', workers: pool, concurrency: inflight });
    const t1 = performance.now();
    const cpu = tree().cpu - cpu0;
    const own = process.cpuUsage(own0);
    peakRss = Math.max(peakRss, tree().rss);
    if (r.status !== 'complete') throw new Error(`${arch} ${label}: sweep ${r.status}`);
    // Failed episodes make a ratio meaningless: say why they failed.
    const why = new Map<string, number>();
    for (const x of r.records) if (!x.success) why.set(`${x.reason}${x.message ? `: ${x.message.slice(0, 160)}` : ''}`, (why.get(`${x.reason}${x.message ? `: ${x.message.slice(0, 160)}` : ''}`) ?? 0) + 1);
    for (const [k, n] of why) process.stderr.write(`  ${arch} ${label}: ${n} episode(s) ${k}\n`);
    const calls = proxy.stats.chatCalls;
    return {
      arch,
      latency,
      label,
      inflight,
      workers,
      episodes: r.records.length,
      successes: r.records.filter((x) => x.success).length,
      calls,
      wall: (t1 - t0) / 1000,
      wallFromFirstCall: (t1 - (proxy.stats.firstChatAt ?? t0)) / 1000,
      // Calls x latency / in flight; with jitter, the chat delays the proxy actually added / in flight.
      ideal: JITTER > 0 ? proxy.stats.delayMs / 1000 / inflight : (calls * latency) / inflight,
      peakRss,
      maxInFlight: proxy.stats.maxInFlight,
      cpuPerEpisode: cpu / r.records.length,
      benchCpuPerEpisode: (own.user + own.system) / 1e6 / r.records.length,
      longestCalls: Math.max(...r.records.map((x) => x.modelCalls)),
    };
  } finally {
    clearInterval(sample);
    await Promise.all(pool.map((w) => w.close()));
    rmSync(ws, { recursive: true, force: true });
  }
}

const gb = (b: number) => `${(b / 1024 ** 3).toFixed(2)} GB`;
function line(c: Cell): string {
  // Judged on the whole wall time, the workers' start included (the issue's goal).
  const goal = c.inflight === 64 && c.label.startsWith('new') ? ` · goals ${c.wall / c.ideal <= 1.3 ? 'ratio met' : 'ratio NOT met'}, ${c.peakRss < 3 * 1024 ** 3 ? 'memory met' : 'memory NOT met'}` : '';
  return `${c.arch} ${c.latency} s ${c.label.padEnd(22)} episodes ${c.episodes} (${c.successes} ok) · calls ${c.calls} · wall ${c.wall.toFixed(1)} s (${c.wallFromFirstCall.toFixed(1)} s from the first call) · ideal ${c.ideal.toFixed(1)} s · ratio ${(c.wall / c.ideal).toFixed(2)} (${(c.wallFromFirstCall / c.ideal).toFixed(2)} from the first call) · tree peak ${gb(c.peakRss)} · max in flight at the proxy ${c.maxInFlight} · CPU ${c.cpuPerEpisode.toFixed(2)} s/episode (${c.benchCpuPerEpisode.toFixed(2)} of it this process: reference server, proxy, scheduler)${goal}\n    bounds: longest episode ${c.longestCalls} calls x ${c.latency} s = ${(c.longestCalls * c.latency).toFixed(1)} s of waiting; CPU ${c.episodes} x ${c.cpuPerEpisode.toFixed(2)} s / ${CORES} cores = ${((c.episodes * c.cpuPerEpisode) / CORES).toFixed(1)} s; wall / the largest of ideal, longest and CPU: ${(c.wall / Math.max(c.ideal, c.longestCalls * c.latency, (c.episodes * c.cpuPerEpisode) / CORES)).toFixed(2)}`;
}

registerReferencePolicies(architectures);
const server = await startReferenceServer({ port: 0 });
const load0 = loadavg()[0]!.toFixed(1);
console.log(`slowEndpoint.bench: ${CORES} cores, load average ${load0}; ${WAVES} wave(s) of episodes per cell; cache off; latency ${JITTER > 0 ? `uniform within +-${JITTER * 100} % of the nominal (seeded)` : 'fixed'}`);
try {
  for (const latency of LATENCIES) {
    const proxy = await startLatencyProxy(server.url, latency * 1000, { jitter: JITTER, seed: 28 });
    try {
      for (const arch of ARCHS) {
        if (BASELINE > 0) console.log(line(await cell(proxy, arch, latency, BASELINE, BASELINE, `old: ${BASELINE} proc x 1`)));
        for (const n of INFLIGHT) {
          const w = defaultWorkers(n, CORES);
          console.log(line(await cell(proxy, arch, latency, n, w, `new: ${w} proc, ${n} in flight`)));
        }
      }
    } finally {
      await proxy.close();
    }
  }
} finally {
  await server.close();
}
console.log(`load average ${load0} -> ${loadavg()[0]!.toFixed(1)} (a shared machine's timings say more about the other load than about the sweep)`);
