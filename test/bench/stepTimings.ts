// mujoco-js side of the simulator benchmark: mj_step rate from keyframe 0, and mj_step taken apart into
// mj_forward's stages plus the integrator (median microseconds per stage). Mirrors nativeMujoco.py line by line (same calls, same order, same
// clock reads), so a per-stage ratio says where the WebAssembly build loses time.
import type { MjData, MjModel } from 'mujoco-js';
import type { Mujoco } from '../../src/core/sim/mujoco/wasm.js';

export const STAGES = ['position', 'velocity', 'actuation', 'acceleration', 'constraint', 'sensors', 'integrate'] as const;

/** Process CPU time in seconds (the machine is shared: wall time counts the seconds other processes ran). */
export function cpuSecs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

export interface Rate {
  /** Steps per wall-clock second and per CPU second of this process. */
  stepsPerSec: number;
  stepsPerCpuSec: number;
  ncon: number;
  nefc: number;
  qpos: number[];
  time: number;
}

export function jsRate(mj: Mujoco, m: MjModel, d: MjData, steps: number): Rate {
  mj.mj_resetDataKeyframe(m, d, 0);
  const t0 = performance.now();
  const c0 = cpuSecs();
  for (let i = 0; i < steps; i++) mj.mj_step(m, d);
  const cpu = cpuSecs() - c0;
  const secs = (performance.now() - t0) / 1000;
  return { stepsPerSec: steps / secs, stepsPerCpuSec: steps / cpu, ncon: d.ncon, nefc: d.nefc, qpos: Array.from(d.qpos as Float64Array), time: d.time };
}

export function jsStages(mj: Mujoco, m: MjModel, d: MjData, steps: number): { usPerStep: Record<string, number>; ncon: number } {
  mj.mj_resetDataKeyframe(m, d, 0);
  // Per-step samples; the median is reported, so steps during which the process was descheduled do not count.
  const acc: Record<string, number[]> = Object.fromEntries([...STAGES, 'collision'].map((s) => [s, []]));
  const scratch = new mj.MjData(m);
  const spec = mj.mjtState.mjSTATE_INTEGRATION.value;
  const buf = new mj.DoubleBuffer(mj.mj_stateSize(m, spec));
  const now = () => performance.now() / 1000;
  try {
    for (let k = 0; k < steps; k++) {
      const t0 = now();
      mj.mj_fwdPosition(m, d);
      const t1 = now();
      mj.mj_sensorPos(m, d);
      mj.mj_energyPos(m, d);
      const t2 = now();
      mj.mj_fwdVelocity(m, d);
      const t3 = now();
      mj.mj_sensorVel(m, d);
      mj.mj_energyVel(m, d);
      const t4 = now();
      mj.mj_fwdActuation(m, d);
      const t5 = now();
      mj.mj_fwdAcceleration(m, d);
      const t6 = now();
      mj.mj_fwdConstraint(m, d);
      const t7 = now();
      mj.mj_sensorAcc(m, d);
      const t8 = now();
      mj.mj_implicit(m, d);
      const t9 = now();
      acc.position!.push(t1 - t0);
      acc.sensors!.push(t2 - t1 + (t4 - t3) + (t8 - t7));
      acc.velocity!.push(t3 - t2);
      acc.actuation!.push(t5 - t4);
      acc.acceleration!.push(t6 - t5);
      acc.constraint!.push(t7 - t6);
      acc.integrate!.push(t9 - t8);
      // Collision alone, on a scratch copy (it clears the constraint rows, so never on the simulated data).
      if (k % 10 === 0) {
        mj.mj_getState(m, d, buf, spec);
        mj.mj_setState(m, scratch, buf.GetView() as unknown as number[], spec);
        mj.mj_fwdPosition(m, scratch);
        const c0 = now();
        mj.mj_collision(m, scratch);
        acc.collision!.push(now() - c0);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    return { usPerStep: Object.fromEntries(Object.entries(acc).map(([k, v]) => [k, median(v) * 1e6])), ncon: d.ncon };
  } finally {
    buf.delete();
    scratch.delete();
  }
}
