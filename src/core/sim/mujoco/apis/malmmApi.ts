// MALMM's action space (Singh et al.): one top-down waypoint per execute_trajectory call, open/close of the
// gripper by name, and task_completed() (handled by the engine; listed here so it gets injected).
import { MALMM_API } from '../../../apis/catalog.js';
import type { ApiCallResult } from '../../simulator.js';
import { fmtVec, REACH_TOL_M } from '../robot/armController.js';
import { callShapeError, finiteNumber, numberList, pyRepr, str } from './args.js';
import { heldObjects, okResult as result, settleObjects, watchCollisions, type RobotApi, type RobotApiContext, type SimCallResult } from './robotApi.js';

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
  const w = watchCollisions(ctx, heldObjects(ctx), () => arm.moveTool(target, 'execute_trajectory'));
  const out = w.value;
  if (!out.ok) return { ok: false, error: out.error, motionFailed: true };
  const warnings = [...w.warnings];
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
