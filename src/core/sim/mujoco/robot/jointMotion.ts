// Several arms moving in the same physics steps: each arm follows its own joint polyline, all on one
// minimum-jerk clock sized by the slowest joint of any arm, so the robots of one plan start and stop together.
// Also Cartesian tool paths (straight lines with orientation interpolated by slerp) solved into joint knots.
import { matToQuat, quatToMat, topDownMat } from '../math3.js';
import type { PhysicsRunner } from '../physicsRunner.js';
import type { Vec3 } from '../scene/sceneSpec.js';
import type { ArmController } from './armController.js';
import type { ToolTarget } from './ik.js';

export interface ArmPath {
  arm: number;
  /** Joint configurations, first = where the arm is; interpolated linearly between knots. */
  knots: number[][];
}

const MIN_DURATION_SECS = 0.3;
const MIN_JERK_PEAK = 1.875;
const KNOT_M = 0.02;
const KNOT_RAD = 0.1;
const MAX_KNOT_JUMP_RAD = 0.35;

/** Duration of a joint move of all `paths` together: the slowest joint at its motion speed, minimum-jerk peak. */
export function togetherDuration(runner: PhysicsRunner, paths: ArmPath[], minToolSecs = 0): number {
  let t = 0;
  for (const p of paths) {
    const speed = runner.state.scene.arms[p.arm]!.layout.maxJointSpeed;
    for (let j = 0; j < speed.length; j++) {
      let len = 0;
      for (let k = 1; k < p.knots.length; k++) len += Math.abs(p.knots[k]![j]! - p.knots[k - 1]![j]!);
      t = Math.max(t, len / speed[j]!);
    }
  }
  return Math.max(MIN_DURATION_SECS, MIN_JERK_PEAK * Math.max(t, minToolSecs));
}

/** Steps physics while every arm follows its path; at the end each servo holds its last knot. */
export function executeTogether(runner: PhysicsRunner, paths: ArmPath[], durationSecs: number): void {
  const live = paths.filter((p) => p.knots.length > 1);
  if (live.length === 0) return;
  const steps = Math.max(1, Math.round(durationSecs / runner.dt));
  const arms = live.map((p) => runner.state.scene.arms[p.arm]!);
  // Progress along each path is by joint distance (the largest joint change per segment), so a long joint-space
  // leg between short Cartesian knots is not rushed.
  const cum = live.map((p) => {
    const c = [0];
    for (let k = 1; k < p.knots.length; k++) c.push(c[k - 1]! + Math.max(1e-9, ...p.knots[k]!.map((v, j) => Math.abs(v - p.knots[k - 1]![j]!))));
    return c.map((v) => v / c[c.length - 1]!);
  });
  for (let k = 1; k <= steps; k++) {
    // A fresh view each step: WASM memory may grow (contact lookups allocate), which detaches old views.
    const ctrl = runner.state.data.ctrl as Float64Array;
    const tau = k / steps;
    const s = tau * tau * tau * (10 - 15 * tau + 6 * tau * tau);
    const sDot = (30 * tau * tau * (1 - tau) * (1 - tau)) / durationSecs;
    live.forEach((p, i) => {
      const arm = arms[i]!;
      const c0 = cum[i]!;
      let seg = 0;
      while (seg < c0.length - 2 && s > c0[seg + 1]!) seg++;
      const width = c0[seg + 1]! - c0[seg]!;
      const frac = Math.min(1, Math.max(0, (s - c0[seg]!) / width));
      const a = p.knots[seg]!;
      const b = p.knots[seg + 1]!;
      const lead = arm.layout.servoLeadSecs;
      const ranges = arm.layout.jointRanges;
      for (let j = 0; j < a.length; j++) {
        const q = a[j]! + frac * (b[j]! - a[j]!);
        const c = q + (lead[j]! * (b[j]! - a[j]!) * sDot) / width;
        ctrl[arm.ctrlAdr[j]!] = Math.min(ranges[j]![1], Math.max(ranges[j]![0], c));
      }
    });
    runner.step();
  }
  const ctrl = runner.state.data.ctrl as Float64Array;
  live.forEach((p, i) => {
    const last = p.knots[p.knots.length - 1]!;
    arms[i]!.ctrlAdr.forEach((adr, j) => (ctrl[adr] = last[j]!));
  });
}

/** Holds the last commands until every listed arm has stopped (at most 0.4 s). */
export function settleArms(runner: PhysicsRunner, arms: number[]): void {
  const dofs = arms.flatMap((a) => runner.state.scene.arms[a]!.dofAdr);
  runner.stepUntil(
    () => {
      const v = runner.state.data.qvel as Float64Array;
      let sum = 0;
      for (const d of dofs) sum += v[d]! * v[d]!;
      return sum < 1e-4 * Math.max(1, arms.length);
    },
    0.02,
    0.4,
  );
  runner.forward();
}

/** Row-major orientation of a tool target (a top-down yaw unless R is given). */
export function targetMat(t: ToolTarget): number[] {
  return t.R ?? topDownMat(t.yawRad);
}

function slerp(a: number[], b: number[], t: number): number[] {
  let dot = a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]! + a[3]! * b[3]!;
  let bb = b;
  if (dot < 0) {
    bb = b.map((v) => -v);
    dot = -dot;
  }
  if (dot > 0.9995) {
    const q = a.map((v, i) => v + t * (bb[i]! - v));
    const n = Math.hypot(...q);
    return q.map((v) => v / n);
  }
  const th = Math.acos(dot);
  const s = Math.sin(th);
  const wa = Math.sin((1 - t) * th) / s;
  const wb = Math.sin(t * th) / s;
  return a.map((v, i) => wa * v + wb * bb[i]!);
}

export type CartesianResult = { ok: true; knots: number[][]; lengthM: number } | { ok: false; error: string };

/**
 * Joint knots for a tool path through `targets` (straight lines; orientation slerped), starting at the arm's
 * configuration `qStart` whose tool pose is `from`. Each knot is solved by IK warm-started from the previous one;
 * a knot that does not converge or jumps (a branch change) fails the path without moving anything.
 */
export function cartesianKnots(ctrl: ArmController, qStart: number[], from: { pos: Vec3; R: number[] }, targets: ToolTarget[], what: string): CartesianResult {
  const knots = [qStart];
  let prev = qStart;
  let pos = from.pos;
  let quat: number[] = matToQuat(from.R);
  let lengthM = 0;
  for (const t of targets) {
    const q1 = matToQuat(targetMat(t));
    const d = Math.hypot(t.pos[0] - pos[0], t.pos[1] - pos[1], t.pos[2] - pos[2]);
    let dot = Math.abs(quat[0]! * q1[0]! + quat[1]! * q1[1]! + quat[2]! * q1[2]! + quat[3]! * q1[3]!);
    dot = Math.min(1, dot);
    const ang = 2 * Math.acos(dot);
    const n = Math.max(1, Math.ceil(d / KNOT_M), Math.ceil(ang / KNOT_RAD));
    for (let k = 1; k <= n; k++) {
      const f = k / n;
      const R = quatToMat(slerp(quat, q1, f)) as number[];
      const p: Vec3 = [pos[0] + f * (t.pos[0] - pos[0]), pos[1] + f * (t.pos[1] - pos[1]), pos[2] + f * (t.pos[2] - pos[2])];
      const sol = ctrl.ik.solve(prev, { pos: p, yawRad: 0, R: Array.from(R) }, { maxIterations: 80 });
      if (!sol.converged) return { ok: false, error: `${what}: the tool cannot follow the path at (${p.map((v) => v.toFixed(2)).join(', ')}) (IK residual ${sol.posErrM.toFixed(3)} m, ${sol.rotErrRad.toFixed(3)} rad${sol.jointsAtLimit.length > 0 ? `, joint ${sol.jointsAtLimit.join(", ")} at its limit` : ""})` };
      if (Math.max(...sol.q.map((v, i) => Math.abs(v - prev[i]!))) > MAX_KNOT_JUMP_RAD) return { ok: false, error: `${what}: the arm would have to change its configuration at (${p.map((v) => v.toFixed(2)).join(', ')})` };
      knots.push(sol.q);
      prev = sol.q;
    }
    lengthM += d;
    pos = t.pos;
    quat = q1;
  }
  return { ok: true, knots, lengthM };
}
