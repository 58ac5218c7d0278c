// Executes a checked RoCo plan. Robots act one after another in the plan's robot order (RoCo moves them together
// with a centralized multi-arm RRT; here each motion is planned for one arm with the others as obstacles where
// they stand: the straight joint line, else RRT-Connect). A PICK of an object another robot holds is a
// handover: once the picker holds it, the giver lets go.
import { detach, moveFingers } from '../../robot/gripper.js';
import type { ToolTarget } from '../../robot/ik.js';
import { executePath } from '../../robot/motion.js';
import { planJointPath } from '../../robot/rrtConnect.js';
import type { RobotApiContext } from '../robotApi.js';
import { settleObjects } from '../robotApi.js';
import type { RocoAction } from './planParser.js';
import { objectIndex, type RocoGoal } from './rocoGoals.js';

const fmt = (p: readonly number[]) => `(${p.map((v) => v.toFixed(2)).join(', ')})`;

/** Moves one arm's tool to `target` along a collision-free joint path. Returns an error text or null. */
function moveArm(ctx: RobotApiContext, arm: number, target: ToolTarget, allowed: Set<number>[], robot: string, seed: number): string | null {
  const ctrl = ctx.arms[arm]!;
  const s = ctrl.solveTarget(target);
  if (!s.sol.converged) return `${robot}: IK failed on ${fmt(target.pos)}`;
  const qNow = ctx.state.armQ(arm);
  const plan = planJointPath({ checker: ctx.checker, state: ctx.state, arm, ranges: ctrl.arm.layout.jointRanges, allowed }, qNow, s.sol.q, seed);
  if (!plan.ok) return `${robot}: no collision-free path to ${fmt(target.pos)} (${plan.reason}${plan.collisions ? `: ${plan.collisions.map((c) => `${c.a.trim()}-${c.b.trim()}`).join(', ')}` : ''})`;
  let travel = 0;
  for (let j = 0; j < 7; j++) {
    let len = 0;
    for (let k = 1; k < plan.knots.length; k++) len += Math.abs(plan.knots[k]![j]! - plan.knots[k - 1]![j]!);
    travel = Math.max(travel, len / ctrl.arm.layout.maxJointSpeed[j]!);
  }
  executePath(ctrl.runner, ctrl.arm, { knots: plan.knots, durationSecs: Math.max(0.3, 1.875 * travel), kind: 'joint' });
  ctrl.settle();
  return null;
}

/** Straight tool line (for the last few centimetres down to a grasp or a release). */
function straight(ctx: RobotApiContext, arm: number, target: ToolTarget, robot: string): string | null {
  const r = ctx.arms[arm]!.moveTool(target, robot);
  return r.ok ? null : r.error;
}

type Outcome = 'done' | 'blocked' | 'failed';

/**
 * Runs the actions. A robot whose first motion is blocked by another robot (its goal or path collides where the
 * other stands) waits until the others have moved, then tries again; what still cannot move is reported.
 */
export function executePlan(ctx: RobotApiContext, actions: RocoAction[], goals: RocoGoal[], robots: string[], allowed: Set<number>[]): string[] {
  const log: string[] = [];
  let pending = actions.map((a, i) => ({ a, goal: goals[i]!, lastError: '' }));
  while (pending.length > 0) {
    const still: typeof pending = [];
    let progress = false;
    for (const p of pending) {
      const errors: string[] = [];
      const outcome = runAction(ctx, p.a, p.goal, robots, allowed, log, errors);
      if (outcome === 'blocked') {
        still.push({ ...p, lastError: errors[0] ?? '' });
        continue;
      }
      progress = true;
      log.push(...errors);
    }
    if (!progress) {
      for (const p of still) log.push(p.lastError);
      break;
    }
    pending = still;
  }
  return log;
}

function runAction(ctx: RobotApiContext, a: RocoAction, goal: RocoGoal, robots: string[], allowed: Set<number>[], log: string[], errors: string[]): Outcome {
  const arm = robots.indexOf(a.robot);
  const seed = 1 + Math.round(ctx.state.timeSecs * 1000) + arm;
  const yaw = ctx.state.tcp(arm).yawRad;
  let moved = false;
  /** Runs one motion; a failure before anything moved is 'blocked' (retried later), after that 'failed'. */
  const step = (e: string | null): Outcome | null => {
    if (e === null) {
      moved = true;
      return null;
    }
    errors.push(e);
    return moved ? 'failed' : 'blocked';
  };
  for (const p of a.path) {
    const r = step(moveArm(ctx, arm, { pos: p, yawRad: yaw }, allowed, a.robot, seed));
    if (r) return r;
  }
  switch (a.verb) {
    case 'WAIT':
      log.push(`${a.robot} waited`);
      return 'done';
    case 'MOVE': {
      const r = step(moveArm(ctx, arm, goal.target, allowed, a.robot, seed));
      if (r) return r;
      log.push(`${a.robot} moved to ${fmt(goal.target.pos)}`);
      return 'done';
    }
    case 'PICK': {
      const obj = objectIndex(ctx, a.object!);
      const r = step(moveArm(ctx, arm, goal.above!, allowed, a.robot, seed)) ?? step(straight(ctx, arm, goal.target, a.robot));
      if (r) return r;
      const giver = ctx.state.grasps.findIndex((g, k) => k !== arm && g?.object === obj);
      const g = ctx.arms[arm]!.closeOn(obj);
      if (!g.grasped) {
        errors.push(`${a.robot} closed its gripper but did not grasp ${a.object}`);
        return 'failed';
      }
      if (giver >= 0) {
        // Handover: the giver lets go once the taker holds the object.
        detach(ctx.state, giver);
        moveFingers(ctx.arms[giver]!.runner, giver, true);
        log.push(`${robots[giver]} handed ${a.object} over to ${a.robot}`);
      }
      const up = step(straight(ctx, arm, { ...goal.target, pos: [goal.target.pos[0], goal.target.pos[1], goal.target.pos[2] + 0.12] }, a.robot));
      if (up) return up;
      log.push(`${a.robot} picked ${a.object}`);
      return 'done';
    }
    case 'PLACE': {
      const r = step(moveArm(ctx, arm, goal.above!, allowed, a.robot, seed)) ?? step(straight(ctx, arm, goal.target, a.robot));
      if (r) return r;
      ctx.arms[arm]!.open();
      settleObjects(ctx, arm);
      straight(ctx, arm, goal.above!, a.robot);
      log.push(`${a.robot} placed ${a.object} on ${a.target}`);
      return 'done';
    }
  }
}
