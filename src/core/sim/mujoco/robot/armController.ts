// One arm's skills in physical terms: move the tool top-down to a pose, open, close-and-grasp. Robot APIs
// (MALMM now; LMTG, Action Contextualization, RoCo next) are thin layers over these.
import { wrapAngle } from '../math3.js';
import type { PhysicsRunner } from '../physicsRunner.js';
import type { ArmIndex } from '../sceneModel.js';
import type { Vec3 } from '../scene/sceneSpec.js';
import { attach, detach, fingerContacts, moveFingers, objectsBetweenFingers } from './gripper.js';
import { IK_POS_TOL_M, IK_ROT_TOL_RAD, TopDownIk, type IkSolution, type ToolTarget } from './ik.js';
import { executeTimed, planDense } from './denseFollower.js';
import { executePath, planPath, type JointPath } from './motion.js';

export type MoveOutcome =
  | { ok: true; reached: ToolTarget; posErrM: number; yawFlipped: boolean; pathKind: 'cartesian' | 'joint'; note?: string }
  | { ok: false; error: string };

/**
 * Chooses the path a motion takes, given the straight one (a Cartesian line, or the joint line where that cannot be
 * followed) and the goal configuration: keep it, replace it (a planned detour, with a note saying so), or refuse
 * the motion (nothing moves).
 */
export type MotionRoute = (straight: JointPath, qGoal: number[]) => { ok: true; path: JointPath; note?: string } | { ok: false; error: string };

export type GraspOutcome =
  | { grasped: true; object: number; widthM: number }
  | { grasped: false; touching: number[]; fingers: [boolean, boolean] };

/** Final tool position error above which a motion is reported as stopped short (e.g. blocked by a collision). */
export const REACH_TOL_M = 0.005;
const SETTLE_MAX_SECS = 0.4;

export class ArmController {
  readonly ik: TopDownIk;
  readonly homeQ: number[];
  readonly arm: ArmIndex;

  constructor(
    readonly runner: PhysicsRunner,
    readonly armIndex: number,
  ) {
    const scene = runner.state.scene;
    this.arm = scene.arms[armIndex]!;
    this.ik = new TopDownIk(scene, armIndex);
    const home = this.arm.layout.spec.homeTcp;
    const given = this.arm.layout.spec.homeQ;
    if (given) {
      this.homeQ = [...given];
      return;
    }
    let sol = this.ik.solve(this.arm.layout.seedQ, { pos: home.pos, yawRad: home.yawRad }, { rest: this.arm.layout.seedQ, maxIterations: 400 });
    if (!sol.converged) sol = this.ik.solve(this.facingSeed(home.pos), { pos: home.pos, yawRad: home.yawRad }, { rest: this.arm.layout.seedQ, maxIterations: 400 });
    // The gripper is symmetric under a half turn: the other yaw is the same home.
    if (!sol.converged) sol = this.ik.solve(this.arm.layout.seedQ, { pos: home.pos, yawRad: wrapAngle(home.yawRad + Math.PI) }, { rest: this.arm.layout.seedQ, maxIterations: 400 });
    if (!sol.converged) {
      this.ik.dispose();
      throw new Error(`scene '${scene.built.spec.key}': home pose ${fmtVec(home.pos)} is unreachable (residual ${sol.posErrM.toFixed(4)} m)`);
    }
    this.homeQ = sol.q;
  }

  /** Puts the arm at its home pose with the gripper open, without simulating (reset only). */
  placeHome(): void {
    const d = this.runner.state.data;
    const qpos = d.qpos as Float64Array;
    const ctrl = d.ctrl as Float64Array;
    this.arm.qposAdr.forEach((a, j) => (qpos[a] = this.homeQ[j]!));
    this.arm.ctrlAdr.forEach((a, j) => (ctrl[a] = this.homeQ[j]!));
    const g = this.arm.gripper;
    if (g.kind === 'suction') ctrl[g.ctrlAdr] = 0;
    else if (g.kind === 'hand') {
      g.qposAdr.forEach((a, k) => (qpos[a] = g.open[k]!));
      g.ctrlAdr.forEach((a, k) => (ctrl[a] = g.open[k]!));
    } else {
      g.qposAdr.forEach((a) => (qpos[a] = g.range[1]));
      g.ctrlAdr.forEach((a) => (ctrl[a] = g.range[1]));
    }
  }

  /**
   * Solves IK for a top-down target, trying the commanded yaw first and then yaw +- pi (the same grasp for a
   * symmetric gripper). Returns the best solution and whether it needed the flip.
   */
  solveTarget(target: ToolTarget): { sol: IkSolution; yawRad: number; flipped: boolean } {
    const qNow = this.runner.state.armQ(this.armIndex);
    const seeds = [qNow, this.homeQ, this.arm.layout.seedQ, this.facingSeed(target.pos)];
    if (target.R) {
      // A full orientation (a tilted tool): no half-turn alternative; the side configuration is one more seed.
      let bestFull: IkSolution | null = null;
      for (const seed of [...seeds, this.arm.layout.sideSeedQ]) {
        const sol = this.ik.solve(seed, target, { rest: this.homeQ, maxIterations: 300 });
        if (sol.converged) return { sol, yawRad: target.yawRad, flipped: false };
        if (!bestFull || score(sol) < score(bestFull)) bestFull = sol;
      }
      return { sol: bestFull!, yawRad: target.yawRad, flipped: false };
    }
    let best: { sol: IkSolution; yawRad: number; flipped: boolean } | null = null;
    for (const [yawRad, flipped] of [
      [target.yawRad, false],
      [wrapAngle(target.yawRad + Math.PI), true],
    ] as const) {
      for (const seed of seeds) {
        const sol = this.ik.solve(seed, { pos: target.pos, yawRad }, { rest: this.homeQ });
        if (sol.converged) return { sol, yawRad, flipped };
        if (!best || score(sol) < score(best.sol)) best = { sol, yawRad, flipped };
      }
    }
    return best!;
  }

  /** The ready configuration with the base joint turned toward `pos` (helps IK far to the side of the arm). */
  facingSeed(pos: readonly number[]): number[] {
    const spec = this.arm.layout.spec;
    const turn = wrapAngle(Math.atan2(pos[1]! - spec.basePos[1], pos[0]! - spec.basePos[0]) - spec.baseYawRad);
    const [lo, hi] = this.arm.layout.jointRanges[0]!;
    return this.arm.layout.seedQ.map((v, i) => (i === 0 ? Math.min(hi - 0.05, Math.max(lo + 0.05, v + turn)) : v));
  }

  /**
   * Plans and executes a motion of the tool to `target`: the straight path, or what `route` makes of it.
   * Unreachable targets (and routes refused) fail without moving.
   */
  moveTool(target: ToolTarget, what: string, route?: MotionRoute): MoveOutcome {
    const { sol, yawRad, flipped } = this.solveTarget(target);
    if (!sol.converged) {
      const limits = sol.jointsAtLimit.length > 0 ? `; joint${sol.jointsAtLimit.length > 1 ? 's' : ''} ${sol.jointsAtLimit.join(', ')} at ${sol.jointsAtLimit.length > 1 ? 'their limits' : 'its limit'}` : '';
      return {
        ok: false,
        error:
          `${what}: target ${fmtVec(target.pos)} with yaw ${target.yawRad.toFixed(4)} is unreachable for a top-down gripper ` +
          `(IK residual ${sol.posErrM.toFixed(4)} m, ${sol.rotErrRad.toFixed(3)} rad; tolerance ${IK_POS_TOL_M} m, ${IK_ROT_TOL_RAD} rad${limits}); the arm did not move`,
      };
    }
    const state = this.runner.state;
    const qNow = state.armQ(this.armIndex);
    const start = state.tcp(this.armIndex);
    const straight = planPath(this.ik, this.arm, qNow, start, { pos: target.pos, yawRad }, sol.q);
    const routed = route ? route(straight, sol.q) : { ok: true as const, path: straight };
    if (!routed.ok) return routed;
    const path = routed.path;
    executePath(this.runner, this.arm, path);
    this.settle();
    const reached = state.tcp(this.armIndex);
    const e = reached.pos.map((v, i) => v - target.pos[i]!);
    return { ok: true, reached, posErrM: Math.hypot(e[0]!, e[1]!, e[2]!), yawFlipped: flipped, pathKind: path.kind, ...(routed.note ? { note: routed.note } : {}) };
  }

  /** Holds the last command until the arm stops (or gives up after a short while, e.g. pressed against the table). */
  settle(): void {
    const state = this.runner.state;
    const dofs = this.arm.dofAdr;
    this.runner.stepUntil(
      () => {
        const v = state.data.qvel as Float64Array;
        let sum = 0;
        for (const d of dofs) sum += v[d]! * v[d]!;
        return sum < 1e-4;
      },
      0.02,
      SETTLE_MAX_SECS,
    );
    this.runner.forward();
  }

  /**
   * Follows dense top-down poses (LMTG) open loop, best effort (denseFollower.ts): an unreachable pose moves the
   * arm as close as IK gets. Returns the final tool error against the last pose and the first shortfall.
   */
  followPoses(poses: ToolTarget[]): { reached: ToolTarget; posErrM: number; yawFlips: number; shortfall?: { index: number; reason: string } } {
    const state = this.runner.state;
    const plan = planDense(this.ik, this.arm, state.armQ(this.armIndex), state.tcp(this.armIndex), poses);
    executeTimed(this.runner, this.arm, plan.knots, plan.times);
    this.settle();
    const reached = state.tcp(this.armIndex);
    const last = poses[poses.length - 1]!;
    const e = reached.pos.map((v, i) => v - last.pos[i]!);
    return { reached, posErrM: Math.hypot(e[0]!, e[1]!, e[2]!), yawFlips: plan.yawFlips, ...(plan.shortfall ? { shortfall: plan.shortfall } : {}) };
  }

  open(): void {
    detach(this.runner.state, this.armIndex);
    moveFingers(this.runner, this.armIndex, true);
  }

  /** Closes the fingers; grasps `object` only if both pads end up touching it. */
  closeOn(object: number): GraspOutcome {
    const state = this.runner.state;
    moveFingers(this.runner, this.armIndex, false);
    this.runner.forward();
    const fingers = fingerContacts(state, this.armIndex, object);
    // Fixtures have no grasp weld: closing on one holds nothing.
    if (fingers[0] && fingers[1] && this.arm.graspEq[object]! >= 0) {
      attach(state, this.armIndex, object);
      // Let the weld take the load before the next motion starts.
      this.runner.stepUntil(() => false, 0.05, 0.05);
      return { grasped: true, object, widthM: state.fingerWidth(this.armIndex) };
    }
    return { grasped: false, touching: objectsBetweenFingers(state, this.armIndex), fingers };
  }

  /** Closes the fingers and grasps whatever carriable object both pads touch (LMTG's close_gripper()). */
  closeAny(): GraspOutcome {
    const state = this.runner.state;
    moveFingers(this.runner, this.armIndex, false);
    this.runner.forward();
    const touching = objectsBetweenFingers(state, this.armIndex);
    for (const object of touching) {
      const f = fingerContacts(state, this.armIndex, object);
      if (f[0] && f[1] && this.arm.graspEq[object]! >= 0) {
        attach(state, this.armIndex, object);
        this.runner.stepUntil(() => false, 0.05, 0.05);
        return { grasped: true, object, widthM: state.fingerWidth(this.armIndex) };
      }
    }
    return { grasped: false, touching, fingers: [false, false] };
  }

  dispose(): void {
    this.ik.dispose();
  }
}

function score(s: IkSolution): number {
  return s.posErrM + 0.1 * s.rotErrRad;
}

export function fmtVec(v: readonly number[]): string {
  return `[${v.map((x) => x.toFixed(4)).join(', ')}]`;
}
