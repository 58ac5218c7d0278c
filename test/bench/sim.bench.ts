// Embedded MuJoCo benchmark (`npm run bench:sim`): mujoco-js against native MuJoCo on the product's own scene.
// For the 1-arm (stack_blocks) and 3-arm (sort_cubes) tabletops, seed 0:
//  1. the scene file is what `waypoint scene <task> --seed 0 --mjcf` writes: the exact XML the simulator compiles
//     plus keyframe 0 = its state after reset (checked here: the export minus keyframe is the product's XML);
//  2. both engines load that file, reset to keyframe 0 and call mj_step STEPS times; REPS rounds alternate
//     between the engines (the machine's load moves between seconds) and the medians are compared;
//  3. mj_step taken apart into stages in both engines (stepTimings.ts / nativeMujoco.py): where wasm loses;
//  4. the product's own per-step work (contact sensors, trajectory recorder, motion probe) on top of mj_step,
//     and mj_step's share of a scripted 3-block MALMM episode's CPU time.
// Native is the official `mujoco` Python package (nativeMujoco.ts says where it comes from); when it cannot be
// had the native part is skipped with the reason. `--explore` adds the solver/contact-setting experiments.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seededRng } from '../../src/core/host.js';
import { EpisodeRuntime } from '../../src/core/sim/mujoco/episodeRuntime.js';
import { stripExport } from '../../src/core/sim/mujoco/sceneExport.js';
import { TabletopSimulator } from '../../src/core/sim/mujoco/tabletopSim.js';
import { getTask } from '../../src/core/sim/mujoco/tasks/registry.js';
import { buildTabletopScene } from '../../src/core/sim/mujoco/scene/tabletopScene.js';
import { compileMjcf, loadMujocoModule, type Mujoco } from '../../src/core/sim/mujoco/wasm.js';
import { scriptedStack } from '../unit/core/sim/mujoco/scriptedStacker.js';
import { findMujocoPython, NativeMujoco } from './nativeMujoco.js';
import { cpuSecs, jsRate, jsStages, STAGES } from './stepTimings.js';
import { EXPERIMENTS } from './simExperiments.js';

const STEPS = Number(process.env.WAYPOINT_BENCH_STEPS ?? 10000);
const REPS = Number(process.env.WAYPOINT_BENCH_REPS ?? 5);
const STAGE_STEPS = 2000;
const explore = process.argv.includes('--explore');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const k = (x: number) => `${(x / 1000).toFixed(1)}k`;
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

interface Scene {
  label: string;
  taskId: string;
  file: string;
  xml: string;
  dt: number;
}

interface Pair {
  /** Median steps per CPU second (the comparison), and per wall second (shown beside it). */
  js: number;
  native: number | null;
  jsWall: number;
  nativeWall: number | null;
  /** Max |qpos_js - qpos_native| after STEPS steps, and contact counts at the end. */
  qposGap: number | null;
  ncon: [number, number | null];
}

async function exportScenes(mj: Mujoco, dir: string): Promise<Scene[]> {
  const sim = new TabletopSimulator(mj);
  const out: Scene[] = [];
  for (const [label, taskId] of [
    ['1-arm tabletop (stack_blocks)', 'stack_blocks'],
    ['3-arm tabletop (sort_cubes)', 'sort_cubes'],
  ] as const) {
    await sim.reset(taskId, 0);
    const xml = sim.sceneMjcf();
    const product = buildTabletopScene(getTask(taskId).scene).xml;
    if (stripExport(xml) !== product) throw new Error(`${taskId}: the exported MJCF is not the product's XML plus a keyframe`);
    const file = join(dir, `${taskId}.xml`);
    writeFileSync(file, xml);
    out.push({ label, taskId, file, xml, dt: getTask(taskId).scene.timestepSecs });
  }
  await sim.close();
  return out;
}

/** Same file, same keyframe, same step count; rounds alternate between the engines. */
async function compare(mj: Mujoco, native: NativeMujoco | null, file: string, xml: string, steps: number, reps: number): Promise<Pair> {
  const m = compileMjcf(mj, xml, 'bench');
  const d = new mj.MjData(m);
  try {
    if (native) await native.load(file);
    const js: number[] = [];
    const nat: number[] = [];
    const jsWall: number[] = [];
    const natWall: number[] = [];
    let last: { js: ReturnType<typeof jsRate>; native: Awaited<ReturnType<NativeMujoco['rate']>> | null } | null = null;
    jsRate(mj, m, d, Math.min(steps, 2000)); // tier-up of the hot wasm functions before timing
    for (let r = 0; r < reps; r++) {
      const a = jsRate(mj, m, d, steps);
      const b = native ? await native.rate(file, steps) : null;
      js.push(a.stepsPerCpuSec);
      jsWall.push(a.stepsPerSec);
      if (b) {
        nat.push(b.stepsPerCpuSec);
        natWall.push(b.stepsPerSec);
      }
      last = { js: a, native: b };
    }
    const gap = last?.native ? Math.max(...last.js.qpos.map((q, i) => Math.abs(q - last!.native!.qpos[i]!))) : null;
    return { js: median(js), native: nat.length ? median(nat) : null, jsWall: median(jsWall), nativeWall: natWall.length ? median(natWall) : null, qposGap: gap, ncon: [last!.js.ncon, last?.native?.ncon ?? null] };
  } finally {
    d.delete();
    m.delete();
  }
}

/** mj_step alone vs the product's PhysicsRunner.step() (mj_step + contacts + recorder + probe) on the same runtime. */
function perStepWork(mj: Mujoco, taskId: string): { bare: number; product: number } {
  const task = getTask(taskId);
  const rt = EpisodeRuntime.create(mj, task.scene);
  try {
    rt.reset(task.layout(seededRng(0)));
    const start = rt.physicsState();
    const none = rt.scene.arms.map(() => null);
    const bare: number[] = [];
    const product: number[] = [];
    for (let r = 0; r < REPS; r++) {
      rt.restore(start, none);
      let t = cpuSecs();
      for (let i = 0; i < STEPS; i++) mj.mj_step(rt.scene.model, rt.state.data);
      bare.push(STEPS / (cpuSecs() - t));
      rt.restore(start, none);
      rt.contacts.begin(rt.scene.arms.map(() => new Set()));
      rt.probe.begin('bench', rt.state);
      t = cpuSecs();
      for (let i = 0; i < STEPS; i++) rt.runner.step();
      product.push(STEPS / (cpuSecs() - t));
      rt.probe.cancel();
      rt.recorder.clear();
    }
    return { bare: median(bare), product: median(product) };
  } finally {
    rt.dispose();
  }
}

async function episodeShare(mj: Mujoco, rate1Arm: number): Promise<string> {
  const sim = new TabletopSimulator(mj);
  const episode = async (seed: number) => {
    const w0 = performance.now();
    const c0 = cpuMs();
    await sim.reset('stack_blocks', seed);
    const calls = await scriptedStack(sim);
    const ok = (await sim.check()).success;
    await sim.drainTrajectory();
    return { wallMs: performance.now() - w0, cpuMs: cpuMs() - c0, calls: calls.length, simSecs: sim.simTimeSecs(), ok };
  };
  await episode(99); // warm-up (JIT)
  const runs = [];
  for (let seed = 0; seed < 5; seed++) runs.push(await episode(seed));
  await sim.close();
  const simSecs = median(runs.map((r) => r.simSecs));
  const cpu = median(runs.map((r) => r.cpuMs));
  const stepMs = ((simSecs / 0.004) / rate1Arm) * 1000;
  return `scripted 3-block MALMM episode, median of 5 seeds: ${runs[0]!.calls} calls, ${simSecs.toFixed(1)} s simulated -> ${median(runs.map((r) => r.wallMs)).toFixed(0)} ms wall / ${cpu.toFixed(0)} ms CPU (${runs.filter((r) => r.ok).length}/5 ok); mj_step at the bench rate would take ${stepMs.toFixed(0)} ms of it (${((100 * stepMs) / cpu).toFixed(0)}%)`;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const mj = await loadMujocoModule();
  const loadMs = performance.now() - t0;
  const dir = mkdtempSync(join(tmpdir(), 'waypoint-sim-bench-'));
  const found = findMujocoPython();
  const native = 'python' in found ? await NativeMujoco.start(found.python) : null;
  const skip = 'skipped' in found ? found.skipped : null;
  const lines: string[] = [];
  try {
    const scenes = await exportScenes(mj, dir);
    lines.push(
      `sim.bench: mujoco-js ${mj.mj_versionString()} (WebAssembly, no SIMD; module load ${loadMs.toFixed(0)} ms, node ${process.versions.node}) vs ${native ? `native MuJoCo ${native.version} (python mujoco package, ${found && 'how' in found ? found.how : ''})` : `native: skipped (${skip})`}`,
      `  same file (the scene export: product XML + keyframe 0 = reset state, seed 0), same options, mj_resetDataKeyframe(0), ${STEPS} mj_step calls, median of ${REPS} alternating rounds, steps per CPU second of each process (wall-clock rates beside them swing with the machine's load). Differs: MuJoCo version${native && native.version !== mj.mj_versionString() ? ` (${mj.mj_versionString()} vs ${native.version})` : ''}, wasm vs x86-64 build, a JS vs a Python call per step`,
    );
    const pairs: Pair[] = [];
    for (const s of scenes) {
      const p = await compare(mj, native, s.file, s.xml, STEPS, REPS);
      pairs.push(p);
      const rtf = (r: number) => `x${(r * s.dt).toFixed(0)} real time`;
      const nat = p.native ? `native ${k(p.native)} steps/s (${rtf(p.native)}; wall ${k(p.nativeWall!)}), ratio ${(p.js / p.native).toFixed(2)}; after ${STEPS} steps max |qpos js - native| ${p.qposGap!.toExponential(1)}, contacts ${p.ncon[0]} / ${p.ncon[1]}` : `native skipped`;
      lines.push(`  ${s.label}, dt ${s.dt * 1000} ms: same file mujoco-js ${k(p.js)} steps/s (${rtf(p.js)}; wall ${k(p.jsWall)}); ${nat}`);
    }
    // Where the time goes inside mj_step.
    for (const s of scenes) {
      const m = compileMjcf(mj, s.xml, 'stages');
      const d = new mj.MjData(m);
      try {
        jsStages(mj, m, d, 200);
        const js = jsStages(mj, m, d, STAGE_STEPS);
        const nat = native ? await native.stages(s.file, STAGE_STEPS) : null;
        const parts = [...STAGES, 'collision'].map((st) => {
          const a = js.usPerStep[st]!;
          const b = nat?.usPerStep[st];
          return `${st}${st === 'collision' ? ' (inside position)' : ''} ${a.toFixed(1)}${b !== undefined ? `/${b.toFixed(1)} (x${(a / b).toFixed(1)})` : ''}`;
        });
        const total = STAGES.reduce((t, st) => t + js.usPerStep[st]!, 0);
        const totalN = nat ? STAGES.reduce((t, st) => t + nat.usPerStep[st]!, 0) : null;
        lines.push(`  ${s.taskId} mj_step stages, median us per step, mujoco-js${nat ? '/native (wasm slower by)' : ''}: ${parts.join(', ')}; sum ${total.toFixed(1)}${totalN ? `/${totalN.toFixed(1)}` : ''}`);
      } finally {
        d.delete();
        m.delete();
      }
    }
    // The product's own work per step, and the episode share.
    const works = scenes.map((s) => ({ s, w: perStepWork(mj, s.taskId) }));
    lines.push(
      `  product physics step during a motion (mj_step + contact sensors + 50 Hz trajectory sample + motion-metric probe) vs bare mj_step, same runtime: ${works.map(({ s, w }) => `${s.taskId} ${k(w.product)} vs ${k(w.bare)} steps/s (mj_step ${((100 * w.product) / w.bare).toFixed(0)}% of the step${pairs[scenes.indexOf(s)]!.native ? `; product step / native mj_step ${(w.product / pairs[scenes.indexOf(s)]!.native!).toFixed(2)}` : ''})`).join('; ')}`,
    );
    lines.push(`  ${await episodeShare(mj, works[0]!.w.bare)}`);
    if (explore) lines.push(...(await exploreSettings(mj, native, scenes, dir)));
    const r = pairs.map((p) => (p.native ? p.js / p.native : null));
    if (r[0] !== null) lines.push(`ratio (wasm/native): ${r[0]!.toFixed(2)} (1-arm; 3-arm ${r[1]?.toFixed(2) ?? 'n/a'}; same scene file)`);
    else lines.push(`ratio (wasm/native): n/a (native skipped: ${skip})`);
  } finally {
    native?.close();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(lines.join('\n'));
}

/** Each experiment edits the exported file's options and is stepped by both engines: which settings move the ratio. */
async function exploreSettings(mj: Mujoco, native: NativeMujoco | null, scenes: Scene[], dir: string): Promise<string[]> {
  const out = ['  settings experiments (same edit applied to the file for both engines; steps/s mujoco-js / native, ratio):'];
  for (const s of scenes) {
    for (const ex of EXPERIMENTS) {
      const xml = ex.edit(s.xml);
      if (ex.name !== 'as shipped' && xml === s.xml) throw new Error(`experiment '${ex.name}' changed nothing in ${s.taskId}`);
      const file = join(dir, `${s.taskId}-${ex.name.replace(/\W+/g, '_')}.xml`);
      writeFileSync(file, xml);
      const p = await compare(mj, native, file, xml, Math.round(STEPS / 2), 3);
      out.push(`    ${s.taskId} ${ex.name}: ${k(p.js)} / ${p.native ? `${k(p.native)}, ratio ${(p.js / p.native).toFixed(2)}` : 'skipped'}; contacts ${p.ncon[0]}`);
    }
  }
  return out;
}

void main();
