// Executes a checked RoCo plan with every robot moving in the same physics steps (RoCo's centralized multi-arm
// execution). Four stages, each run by all robots together:
//   1. approach: one joint path for all arms from where they are to their approach poses, planned over the joint
//      space of every arm (multiArmPlanner: through the PATH steps' configurations when that is free, else
//      RRT-Connect seeded with them), so the arms avoid each other;
//   2. contact: straight tool lines (down to a grasp or release, a push, a tilt, a door's arc);
//   3. grip: grippers that close do so together, then those that open (a handover's giver lets go once the
//      taker holds the object);
//   4. depart: straight lines away (lift, back up).
// If the approach cannot be planned nothing moves and the plan fails with the planner's reason (RoCo feeds such
// a plan back as failed to execute). A robot whose later stage fails stops there; the others go on.
import { pairsText } from '../../robot/configChecker.js';
import { moveGrippers, detach, attach, fingerContacts } from '../../robot/gripper.js';
import { cartesianKnots, executeTogether, settleArms, togetherDuration, type ArmPath } from '../../robot/jointMotion.js';
import type { ToolTarget } from '../../robot/ik.js';
import { planMultiArm } from '../../robot/multiArmPlanner.js';
import { planJointPath } from '../../robot/rrtConnect.js';
import type { RobotApiContext } from '../robotApi.js';
import { settleObjects } from '../robotApi.js';
import type { CheckedPlan } from './planChecks.js';

export interface JointExecution {
  /** Nothing moved: the approach could not be planned. */
  planFailed: boolean;
  log: string[];
  errors: string[];
  /** How the approach was planned (kind, RRT iterations, configurations checked). */
  motion?: { kind: 'straight' | 'waypoints' | 'rrt'; iterations: number; checks: number };
}

const fmt = (p: readonly number[]) => `(${p.map((v) => v.toFixed(2)).join(', ')})`;

export function executeJointly(ctx: RobotApiContext, plan: CheckedPlan, robots: string[], allowed: Set<number>[]): JointExecution {
  const { actions, goals } = plan;
  const runner = ctx.arms[0]!.runner;
  const armOf = (robot: string) => robots.indexOf(robot);
  const nArms = ctx.scene.arms.length;
  const qStart = ctx.scene.arms.map((_, a) => ctx.state.armQ(a));
  const log: string[] = [];
  const errors: string[] = [];
  const failed = new Set<number>();

  // 1. approach, planned for all arms at once
  const seed = 1 + Math.round(ctx.state.timeSecs * 1000);
  const motion = planMultiArm(
    { checker: ctx.checker, state: ctx.state, ranges: ctx.scene.arms.map((a) => a.layout.jointRanges), allowed },
    qStart,
    plan.approachQ,
    plan.seeds,
    seed,
  );
  if (!motion.ok) {
    const pairs = motion.collisions ? `: ${pairsText(motion.collisions)}` : '';
    return { planFailed: true, log, errors: [`multi-arm motion planning failed (${motion.reason}${pairs}); nothing moved`] };
  }
  const movingArms = ctx.scene.arms.map((_, a) => a).filter((a) => motion.knots.some((k) => k[a]!.some((v, j) => Math.abs(v - qStart[a]![j]!) > 1e-9)));
  const approachPaths: ArmPath[] = movingArms.map((a) => ({ arm: a, knots: motion.knots.map((k) => k[a]!) }));
  executeTogether(runner, approachPaths, togetherDuration(runner, approachPaths));
  if (movingArms.length > 0) settleArms(runner, movingArms);

  // 2. contact lines, 4. depart lines: straight tool paths of every robot that has them, together
  const lines = (pick: (i: number) => ToolTarget[], what: string) => {
    const paths: ArmPath[] = [];
    let toolSecs = 0;
    actions.forEach((a, i) => {
      const arm = armOf(a.robot);
      const targets = pick(i).map((t) => (t.R ? t : { ...t, yawRad: plan.approachYaw[arm]! }));
      if (failed.has(i) || targets.length === 0) return;
      const ctrl = ctx.arms[arm]!;
      const r = cartesianKnots(ctrl, ctx.state.armQ(arm), ctx.state.tcpPose(arm), targets, `${a.robot} (${a.verb} ${what})`);
      if (r.ok) {
        paths.push({ arm, knots: r.knots });
        toolSecs = Math.max(toolSecs, r.lengthM / 0.3);
        return;
      }
      // A straight tool line leaves the arm's IK branch (near a singularity or a joint limit): that leg becomes a
      // collision-free joint path to the leg's end pose; the other legs stay straight lines.
      const knots: number[][] = [ctx.state.armQ(arm)];
      for (const t of targets) {
        const from = knots[knots.length - 1]!;
        const leg = cartesianKnots(ctrl, from, ctrl.ik.forward(from), [t], `${a.robot} (${a.verb} ${what})`);
        if (leg.ok) {
          knots.push(...leg.knots.slice(1));
          toolSecs = Math.max(toolSecs, leg.lengthM / 0.3);
          continue;
        }
        const goal = ctrl.solveTarget(t);
        const jp = goal.sol.converged ? planJointPath({ checker: ctx.checker, state: ctx.state, arm, ranges: ctrl.arm.layout.jointRanges, allowed }, from, goal.sol.q, seed + arm) : null;
        if (!jp?.ok) {
          errors.push(r.error);
          failed.add(i);
          return;
        }
        knots.push(...jp.knots.slice(1));
        log.push(`${a.robot} (${a.verb} ${what}): no straight tool line to (${t.pos.map((v) => v.toFixed(2)).join(', ')}) (${leg.error.replace(/^.*\((IK residual|the arm would)/, '$1').replace(/\)$/, '')}); moved there in joint space`);
      }
      paths.push({ arm, knots });
    });
    executeTogether(runner, paths, togetherDuration(runner, paths, toolSecs));
    if (paths.length > 0) settleArms(runner, paths.map((p) => p.arm));
  };
  lines((i) => goals[i]!.contact, 'contact');

  // 3. grip: closing grippers first (together), then opening ones (handover givers and releases)
  const closers = actions.map((a, i) => ({ a, i })).filter(({ i }) => !failed.has(i) && goals[i]!.grip === 'close');
  if (closers.length > 0) {
    moveGrippers(runner, closers.map(({ a }) => ({ arm: armOf(a.robot), open: false })));
    runner.forward();
  }
  const releasers: number[] = [];
  for (const { a, i } of closers) {
    const arm = armOf(a.robot);
    const obj = goals[i]!.graspObject!;
    const f = fingerContacts(ctx.state, arm, obj);
    if (!(f[0] && f[1]) || ctx.scene.arms[arm]!.graspEq[obj]! < 0) {
      errors.push(`${a.robot} closed its gripper but did not grasp ${a.object}`);
      failed.add(i);
      continue;
    }
    const giver = ctx.state.grasps.findIndex((g, k) => k !== arm && g?.object === obj);
    attach(ctx.state, arm, obj);
    if (giver >= 0) {
      detach(ctx.state, giver);
      releasers.push(giver);
      log.push(`${robots[giver]} handed ${a.object} over to ${a.robot}`);
    }
  }
  if (closers.length > 0) runner.stepUntil(() => false, 0.05, 0.05);
  actions.forEach((a, i) => {
    if (!failed.has(i) && goals[i]!.grip === 'open') {
      detach(ctx.state, armOf(a.robot));
      releasers.push(armOf(a.robot));
    }
  });
  if (releasers.length > 0) {
    moveGrippers(runner, releasers.map((arm) => ({ arm, open: true })));
    settleObjects(ctx, releasers[0]!);
  }

  lines((i) => goals[i]!.depart, 'depart');

  actions.forEach((a, i) => {
    if (failed.has(i)) return;
    const arm = armOf(a.robot);
    switch (a.verb) {
      case 'WAIT':
        log.push(`${a.robot} waited`);
        break;
      case 'MOVE':
        log.push(`${a.robot} moved to ${fmt(goals[i]!.target.pos)}`);
        break;
      case 'PICK':
        log.push(`${a.robot} picked ${a.object}`);
        break;
      case 'PLACE':
        log.push(`${a.robot} placed ${a.object} on ${a.target}`);
        break;
      default:
        log.push(`${a.robot} did ${a.verb}${a.object ? ` ${a.object}` : ''}`);
    }
    void arm;
  });
  if (nArms > 1 && movingArms.length > 1) log.push(`motion: ${movingArms.map((a) => robots[a]).join(' and ')} moved together (${motionText(motion)})`);
  if (motion.startCollisions) log.push(`motion: the arms started in collision (${pairsText(motion.startCollisions)}); the approach moved out of it`);
  return { planFailed: false, log, errors, motion: { kind: motion.kind, iterations: motion.iterations, checks: motion.checks } };
}

function motionText(m: { kind: string; iterations: number; checks: number }): string {
  if (m.kind === 'rrt') return `RRT-Connect over all arms, ${m.iterations} iterations, ${m.checks} configurations checked`;
  if (m.kind === 'waypoints') return `through the PATH waypoints, ${m.checks} configurations checked`;
  return `straight joint line, ${m.checks} configurations checked`;
}
