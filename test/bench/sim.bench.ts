// Embedded MuJoCo tabletop: raw step rate and real-time factor of the single-arm stack_blocks scene, and the
// wall/CPU time of scripted MALMM-API episodes once the module is loaded. Prints one line.
// Run: node --import tsx test/bench/sim.bench.ts
import { EpisodeRuntime } from '../../src/core/sim/mujoco/episodeRuntime.js';
import { createTabletopSimulator } from '../../src/core/sim/mujoco/index.js';
import { getTask } from '../../src/core/sim/mujoco/tasks/registry.js';
import { loadMujocoModule } from '../../src/core/sim/mujoco/wasm.js';
import { seededRng } from '../../src/core/host.js';
import { scriptedStack } from '../unit/core/sim/mujoco/scriptedStacker.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function main(): Promise<void> {
  let t = performance.now();
  const mj = await loadMujocoModule();
  const loadMs = performance.now() - t;

  // Raw physics: the 3-block scene with the arm holding its home pose and blocks resting (12 contacts).
  const task = getTask('stack_blocks');
  const runtime = EpisodeRuntime.create(mj, task.scene);
  runtime.reset(task.layout(seededRng(0)));
  const steps = 20000;
  const rates: number[] = [];
  for (let rep = 0; rep < 3; rep++) {
    t = performance.now();
    for (let k = 0; k < steps; k++) mj.mj_step(runtime.scene.model, runtime.state.data);
    rates.push(steps / ((performance.now() - t) / 1000));
  }
  const stepsPerSec = Math.max(...rates);
  // The same through the runner (contact monitor + 50 Hz recorder), as API calls step it.
  t = performance.now();
  for (let k = 0; k < steps; k++) runtime.runner.step();
  const runnerStepsPerSec = steps / ((performance.now() - t) / 1000);
  const dt = runtime.scene.timestepSecs;
  runtime.dispose();

  const sim = await createTabletopSimulator();
  const episode = async (taskId: string, seed: number) => {
    const w0 = performance.now();
    const c0 = cpuMs();
    await sim.reset(taskId, seed);
    const calls = await scriptedStack(sim);
    const ok = (await sim.check()).success;
    await sim.drainTrajectory();
    return { wallMs: performance.now() - w0, cpuMs: cpuMs() - c0, calls: calls.length, simSecs: sim.simTimeSecs(), ok };
  };
  await episode('stack_blocks', 99); // warm-up (JIT)
  const summary = async (taskId: string) => {
    const runs = [];
    for (let seed = 0; seed < 5; seed++) runs.push(await episode(taskId, seed));
    return {
      wall: median(runs.map((r) => r.wallMs)),
      cpu: median(runs.map((r) => r.cpuMs)),
      calls: runs[0]!.calls,
      sim: median(runs.map((r) => r.simSecs)),
      ok: runs.filter((r) => r.ok).length,
    };
  };
  const three = await summary('stack_blocks');
  const four = await summary('stack_blocks_4');
  await sim.close();

  console.log(
    `sim.bench: module load ${loadMs.toFixed(0)} ms; stack_blocks scene ${Math.round(stepsPerSec)} steps/s ` +
      `(dt ${dt * 1000} ms, real-time x${(stepsPerSec * dt).toFixed(0)}; with contact monitor + recorder ${Math.round(runnerStepsPerSec)} steps/s); ` +
      `scripted episode median of 5 seeds: 3 blocks ${three.calls} calls ${three.sim.toFixed(1)} s sim -> ${three.wall.toFixed(0)} ms wall / ${three.cpu.toFixed(0)} ms CPU (${three.ok}/5 ok), ` +
      `4 blocks ${four.calls} calls ${four.sim.toFixed(1)} s sim -> ${four.wall.toFixed(0)} ms wall / ${four.cpu.toFixed(0)} ms CPU (${four.ok}/5 ok)`,
  );
}

void main();
