// Where a RoCo action sends its robot's tool, as the stages every robot of a plan runs together:
//   approach  one pose, reached by the multi-arm planner (seeded by the robot's PATH): above a thing to pick or
//             a place to put it, a MOVE's point, the start of a sweep;
//   contact   straight tool lines after the approach: down to the grasp or release, a push, a tilt, a door's arc;
//   grip      'close' (grasp the named object) or 'open' (release);
//   depart    straight lines away: lift, back up.
// PICK grasps the object (top-down; a suction cup presses on its top), PLACE releases the held object on its
// target (a location's surface or floor, or the top of another object), MOVE goes to a point (or 10 cm above an
// object), WAIT stays. Tasks add their own verbs (SWEEP, DUMP, OPEN) through `verbGoal`. Shared by the plan
// checks and the executor.
import type { ToolTarget } from '../../robot/ik.js';
import type { Vec3 } from '../../scene/sceneSpec.js';
import { quatConj, quatMul, quatRotate, quatToMat } from '../../math3.js';
import type { Quat } from '../../simState.js';
import { graspPlan, locationPoint } from '../actctx/graspPoses.js';
import type { RobotApiContext } from '../robotApi.js';
import type { RocoAction } from './planParser.js';

export interface RocoGoal {
  /** The tool pose the action's main motion ends at (grasp, release, move point). */
  target: ToolTarget;
  /** The approach pose (10 cm above the target for PICK and PLACE), or null when the action has none. */
  above: ToolTarget | null;
  /** The point checked against the robot's reach zone. */
  zonePoint: Vec3;
  contact: ToolTarget[];
  grip: 'close' | 'open' | null;
  depart: ToolTarget[];
  /** The object a PICK grasps (its index), for the grip stage. */
  graspObject?: number;
  /** A PICK of what another arm holds (a handover): that arm lets go and backs its hand off; the taker stays. */
  handoverFrom?: number;
}

/** How far a handover's giver backs its open hand off the object, along its tool axis. */
export const HANDOVER_RETREAT_M = 0.1;

/** How far a picked object is lifted straight up after the grasp. */
export const LIFT_M = 0.12;

export function objectIndex(ctx: RobotApiContext, name: string): number {
  return ctx.scene.objects.findIndex((o) => o.name === name);
}

const up = (t: ToolTarget, dz: number): ToolTarget => ({ ...t, pos: [t.pos[0], t.pos[1], t.pos[2] + dz] });

/** The approach pose of a goal: where the multi-arm planner takes the robot (null: the robot's arm stays). */
export function approachOf(g: RocoGoal): ToolTarget | null {
  return g.above;
}

/** The goal of an action for robot `arm`; `held` is the object the robot will be holding (PLACE). */
export function rocoGoal(ctx: RobotApiContext, arm: number, a: RocoAction, held: number | null): RocoGoal {
  const tcp = ctx.state.tcp(arm);
  // A task may give a verb its own meaning (Sweep Floor's MOVE brings the held tool to the cube).
  const own = a.verb !== 'WAIT' ? ctx.task?.multiArm?.verbs?.[a.verb] : undefined;
  if (own) return own.goal(ctx, arm, a);
  const still = { contact: [], grip: null, depart: [] };
  if (a.verb === 'WAIT') return { target: { pos: tcp.pos, yawRad: tcp.yawRad }, above: null, zonePoint: tcp.pos, ...still };
  if (a.verb === 'MOVE') {
    let p: Vec3;
    if (a.point) p = a.point;
    else {
      const i = objectIndex(ctx, a.target!);
      const o = ctx.state.objectPose(i).pos;
      p = [o[0], o[1], o[2] + ctx.scene.built.spec.objects[i]!.size[2] / 2 + 0.1];
    }
    const t: ToolTarget = { pos: p, yawRad: tcp.yawRad };
    return { target: t, above: t, zonePoint: p, ...still };
  }
  if (a.verb === 'PICK') {
    const obj = objectIndex(ctx, a.object!);
    const plan = graspPlan(ctx, obj, 'top', arm);
    // A handover: the taker holds still while the giver's open hand backs off; lifting would drag the object
    // through the giver's fingers (with friction grasps, out of the taker's).
    const holder = ctx.state.grasps.findIndex((g, k) => k !== arm && g?.object === obj);
    const handover = holder >= 0 ? { handoverFrom: holder } : {};
    return { target: plan.grasp, above: plan.pre, zonePoint: plan.grasp.pos, contact: [plan.grasp], grip: 'close', depart: holder >= 0 ? [] : [up(plan.grasp, LIFT_M)], graspObject: obj, ...handover };
  }
  if (a.verb === 'PLACE') {
    // The held object's bottom onto the target, keeping the current yaw.
    const ti = objectIndex(ctx, a.target!);
    const loc = ctx.task?.locations?.find((l) => l.name === a.target);
    const heldIdx = held ?? objectIndex(ctx, a.object!);
    const spec = ctx.scene.built.spec.objects[heldIdx]!;
    const pose = ctx.state.objectPose(heldIdx);
    const g = ctx.state.grasps[arm];
    // Tool height above the object's bottom: from the grasp if held now, else the planned top-down grasp.
    const hang = g && g.object === heldIdx ? tcp.pos[2] - (pose.pos[2] - spec.size[2] / 2) : graspPlan(ctx, heldIdx, 'top', arm).grasp.pos[2] - (pose.pos[2] - spec.size[2] / 2);
    let surface: Vec3;
    if (loc) {
      surface = locationPoint(ctx, loc, ti, heldIdx, arm);
      // A PATH ending over the location's inner area chooses the spot (RoCo's agents pick a slot of the bin).
      const last = a.path[a.path.length - 1];
      const lp = ctx.state.objectPose(ti).pos;
      const ls = ctx.scene.built.spec.objects[ti]!.size;
      const margin = (loc.wallM ?? 0) + Math.min(spec.size[0], spec.size[1]) / 2;
      if (!loc.single && last && Math.abs(last[0] - lp[0]) <= ls[0] / 2 - margin && Math.abs(last[1] - lp[1]) <= ls[1] / 2 - margin) surface = [last[0], last[1], surface[2]];
    } else {
      const t = ctx.state.objectPose(ti).pos;
      surface = [t[0], t[1], t[2] + ctx.scene.built.spec.objects[ti]!.size[2] / 2];
    }
    // The object's centre (not the tool) goes over the surface point: a long thing held by one end is shifted.
    const [ox, oy] = g && g.object === heldIdx ? [pose.pos[0] - tcp.pos[0], pose.pos[1] - tcp.pos[1]] : [0, 0];
    const target: ToolTarget = { pos: [surface[0] - ox, surface[1] - oy, surface[2] + hang + 0.005 + (loc?.dropM ?? 0)], yawRad: tcp.yawRad };
    const above: ToolTarget = { ...target, pos: [target.pos[0], target.pos[1], surface[2] + hang + 0.1] };
    return { target, above, zonePoint: surface, contact: [target], grip: 'open', depart: [above] };
  }
  throw new Error(`RoCo: no goal for the action ${a.verb}`);
}

/**
 * The tool pose that puts the object `arm` holds at (pos, quat): the grasp fixes the object in the hand, so the
 * hand is the object pose times the inverse of the grasp, and the tool centre point sits at `tcpInHand` in it.
 */
export function toolForObjectPose(ctx: RobotApiContext, arm: number, pos: Vec3, quat: Quat): ToolTarget {
  const g = ctx.state.grasps[arm];
  if (!g) throw new Error(`arm ${arm} holds nothing`);
  const hq = quatMul(quat, quatConj(g.relQuat));
  const off = quatRotate(hq, g.relPos);
  const hand: Vec3 = [pos[0] - off[0], pos[1] - off[1], pos[2] - off[2]];
  const t = quatRotate(hq, ctx.scene.arms[arm]!.layout.tcpInHand);
  return { pos: [hand[0] + t[0], hand[1] + t[1], hand[2] + t[2]], yawRad: 0, R: Array.from(quatToMat(hq)) };
}
