// Action Contextualization's checks (Table III and Appendix A of the paper), evaluated on ground truth. Each
// returns a value (bool, or the collided label for collision_free) and prints `check(args) -> value (why)`.
// Definitions (paper first; the authors' code where the paper is silent or cannot work as written):
//   can_grasp(object, grasp)  the paper: gripper-object distance under obstacle_clearance. The approach pose stops
//                             short of the object by a fixed stand-off (the authors' code therefore allows
//                             clearance + 0.5 m); here: the hand or fingers within the preceding skill's clearance
//                             + CAN_GRASP_MARGIN_M (the stand-off plus 1 cm), and, as in the authors' code, a mock
//                             pick finds an IK solution for the grasp pose; or the hand already holds it.
//   holding()                 the paper: at least two finger contacts with the held object (both pads touch it).
//   at_location(obj, loc)     the paper: the smallest distance between the object's and the location's geometry is
//                             under 10 cm ('robot' as the location: the hand holds it, as in the authors' code).
//                             Looser than the task's own success check (inside / resting on), as in the paper.
//   collision_free()          the label of the first thing the arm touched during the preceding skill (the held
//                             object and a pick's target do not count), '' if nothing (the paper's prompt).
//   timeout()                 True unless a controller run of the preceding skill hit DS_TIMEOUT_SECS (the authors'
//                             TIMEOUT of 300 s, scaled to this controller's speed: 40 s).
//   check_motion_health()     the paper's Check 5: the preceding action's M_T > 0 and finite.
//   can_reach(goal, grasp)    the paper: an IK solution exists from the current configuration: for an object its
//                             grasp pose; for a location the pose place goes to first (placePoses: what the hand
//                             holds with its bottom 0.3, 0.2 or 0.1 m over the location's top, top-down, i.e.
//                             orientation 0; the tool centre there when the hand is empty).
import type { DoubleBuffer } from 'mujoco-js';
import { boxBoxDistance } from '../../boxDistance.js';
import { fingerContacts } from '../../robot/gripper.js';
import { DS_TIMEOUT_SECS } from '../../robot/jointDs.js';
import { solveToolTarget } from '../../robot/skillMotion.js';
import { inside, localOf, type ViewObject } from '../../tasks/checks.js';
import type { LocationSpec } from '../../tasks/taskDefinition.js';
import type { RobotApiContext, SimCallResult } from '../robotApi.js';
import { graspPlan, type GraspKind } from './graspPoses.js';
import { APPROACH_OFFSET_M, PLACE_OFFSETS_M, placePoses, type LastSkill } from './skills.js';

const ARM = 0;
/** can_grasp: how much farther than the clearance the hand may be (the approach stand-off plus 1 cm). */
export const CAN_GRASP_MARGIN_M = APPROACH_OFFSET_M + 0.01;
/** at_location: object-location distance under this (the paper's 10 cm). */
export const AT_LOCATION_M = 0.1;
/** can_grasp before any skill: the default clearance of the authors' controller. */
const DEFAULT_CLEARANCE_M = 0.02;
const GEOM_BOX = 6;

function py(v: boolean | string): string {
  return typeof v === 'boolean' ? (v ? 'True' : 'False') : `'${v}'`;
}

export function checkResult(call: string, value: boolean | string, why?: string): SimCallResult {
  return { ok: true, value, output: `${call} -> ${py(value)}${why ? ` (${why})` : ''}` };
}

function last(ctx: RobotApiContext): LastSkill | null {
  return (ctx.memory['last'] as LastSkill | undefined) ?? null;
}

/** Smallest distance between two sets of geoms (boxes exactly, the rest through mj_geomDistance), capped at `capM`. */
function geomSetDistance(ctx: RobotApiContext, a: readonly number[], b: readonly number[], capM: number): number {
  const { mj, model } = ctx.scene;
  const d = ctx.state.data;
  const type = model.geom_type as Int32Array;
  const size = model.geom_size as Float64Array;
  const xpos = d.geom_xpos as Float64Array;
  const xmat = d.geom_xmat as Float64Array;
  const box = (g: number) => ({ c: xpos.subarray(3 * g, 3 * g + 3), R: xmat.subarray(9 * g, 9 * g + 9), h: size.subarray(3 * g, 3 * g + 3) });
  let best = capM;
  for (const g of a)
    for (const h of b) {
      const dist = type[g] === GEOM_BOX && type[h] === GEOM_BOX ? boxBoxDistance(box(g), box(h)) : mj.mj_geomDistance(model, d, g, h, best, null as unknown as DoubleBuffer);
      best = Math.min(best, dist);
    }
  return best;
}

function handGeoms(ctx: RobotApiContext): number[] {
  const m = ctx.scene.model;
  const bodyOf = m.geom_bodyid as Int32Array;
  const arm = ctx.scene.arms[ARM]!;
  const hand = new Set<number>([arm.handBody]);
  const g = arm.gripper;
  if (g.kind === 'parallel') for (let k = 0; k < 2; k++) hand.add(arm.bodyIds[arm.bodyIds.length - 2 + k]!);
  else hand.add(g.body);
  const contype = m.geom_contype as Int32Array;
  const out: number[] = [];
  for (let g = 0; g < m.ngeom; g++) if (hand.has(bodyOf[g]!) && contype[g]! !== 0) out.push(g);
  return out;
}

function solidGeoms(ctx: RobotApiContext, object: number): number[] {
  const contype = ctx.scene.model.geom_contype as Int32Array;
  const conaff = ctx.scene.model.geom_conaffinity as Int32Array;
  return ctx.scene.objects[object]!.geoms.filter((g) => contype[g]! !== 0 || conaff[g]! !== 0);
}

/** A mock pick: does the grasp pose have an IK solution from here? */
function graspReachable(ctx: RobotApiContext, object: number, grasp: GraspKind): boolean {
  return solveToolTarget(ctx.arms[ARM]!, graspPlan(ctx, object, grasp).grasp).sol?.converged === true;
}

export function canGrasp(ctx: RobotApiContext, object: number, grasp: GraspKind, call: string): SimCallResult {
  const g = ctx.state.grasps[ARM];
  if (g && g.object === object) return checkResult(call, true, 'holding it');
  const clearance = last(ctx)?.clearanceM ?? DEFAULT_CLEARANCE_M;
  const limit = clearance + CAN_GRASP_MARGIN_M;
  const d = geomSetDistance(ctx, handGeoms(ctx), solidGeoms(ctx, object), 1);
  if (d > limit) return checkResult(call, false, `the hand is ${d.toFixed(3)} m from it; within ${limit.toFixed(3)} m is close enough`);
  if (!graspReachable(ctx, object, grasp)) return checkResult(call, false, `no IK solution for a ${grasp} grasp`);
  return checkResult(call, true, `the hand is ${d.toFixed(3)} m from it`);
}

export function holding(ctx: RobotApiContext, call: string): SimCallResult {
  const g = ctx.state.grasps[ARM];
  if (!g) return checkResult(call, false, 'nothing in the hand');
  const [l, r] = fingerContacts(ctx.state, ARM, g.object);
  const name = ctx.scene.objects[g.object]!.name;
  return checkResult(call, l && r, l && r ? name : `only ${l ? 'the left' : r ? 'the right' : 'no'} finger touches ${name}`);
}

export function atLocation(ctx: RobotApiContext, object: number, loc: LocationSpec | 'robot', locIndex: number, call: string): SimCallResult {
  if (loc === 'robot') {
    const g = ctx.state.grasps[ARM];
    return checkResult(call, g?.object === object, g ? `the hand holds ${ctx.scene.objects[g.object]!.name}` : 'nothing in the hand');
  }
  const d = geomSetDistance(ctx, solidGeoms(ctx, object), solidGeoms(ctx, locIndex), 1);
  return checkResult(call, d < AT_LOCATION_M, `${Math.max(0, d).toFixed(3)} m apart`);
}

/** In a container (inside its walls, below its rim) or resting on a surface's top (within its footprint): the tasks' success check. */
export function objectAtLocation(o: ViewObject, place: ViewObject, loc: LocationSpec): boolean {
  if (loc.kind === 'container') return inside(o, place, loc.wallM ?? 0.01);
  const l = localOf(o.pos, place);
  const top = place.size[2] / 2;
  return Math.abs(l[0]) <= place.size[0] / 2 && Math.abs(l[1]) <= place.size[1] / 2 && Math.abs(l[2] - o.size[2] / 2 - top) < 0.02;
}

export function collisionFree(ctx: RobotApiContext, call: string): SimCallResult {
  const l = last(ctx);
  return checkResult(call, l?.collided[0] ?? '', l && l.collided.length > 1 ? `also ${l.collided.slice(1).join(', ')}` : undefined);
}

export function timeout(ctx: RobotApiContext, call: string): SimCallResult {
  const l = last(ctx);
  const ok = !l || !l.timedOut;
  return checkResult(call, ok, l ? `${l.action} took ${l.durationSecs.toFixed(2)} s${l.timedOut ? `; a controller run hit ${DS_TIMEOUT_SECS} s` : ''}` : 'no action yet');
}

export function motionHealth(ctx: RobotApiContext, call: string): SimCallResult {
  const m = ctx.actionMetrics[ctx.actionMetrics.length - 1];
  if (!m) return checkResult(call, false, 'no action yet');
  const ok = m.mT > 0 && Number.isFinite(m.mT);
  return checkResult(call, ok, `motion score ${m.mT.toFixed(4)} = M_I ${m.mI.toFixed(4)} + M_E ${m.mE.toFixed(4)}`);
}

export function canReach(ctx: RobotApiContext, goal: { object: number } | { loc: LocationSpec; index: number }, grasp: GraspKind, call: string): SimCallResult {
  if ('object' in goal) {
    const ok = graspReachable(ctx, goal.object, grasp);
    return checkResult(call, ok, ok ? undefined : `no IK solution for a ${grasp} grasp`);
  }
  const { aboveOffsetM } = placePoses(ctx, goal.loc, goal.index, 0);
  const what = ctx.state.grasps[ARM] ? `${ctx.scene.objects[ctx.state.grasps[ARM]!.object]!.name}'s bottom` : 'the tool';
  return aboveOffsetM === null
    ? checkResult(call, false, `no IK solution for placing there (${what} ${PLACE_OFFSETS_M.join(', ')} m over ${goal.loc.name})`)
    : checkResult(call, true, `${what} ${aboveOffsetM} m over ${goal.loc.name}`);
}
