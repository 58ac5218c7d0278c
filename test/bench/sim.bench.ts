// Embedded MuJoCo tabletop benchmark (`npm run bench:sim`). For the 1-arm (stack_blocks) and 3-arm (sort_cubes)
// tabletops: steps/s of mujoco-js on the product scene, then mujoco-js and native MuJoCo (Debian's libmujoco-dev,
// compiled here into a temp dir) on the same portable MJCF from the same keyframe; real-time factors at the
// scene's own timestep; and the wall/CPU time of scripted MALMM episodes. Native is skipped, with a line saying
// why, when libmujoco-dev is absent.
import { seededRng } from '../../src/core/host.js';
import { EpisodeRuntime } from '../../src/core/sim/mujoco/episodeRuntime.js';
import { createTabletopSimulator } from '../../src/core/sim/mujoco/index.js';
import { num } from '../../src/core/sim/mujoco/scene/mjcf.js';
import { getTask } from '../../src/core/sim/mujoco/tasks/registry.js';
import { compileMjcf, loadMujocoModule, type Mujoco } from '../../src/core/sim/mujoco/wasm.js';
import { scriptedStack } from '../unit/core/sim/mujoco/scriptedStacker.js';
import { NativeMujoco, portableMjcf } from './simNative.js';

const STEPS = 20000;
const REPS = 3;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const k = (x: number) => `${(x / 1000).toFixed(1)}k`;

/** Best of REPS runs of STEPS mj_step calls from `reset()`. */
function stepRate(mj: Mujoco, model: Parameters<Mujoco['mj_step']>[0], data: Parameters<Mujoco['mj_step']>[1], reset: () => void): number {
  let best = 0;
  for (let r = 0; r < REPS; r++) {
    reset();
    const t = performance.now();
    for (let i = 0; i < STEPS; i++) mj.mj_step(model, data);
    best = Math.max(best, STEPS / ((performance.now() - t) / 1000));
  }
  return best;
}

interface SceneBench {
  label: string;
  dt: number;
  product: number;
  portableJs: number;
  native: { rate: number; version: string } | { skipped: string };
}

function benchScene(mj: Mujoco, native: NativeMujoco | null, nativeSkip: string | null, label: string, taskId: string): SceneBench {
  const task = getTask(taskId);
  const rt = EpisodeRuntime.create(mj, task.scene);
  try {
    rt.reset(task.layout(seededRng(0)));
    const start = rt.physicsState();
    const product = stepRate(mj, rt.scene.model, rt.state.data, () => rt.restore(start, rt.state.scene.arms.map(() => null)));
    // The same initial state as a keyframe of the portable scene.
    const d = rt.state.data;
    const list = (v: ArrayLike<number>) => Array.from(v, num).join(' ');
    const mocap = rt.scene.model.nmocap > 0 ? ` mpos="${list(d.mocap_pos as Float64Array)}" mquat="${list(d.mocap_quat as Float64Array)}"` : '';
    const key = `<keyframe><key name="reset" qpos="${list(d.qpos as Float64Array)}" ctrl="${list(d.ctrl as Float64Array)}"${mocap}/></keyframe>`;
    const xml = portableMjcf(rt.scene.built.xml, key);
    const m = compileMjcf(mj, xml, `${taskId}-portable`);
    const pd = new mj.MjData(m);
    let portableJs = 0;
    try {
      portableJs = stepRate(mj, m, pd, () => mj.mj_resetDataKeyframe(m, pd, 0));
    } finally {
      pd.delete();
      m.delete();
    }
    let nat: SceneBench['native'] = { skipped: nativeSkip ?? 'not run' };
    if (native) {
      const r = native.run(xml, STEPS, REPS);
      nat = r.ok ? { rate: r.stepsPerSec, version: r.version } : { skipped: `native run failed: ${r.reason}` };
    }
    return { label, dt: rt.scene.timestepSecs, product, portableJs, native: nat };
  } finally {
    rt.dispose();
  }
}

async function main(): Promise<void> {
  let t = performance.now();
  const mj = await loadMujocoModule();
  const loadMs = performance.now() - t;
  const native = new NativeMujoco();
  const skip = native.prepare();
  const scenes = [benchScene(mj, skip ? null : native, skip, '1-arm tabletop (stack_blocks)', 'stack_blocks'), benchScene(mj, skip ? null : native, skip, '3-arm tabletop (sort_cubes)', 'sort_cubes')];
  native.dispose();

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
  const runs = [];
  for (let seed = 0; seed < 5; seed++) runs.push(await episode('stack_blocks', seed));
  await sim.close();
  t = performance.now();

  const lines: string[] = [`sim.bench: mujoco-js ${mj.mj_versionString()} (module load ${loadMs.toFixed(0)} ms)`];
  for (const s of scenes) {
    const rtf = (r: number) => `x${(r * s.dt).toFixed(0)} real time`;
    const nat = 'rate' in s.native ? `native MuJoCo ${s.native.version} ${k(s.native.rate)} steps/s (${rtf(s.native.rate)})` : `native: skipped (${s.native.skipped})`;
    lines.push(
      `  ${s.label}, dt ${s.dt * 1000} ms: product scene mujoco-js ${k(s.product)} steps/s (${rtf(s.product)}); portable MJCF: mujoco-js ${k(s.portableJs)} steps/s (${rtf(s.portableJs)}), ${nat}`,
    );
  }
  lines.push(
    `  scripted 3-block MALMM episode, median of 5 seeds: ${runs[0]!.calls} calls, ${median(runs.map((r) => r.simSecs)).toFixed(1)} s simulated -> ${median(runs.map((r) => r.wallMs)).toFixed(0)} ms wall / ${median(runs.map((r) => r.cpuMs)).toFixed(0)} ms CPU (${runs.filter((r) => r.ok).length}/5 ok)`,
  );
  const ratios = scenes.map((s) => ('rate' in s.native ? s.portableJs / s.native.rate : null));
  if (ratios[0] !== null) lines.push(`ratio (wasm/native): ${ratios[0]!.toFixed(2)} (1-arm; 3-arm ${ratios[1]?.toFixed(2) ?? 'n/a'})`);
  else lines.push(`ratio (wasm/native): n/a (native skipped: ${'skipped' in scenes[0]!.native ? scenes[0]!.native.skipped : skip})`);
  console.log(lines.join('\n'));
}

void main();
