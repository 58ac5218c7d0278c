// MALMM's action space (Singh et al.): one top-down waypoint per execute_trajectory call, open/close of the
// gripper by name, and task_completed() (handled by the engine; listed here so it gets injected).
// execute_trajectory moves as RLBench's planner does (the paper: "trajectories are computed and executed using a
// motion planner, following the approach commonly used in RLBench"): the straight tool line when it is free, else
// a collision-free joint path (RRT-Connect) around what is in the way, the held object carried in the checks; a
// target that no collision-free path reaches fails the call without moving. `motion: 'straight'` keeps the
// straight line whatever it hits.
import { MALMM_API, MALMM_STRAIGHT_MOTION_DOC } from '../../../apis/malmm.js';
import type { ApiCallResult, ApiFunctionSpec } from '../../simulator.js';
import { fmtVec, REACH_TOL_M, type MotionRoute } from '../robot/armController.js';
import { pairsText, type ConfigCollision } from '../robot/configChecker.js';
import { jointPathThrough } from '../robot/motion.js';
import { MALMM_PLANNER, planMultiArm } from '../robot/multiArmPlanner.js';
import { callShapeError, finiteNumber, numberList, pyRepr, str } from './args.js';
import { heldObjects, okResult as result, settleObjects, watchCollisions, type RobotApi, type RobotApiContext, type SimCallResult } from './robotApi.js';

/** How execute_trajectory moves: around obstacles (default) or in a straight line through them. */
export type MotionMode = 'planned' | 'straight';
export const MOTION_MODES: readonly MotionMode[] = ['planned', 'straight'];

/** The functions as the agents see them in a motion mode (execute_trajectory says how it moves). */
export function malmmFunctions(motion: MotionMode): ApiFunctionSpec[] {
  return MALMM_API.map((f) => (f.name === 'execute_trajectory' && motion === 'straight' ? { ...f, doc: MALMM_STRAIGHT_MOTION_DOC } : f));
}

// The functions as the agents see them: defined once, in the handler-free catalog the language server reads too.
const FUNCTIONS = MALMM_API;

const ARM = 0;

export const malmmApi: RobotApi = {
  id: 'malmm',
  description: 'MALMM / RLBench-style end-effector API: single top-down waypoints plus open/close gripper.',
  functions: FUNCTIONS,
  measured: new Set(['execute_trajectory', 'open_gripper', 'close_gripper']),
  call(ctx, fn, args) {
    const shape = callShapeError(FUNCTIONS, fn, args);
    if (shape) return { ok: false, error: shape };
    switch (fn) {
      case 'execute_trajectory':
        return executeTrajectory(ctx, args[0], args[1]);
      case 'open_gripper':
        return openGripper(ctx);
      case 'close_gripper':
        return closeGripper(ctx, args[0]);
      default:
        // task_completed: the engine ends the episode; reaching the simulator is harmless.
        return { ok: true };
    }
  },
};

function executeTrajectory(ctx: RobotApiContext, position: unknown, orientation: unknown): SimCallResult {
  const pos = numberList('execute_trajectory', 'position', position, 3);
  if (!pos.ok) return pos;
  const yaw = finiteNumber('execute_trajectory', 'orientation', 'yaw in radians', orientation);
  if (!yaw.ok) return yaw;
  const target = { pos: pos.value as [number, number, number], yawRad: yaw.value };
  const arm = ctx.arms[ARM]!;
  const route = ctx.motion === 'straight' ? undefined : plannedRoute(ctx, target.pos, yaw.value);
  const w = watchCollisions(ctx, heldObjects(ctx), () => arm.moveTool(target, 'execute_trajectory', route));
  const out = w.value;
  if (!out.ok) return { ok: false, error: out.error, motionFailed: true };
  const warnings = [...(out.note ? [out.note] : []), ...w.warnings];
  if (out.yawFlipped) {
    warnings.push(
      `execute_trajectory: orientation ${yaw.value.toFixed(4)} was executed as ${out.reached.yawRad.toFixed(4)} (a half turn apart: the same grasp for the symmetric gripper; the wrist cannot turn further)`,
    );
  }
  if (out.posErrM > REACH_TOL_M) {
    warnings.push(`execute_trajectory: stopped ${out.posErrM.toFixed(4)} m from the target ${fmtVec(target.pos)}, at ${fmtVec(out.reached.pos)}`);
  }
  return result(warnings, w.collisions);
}

const depthText = (hits: readonly ConfigCollision[]) => hits.map((h) => `${h.a.trim()}-${h.b.trim()} (${(h.depthM * 1000).toFixed(1)} mm)`).join(', ');

/**
 * The planner's route for one waypoint: the straight path if no configuration along it collides (checked every
 * 0.02 rad, the held object carried, objects the arm holds and interactive ones allowed), else the joint line,
 * else RRT-Connect; a goal configuration that collides, or no path found, refuses the motion with the reason.
 */
function plannedRoute(ctx: RobotApiContext, pos: readonly number[], yawRad: number): MotionRoute {
  return (straight, qGoal) => {
    const qNow = ctx.scene.arms.map((_, a) => ctx.state.armQ(a));
    const goal = qNow.map((q, a) => (a === ARM ? qGoal : q));
    // The straight tool line's inner knots are the seeds: the planner's first choice is that polyline.
    const seeds = straight.kind === 'cartesian' ? straight.knots.slice(1, -1).map((k) => qNow.map((q, a) => (a === ARM ? k : q))) : [];
    const seed = 1 + Math.round(ctx.state.timeSecs * 1000);
    const plan = planMultiArm({ checker: ctx.checker, state: ctx.state, ranges: ctx.scene.arms.map((a) => a.layout.jointRanges), allowed: heldObjects(ctx) }, qNow, goal, seeds, seed, MALMM_PLANNER);
    const where = `${fmtVec(pos)} with yaw ${yawRad.toFixed(4)}`;
    if (!plan.ok) {
      const why =
        plan.reason === 'the goal configuration collides'
          ? `at the target the arm would collide: ${depthText(plan.collisions ?? [])}`
          : `${plan.reason}${plan.collisions ? ` (the straight path hits ${pairsText(plan.collisions)})` : ''}`;
      return { ok: false, error: `execute_trajectory: no collision-free path to ${where}: ${why}; the arm did not move` };
    }
    if (plan.kind === 'waypoints' || (plan.kind === 'straight' && straight.kind === 'joint')) return { ok: true, path: straight };
    const how = plan.kind === 'rrt' ? `${MALMM_PLANNER.name}, ${plan.iterations} iteration${plan.iterations === 1 ? '' : 's'}` : 'a straight line in joint space';
    const note = `execute_trajectory: the straight path to ${fmtVec(pos)} would hit ${pairsText(plan.blockedBy ?? [])}; the arm went around it (${how}, ${plan.checks} configurations checked)`;
    return { ok: true, path: jointPathThrough(ctx.scene.arms[ARM]!, plan.knots.map((k) => k[ARM]!)), note };
  };
}

function openGripper(ctx: RobotApiContext): ApiCallResult {
  const arm = ctx.arms[ARM]!;
  const w = watchCollisions(ctx, heldObjects(ctx), () => {
    arm.open();
    settleObjects(ctx, ARM);
  });
  return result(w.warnings, w.collisions);
}

function closeGripper(ctx: RobotApiContext, objectName: unknown): ApiCallResult {
  const name = str('close_gripper', 'object_name', objectName);
  if (!name.ok) return name;
  const object = ctx.scene.objects.findIndex((o) => o.name === name.value);
  if (object < 0) {
    return { ok: false, error: `close_gripper: no object named ${pyRepr(name.value)}; known: ${ctx.scene.objects.map((o) => o.name).join(', ')}` };
  }
  const arm = ctx.arms[ARM]!;
  const held = ctx.state.grasps[ARM];
  if (held) {
    const heldName = ctx.scene.objects[held.object]!.name;
    if (held.object === object) return { ok: true, output: `close_gripper: already holding ${heldName}` };
    return { ok: true, output: `close_gripper: nothing grasped; the gripper is holding ${heldName}` };
  }
  const allowed = heldObjects(ctx);
  allowed[ARM]!.add(object);
  const w = watchCollisions(ctx, allowed, () => arm.closeOn(object));
  const g = w.value;
  const lines = [...w.warnings];
  if (!g.grasped) {
    const others = g.touching.filter((o) => o !== object).map((o) => ctx.scene.objects[o]!.name);
    const why =
      g.fingers[0] || g.fingers[1]
        ? ` (only the ${g.fingers[0] ? 'left' : 'right'} finger touches ${name.value})`
        : others.length > 0
          ? ` (the fingers touch ${others.join(', ')}, not ${name.value})`
          : '';
    lines.push(`close_gripper: nothing grasped${why}`);
  }
  return result(lines, w.collisions);
}
