// Action Contextualization's skills (Table I of the paper), composed as the authors' code composes them, each
// motion a run of the modulated joint-space DS (robot/jointDs.ts) with the call's speed, obstacle_clearance and
// orientation:
//   approach(object, s, c, grasp)  one run to the pre-grasp pose (a side grasp turns first, below): 'top' = tool
//                                  above the object's top by c + 6 cm,
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
// Side grasps (ours; the authors' iiwa differs): the Panda holds its hand horizontal near the table only with the
// wrist flipped over (joint 5 near its limit: the only IK solutions at six spots checked across this table), so one
// DS run between a top-down pose and a side grasp swings the hand some 20 cm around (it hit a glass, a lamp, the
// table). The hand therefore turns at the turn point (graspPlan's side pre-grasp, SIDE_PREGRASP_M back from the
// object along the line from the base): approach and pick come top-down to SIDE_TURN_RISE_M above it, turn on the way
// down to it, then go straight in; after the grasp the hand goes straight back out to it (the space above a
// side-grasped object is what the side grasp avoided, e.g. a lamp) and flies off up from there, turning top-down on
// the way (the authors' fly-off goal is a position only, with their orientation factor 0.9 on the way).
// Letting go opens the fingers before the grasp releases the object (letGo).
// A collision stops the skill where it is; nothing after it runs (the authors' `_in_collision`). So does a controller
// run that timed out: the action has failed timeout() already, and each further run could time out again (a side
// pick's turn and grasp did, 86 s for one action), so one action costs at most one timeout. While the arm
// holds something, a motion that pulls harder than the grip can hold makes it slip (gripLoad.ts).
// What happened is kept in the API memory for the checks that follow.
import { quatToMat, topDownMat } from '../../math3.js';
import type { ToolTarget } from '../../robot/ik.js';
import { MODULATION_ONSET, runJointDs, type DsRun, type DsSettings } from '../../robot/jointDs.js';
import { solveToolTarget } from '../../robot/skillMotion.js';
import type { Vec3 } from '../../scene/sceneSpec.js';
import type { LocationSpec } from '../../tasks/taskDefinition.js';
import { heldObjects, okResult, settleObjects, watchCollisions, type RobotApiContext, type SimCallResult } from '../robotApi.js';
import { detach, gripperCommandedOpen, moveFingers, preshapeHand } from '../../robot/gripper.js';
import { graspPlan, handLevelMat, hasHand, locationPoint, type GraspKind } from './graspPoses.js';
import { GRIP_FORCE_N, HAND_GRIP_FORCE_N, watchGrip } from './gripLoad.js';

const ARM = 0;
/** Pre-grasp stand-off beyond the clearance (m): the finger tips stop about c + 4.6 cm from the object. */
export const APPROACH_OFFSET_M = 0.06;
export const PICK_FLY_OFF_M = 0.2;
export const PLACE_FLY_OFF_M = 0.3;
export const PLACE_OFFSETS_M = [0.3, 0.2, 0.1] as const;
/** drop: how high above the location's top the held object is let go. */
export const DROP_ABOVE_M = 0.15;
/** A side grasp's turn between top-down and horizontal happens over this height above the turn point. */
export const SIDE_TURN_RISE_M = 0.15;
/** How much a side grasp rises while it backs out to the turn point. */
export const SIDE_BACK_OUT_RISE_M = 0.03;
/**
 * A hand's pre-grasp poses (the authors' approach offsets): 'top' this far plus the clearance over the grasp pose
 * (approach_top_dst_offset); 'side' beside it, this far plus the clearance to the side (approach_side_dst) and
 * HAND_SIDE_BACK_M back along the approach (approach_ee_offset_side_additional).
 */
export const HAND_TOP_APPROACH_M = 0.15;
export const HAND_SIDE_APPROACH_M = 0.05;
export const HAND_SIDE_BACK_M = 0.02;
/** The authors' orientation factor on the fly-off after a grasp. */
const HAND_FLY_OFF_ORIENTATION = 0.9;

/** What the preceding skill did, for collision_free(), timeout(), can_grasp(). */
export interface LastSkill {
  action: string;
  /** Things the arm hit (labels), in order. */
  collided: string[];
  durationSecs: number;
  /** A controller run hit the timeout (DS_TIMEOUT_SECS). */
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
 * One DS run to a tool target. Unreachable (no IK solution): the arm does not move. A run after a collision or a
 * timeout in the same skill does not start.
 */
function dsTo(ctx: RobotApiContext, run: SkillRun, target: ToolTarget, what: string, s: DsSettings): DsRun | null {
  if (run.runs.some((r) => r.end === 'collision' || r.end === 'timeout')) return null;
  const ctrl = ctx.arms[ARM]!;
  const solved = solveToolTarget(ctrl, target);
  if (!solved.sol || !solved.sol.converged) {
    run.lines.push(`${what}: the goal [${target.pos.map((v) => v.toFixed(3)).join(', ')}] has no IK solution (residual ${solved.sol?.posErrM.toFixed(3)} m); the arm did not move`);
    return null;
  }
  const goalR = solved.target.R ?? topDownMat(solved.target.yawRad);
  const grip = watchGrip(ctx.state, ARM, (o) => massOf(ctx, o), hasHand(ctx) ? HAND_GRIP_FORCE_N : GRIP_FORCE_N);
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
  if (hasHand(ctx)) {
    const p = plan.grasp.pos;
    if (grasp === 'top') return { ...plan.grasp, pos: [p[0], p[1], p[2] + clearance + HAND_TOP_APPROACH_M] };
    // Beside the object: away from the palm (hand -x, the right of the approach) and a little back.
    const R = plan.grasp.R!;
    const side = HAND_SIDE_APPROACH_M + clearance;
    return { ...plan.grasp, pos: [0, 1, 2].map((r) => p[r]! - R[3 * r]! * side - R[3 * r + 2]! * HAND_SIDE_BACK_M) as Vec3 };
  }
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

/**
 * Yaw of the top-down end of a side grasp's turn: the fingers close along the same horizontal line as in the side
 * grasp, so the turn is a pitch about that line.
 */
function sideTurnYaw(ctx: RobotApiContext, object: number): number {
  const base = ctx.scene.arms[ARM]!.layout.spec.basePos;
  const o = ctx.state.objectPose(object).pos;
  return Math.atan2(-(o[1] - base[1]), -(o[0] - base[0]));
}

/** The tool's approach axis (its z column) is within about 17 degrees of horizontal: already turned for a side grasp. */
function toolHorizontal(R: readonly number[]): boolean {
  return Math.abs(R[8]!) < 0.3;
}

/**
 * Brings the hand to the side grasp's turn point, horizontal (see the header): top-down above it, then down to it
 * turning. Does nothing when the hand is already horizontal. False when a run collided.
 */
function turnToSide(ctx: RobotApiContext, run: SkillRun, object: number, call: string, s: DsSettings): boolean {
  if (toolHorizontal(toolPose(ctx).R)) return true;
  const pre = graspPlan(ctx, object, 'side').pre;
  const yaw = sideTurnYaw(ctx, object);
  const above = dsTo(ctx, run, { pos: [pre.pos[0], pre.pos[1], pre.pos[2] + SIDE_TURN_RISE_M], yawRad: yaw, R: topDownMat(yaw) }, call, s);
  if (!above || above.end === 'collision') return false;
  const turned = dsTo(ctx, run, pre, call, s);
  return turned !== null && turned.end !== 'collision';
}

/**
 * Opens the hand on what it holds: the fingers first, the object let go once they are off it. Letting go first
 * leaves the pads squeezed into the object with nothing holding it, and they shoot an object held off their centre
 * out sideways (a side-grasped apple, gripped 2.5 cm above its centre, rolled off a shelf). A multi-finger hand opens
 * to the authors' open pose, its thumb left swung round where the grasp put it (only the curls open): swinging the
 * thumb out as well swept a friction-held paper ball sideways off the trash can (Fig. 6 d's tuned plan missed it).
 */
function letGo(ctx: RobotApiContext): void {
  if (hasHand(ctx)) preshapeHand(ctx.arms[ARM]!.runner, ARM, true);
  else moveFingers(ctx.arms[ARM]!.runner, ARM, true);
  detach(ctx.state, ARM);
  settleObjects(ctx, ARM);
}

/**
 * An empty hand opens before it reaches for something (the authors' hand returns to its open pose); a multi-finger
 * hand takes the open shape of the grasp it is going to make (its thumb in front of the palm for a side grasp only).
 */
function openIfEmpty(ctx: RobotApiContext, grasp: GraspKind): void {
  if (ctx.state.grasps[ARM]) return;
  if (hasHand(ctx)) {
    detach(ctx.state, ARM);
    preshapeHand(ctx.arms[ARM]!.runner, ARM, grasp === 'side');
  } else if (!gripperCommandedOpen(ctx.state, ARM)) ctx.arms[ARM]!.open();
}

export function approach(ctx: RobotApiContext, object: number, p: SkillParams, grasp: GraspKind, call: string): SimCallResult {
  const name = ctx.scene.objects[object]!.name;
  const allowed = heldObjects(ctx);
  return skill(ctx, call, allowed, p, (run) => {
    openIfEmpty(ctx, grasp);
    const ignore = new Set(allowed[ARM]);
    // The Panda turns its hand for a side grasp on the way (header); the iiwa's hand goes there in one run.
    if (grasp === 'side' && !hasHand(ctx) && !turnToSide(ctx, run, object, call, settings(p, 0, ignore))) return;
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
    openIfEmpty(ctx, grasp);
    // A pick without an approach before it turns the hand for a side grasp the same way (not near the object).
    if (grasp === 'side' && !hasHand(ctx) && !turnToSide(ctx, run, object, call, settings(p, 0, new Set()))) {
      run.lines.push(`${call}: nothing grasped`);
      return;
    }
    // Fine approach: the target is not avoided (touching it is allowed) but its distance counts in M_E.
    ctx.probe.measureAlso[ARM]!.add(object);
    const plan = graspPlan(ctx, object, grasp);
    const yaw = sideTurnYaw(ctx, object);
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
    const keep = settings(p, 0, new Set([object]));
    let backedOut = false;
    if (hasHand(ctx)) {
      // The authors' fly-off: straight up, the goal a position (the hand's orientation kept, orientation 0.9 on the way).
      const tool = toolPose(ctx);
      const goal = (h: number): ToolTarget => ({ pos: [tool.pos[0], tool.pos[1], tool.pos[2] + h], yawRad: 0, R: tool.R });
      const lift = [PICK_FLY_OFF_M, PICK_FLY_OFF_M / 2, PICK_FLY_OFF_M / 4].find((h) => solveToolTarget(ctx.arms[ARM]!, goal(h)).sol?.converged) ?? PICK_FLY_OFF_M;
      const up = dsTo(ctx, run, goal(lift), call, { ...keep, orientation: HAND_FLY_OFF_ORIENTATION });
      run.lines.unshift(`${call}: grasped ${name}${up && up.end === 'reached' ? ` and lifted it ${lift} m` : ''}`);
      return;
    }
    if (grasp === 'side') {
      // Straight back out to the turn point, 3 cm up so the object (hanging a little in the grip) clears the table.
      const out = dsTo(ctx, run, { ...plan.pre, pos: [plan.pre.pos[0], plan.pre.pos[1], plan.pre.pos[2] + SIDE_BACK_OUT_RISE_M] }, call, keep);
      if (!out || out.end === 'collision' || !ctx.state.grasps[ARM]) {
        run.lines.unshift(`${call}: grasped ${name}`);
        return;
      }
      backedOut = out.end === 'reached';
    }
    // Fly off straight up (a side grasp turning top-down on the way); lower heights when the full one has no IK solution.
    const tool = toolPose(ctx);
    const R = grasp === 'side' ? topDownMat(yaw) : tool.R;
    const goal = (h: number): ToolTarget => ({ pos: [tool.pos[0], tool.pos[1], tool.pos[2] + h], yawRad: yaw, R });
    const lift = [PICK_FLY_OFF_M, PICK_FLY_OFF_M / 2, PICK_FLY_OFF_M / 4].find((h) => solveToolTarget(ctx.arms[ARM]!, goal(h)).sol?.converged) ?? PICK_FLY_OFF_M;
    const up = dsTo(ctx, run, goal(lift), call, keep);
    run.lines.unshift(`${call}: grasped ${name}${backedOut ? ', backed out' : ''}${up && up.end === 'reached' ? ` and lifted it ${lift} m` : ''}`);
  });
}

/**
 * Where the held object goes down at a location, and where the tool must be for the object's bottom to be at a
 * point. The object's pose relative to the tool is taken as it is now (the grasp holds it there) and turned with the
 * tool into the carry orientation R: an object held off the tool's axis still lands on the spot (a side grasp holds a
 * low apple 2.5 cm below the tool centre; turned top-down that becomes a sideways offset, which set it down on a
 * shelf's front edge), and one held tilted is let go with its lowest point, not its upright bottom, over the spot.
 */
function releaseGeometry(ctx: RobotApiContext, loc: LocationSpec, locIndex: number, R: readonly number[]): { point: Vec3; locTop: number; toolFor(bottom: Vec3): Vec3 } {
  const locSpec = ctx.scene.built.spec.objects[locIndex]!;
  const locTop = ctx.state.objectPose(locIndex).pos[2] + locSpec.size[2] / 2;
  const g = ctx.state.grasps[ARM];
  // An empty hand (can_reach asked before a pick): the tool centre itself goes to the spot.
  if (!g) return { point: locationPoint(ctx, loc, locIndex), locTop, toolFor: (b) => [b[0], b[1], b[2]] };
  const tool = toolPose(ctx);
  const obj = ctx.state.objectPose(g.object);
  const spec = ctx.scene.built.spec.objects[g.object]!;
  // Tool frame now -> world at the carry orientation: v -> R (T^T v), T the tool's rotation now (row-major).
  const carry = (v: readonly number[]): number[] => {
    const rel = [0, 1, 2].map((i) => tool.R[i]! * v[0]! + tool.R[3 + i]! * v[1]! + tool.R[6 + i]! * v[2]!);
    return [0, 1, 2].map((i) => R[3 * i]! * rel[0]! + R[3 * i + 1]! * rel[1]! + R[3 * i + 2]! * rel[2]!);
  };
  const off = carry([0, 1, 2].map((k) => obj.pos[k]! - tool.pos[k]!));
  // How far the object reaches below its centre at the carry orientation: its axes' vertical parts.
  const O = quatToMat(obj.quat);
  const axisZ = (k: number) => carry([O[k]!, O[3 + k]!, O[6 + k]!])[2]!;
  const [hx, hy, hz] = spec.size.map((v) => v / 2) as [number, number, number];
  const cz = Math.abs(axisZ(2));
  const round = spec.shape === 'cylinder' || (spec.shape === 'compound' && Math.abs(spec.size[0] - spec.size[1]) < 1e-6);
  const below = spec.shape === 'sphere' ? hx : round ? hz * cz + hx * Math.sqrt(Math.max(0, 1 - cz * cz)) : hx * Math.abs(axisZ(0)) + hy * Math.abs(axisZ(1)) + hz * cz;
  const point = locationPoint(ctx, loc, locIndex, g.object);
  return { point, locTop, toolFor: (b) => [b[0] - off[0]!, b[1] - off[1]!, b[2] + below - off[2]!] };
}

/**
 * The tool orientation a carry ends in: kept (o > 0, the authors' yaw-only goal) or top-down at the current yaw; a
 * hand level and palm down, pointing from the base toward `toward` (the authors' 'top' orientation over a location).
 */
function carryOrientation(ctx: RobotApiContext, orientation: number, toward?: Vec3): number[] {
  const tool = toolPose(ctx);
  if (hasHand(ctx)) {
    const base = ctx.scene.arms[ARM]!.layout.spec.basePos;
    const at = toward ?? tool.pos;
    const yaw = Math.atan2(at[1] - base[1], at[0] - base[0]);
    if (orientation <= 0) return handLevelMat(yaw, 'top');
    // Kept: the hand's present rotation turned about the vertical until its fingers point from the base toward the
    // location. The tilt (what keeps a glass upright) is unchanged; keeping the heading too would ask a hand that took
    // a glass in front of the robot to reach a sink beside it pointing forward, which the iiwa cannot.
    const turn = yaw - Math.atan2(tool.R[5]!, tool.R[2]!);
    const c = Math.cos(turn);
    const s = Math.sin(turn);
    const r = tool.R;
    // Rz(turn) R, row-major.
    return [c * r[0]! - s * r[3]!, c * r[1]! - s * r[4]!, c * r[2]! - s * r[5]!, s * r[0]! + c * r[3]!, s * r[1]! + c * r[4]!, s * r[2]! + c * r[5]!, r[6]!, r[7]!, r[8]!];
  }
  if (orientation > 0) return tool.R;
  return topDownMat(ctx.state.tcp(ARM).yawRad);
}

/** Where place takes the tool: `above` (the first of PLACE_OFFSETS_M with an IK solution; null: none), then `release`. */
export interface PlacePoses {
  above: ToolTarget | null;
  /** The held object's bottom this far over the location's top at `above`. */
  aboveOffsetM: number | null;
  release: ToolTarget;
}

/** place's poses for what the hand holds now; can_reach asks the same for a location, so the two cannot disagree. */
export function placePoses(ctx: RobotApiContext, loc: LocationSpec, locIndex: number, orientation: number): PlacePoses {
  const R = carryOrientation(ctx, orientation, ctx.state.objectPose(locIndex).pos);
  const { point, locTop, toolFor } = releaseGeometry(ctx, loc, locIndex, R);
  const at = (z: number): ToolTarget => ({ pos: toolFor([point[0], point[1], z]), yawRad: 0, R });
  const aboveOffsetM = PLACE_OFFSETS_M.find((v) => solveToolTarget(ctx.arms[ARM]!, at(locTop + v)).sol?.converged) ?? null;
  return { above: aboveOffsetM === null ? null : at(locTop + aboveOffsetM), aboveOffsetM, release: at(point[2] + 0.005) };
}

export function place(ctx: RobotApiContext, loc: LocationSpec, locIndex: number, orientation: number, p: SkillParams, call: string): SimCallResult {
  if (!ctx.state.grasps[ARM]) return skill(ctx, call, heldObjects(ctx), p, (run) => run.lines.push(`${call}: nothing is held`));
  const allowed = heldObjects(ctx);
  return skill(ctx, call, allowed, p, (run) => {
    const held = ctx.state.grasps[ARM]!.object;
    const name = ctx.scene.objects[held]!.name;
    const { above, release } = placePoses(ctx, loc, locIndex, orientation);
    const ignore = new Set([held]);
    if (!above) {
      run.lines.push(`${call}: no IK solution above ${loc.name} at ${PLACE_OFFSETS_M.join(', ')} m; the arm did not move`);
      return;
    }
    const r1 = dsTo(ctx, run, above, call, settings(p, orientation, ignore));
    if (!r1 || r1.end === 'collision' || !ctx.state.grasps[ARM]) return;
    const r2 = dsTo(ctx, run, release, call, settings(p, orientation, ignore));
    if (!r2 || r2.end === 'collision' || !ctx.state.grasps[ARM]) return;
    letGo(ctx);
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
    const R = carryOrientation(ctx, 0, pose.pos);
    const { locTop, toolFor } = releaseGeometry(ctx, loc, locIndex, R);
    const r = dsTo(ctx, run, { pos: toolFor([pose.pos[0], pose.pos[1], locTop + DROP_ABOVE_M]), yawRad: 0, R }, call, settings(p, 0, new Set([held]), true));
    if (!r || r.end === 'collision' || !ctx.state.grasps[ARM]) return;
    letGo(ctx);
    run.lines.unshift(`${call}: let go of ${name} ${r.end === 'reached' ? 'over' : `${r.posErrM.toFixed(3)} m from the point over`} ${loc.name}`);
  });
}
