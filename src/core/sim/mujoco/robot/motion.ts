// Motion to an IK solution, executed by stepping physics with the position servos. The path is a straight
// line of the tool in Cartesian space (knots solved by warm-started IK, so the gripper stays top-down on the
// way), falling back to a straight line in joint space when the Cartesian path leaves the IK branch.
// Timing is a minimum-jerk profile sized by the slowest joint and the tool speed.
import { wrapAngle } from '../math3.js';
import type { PhysicsRunner } from '../physicsRunner.js';
import type { ArmIndex } from '../sceneModel.js';
import type { TopDownIk, ToolTarget } from './ik.js';

export interface JointPath {
  /** Joint configurations, first = current. Interpolated linearly between knots. */
  knots: number[][];
  durationSecs: number;
  kind: 'cartesian' | 'joint';
}

const KNOT_SPACING_M = 0.03;
const KNOT_SPACING_RAD = 0.2;
const MAX_KNOT_JUMP_RAD = 0.35;
const TOOL_SPEED_MPS = 0.35;
const MIN_DURATION_SECS = 0.3;
/** Peak speed of a minimum-jerk profile over its average speed. */
const MIN_JERK_PEAK = 1.875;

export function planPath(
  ik: TopDownIk,
  arm: ArmIndex,
  qStart: number[],
  start: ToolTarget,
  goal: ToolTarget,
  qGoal: number[],
): JointPath {
  const dist = Math.hypot(goal.pos[0] - start.pos[0], goal.pos[1] - start.pos[1], goal.pos[2] - start.pos[2]);
  const dYaw = wrapAngle(goal.yawRad - start.yawRad);
  const n = Math.max(1, Math.ceil(dist / KNOT_SPACING_M), Math.ceil(Math.abs(dYaw) / KNOT_SPACING_RAD));
  let knots: number[][] | null = [qStart];
  let prev = qStart;
  for (let k = 1; k <= n && knots; k++) {
    const f = k / n;
    const t: ToolTarget = {
      pos: [start.pos[0] + f * (goal.pos[0] - start.pos[0]), start.pos[1] + f * (goal.pos[1] - start.pos[1]), start.pos[2] + f * (goal.pos[2] - start.pos[2])],
      yawRad: start.yawRad + f * dYaw,
    };
    const sol = ik.solve(prev, t, { maxIterations: 60 });
    if (!sol.converged || maxAbsDiff(sol.q, prev) > MAX_KNOT_JUMP_RAD) knots = null;
    else {
      knots.push(sol.q);
      prev = sol.q;
    }
  }
  // The Cartesian path must end on the planned solution's branch, or the arm would arrive differently.
  const cartesian = knots !== null && maxAbsDiff(prev, qGoal) < 0.05;
  const path = cartesian ? knots! : [qStart, qGoal];
  if (cartesian) path[path.length - 1] = qGoal;
  let jointTime = 0;
  for (let j = 0; j < qStart.length; j++) {
    let len = 0;
    for (let k = 1; k < path.length; k++) len += Math.abs(path[k]![j]! - path[k - 1]![j]!);
    jointTime = Math.max(jointTime, len / arm.layout.maxJointSpeed[j]!);
  }
  const durationSecs = Math.max(MIN_DURATION_SECS, MIN_JERK_PEAK * Math.max(jointTime, dist / TOOL_SPEED_MPS));
  return { knots: path, durationSecs, kind: cartesian ? 'cartesian' : 'joint' };
}

/** Joint step of the evenly spaced knots of a path through given configurations (executePath spends equal time per knot). */
const RESAMPLE_RAD = 0.05;

/**
 * A timed path through joint configurations (a planner's detour), resampled into evenly spaced knots so that
 * executePath's equal time per segment is an even speed; timed like planPath by the slowest joint.
 */
export function jointPathThrough(arm: ArmIndex, configs: number[][]): JointPath {
  const knots: number[][] = [configs[0]!];
  for (let k = 1; k < configs.length; k++) {
    const a = configs[k - 1]!;
    const b = configs[k]!;
    const n = Math.max(1, Math.ceil(maxAbsDiff(a, b) / RESAMPLE_RAD));
    for (let i = 1; i <= n; i++) knots.push(a.map((v, j) => v + (i / n) * (b[j]! - v)));
  }
  let jointTime = 0;
  for (let j = 0; j < knots[0]!.length; j++) {
    let len = 0;
    for (let k = 1; k < knots.length; k++) len += Math.abs(knots[k]![j]! - knots[k - 1]![j]!);
    jointTime = Math.max(jointTime, len / arm.layout.maxJointSpeed[j]!);
  }
  return { knots, durationSecs: Math.max(MIN_DURATION_SECS, MIN_JERK_PEAK * jointTime), kind: 'joint' };
}

/**
 * Steps physics along the path; ends with the servos holding the last knot. `stop`, checked every `stopEvery`
 * steps, ends the motion early with the servos holding where the arm is (returns false then).
 */
export function executePath(runner: PhysicsRunner, arm: ArmIndex, path: JointPath, stop?: () => boolean, stopEvery = 5): boolean {
  const steps = Math.max(1, Math.round(path.durationSecs / runner.dt));
  const segs = path.knots.length - 1;
  const lead = arm.layout.servoLeadSecs;
  const ranges = arm.layout.jointRanges;
  const n = arm.qposAdr.length;
  const qd = new Array<number>(n);
  for (let k = 1; k <= steps; k++) {
    // A fresh view each step: WASM memory may grow (contact lookups allocate), which detaches old views.
    const ctrl = runner.state.data.ctrl as Float64Array;
    // Minimum-jerk progress s(tau) and its rate, mapped onto the knot polyline.
    const tau = k / steps;
    const s = tau * tau * tau * (10 - 15 * tau + 6 * tau * tau);
    const sDot = (30 * tau * tau * (1 - tau) * (1 - tau)) / path.durationSecs;
    const u = Math.min(s * segs, segs - 1e-12);
    const i = segs === 0 ? 0 : Math.floor(u);
    const frac = u - i;
    const a = path.knots[i]!;
    const b = path.knots[Math.min(i + 1, segs)]!;
    for (let j = 0; j < n; j++) {
      qd[j] = a[j]! + frac * (b[j]! - a[j]!);
      const vel = (b[j]! - a[j]!) * segs * sDot;
      const c = qd[j]! + lead[j]! * vel;
      ctrl[arm.ctrlAdr[j]!] = Math.min(ranges[j]![1], Math.max(ranges[j]![0], c));
    }
    runner.step();
    if (stop && k % stopEvery === 0 && stop()) {
      const q = runner.state.data.qpos as Float64Array;
      const hold = runner.state.data.ctrl as Float64Array;
      for (let j = 0; j < n; j++) hold[arm.ctrlAdr[j]!] = q[arm.qposAdr[j]!]!;
      return false;
    }
  }
  const last = path.knots[segs]!;
  const ctrl = runner.state.data.ctrl as Float64Array;
  for (let j = 0; j < n; j++) ctrl[arm.ctrlAdr[j]!] = last[j]!;
  return true;
}

function maxAbsDiff(a: readonly number[], b: readonly number[]): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}
