// Where a RoCo action sends its robot's tool: PICK grasps the object (top-down), PLACE releases the held object
// on its target (a location's surface or floor, or the top of another object: stacking), MOVE goes to a point
// (or 10 cm above an object), WAIT stays. Shared by the plan checks and the executor.
import type { ToolTarget } from '../../robot/ik.js';
import type { Vec3 } from '../../scene/sceneSpec.js';
import { graspPlan, locationPoint } from '../actctx/graspPoses.js';
import type { RobotApiContext } from '../robotApi.js';
import type { RocoAction } from './planParser.js';

export interface RocoGoal {
  /** The tool pose the action ends its main motion at (grasp, release, move point). */
  target: ToolTarget;
  /** 10 cm above it (PICK, PLACE), or null. */
  above: ToolTarget | null;
  /** The point checked against the robot's reach zone. */
  zonePoint: Vec3;
}

export function objectIndex(ctx: RobotApiContext, name: string): number {
  return ctx.scene.objects.findIndex((o) => o.name === name);
}

/** The goal of an action for robot `arm`; `held` is the object the robot will be holding (PLACE). */
export function rocoGoal(ctx: RobotApiContext, arm: number, a: RocoAction, held: number | null): RocoGoal {
  const tcp = ctx.state.tcp(arm);
  if (a.verb === 'WAIT') return { target: { pos: tcp.pos, yawRad: tcp.yawRad }, above: null, zonePoint: tcp.pos };
  if (a.verb === 'MOVE') {
    if (a.point) return { target: { pos: a.point, yawRad: tcp.yawRad }, above: null, zonePoint: a.point };
    const o = ctx.state.objectPose(objectIndex(ctx, a.target!)).pos;
    const top = o[2] + ctx.scene.built.spec.objects[objectIndex(ctx, a.target!)]!.size[2] / 2;
    const p: Vec3 = [o[0], o[1], top + 0.1];
    return { target: { pos: p, yawRad: tcp.yawRad }, above: null, zonePoint: p };
  }
  if (a.verb === 'PICK') {
    const plan = graspPlan(ctx, objectIndex(ctx, a.object!), 'top', arm);
    return { target: plan.grasp, above: plan.pre, zonePoint: plan.grasp.pos };
  }
  // PLACE: the held object's bottom onto the target, keeping the current yaw.
  const ti = objectIndex(ctx, a.target!);
  const loc = ctx.task?.locations?.find((l) => l.name === a.target);
  const heldIdx = held ?? objectIndex(ctx, a.object!);
  const spec = ctx.scene.built.spec.objects[heldIdx]!;
  const pose = ctx.state.objectPose(heldIdx);
  const g = ctx.state.grasps[arm];
  // Tool height above the object's bottom: from the grasp if held now, else the planned top-down grasp.
  const hang = g && g.object === heldIdx ? tcp.pos[2] - (pose.pos[2] - spec.size[2] / 2) : graspPlan(ctx, heldIdx, 'top', arm).grasp.pos[2] - (pose.pos[2] - spec.size[2] / 2);
  let surface: Vec3;
  if (loc) surface = locationPoint(ctx, loc, ti, heldIdx, arm);
  else {
    const t = ctx.state.objectPose(ti).pos;
    surface = [t[0], t[1], t[2] + ctx.scene.built.spec.objects[ti]!.size[2] / 2];
  }
  // The object's centre (not the tool) goes over the surface point: a long thing held by one end is shifted.
  const [ox, oy] = g && g.object === heldIdx ? [pose.pos[0] - tcp.pos[0], pose.pos[1] - tcp.pos[1]] : [0, 0];
  const target: ToolTarget = { pos: [surface[0] - ox, surface[1] - oy, surface[2] + hang + 0.005], yawRad: tcp.yawRad };
  return { target, above: { ...target, pos: [target.pos[0], target.pos[1], surface[2] + hang + 0.1] }, zonePoint: surface };
}
