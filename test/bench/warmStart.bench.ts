// npm run bench:warm — how long a user waits for a live run, cold and warm, on the extension's own path without
// the VS Code UI: LiveRun (the host side the run viewer listens to) with the real run process dist/runWorker.js,
// MuJoCo, Pyodide and the reference model (a scripted policy, not an LLM) over HTTP.
//
// "First turn shown" = from LiveRun.start (the command has checked and saved the prompts and hands the run over)
// to the first role_call event delivered to the LiveRun listener in the host, which is what the run viewer panel
// subscribes to. The panel then posts to its webview in batches of up to 100 ms; that, and painting, are not in
// these figures. Cold = a new run process (Node start, bundle load, MuJoCo module, Pyodide start-up). Warm = the
// process kept by RunProcesses after a run or loaded ahead of time (prewarm on opening a prompt, with its warm-up
// episode as the extension does; WAYPOINT_BENCH_NO_PRIMER=1 leaves that out).
// "Demo episode" = MALMM stack_blocks seed 0 from LiveRun.start to the run's end (done, trace complete).
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { LiveRun, type LiveRunOptions } from '../../src/extension/live/liveRun.js';
import { RunProcesses } from '../../src/extension/live/runProcess.js';
import { assertDistFresh, freshDist } from '../helpers/dist.js';

const COLD_RUNS = Number(process.env.WAYPOINT_BENCH_COLD ?? 3);
const WARM_RUNS = Number(process.env.WAYPOINT_BENCH_WARM ?? 5);
assertDistFresh('dist/sandboxWorker.mjs');
const modulePath = freshDist('dist/runWorker.js');
const ws = mkdtempSync(join(tmpdir(), 'waypoint-bench-warm-'));

const options = (processes?: RunProcesses): LiveRunOptions => ({
  modulePath,
  launch: { workspace: ws, arch: 'malmm', task: 'stack_blocks', seed: 0, builtInPromptRoot: join(process.cwd(), 'src', 'architectures'), model: { kind: 'reference' }, options: {}, cache: false },
  simulator: { kind: 'embedded' },
  ...(processes ? { processes } : {}),
});

interface Timing {
  firstTurnMs: number;
  episodeMs: number;
  warm: boolean;
}

async function timeRun(processes?: RunProcesses): Promise<Timing> {
  const t0 = performance.now();
  const run = LiveRun.start(options(processes));
  let firstTurnMs = NaN;
  run.onEvents((events) => {
    if (Number.isNaN(firstTurnMs) && events.some((e) => e.type === 'role_call')) firstTurnMs = performance.now() - t0;
  });
  const result = await run.done;
  const episodeMs = performance.now() - t0;
  if (!result.success) throw new Error(`demo episode failed: ${result.reason} ${result.message ?? ''}`);
  return { firstTurnMs, episodeMs, warm: run.warm };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');

async function main() {
  const cold: Timing[] = [];
  for (let i = 0; i < COLD_RUNS; i++) cold.push(await timeRun());

  const processes = new RunProcesses({ modulePath, keepWarm: () => true });
  const warm: Timing[] = [];
  let prewarmMs = NaN;
  try {
    const t0 = performance.now();
    const w = await processes.prewarm({ kind: 'embedded' }, 'stack_blocks', process.env.WAYPOINT_BENCH_NO_PRIMER ? undefined : { arch: 'malmm', builtInPromptRoot: join(process.cwd(), 'src', 'architectures') });
    if (w.error) throw new Error(`prewarm failed: ${w.error}`);
    prewarmMs = performance.now() - t0;
    for (let i = 0; i < WARM_RUNS; i++) {
      const t = await timeRun(processes);
      if (!t.warm) throw new Error(`run ${i} did not get the warm process`);
      warm.push(t);
    }
  } finally {
    processes.dispose();
  }

  // The first run on a prewarmed process is what a user gets right after opening a prompt; later ones what they
  // get on every re-run. Both are warm; the first still pays the engine's first-use costs (JIT, prompt compilation).
  const [firstWarm] = warm;
  const coldFirst = cold.map((t) => t.firstTurnMs);
  const warmFirst = warm.map((t) => t.firstTurnMs);
  const warmEpisode = warm.map((t) => t.episodeMs / 1000);
  console.log(`machine: ${cpus().length} CPUs, load average ${loadavg()[0]!.toFixed(1)}`);
  console.log(`prewarm (new run process until loaded: sandbox, simulator, scene${process.env.WAYPOINT_BENCH_NO_PRIMER ? '' : ', warm-up episode'}): ${prewarmMs.toFixed(0)} ms`);
  console.log(`live run, request to first turn shown (first role_call at the host listener): cold ${median(coldFirst).toFixed(0)} ms (median of ${cold.length}: ${list(coldFirst)}), warm ${median(warmFirst).toFixed(0)} ms (median of ${warm.length}: ${list(warmFirst)}); goal warm < 500 ms`);
  console.log(`demo episode (MALMM stack_blocks seed 0, request to end) warm: ${median(warmEpisode).toFixed(3)} s (median of ${warm.length}: ${warmEpisode.map((x) => x.toFixed(2)).join(', ')}); goal < 1.5 s; cold ${(median(cold.map((t) => t.episodeMs)) / 1000).toFixed(2)} s`);
  console.log(`first run on a prewarmed process: first turn ${firstWarm!.firstTurnMs.toFixed(0)} ms, episode ${(firstWarm!.episodeMs / 1000).toFixed(2)} s`);
  console.log(`warm / cold, first turn: ${(median(warmFirst) / median(coldFirst)).toFixed(3)}`);
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => rmSync(ws, { recursive: true, force: true }));
