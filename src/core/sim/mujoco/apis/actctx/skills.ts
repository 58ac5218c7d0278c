// Action Contextualization's skills (Table I of the paper), composed as the authors' code composes them, each
// motion a run of the modulated joint-space DS (robot/jointDs.ts) with the call's speed, obstacle_clearance and
// orientation:
//   approach(object, s, c, grasp)  one run to the pre-grasp pose: 'top' = tool above the object's top by c + 6 cm,
//                                  'side' = tool beside it, back along the line from the base by radius + c + 6 cm;
//                                  everything is avoided, the target too; touching it is a collision.
//   pick(object, s, c, grasp)      fine approach to the grasp pose (the target left out of the avoidance and
//                                  allowed to touch), close the hand, and if it holds, fly off 0.2 m straight up.
//   place(location, o, s, c)       above the release spot at 0.3, 0.2 or 0.1 m over the location's top (the first
//                                  with an IK solution), down until the held object is 5 mm over the floor or top,
//                                  open, fly off 0.3 m up. orientation o > 0 keeps the tool's tilt (goal and path);
//                                  o = 0 turns it back to top-down.
//   drop(location, s, c)           above the location, DROP_ABOVE_M over its top with the table left out of the
//                                  avoidance, open.
// A collision stops the skill where it is; nothing after it runs (the authors' `_in_collision`). While the arm
// holds something, a motion that pulls harder than the grip can hold makes it slip (gripLoad.ts).
// What happened is kept in the API memory for the checks that follow.
import { topDownMat } from '../../math3.js';
import type { ToolTarget } from '../../robot/ik.js';
import { MODULATION_ONSET, runJointDs, type DsRun, type DsSettings } from '../../robot/jointDs.js';
import { solveToolTarget } from '../../robot/skillMotion.js';
import type { Vec3 } from '../../scene/sceneSpec.js';
import type { LocationSpec } from '../../tasks/taskDefinition.js';
import { heldObjects, okResult, settleObjects, watchCollisions, type RobotApiContext, type SimCallResult } from '../robotApi.js';
import { gripperCommandedOpen } from '../../robot/gripper.js';
import { graspPlan, locationPoint, type GraspKind } from './graspPoses.js';
import { watchGrip } from './gripLoad.js';

const ARM = 0;
/** Pre-grasp stand-off beyond the clearance (m): the finger tips stop about c + 4.6 cm from the object. */
export const APPROACH_OFFSET_M = 0.06;
export const PICK_FLY_OFF_M = 0.2;
export const PLACE_FLY_OFF_M = 0.3;
export const PLACE_OFFSETS_M = [0.3, 0.2, 0.1] as const;
/** drop: how high above the location's top the held object is let go. */
export const DROP_ABOVE_M = 0.15;

/** What the preceding skill did, for collision_free(), timeout(), can_grasp(). */
export interface LastSkill {
  action: string;
  /** Things the arm hit (labels), in order. */
  collided: string[];
  durationSecs: number;
  /** A controller run hit the 300 s timeout. */
  timedOut: boolean;
  /** The skill's obstacle_clearance (can_grasp's distance), m. */
  clearanceM: number;
  /** How each controller run ended, in order. */
  runs: string[];
  /** Objects that slipped out of the hand. */
  slipped: string[];
}

export interface SkillParams {
  speed: number;
  clearance: number;
}

interface SkillRun {
  lines: string[];
  runs: DsRun[];
  slipped: string[];
}

function toolPose(ctx: RobotApiContext): { pos: Vec3; R: number[] } {
  const arm = ctx.arms[ARM]!;
  const tcp = ctx.state.tcp(ARM);
  return { pos: tcp.pos, R: arm.ik.forward(ctx.state.armQ(ARM)).R };
}

function massOf(ctx: RobotApiContext, object: number): number {
  return ctx.scene.built.spec.objects[object]!.massKg;
}

/**
 * One DS run to a tool target. Unreachable (no IK solution): the arm does not move. A run after a collision in
 * the same skill does not start.
 */
function dsTo(ctx: RobotApiContext, run: SkillRun, target: ToolTarget, what: string, s: DsSettings): DsRun | null {
  if (run.runs.some((r) => r.end === 'collision')) return null;
  const ctrl = ctx.arms[ARM]!;
  const solved = solveToolTarget(ctrl, target);
  if (!solved.sol || !solved.sol.converged) {
    run.lines.push(`${what}: the goal [${target.pos.map((v) => v.toFixed(3)).join(', ')}] has no IK solution (residual ${solved.sol?.posErrM.toFixed(3)} m); the arm did not move`);
    return null;
  }
  const goalR = solved.target.R ?? topDownMat(solved.target.yawRad);
  const grip = watchGrip(ctx.state, ARM, (o) => massOf(ctx, o));
  const r = runJointDs(ctrl, ctx.obstacles, { q: solved.sol.q, pos: solved.target.pos, R: goalR }, s, {
    // The arm hitting something stops the run; a held or pushed object touching the scene is reported, not a stop
    // (placing a glass in the sink touches the sink).
    collisions: () => ctx.contacts.soFar().filter((c) => c.kind === undefined || c.kind === 'arm'),
    afterStep: () => {
      const name = grip.afterStep();
      if (name) {
        run.slipped.push(name);
        run.lines.push(`${what}: the ${name} slipped out of the hand (the motion pulled ${grip.peakLoadMps2.toFixed(1)} m/s^2 on it)`);
      }
      return null;
    },
  });
  run.runs.push(r);
  if (process.env.AC_DEBUG) console.log(`  [ds] ${what} end=${r.end} t=${r.durationSecs.toFixed(2)} err=${r.posErrM.toFixed(4)} peakLoad=${grip.peakLoadMps2.toFixed(2)} closest=${r.closestTo}@${r.closestM.toFixed(3)} mod=${r.modulatedSecs.toFixed(2)}`);
  // What the modulation did (a reached goal after steering says how close it let the arm come).
  if (r.end === 'reached' && r.modulatedSecs > 0) {
    const passed = Object.entries(r.passed).sort((a, b) => a[1] - b[1]).map(([label, d]) => `${label} (closest ${d.toFixed(3)} m)`);
    if (passed.length) run.lines.push(`${what}: steered around ${passed.join(', ')}; avoidance from ${(MODULATION_ONSET * s.clearanceM).toFixed(3)} m`);
  }
  if (r.end === 'collision') run.lines.push(`${what}: collided with ${r.collidedWith}; the controller stopped`);
  else if (r.end === 'locked') run.lines.push(`${what}: stopped ${r.posErrM.toFixed(3)} m from the goal (locked after ${r.durationSecs.toFixed(1)} s${r.closestTo ? `; closest to ${r.closestTo} at ${r.closestM.toFixed(3)} m` : ''})`);
  else if (r.end === 'timeout') run.lines.push(`${what}: timed out after ${r.durationSecs.toFixed(0)} s, ${r.posErrM.toFixed(3)} m from the goal`);
  return r;
}

function settings(p: SkillParams, orientation: number, ignore: Set<number>, ignoreTable = false): DsSettings {
  return { speed: p.speed, clearanceM: p.clearance, orientation, ignore, ignoreTable };
}

/** Wraps a skill: collisions watched (the arm may touch `allowed`), outcome remembered for the checks. */
function skill(ctx: RobotApiContext, action: string, allowed: Set<number>[], p: SkillParams, body: (run: SkillRun) => void): SimCallResult {
  const t0 = ctx.state.timeSecs;
  const run: SkillRun = { lines: [], runs: [], slipped: [] };
  const w = watchCollisions(ctx, allowed, () => body(run));
  ctx.probe.measureAlso[ARM]!.clear();
  const last: LastSkill = {
    action,
    // collision_free() is about the arm (the paper's check): a held object's or a pushed object's contacts are
    // reported in the output but are not the arm touching something.
    collided: [...new Set(w.collisions.filter((c) => c.kind === undefined || c.kind === 'arm').map((c) => c.b))],
    durationSecs: Math.round((ctx.state.timeSecs - t0) * 1e6) / 1e6,
    timedOut: run.runs.some((r) => r.end === 'timeout'),
    clearanceM: p.clearance,
    runs: run.runs.map((r) => r.end),
    slipped: run.slipped,
  };
  ctx.memory['last'] = last;
  return okResult([...run.lines, ...w.warnings], w.collisions);
}

/** The pre-grasp pose of an approach (see the header). */
export function approachPose(ctx: RobotApiContext, object: number, grasp: GraspKind, clearance: number): ToolTarget {
  const plan = graspPlan(ctx, object, grasp);
  const spec = ctx.scene.built.spec.objects[object]!;
  const pose = ctx.state.objectPose(object);
  if (grasp === 'top') {
    const top = pose.pos[2] + spec.size[2] / 2;
    return { ...plan.grasp, pos: [plan.grasp.pos[0], plan.grasp.pos[1], top + clearance + APPROACH_OFFSET_M] };
  }
  const base = ctx.scene.arms[ARM]!.layout.spec.basePos;
  const dx = pose.pos[0] - base[0];
  const dy = pose.pos[1] - base[1];
  const n = Math.hypot(dx, dy) || 1;
  const back = Math.max(spec.size[0], spec.size[1]) / 2 + clearance + APPROACH_OFFSET_M;
  return { ...plan.grasp, pos: [pose.pos[0] - (dx / n) * back, pose.pos[1] - (dy / n) * back, plan.grasp.pos[2]] };
}

/** An empty hand opens before it reaches for something (the authors' hand returns to its open pose). */
function openIfEmpty(ctx: RobotApiContext): void {
  if (!ctx.state.grasps[ARM] && !gripperCommandedOpen(ctx.state, ARM)) ctx.arms[ARM]!.open();
}

export function approach(ctx: RobotApiContext, object: number, p: SkillParams, grasp: GraspKind, call: string): SimCallResult {
  const name = ctx.scene.objects[object]!.name;
  const allowed = heldObjects(ctx);
  return skill(ctx, call, allowed, p, (run) => {
    openIfEmpty(ctx);
    const ignore = new Set(allowed[ARM]);
    const r = dsTo(ctx, run, approachPose(ctx, object, grasp, p.clearance), call, settings(p, 0, ignore));
    if (r && r.end === 'reached') run.lines.unshift(`${call}: at the ${grasp} pre-grasp pose of ${name}`);
  });
}

export function pick(ctx: RobotApiContext, object: number, p: SkillParams, grasp: GraspKind, call: string): SimCallResult {
  const name = ctx.scene.objects[object]!.name;
  const held = ctx.state.grasps[ARM];
  if (held) return skill(ctx, call, heldObjects(ctx), p, (run) => run.lines.push(`${call}: the hand already holds ${ctx.scene.objects[held.object]!.name}`));
  const allowed = heldObjects(ctx);
  allowed[ARM]!.add(object);
  return skill(ctx, call, allowed, p, (run) => {
    openIfEmpty(ctx);
    // Fine approach: the target is not avoided (touching it is allowed) but its distance counts in M_E.
    ctx.probe.measureAlso[ARM]!.add(object);
    const plan = graspPlan(ctx, object, grasp);
    const r = dsTo(ctx, run, plan.grasp, call, settings(p, 0, new Set([object])));
    ctx.probe.measureAlso[ARM]!.delete(object);
    if (!r || r.end === 'collision') {
      run.lines.push(`${call}: nothing grasped`);
      return;
    }
    const g = ctx.arms[ARM]!.closeOn(object);
    if (!g.grasped) {
      run.lines.push(`${call}: closed the hand but did not grasp ${name}${r.end !== 'reached' ? ` (${r.posErrM.toFixed(3)} m short of the grasp pose)` : ''}`);
      return;
    }
    // Fly off straight up; a low side grasp may not reach the full height, so lower ones are tried in turn.
    const tool = toolPose(ctx);
    const lift = [PICK_FLY_OFF_M, PICK_FLY_OFF_M / 2, PICK_FLY_OFF_M / 4].find((h) => solveToolTarget(ctx.arms[ARM]!, { pos: [tool.pos[0], tool.pos[1], tool.pos[2] + h], yawRad: 0, R: tool.R }).sol?.converged) ?? PICK_FLY_OFF_M;
    const up = dsTo(ctx, run, { pos: [tool.pos[0], tool.pos[1], tool.pos[2] + lift], yawRad: 0, R: tool.R }, call, settings(p, 0, new Set([object])));
    run.lines.unshift(`${call}: grasped ${name}${up && up.end === 'reached' ? ` and lifted it ${lift} m` : ''}`);
  });
}

/** Where the held object goes down at a location, and the tool's height above the object's bottom. */
function releaseGeometry(ctx: RobotApiContext, loc: LocationSpec, locIndex: number): { point: Vec3; hang: number; locTop: number } {
  const g = ctx.state.grasps[ARM]!;
  const tool = toolPose(ctx);
  const obj = ctx.state.objectPose(g.object);
  const size = ctx.scene.built.spec.objects[g.object]!.size;
  // The held object's bottom below the tool: its centre's offset along world z plus half its height (upright).
  const hang = tool.pos[2] - obj.pos[2] + size[2] / 2;
  const point = locationPoint(ctx, loc, locIndex, g.object);
  const locSpec = ctx.scene.built.spec.objects[locIndex]!;
  const locTop = ctx.state.objectPose(locIndex).pos[2] + locSpec.size[2] / 2;
  return { point, hang, locTop };
}

/** The tool orientation a carry ends in: kept (o > 0, the authors' yaw-only goal) or top-down at the current yaw. */
function carryOrientation(ctx: RobotApiContext, orientation: number): number[] {
  const tool = toolPose(ctx);
  if (orientation > 0) return tool.R;
  return topDownMat(ctx.state.tcp(ARM).yawRad);
}

export function place(ctx: RobotApiContext, loc: LocationSpec, locIndex: number, orientation: number, p: SkillParams, call: string): SimCallResult {
  if (!ctx.state.grasps[ARM]) return skill(ctx, call, heldObjects(ctx), p, (run) => run.lines.push(`${call}: nothing is held`));
  const allowed = heldObjects(ctx);
  return skill(ctx, call, allowed, p, (run) => {
    const held = ctx.state.grasps[ARM]!.object;
    const name = ctx.scene.objects[held]!.name;
    const { point, hang, locTop } = releaseGeometry(ctx, loc, locIndex);
    const R = carryOrientation(ctx, orientation);
    const ignore = new Set([held]);
    // Above the spot: the first vertical offset with an IK solution.
    let above: ToolTarget | null = null;
    for (const v of PLACE_OFFSETS_M) {
      const t: ToolTarget = { pos: [point[0], point[1], locTop + hang + v], yawRad: 0, R };
      const sol = solveToolTarget(ctx.arms[ARM]!, t);
      if (sol.sol?.converged) {
        above = t;
        break;
      }
    }
    if (!above) {
      run.lines.push(`${call}: no IK solution above ${loc.name} at ${PLACE_OFFSETS_M.join(', ')} m; the arm did not move`);
      return;
    }
    const r1 = dsTo(ctx, run, above, call, settings(p, orientation, ignore));
    if (!r1 || r1.end === 'collision' || !ctx.state.grasps[ARM]) return;
    const release: ToolTarget = { pos: [point[0], point[1], point[2] + hang + 0.005], yawRad: 0, R };
    const r2 = dsTo(ctx, run, release, call, settings(p, orientation, ignore));
    if (!r2 || r2.end === 'collision' || !ctx.state.grasps[ARM]) return;
    ctx.arms[ARM]!.open();
    settleObjects(ctx, ARM);
    run.lines.unshift(`${call}: released ${name} ${r2.end === 'reached' ? '' : `${r2.posErrM.toFixed(3)} m from the release pose `}${loc.kind === 'container' ? 'in' : 'on'} ${loc.name}`);
    // Fly off; the object just let go is not avoided (the authors keep it as the grasped one until then).
    const tool = toolPose(ctx);
    dsTo(ctx, run, { pos: [tool.pos[0], tool.pos[1], tool.pos[2] + PLACE_FLY_OFF_M], yawRad: 0, R: tool.R }, call, settings(p, 0, new Set([held])));
  });
}

export function drop(ctx: RobotApiContext, loc: LocationSpec, locIndex: number, p: SkillParams, call: string): SimCallResult {
  if (!ctx.state.grasps[ARM]) return skill(ctx, call, heldObjects(ctx), p, (run) => run.lines.push(`${call}: nothing is held`));
  const allowed = heldObjects(ctx);
  return skill(ctx, call, allowed, p, (run) => {
    const held = ctx.state.grasps[ARM]!.object;
    const name = ctx.scene.objects[held]!.name;
    const pose = ctx.state.objectPose(locIndex);
    const { hang, locTop } = releaseGeometry(ctx, loc, locIndex);
    const R = carryOrientation(ctx, 0);
    const r = dsTo(ctx, run, { pos: [pose.pos[0], pose.pos[1], locTop + hang + DROP_ABOVE_M], yawRad: 0, R }, call, settings(p, 0, new Set([held]), true));
    if (!r || r.end === 'collision' || !ctx.state.grasps[ARM]) return;
    ctx.arms[ARM]!.open();
    settleObjects(ctx, ARM);
    run.lines.unshift(`${call}: let go of ${name} ${r.end === 'reached' ? 'over' : `${r.posErrM.toFixed(3)} m from the point over`} ${loc.name}`);
  });
}
