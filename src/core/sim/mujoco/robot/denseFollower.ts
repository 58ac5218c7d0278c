// Dense-pose follower for LM Trajectory Generators: a list of [x, y, z, yaw] tool poses (gripper pointing down)
// is solved pose by pose with warm-started IK (so the arm stays on one branch), then played back point after
// point, open loop. A pose IK cannot reach is executed best effort, as a position controller fed by the authors'
// PyBullet IK would: the arm goes to the IK's closest configuration (or holds where it is when that would be a
// branch jump) and the list goes on. As in the paper, the number of points sets the speed: each point
// gets POINT_SECS, stretched where the joints or the tool would exceed their speed limits.
import { wrapAngle } from '../math3.js';
import type { PhysicsRunner } from '../physicsRunner.js';
import type { ArmIndex } from '../sceneModel.js';
import type { TopDownIk, ToolTarget } from './ik.js';

/** Time per trajectory point (50 points per second when nothing limits it). */
export const POINT_SECS = 0.02;
/** Peak tool speed of the follower. */
const TOOL_SPEED_MPS = 0.5;
/** Consecutive poses farther apart than this are walked in sub-steps for IK. */
const SUBSTEP_M = 0.02;
const SUBSTEP_RAD = 0.15;
/** A jump between consecutive solutions larger than this means IK switched branch: the arm holds instead. */
const MAX_POINT_JUMP_RAD = 0.6;

export interface DensePlan {
  knots: number[][];
  times: number[];
  yawFlips: number;
  /** The first pose that was not reached exactly, and why (the arm went as close as it could). */
  shortfall?: { index: number; reason: string };
}

/**
 * Solves every pose from the current configuration. A pose whose yaw is out of the wrist's range is taken a
 * half turn away (the same for the symmetric gripper). A pose IK does not converge on gets IK's closest
 * configuration; one whose solution would jump branches keeps the previous configuration. Nothing is refused.
 */
export function planDense(ik: TopDownIk, arm: ArmIndex, qStart: number[], start: ToolTarget, poses: ToolTarget[]): DensePlan {
  const knots: number[][] = [qStart];
  const times: number[] = [0];
  let prev = qStart;
  let prevPose: ToolTarget = { pos: start.pos, yawRad: start.yawRad };
  let t = 0;
  let flips = 0;
  let shortfall: DensePlan['shortfall'];
  for (let i = 0; i < poses.length; i++) {
    const p = poses[i]!;
    // Points far apart (a sparse list) are walked in small steps so IK stays on its branch.
    const dist = Math.hypot(p.pos[0] - prevPose.pos[0], p.pos[1] - prevPose.pos[1], p.pos[2] - prevPose.pos[2]);
    const dYaw = wrapAngle(p.yawRad - prevPose.yawRad);
    const n = Math.max(1, Math.ceil(dist / SUBSTEP_M), Math.ceil(Math.abs(dYaw) / SUBSTEP_RAD));
    const sub: number[][] = [];
    let q = prev;
    for (let k = 1; k <= n; k++) {
      const f = k / n;
      const target: ToolTarget = {
        pos: [prevPose.pos[0] + f * (p.pos[0] - prevPose.pos[0]), prevPose.pos[1] + f * (p.pos[1] - prevPose.pos[1]), prevPose.pos[2] + f * (p.pos[2] - prevPose.pos[2])],
        yawRad: k === n ? p.yawRad : prevPose.yawRad + f * dYaw,
      };
      let sol = ik.solve(q, target, { maxIterations: 80 });
      if (!sol.converged || maxAbsDiff(sol.q, q) > MAX_POINT_JUMP_RAD) {
        const flipped = ik.solve(q, { pos: target.pos, yawRad: wrapAngle(target.yawRad + Math.PI) }, { maxIterations: 80 });
        if (flipped.converged && maxAbsDiff(flipped.q, q) <= MAX_POINT_JUMP_RAD) {
          sol = flipped;
          if (k === n) flips++;
        }
      }
      const jump = maxAbsDiff(sol.q, q);
      if (!sol.converged || jump > MAX_POINT_JUMP_RAD) {
        shortfall ??= {
          index: i,
          reason: jump > MAX_POINT_JUMP_RAD ? `needs a joint jump of ${jump.toFixed(2)} rad (IK changed branch: the wrist cannot follow this yaw)` : `unreachable (IK residual ${sol.posErrM.toFixed(4)} m, ${sol.rotErrRad.toFixed(3)} rad)`,
        };
        // Best effort: IK's closest configuration, unless reaching it would swing the arm to another branch.
        if (jump <= MAX_POINT_JUMP_RAD) q = sol.q;
        sub.push(q);
        continue;
      }
      sub.push(sol.q);
      q = sol.q;
    }
    let dt = POINT_SECS;
    for (let j = 0; j < q.length; j++) {
      let travel = 0;
      let from = prev;
      for (const s of sub) {
        travel += Math.abs(s[j]! - from[j]!);
        from = s;
      }
      dt = Math.max(dt, travel / arm.layout.maxJointSpeed[j]!);
    }
    dt = Math.max(dt, dist / TOOL_SPEED_MPS);
    sub.forEach((s, k) => {
      knots.push(s);
      times.push(t + (dt * (k + 1)) / sub.length);
    });
    t += dt;
    prev = q;
    prevPose = p;
  }
  return { knots, times, yawFlips: flips, ...(shortfall ? { shortfall } : {}) };
}

/** Plays knots back at their times (linear in joint space, servo lead on the segment velocity). */
export function executeTimed(runner: PhysicsRunner, arm: ArmIndex, knots: number[][], times: number[]): void {
  const total = times[times.length - 1]!;
  const steps = Math.max(1, Math.round(total / runner.dt));
  const lead = arm.layout.servoLeadSecs;
  const ranges = arm.layout.jointRanges;
  let seg = 1;
  for (let k = 1; k <= steps; k++) {
    const t = (k / steps) * total;
    while (seg < times.length - 1 && times[seg]! < t) seg++;
    const t0 = times[seg - 1]!;
    const t1 = times[seg]!;
    const f = t1 > t0 ? (t - t0) / (t1 - t0) : 1;
    const a = knots[seg - 1]!;
    const b = knots[seg]!;
    const ctrl = runner.state.data.ctrl as Float64Array;
    for (let j = 0; j < a.length; j++) {
      const vel = t1 > t0 ? (b[j]! - a[j]!) / (t1 - t0) : 0;
      const c = a[j]! + f * (b[j]! - a[j]!) + lead[j]! * vel;
      ctrl[arm.ctrlAdr[j]!] = Math.min(ranges[j]![1], Math.max(ranges[j]![0], c));
    }
    runner.step();
  }
  const last = knots[knots.length - 1]!;
  const ctrl = runner.state.data.ctrl as Float64Array;
  for (let j = 0; j < last.length; j++) ctrl[arm.ctrlAdr[j]!] = last[j]!;
}

function maxAbsDiff(a: readonly number[], b: readonly number[]): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}
