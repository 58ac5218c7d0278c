// Action Contextualization's skills (Table I of the paper): approach, pick, place, drop, with speed,
// obstacle_clearance, grasp ('top'/'side') and orientation. Each skill is one measured action; what happened
// (collisions, proximity stop, duration) is kept in the API memory for the checks that follow it.
import { topDownMat } from '../../math3.js';
import type { ToolTarget } from '../../robot/ik.js';
import { moveSkill, type SkillMove } from '../../robot/skillMotion.js';
import type { LocationSpec } from '../../tasks/taskDefinition.js';
import { heldObjects, okResult, settleObjects, watchCollisions, type RobotApiContext, type SimCallResult } from '../robotApi.js';
import { graspPlan, locationPoint, PREGRASP_M, SIDE_PREGRASP_M, type GraspKind } from './graspPoses.js';

/** A skill taking longer than this (simulated) fails timeout(). */
export const SKILL_TIMEOUT_SECS = 30;
const ARM = 0;

export interface LastSkill {
  action: string;
  /** Things the arm hit (labels), in order. */
  collided: string[];
  durationSecs: number;
  stoppedBy: string | null;
}

export interface SkillParams {
  speed: number;
  clearance: number;
}

function speedScale(speed: number): number {
  // 0.5 is the planner's normal pace (the paper's prompts suggest mid values); 1 is twice as fast.
  return Math.min(1, Math.max(0.05, speed)) / 0.5;
}

/**
 * The obstacle_clearance stop: ends a motion when a link gets within `c` of anything not skipped and is still
 * getting closer (a motion that leads away from something already close may go on).
 */
function proximityStop(ctx: RobotApiContext, c: number, skip: Set<number>): () => string | null {
  const probe = ctx.arms[ARM]!.runner.probe!;
  // Measured when the motion starts (runMoves builds the stop right before each move).
  let prev = c > 0 ? probe.clearance(ctx.state, { arms: [ARM], skipTable: true, skip }).distance : Infinity;
  return () => {
    if (c <= 0) return null;
    const { distance, closest } = probe.clearance(ctx.state, { arms: [ARM], skipTable: true, skip });
    const closing = distance < prev - 1e-4;
    prev = distance;
    return distance < c && closing && closest ? `the ${closest[0]} came within ${c.toFixed(3)} m (obstacle_clearance) of ${closest[1]}` : null;
  };
}

/** A move of a skill; `turn` marks turning the wrist in place (collision-checked, but no proximity stop). */
type Step = { target: ToolTarget; keep: boolean; skip: Set<number>; what: string; turn?: boolean };

/** Runs moves in order; stops at the first that fails or is stopped. Returns the last outcome. */
function runMoves(ctx: RobotApiContext, steps: Step[], p: SkillParams): SkillMove | null {
  let last: SkillMove | null = null;
  for (const s of steps) {
    const allowed = heldObjects(ctx);
    s.skip.forEach((o) => allowed[ARM]!.add(o));
    last = moveSkill(ctx.arms[ARM]!, s.target, s.what, {
      speedScale: speedScale(p.speed),
      keepOrientation: s.keep,
      ...(s.turn ? {} : { stop: proximityStop(ctx, p.clearance, s.skip) }),
      avoid: { checker: ctx.checker, allowed },
    });
    if (!last.ok || last.stoppedBy) return last;
  }
  return last;
}

function describeMove(m: SkillMove | null, done: string): string {
  if (!m) return done;
  if (!m.ok) return m.error;
  if (m.stoppedBy) return `stopped ${m.posErrM.toFixed(3)} m short: ${m.stoppedBy}`;
  return done;
}

/** Wraps a skill: collisions watched, outcome remembered for the checks. */
function skill(ctx: RobotApiContext, action: string, allowed: Set<number>[], body: () => { lines: string[]; stoppedBy: string | null }): SimCallResult {
  const t0 = ctx.state.timeSecs;
  const w = watchCollisions(ctx, allowed, body);
  const last: LastSkill = {
    action,
    collided: [...new Set(w.collisions.map((c) => c.b))],
    durationSecs: Math.round((ctx.state.timeSecs - t0) * 1e6) / 1e6,
    stoppedBy: w.value.stoppedBy,
  };
  ctx.memory['last'] = last;
  return okResult([...w.value.lines, ...w.warnings], w.collisions);
}

function toolPose(ctx: RobotApiContext): ToolTarget {
  const arm = ctx.arms[ARM]!;
  const tcp = ctx.state.tcp(ARM);
  return { pos: tcp.pos, yawRad: tcp.yawRad, R: arm.ik.forward(ctx.state.armQ(ARM)).R };
}

function near(a: ToolTarget, b: ToolTarget, tol: number): boolean {
  return Math.hypot(a.pos[0] - b.pos[0], a.pos[1] - b.pos[1], a.pos[2] - b.pos[2]) < tol;
}

/** A height from which the tool can cross the scene: 8 cm over the tallest thing that is not held. */
function transitZ(ctx: RobotApiContext, hang = 0): number {
  const held = new Set(ctx.state.grasps.filter((g) => g !== null).map((g) => g!.object));
  let top = ctx.scene.built.spec.table.topZ;
  ctx.scene.objects.forEach((_, i) => {
    if (held.has(i)) return;
    top = Math.max(top, ctx.state.objectPose(i).pos[2] + ctx.scene.built.spec.objects[i]!.size[2] / 2);
  });
  return Math.max(ctx.state.tcp(ARM).pos[2], top + 0.08 + hang);
}

function approachSteps(ctx: RobotApiContext, object: number, grasp: GraspKind): Step[] {
  const plan = graspPlan(ctx, object, grasp);
  const now = toolPose(ctx);
  const z = Math.max(transitZ(ctx), plan.pre.pos[2]);
  const tcp = ctx.state.tcp(ARM);
  const up: ToolTarget = { pos: [now.pos[0], now.pos[1], z], yawRad: tcp.yawRad, ...(now.R && Math.abs(now.R[8]! + 1) > 1e-3 ? { R: now.R } : {}) };
  // Side: turn the palm's long side (along the closing direction) across the approach before coming down.
  const sideYaw = Math.atan2(plan.grasp.pos[1] - plan.pre.pos[1], plan.grasp.pos[0] - plan.pre.pos[0]);
  const over: ToolTarget = { pos: [plan.pre.pos[0], plan.pre.pos[1], z], yawRad: grasp === 'top' ? plan.pre.yawRad : sideYaw };
  const s = new Set<number>();
  // Up, across at a safe height, then down to the pre-grasp pose. For a side grasp the tool comes down
  // top-down to 3 cm above the pre-grasp pose, turns there (a joint-space move in place) and drops the rest.
  const steps: Step[] = [
    { target: up, keep: true, skip: s, what: 'approach' },
    { target: over, keep: true, skip: s, what: 'approach' },
  ];
  if (grasp === 'side') {
    const turnZ = plan.pre.pos[2] + 0.03;
    steps.push({ target: { ...over, pos: [over.pos[0], over.pos[1], turnZ] }, keep: true, skip: s, what: 'approach' });
    steps.push({ target: { ...plan.pre, pos: [plan.pre.pos[0], plan.pre.pos[1], turnZ] }, keep: false, skip: s, what: 'approach', turn: true });
  }
  steps.push({ target: plan.pre, keep: true, skip: s, what: 'approach' });
  return steps;
}

export function approach(ctx: RobotApiContext, object: number, p: SkillParams, grasp: GraspKind, call: string): SimCallResult {
  const name = ctx.scene.objects[object]!.name;
  return skill(ctx, call, heldObjects(ctx), () => {
    const m = runMoves(ctx, approachSteps(ctx, object, grasp), p);
    const done = `at the ${grasp} pre-grasp pose, ${grasp === 'top' ? PREGRASP_M : SIDE_PREGRASP_M} m from ${name}`;
    return { lines: [`${call}: ${describeMove(m, done)}`], stoppedBy: m && m.ok ? m.stoppedBy : null };
  });
}

export function pick(ctx: RobotApiContext, object: number, p: SkillParams, grasp: GraspKind, call: string): SimCallResult {
  const name = ctx.scene.objects[object]!.name;
  if (ctx.state.grasps[ARM]) return skill(ctx, call, heldObjects(ctx), () => ({ lines: [`${call}: the gripper already holds ${ctx.scene.objects[ctx.state.grasps[ARM]!.object]!.name}`], stoppedBy: null }));
  const allowed = heldObjects(ctx);
  allowed[ARM]!.add(object);
  return skill(ctx, call, allowed, () => {
    const plan = graspPlan(ctx, object, grasp);
    const steps: Step[] = near(toolPose(ctx), plan.pre, 0.02) ? [] : approachSteps(ctx, object, grasp);
    // The fine approach may come close to the target itself.
    steps.push({ target: plan.grasp, keep: true, skip: new Set([object]), what: 'pick' });
    const m = runMoves(ctx, steps, p);
    if (!m || !m.ok || m.stoppedBy) return { lines: [`${call}: ${describeMove(m, '')}; nothing grasped`], stoppedBy: m && m.ok ? m.stoppedBy : null };
    const g = ctx.arms[ARM]!.closeOn(object);
    if (!g.grasped) return { lines: [`${call}: closed the gripper but did not grasp ${name}`], stoppedBy: null };
    const up = runMoves(ctx, plan.lift.map((target) => ({ target, keep: true, skip: new Set([object]), what: 'pick' })), p);
    return { lines: [`${call}: grasped ${name}${up && up.ok && !up.stoppedBy ? ' and lifted it' : ` (lift: ${describeMove(up, '')})`}`], stoppedBy: null };
  });
}

/** Moves the held object over `loc`; `down` lowers it onto the location (place) or not (drop). */
function carry(ctx: RobotApiContext, loc: LocationSpec, locIndex: number, p: SkillParams, keepOrientation: boolean, down: boolean, call: string): { lines: string[]; stoppedBy: string | null } {
  const g = ctx.state.grasps[ARM]!;
  const now = toolPose(ctx);
  const obj = ctx.state.objectPose(g.object);
  const size = ctx.scene.built.spec.objects[g.object]!.size;
  // Keeping the orientation carries the tool as it is; otherwise it turns back to top-down (same yaw) on the way.
  const carried: ToolTarget = keepOrientation ? now : { pos: now.pos, yawRad: ctx.state.tcp(ARM).yawRad };
  // How far the tool will be above the held object's bottom once in the carried orientation.
  const Rt = carried.R ?? topDownMat(carried.yawRad);
  const R0 = now.R!;
  const d = [obj.pos[0] - now.pos[0], obj.pos[1] - now.pos[1], obj.pos[2] - now.pos[2]];
  const local = [0, 1, 2].map((c) => R0[c]! * d[0]! + R0[3 + c]! * d[1]! + R0[6 + c]! * d[2]!);
  const dz = Rt[6]! * local[0]! + Rt[7]! * local[1]! + Rt[8]! * local[2]!;
  const hang = -(dz - size[2] / 2);
  const point = locationPoint(ctx, loc, locIndex, g.object);
  const locSpec = ctx.scene.built.spec.objects[locIndex]!;
  const locTop = ctx.state.objectPose(locIndex).pos[2] + locSpec.size[2] / 2;
  const release = down ? point[2] + hang + 0.005 : locTop + hang + 0.12;
  const transit = Math.max(now.pos[2], locTop + hang + 0.08, release);
  const skip = new Set([g.object, locIndex]);
  const at = (x: number, y: number, z: number): ToolTarget => ({ ...carried, pos: [x, y, z] });
  const steps: Step[] = [
    { target: { ...carried, pos: [now.pos[0], now.pos[1], transit] }, keep: keepOrientation, skip, what: call },
    { target: at(point[0], point[1], transit), keep: keepOrientation, skip, what: call },
  ];
  if (release < transit - 1e-3) steps.push({ target: at(point[0], point[1], release), keep: true, skip, what: call });
  const m = runMoves(ctx, steps, p);
  if (!m || !m.ok || m.stoppedBy) return { lines: [`${call}: ${describeMove(m, '')}; still holding ${ctx.scene.objects[g.object]!.name}`], stoppedBy: m && m.ok ? m.stoppedBy : null };
  const name = ctx.scene.objects[g.object]!.name;
  ctx.arms[ARM]!.open();
  settleObjects(ctx, ARM);
  if (down) runMoves(ctx, [{ target: at(point[0], point[1], release + 0.1), keep: true, skip, what: call }], p);
  return { lines: [`${call}: released ${name} ${down ? 'on' : 'over'} ${loc.name}`], stoppedBy: null };
}

export function place(ctx: RobotApiContext, loc: LocationSpec, locIndex: number, orientation: number, p: SkillParams, call: string): SimCallResult {
  if (!ctx.state.grasps[ARM]) return skill(ctx, call, heldObjects(ctx), () => ({ lines: [`${call}: nothing is held`], stoppedBy: null }));
  // orientation >= 0.5: keep the object's orientation on the way (straight tool line); below: joint-space line.
  return skill(ctx, call, heldObjects(ctx), () => carry(ctx, loc, locIndex, p, orientation >= 0.5, true, call));
}

export function drop(ctx: RobotApiContext, loc: LocationSpec, locIndex: number, p: SkillParams, call: string): SimCallResult {
  if (!ctx.state.grasps[ARM]) return skill(ctx, call, heldObjects(ctx), () => ({ lines: [`${call}: nothing is held`], stoppedBy: null }));
  return skill(ctx, call, heldObjects(ctx), () => carry(ctx, loc, locIndex, p, false, false, call));
}
