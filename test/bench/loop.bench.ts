// npm run bench:loop — two numbers, measured side by side in one run:
//  1. the demo episode (MALMM, stack_blocks, seed 0; reference model over HTTP; MuJoCo; Pyodide) wall time after
//     start-up, i.e. from the first turn to the end, excluding the one-off Pyodide and MuJoCo loading;
//  2. the engine's own overhead per agent turn: the same episode replayed with the model, the simulator and the
//     code sandbox replaced by instant stand-ins, so what remains is prompt rendering, parsing, routing, the
//     controller and writing the trace to disk;
//  3. the demo trace's size on disk, against the same events written one JSON object per line as schema v1 did
//     (every role_call with its whole history, every sample as an object, full precision): the simulator is wrapped
//     to keep the samples it produced before the writer rounded them.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { architectures } from '../../src/architectures/registry.js';
import { EpisodeController } from '../../src/core/engine/controller.js';
import { DEFAULT_EPISODE_OPTIONS, runEpisode } from '../../src/core/engine/episode.js';
import { ReplayClient } from '../../src/core/llm/replay.js';
import { nodeClock, nodeIO } from '../../src/core/node/nodeHost.js';
import { resolvePromptPaths, launchRun } from '../../src/core/runs/launch.js';
import { resolveVariant } from '../../src/core/prompt/variants.js';
import { createPyodideSandbox } from '../../src/core/sandbox/index.js';
import type { CodeSandbox, RunCodeRequest, RunCodeResult } from '../../src/core/sandbox/sandbox.js';
import { createTabletopSimulator } from '../../src/core/sim/mujoco/index.js';
import { readTrace } from '../../src/core/trace/reader.js';
import { JsonlTraceWriter } from '../../src/core/trace/writer.js';
import { TrajectorySample, type TraceEvent } from '../../src/protocol/trace.js';
import { FakeSim } from '../unit/core/engine/helpers/fakeSim.js';
import { assertDistFresh } from '../helpers/dist.js';

assertDistFresh('dist/sandboxWorker.mjs');

const ws = mkdtempSync(join(tmpdir(), 'waypoint-bench-loop-'));
const promptRoot = join(process.cwd(), 'src', 'architectures');

/** Executes nothing; reports the API calls the code names, and task_completed, instantly. */
class InstantSandbox implements CodeSandbox {
  async warmUp() {}
  async resetNamespace() {}
  async close() {}
  async run(r: RunCodeRequest): Promise<RunCodeResult> {
    if (/task_completed\(\)/.test(r.code)) await r.onApiCall('task_completed', [], { index: 0 });
    return { ok: true, exitCode: 0, stdout: '', durationMs: 0, apiCalls: [] };
  }
}

async function main() {
  // 1. The demo episode through every real component.
  const rawSamples: TrajectorySample[][] = [];
  const createSimulator = async () => {
    const sim = await createTabletopSimulator();
    const drain = sim.drainTrajectory.bind(sim);
    sim.drainTrajectory = async () => {
      const t = await drain();
      if (t.samples.length) rawSamples.push(TrajectorySample.array().parse(t.samples));
      return t;
    };
    return sim;
  };
  const demo = await launchRun(
    { workspace: ws, arch: 'malmm', task: 'stack_blocks', seed: 0, builtInPromptRoot: promptRoot, model: { kind: 'reference' } },
    { io: nodeIO, clock: nodeClock, architectures, createSimulator, createSandbox: () => createPyodideSandbox() },
  );
  if (!demo.success) throw new Error(`demo episode failed: ${demo.reason}`);
  const events = readTrace(readFileSync(demo.tracePath, 'utf8')).events;
  const traceBytes = statSync(demo.tracePath).size;
  let k = 0;
  const v1Bytes = events.reduce((n, e) => n + Buffer.byteLength(JSON.stringify(e.type === 'trajectory' ? { ...e, samples: rawSamples[k++] } : e)) + 1, 0);
  if (k !== rawSamples.length) throw new Error(`${rawSamples.length} drained trajectories but ${k} trajectory events`);
  const firstTurn = events.find((e) => e.type === 'chat_message')!;
  const end = events.at(-1) as Extract<TraceEvent, { type: 'episode_end' }>;
  const afterStartupMs = end.tMs - firstTurn.tMs;
  const modelMs = events.filter((e) => e.type === 'model_response').reduce((s, e) => s + (e.type === 'model_response' ? e.latencyMs : 0), 0);
  const codeMs = events.filter((e) => e.type === 'code_execution').reduce((s, e) => s + (e.type === 'code_execution' ? e.durationMs : 0), 0);

  // 2. Replay the same answers with instant stand-ins.
  const answers: Record<string, string[]> = {};
  for (const e of events) if (e.type === 'model_response' && e.ok) (answers[`malmm/${e.role}`] ??= []).push(e.text!);
  const arch = architectures.get('malmm');
  const promptPaths = await resolvePromptPaths(nodeIO, arch, { workspace: ws, builtInPromptRoot: promptRoot });
  const runs = 20;
  let turns = 0;
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) {
    const sim = new FakeSim();
    // The fake sim knows one task; run the recorded answers against it.
    const r = await runEpisode(
      {
        runId: `bench-${i}`,
        arch,
        task: 'fake_stack',
        seed: 0,
        variant: resolveVariant('default', { active: 'default', variants: {} }, arch.builtInVariants),
        promptPaths,
        options: DEFAULT_EPISODE_OPTIONS,
        model: { provider: 'replay', model: 'replay', label: 'replay' },
      },
      { io: nodeIO, clock: nodeClock, sim, sandbox: new InstantSandbox(), model: new ReplayClient(answers), sink: new JsonlTraceWriter(nodeIO, join(ws, `replay-${i}.jsonl`), nodeClock), controller: new EpisodeController() },
    );
    if (r.reason !== 'task_completed') throw new Error(`replay ended with ${r.reason}: ${r.message}`);
    turns += r.end.metrics.turns;
  }
  const overheadMs = (performance.now() - t0) / turns;

  console.log(`demo episode: ${end.metrics.turns} turns, ${end.metrics.modelCalls} model calls, ${end.metrics.codeBlocks} code blocks, ${end.metrics.simTimeSecs.toFixed(1)} s simulated`);
  console.log(`demo wall time after start-up: ${(afterStartupMs / 1000).toFixed(3)} s (goal < 1 s); of which model calls ${(modelMs / 1000).toFixed(3)} s, code blocks incl. simulation ${(codeMs / 1000).toFixed(3)} s`);
  console.log(`demo wall time including start-up: ${(end.metrics.durationMs / 1000).toFixed(3)} s`);
  console.log(`overhead per turn: ${overheadMs.toFixed(3)} ms (goal < 2 ms; ${turns} replayed turns, trace written to disk)`);
  console.log(`ratio (overhead / demo time per turn): ${(overheadMs / (afterStartupMs / end.metrics.turns)).toFixed(3)}`);
  console.log(`demo trace bytes: ${traceBytes} (was ${v1Bytes}): ${(v1Bytes / traceBytes).toFixed(1)}x smaller (goal >= 5x; "was" is the same events as schema v1 wrote them)`);
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => rmSync(ws, { recursive: true, force: true }));
