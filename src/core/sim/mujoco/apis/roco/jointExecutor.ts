// Executes a checked RoCo plan with every robot moving in the same physics steps (RoCo's centralized multi-arm
// execution). Four stages, each run by all robots together:
//   1. approach: one joint path for all arms from where they are to their approach poses, planned over the joint
//      space of every arm (multiArmPlanner's BiRRT with the authors' parameters: the direct joint line if it is
//      free, else a search seeded with the PATH steps' configurations), so the arms avoid each other;
//   2. contact: straight tool lines (down to a grasp or release, a push, a tilt, a door's arc);
//   3. grip: grippers that close do so together, then those that open (a handover's giver lets go once the
//      taker holds the object);
//   4. depart: straight lines away (lift, back up).
// The whole plan is planned and checked before anything moves: every stage's configurations of all arms together,
// what the grips will change carried along (a picked object in its hand from the depart on, a released one left
// where it is let go). A contact or depart line that collides is planned around (the same BiRRT, from the stage's
// start to its end); where that fails, or the approach cannot be planned, nothing moves and the plan fails with the
// reason (RoCo feeds such a plan back as failed to execute). During execution a robot whose grip fails stops there;
// the others go on.
import { pairsText, type ConfigCollision } from '../../robot/configChecker.js';
import { moveGrippers, detach, attach, fingerContacts } from '../../robot/gripper.js';
import { cartesianKnots, executeTogether, settleArms, togetherDuration, type ArmPath } from '../../robot/jointMotion.js';
import type { ToolTarget } from '../../robot/ik.js';
import { planMultiArm, ROCO_BIRRT, type MultiArmContext, type PlacedObject } from '../../robot/multiArmPlanner.js';
import type { GraspState } from '../../simState.js';
import type { RobotApiContext } from '../robotApi.js';
import { settleObjects } from '../robotApi.js';
import type { CheckedPlan } from './planChecks.js';
import { HANDOVER_RETREAT_M } from './rocoGoals.js';

export interface JointExecution {
  /** Nothing moved: the plan's motion could not be planned collision-free. */
  planFailed: boolean;
  log: string[];
  errors: string[];
  /** How the approach was planned (kind, RRT iterations, configurations checked over the whole plan). */
  motion?: { kind: 'straight' | 'waypoints' | 'rrt'; iterations: number; checks: number };
}

const fmt = (p: readonly number[]) => `(${p.map((v) => v.toFixed(2)).join(', ')})`;
/** Tool speed of contact and depart lines (m/s). */
const LINE_SPEED_MPS = 0.3;
/** Joint step between checked configurations along a contact or depart stage (largest joint change of any arm). */
const STAGE_CHECK_RAD = 0.03;
/** A contact the stage starts with may get this much deeper on the way (the grasped or released object's touch). */
const START_DEPTH_TOL_M = 0.002;

/** One stage's motion of every arm that moves in it (knots start where the previous stage ends). */
interface StageMotion {
  paths: ArmPath[];
  toolSecs: number;
  checks: number;
  notes: string[];
}

type StageResult = ({ ok: true } & StageMotion) | { ok: false; reason: string; checks: number };

/** Configuration of arm path `p` at progress s in [0, 1], by cumulative joint distance (as executeTogether moves). */
function along(p: ArmPath, s: number): number[] {
  const k = p.knots;
  const cum = [0];
  for (let i = 1; i < k.length; i++) cum.push(cum[i - 1]! + Math.max(1e-9, ...k[i]!.map((v, j) => Math.abs(v - k[i - 1]![j]!))));
  const total = cum[cum.length - 1]!;
  const d = s * total;
  let i = 1;
  while (i < k.length - 1 && cum[i]! < d) i++;
  const f = Math.min(1, Math.max(0, (d - cum[i - 1]!) / (cum[i]! - cum[i - 1]!)));
  return k[i - 1]!.map((v, j) => v + f * (k[i]![j]! - v));
}

function pathLength(p: ArmPath): number {
  let len = 0;
  for (let i = 1; i < p.knots.length; i++) len += Math.max(...p.knots[i]!.map((v, j) => Math.abs(v - p.knots[i - 1]![j]!)));
  return len;
}

/**
 * First collision of all arms moving along `paths` together (null: free), sampled every STAGE_CHECK_RAD of the
 * longest path; pairs the stage starts with may stay (no more than 2 mm deeper).
 */
function stageCollision(mc: MultiArmContext, startQ: number[][], paths: ArmPath[], count: { checks: number }): ConfigCollision[] | null {
  const at = (s: number) => startQ.map((q, a) => {
    const p = paths.find((x) => x.arm === a);
    return p ? along(p, s) : q;
  });
  const start = mc.checker.collisions(mc.state, at(0), mc.allowed, mc.grasps, mc.placed);
  count.checks++;
  const had = new Map(start.map((h) => [`${h.a}\u0000${h.b}`, h.depthM]));
  const n = Math.max(1, Math.ceil(Math.max(0, ...paths.map(pathLength)) / STAGE_CHECK_RAD));
  for (let k = 1; k <= n; k++) {
    const hits = mc.checker.collisions(mc.state, at(k / n), mc.allowed, mc.grasps, mc.placed);
    count.checks++;
    const bad = hits.filter((h) => !(h.depthM <= (had.get(`${h.a}\u0000${h.b}`) ?? -Infinity) + START_DEPTH_TOL_M));
    if (bad.length > 0) return bad;
  }
  return null;
}

export function executeJointly(ctx: RobotApiContext, plan: CheckedPlan, robots: string[], allowed: Set<number>[]): JointExecution {
  const { actions, goals } = plan;
  const runner = ctx.arms[0]!.runner;
  const armOf = (robot: string) => robots.indexOf(robot);
  const nArms = ctx.scene.arms.length;
  const qStart = ctx.scene.arms.map((_, a) => ctx.state.armQ(a));
  const log: string[] = [];
  const errors: string[] = [];
  const failed = new Set<number>();
  const seed = 1 + Math.round(ctx.state.timeSecs * 1000);
  // An arm that waits while holding something fixed to the world (a door's handle) stays put: the search may move
  // other waiting arms aside and back, but this one would pull the handle out of its hand.
  const anchored = (a: number) => {
    const g = ctx.state.grasps[a];
    return g !== null && g !== undefined && ctx.scene.objects[g.object]!.kind !== 'free' && actions.some((x) => armOf(x.robot) === a && x.verb === 'WAIT');
  };
  const ranges = ctx.scene.arms.map((a, i) => (anchored(i) ? qStart[i]!.map((v): [number, number] => [v, v]) : a.layout.jointRanges));
  const base: MultiArmContext = { checker: ctx.checker, state: ctx.state, ranges, allowed };

  // 1. approach, planned for all arms at once; RoCo's code hands the IK-solved waypoints to its sampler reversed.
  const motion = planMultiArm(base, qStart, plan.approachQ, [...plan.seeds].reverse(), seed, ROCO_BIRRT);
  if (!motion.ok) {
    const pairs = motion.collisions ? `: ${pairsText(motion.collisions)}` : '';
    return { planFailed: true, log, errors: [`multi-arm motion planning failed (${motion.reason}${pairs}); nothing moved`] };
  }
  let checks = motion.checks;
  const movingArms = ctx.scene.arms.map((_, a) => a).filter((a) => motion.knots.some((k) => k[a]!.some((v, j) => Math.abs(v - qStart[a]![j]!) > 1e-9)));
  const approachPaths: ArmPath[] = movingArms.map((a) => ({ arm: a, knots: motion.knots.map((k) => k[a]!) }));
  const afterApproach = motion.knots[motion.knots.length - 1]!;

  // 2.-4. contact and depart lines of every robot that has them, planned from where the previous stage ends
  /** One arm's straight lines in a stage: whose, labelled for reasons, through which tool poses. */
  type Lines = { arm: number; who: string; targets: ToolTarget[] };
  const linesOf = (pick: (i: number) => ToolTarget[]): Lines[] =>
    actions
      .map((a, i) => ({ arm: armOf(a.robot), who: `${a.robot} (${a.verb}${a.object ? ` ${a.object}` : ''})`, targets: pick(i).map((t) => (t.R ? t : { ...t, yawRad: plan.approachYaw[armOf(a.robot)]! })) }))
      .filter((l) => l.targets.length > 0);
  const stage = (startQ: number[][], lines: Lines[], what: string, mc: MultiArmContext): StageResult => {
    const paths: ArmPath[] = [];
    let toolSecs = 0;
    const count = { checks: 0 };
    const notes: string[] = [];
    for (const { arm, who, targets } of lines) {
      const ctrl = ctx.arms[arm]!;
      const from = startQ[arm]!;
      const r = cartesianKnots(ctrl, from, ctrl.ik.forward(from), targets, `${who} ${what}`);
      if (r.ok) {
        paths.push({ arm, knots: r.knots });
        toolSecs = Math.max(toolSecs, r.lengthM / LINE_SPEED_MPS);
        continue;
      }
      // A straight tool line that leaves the arm's IK branch (near a singularity or a joint limit) becomes a joint
      // path to the leg's end pose, planned below with the others; the other legs stay straight lines.
      const knots: number[][] = [from];
      for (const t of targets) {
        const prev = knots[knots.length - 1]!;
        const leg = cartesianKnots(ctrl, prev, ctrl.ik.forward(prev), [t], `${who} ${what}`);
        if (leg.ok) {
          knots.push(...leg.knots.slice(1));
          toolSecs = Math.max(toolSecs, leg.lengthM / LINE_SPEED_MPS);
          continue;
        }
        const goal = ctrl.solveTarget(t);
        if (!goal.sol.converged) return { ok: false, reason: r.error, checks: count.checks };
        knots.push(goal.sol.q);
        notes.push(`${who} ${what}: no straight tool line to ${fmt(t.pos)} (${leg.error.replace(/^.*\((IK residual|the arm would)/, '$1').replace(/\)$/, '')}); moved there in joint space`);
      }
      paths.push({ arm, knots });
    }
    if (paths.length === 0) return { ok: true, paths, toolSecs, checks: count.checks, notes };
    const hit = stageCollision(mc, startQ, paths, count);
    if (!hit) return { ok: true, paths, toolSecs, checks: count.checks, notes };
    // The straight lines collide: the same planner as the approach, from the stage's start to its end.
    const endQ = startQ.map((q, a) => paths.find((p) => p.arm === a)?.knots.at(-1) ?? q);
    const who = lines.map((l) => l.who).join(', ');
    const around = planMultiArm(mc, startQ, endQ, [], seed + 17, ROCO_BIRRT);
    if (!around.ok) {
      const also = around.collisions && pairsText(around.collisions) !== pairsText(hit) ? `; ${around.reason}: ${pairsText(around.collisions)}` : `; ${around.reason}`;
      return { ok: false, reason: `the ${what} move of ${who} collides: ${pairsText(hit)}${also}`, checks: count.checks + around.checks };
    }
    const moved = paths.map((p) => p.arm);
    notes.push(`motion: the straight ${what} move of ${who} would hit ${pairsText(hit)}; planned around it (${around.kind === 'rrt' ? `${ROCO_BIRRT.name}, ${around.iterations} iterations` : 'straight joint line'})`);
    return { ok: true, paths: moved.map((arm) => ({ arm, knots: around.knots.map((k) => k[arm]!) })), toolSecs, checks: count.checks + around.checks, notes };
  };

  const contact = stage(afterApproach, linesOf((i) => goals[i]!.contact), 'contact', base);
  checks += contact.checks;
  if (!contact.ok) return { planFailed: true, log, errors: [`${contact.reason}; nothing moved`] };
  const afterContact = afterApproach.map((q, a) => contact.paths.find((p) => p.arm === a)?.knots.at(-1) ?? q);
  // What the grips will change: the picked objects ride in their hands, released ones stay where they are let go.
  const grasps: (GraspState | null)[] = [...ctx.state.grasps];
  const placed: PlacedObject[] = [];
  actions.forEach((a, i) => {
    const arm = armOf(a.robot);
    const g = goals[i]!;
    if (g.grip === 'close' && g.graspObject !== undefined) {
      grasps.forEach((h, k) => h?.object === g.graspObject && (grasps[k] = null));
      grasps[arm] = ctx.checker.graspAt(ctx.state, arm, afterContact[arm]!, g.graspObject);
    }
  });
  actions.forEach((a, i) => {
    const arm = armOf(a.robot);
    const held = ctx.state.grasps[arm];
    if (goals[i]!.grip === 'open' && held) {
      placed.push({ object: held.object, ...ctx.checker.carriedPose(ctx.state, afterContact, arm, held) });
      if (grasps[arm]?.object === held.object) grasps[arm] = null;
    }
  });
  // A handover's giver backs its open hand off along its tool axis while the taker holds still.
  const retreats: Lines[] = goals.flatMap((g) => {
    if (g.handoverFrom === undefined) return [];
    const giver = g.handoverFrom;
    const t = ctx.arms[giver]!.ik.forward(afterContact[giver]!);
    const pos: [number, number, number] = [0, 1, 2].map((k) => t.pos[k]! - HANDOVER_RETREAT_M * t.R[3 * k + 2]!) as [number, number, number];
    return [{ arm: giver, who: `${robots[giver]} (handing over)`, targets: [{ pos, yawRad: 0, R: t.R }] }];
  });
  const depart = stage(afterContact, [...linesOf((i) => goals[i]!.depart), ...retreats], 'depart', { ...base, grasps, placed });
  checks += depart.checks;
  if (!depart.ok) return { planFailed: true, log, errors: [`${depart.reason}; nothing moved`] };

  // Everything is planned: run it.
  executeTogether(runner, approachPaths, togetherDuration(runner, approachPaths));
  if (movingArms.length > 0) settleArms(runner, movingArms);
  const run = (m: StageMotion, skip: Set<number>) => {
    // Each path starts where its arm really is now (the servos settle within a few millimetres of a knot).
    const paths = m.paths.filter((p) => !skip.has(p.arm)).map((p) => ({ arm: p.arm, knots: [ctx.state.armQ(p.arm), ...p.knots.slice(1)] }));
    executeTogether(runner, paths, togetherDuration(runner, paths, m.toolSecs));
    if (paths.length > 0) settleArms(runner, paths.map((p) => p.arm));
  };
  run(contact, new Set());
  log.push(...contact.notes);

  // 3. grip: closing grippers first (together), then opening ones (handover givers and releases)
  const closers = actions.map((a, i) => ({ a, i })).filter(({ i }) => goals[i]!.grip === 'close');
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
    if (goals[i]!.grip === 'open') {
      detach(ctx.state, armOf(a.robot));
      releasers.push(armOf(a.robot));
    }
  });
  if (releasers.length > 0) {
    moveGrippers(runner, releasers.map((arm) => ({ arm, open: true })));
    settleObjects(ctx, releasers[0]!);
  }

  // A robot whose grasp failed stays where it closed its hand.
  run(depart, new Set([...failed].map((i) => armOf(actions[i]!.robot))));
  log.push(...depart.notes);

  actions.forEach((a, i) => {
    if (failed.has(i)) return;
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
  });
  if (nArms > 1 && movingArms.length > 1) log.push(`motion: ${movingArms.map((a) => robots[a]).join(' and ')} moved together (${motionText(motion)})`);
  if (motion.startCollisions) log.push(`motion: the arms started in collision (${pairsText(motion.startCollisions)}); the approach moved out of it`);
  return { planFailed: false, log, errors, motion: { kind: motion.kind, iterations: motion.iterations, checks } };
}

function motionText(m: { kind: string; iterations: number; checks: number }): string {
  if (m.kind === 'rrt') return `${ROCO_BIRRT.name} over all arms, ${m.iterations} iterations, ${m.checks} configurations checked`;
  if (m.kind === 'waypoints') return `through the PATH waypoints, ${m.checks} configurations checked`;
  return `straight joint line, ${m.checks} configurations checked`;
}
