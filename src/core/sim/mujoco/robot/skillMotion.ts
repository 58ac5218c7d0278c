// Planned tool motions with a speed scale, an optional stop rule, a full tool orientation (side grasps), and a
// choice between a straight tool line that keeps the orientation and a joint-space line that does not. RoCo's
// actions use these; Action Contextualization's skills run the joint-space dynamical system (jointDs.ts).
import { topDownMat } from '../math3.js';
import type { ArmController } from './armController.js';
import type { ConfigChecker } from './configChecker.js';
import { planJointPath } from './rrtConnect.js';
import type { IkSolution, ToolTarget } from './ik.js';
import { executePath, planPath, type JointPath } from './motion.js';

export interface SkillMoveOptions {
  /** 1 = the planner's normal timing; 2 = twice as fast. */
  speedScale: number;
  /** Returns the reason to stop now, or null to carry on. Checked every 20 ms of motion. */
  stop?: () => string | null;
  /** Keep the tool's orientation along a straight line (true) or interpolate joints (false). */
  keepOrientation: boolean;
  /** With a checker, joint-space moves avoid collisions (straight joint line, else RRT-Connect). */
  avoid?: { checker: ConfigChecker; allowed: Set<number>[] };
}

export type SkillMove =
  | { ok: true; reached: { pos: [number, number, number] }; posErrM: number; stoppedBy: string | null }
  | { ok: false; error: string };

const KNOT_M = 0.02;

function orientationOf(t: ToolTarget): number[] {
  return t.R ?? topDownMat(t.yawRad);
}

/** Angle between two rotation matrices (row-major). */
function rotationGap(A: number[], B: number[]): number {
  let tr = 0;
  for (let i = 0; i < 3; i++) for (let k = 0; k < 3; k++) tr += A[3 * i + k]! * B[3 * i + k]!;
  return Math.acos(Math.max(-1, Math.min(1, (tr - 1) / 2)));
}

/**
 * IK for a tool target from the arm's current configuration: top-down targets through the controller's own search
 * (seeds, and yaw + pi for the symmetric gripper), full orientations (side grasps) seeded and biased with the side
 * configuration turned toward the target. Returns the target as solved (its yaw may be flipped).
 */
export function solveToolTarget(ctrl: ArmController, goal: ToolTarget): { sol: IkSolution | null; target: ToolTarget } {
  let target = goal;
  const arm = ctrl.arm;
  const qNow = ctrl.runner.state.armQ(ctrl.armIndex);
  const base = arm.layout.spec;
  const facing = Math.atan2(target.pos[1] - base.basePos[1], target.pos[0] - base.basePos[0]) - base.baseYawRad;
  const side = arm.layout.sideSeedQ.map((v, i) => (i === 0 ? Math.max(-2.8, Math.min(2.8, facing)) : v));
  const seeds = [qNow, side, arm.layout.sideSeedQ, ctrl.homeQ];
  // A multi-finger hand holds level in two rolls (palm down, palm to the side): the side configuration rolled a
  // quarter turn either way at the last joint seeds the other.
  if (arm.gripper.kind === 'hand') for (const roll of [Math.PI / 2, -Math.PI / 2]) seeds.push(side.map((v, i) => (i === side.length - 1 ? v + roll : v)));
  let best: IkSolution | null = null;
  if (!target.R) {
    const r = ctrl.solveTarget(target);
    best = r.sol;
    target = { pos: target.pos, yawRad: r.yawRad };
  } else {
    for (const seed of seeds) {
      const sol = ctrl.ik.solve(seed, target, { rest: side, maxIterations: 400 });
      if (sol.converged) {
        best = sol;
        break;
      }
      if (!best || sol.posErrM < best.posErrM) best = sol;
    }
  }
  return { sol: best, target };
}

export function moveSkill(ctrl: ArmController, goal: ToolTarget, what: string, opts: SkillMoveOptions): SkillMove {
  const state = ctrl.runner.state;
  const arm = ctrl.arm;
  const qNow = state.armQ(ctrl.armIndex);
  const solved = solveToolTarget(ctrl, goal);
  const best = solved.sol;
  const target = solved.target;
  if (!best || !best.converged) {
    return { ok: false, error: `${what}: the target [${target.pos.map((v) => v.toFixed(3)).join(', ')}] is out of reach (IK residual ${best?.posErrM.toFixed(4)} m, ${best?.rotErrRad.toFixed(3)} rad)` };
  }
  const start = state.tcp(ctrl.armIndex);
  const R0 = ctrl.ik.forward(qNow).R;
  let path: JointPath;
  if (opts.keepOrientation && !target.R) {
    path = planPath(ctrl.ik, arm, qNow, start, target, best.q);
  } else if (opts.keepOrientation && rotationGap(R0, orientationOf(target)) < 0.05) {
    path = straightWithOrientation(ctrl, qNow, start.pos, target, best.q);
  } else {
    path = { knots: [qNow, best.q], durationSecs: jointDuration(ctrl, qNow, best.q), kind: 'joint' };
    if (opts.avoid) {
      const plan = planJointPath({ checker: opts.avoid.checker, state, arm: ctrl.armIndex, ranges: arm.layout.jointRanges, allowed: opts.avoid.allowed }, qNow, best.q, 1 + Math.round(state.timeSecs * 1000));
      if (plan.ok) path = { knots: plan.knots, durationSecs: polylineDuration(ctrl, plan.knots), kind: 'joint' };
    }
  }
  path = { ...path, durationSecs: path.durationSecs / Math.max(0.1, opts.speedScale) };
  let stoppedBy: string | null = null;
  const stop = opts.stop;
  executePath(ctrl.runner, arm, path, stop ? () => (stoppedBy = stop()) !== null : undefined);
  ctrl.settle();
  const reached = state.tcp(ctrl.armIndex);
  const e = reached.pos.map((v, i) => v - target.pos[i]!);
  return { ok: true, reached, posErrM: Math.hypot(e[0]!, e[1]!, e[2]!), stoppedBy };
}

/** A straight tool line at a fixed (not top-down) orientation, knots every 2 cm; joint line if IK loses it. */
function straightWithOrientation(ctrl: ArmController, qStart: number[], from: [number, number, number], target: ToolTarget, qGoal: number[]): JointPath {
  const d = Math.hypot(target.pos[0] - from[0], target.pos[1] - from[1], target.pos[2] - from[2]);
  const n = Math.max(1, Math.ceil(d / KNOT_M));
  const knots = [qStart];
  let prev = qStart;
  for (let k = 1; k <= n; k++) {
    const f = k / n;
    const sol = ctrl.ik.solve(prev, { ...target, pos: [from[0] + f * (target.pos[0] - from[0]), from[1] + f * (target.pos[1] - from[1]), from[2] + f * (target.pos[2] - from[2])] }, { maxIterations: 60 });
    if (!sol.converged || Math.max(...sol.q.map((v, i) => Math.abs(v - prev[i]!))) > 0.35) {
      return { knots: [qStart, qGoal], durationSecs: jointDuration(ctrl, qStart, qGoal), kind: 'joint' };
    }
    knots.push(sol.q);
    prev = sol.q;
  }
  knots[knots.length - 1] = qGoal;
  let jointTime = 0;
  for (let j = 0; j < qStart.length; j++) {
    let len = 0;
    for (let k = 1; k < knots.length; k++) len += Math.abs(knots[k]![j]! - knots[k - 1]![j]!);
    jointTime = Math.max(jointTime, len / ctrl.arm.layout.maxJointSpeed[j]!);
  }
  return { knots, durationSecs: Math.max(0.3, 1.875 * Math.max(jointTime, d / 0.35)), kind: 'cartesian' };
}

function polylineDuration(ctrl: ArmController, knots: number[][]): number {
  let t = 0;
  for (let j = 0; j < knots[0]!.length; j++) {
    let len = 0;
    for (let k = 1; k < knots.length; k++) len += Math.abs(knots[k]![j]! - knots[k - 1]![j]!);
    t = Math.max(t, len / ctrl.arm.layout.maxJointSpeed[j]!);
  }
  return Math.max(0.3, 1.875 * t);
}

function jointDuration(ctrl: ArmController, a: number[], b: number[]): number {
  let t = 0;
  for (let j = 0; j < a.length; j++) t = Math.max(t, Math.abs(b[j]! - a[j]!) / ctrl.arm.layout.maxJointSpeed[j]!);
  return Math.max(0.3, 1.875 * t);
}

/** Orientation of a horizontal side grasp approaching along `dir` (unit, xy): pads vertical, fingers closing sideways. */
export function sideGraspMat(dir: [number, number]): number[] {
  const [dx, dy] = dir;
  // Columns: tool x = -z (pads' long axis vertical), tool y = (-dy, dx, 0), tool z = approach (dx, dy, 0).
  return [0, -dy, dx, 0, dx, dy, -1, 0, 0];
}
