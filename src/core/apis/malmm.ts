// MALMM's action space (Singh et al.): one top-down waypoint per execute_trajectory call, open/close of the gripper
// by name, and task_completed() (handled by the engine; listed so it is injected). The tabletop simulator serves
// exactly these specs, so prompts, hovers and the sandbox's argument checks agree.
import type { ApiFunctionSpec } from '../sim/simulator.js';

export const MALMM_API: ApiFunctionSpec[] = [
  {
    name: 'execute_trajectory',
    params: [
      { name: 'position', type: 'list[float]' },
      { name: 'orientation', type: 'float' },
    ],
    signature: 'execute_trajectory(position: list[float], orientation: float) -> None',
    doc:
      'Moves the end-effector (the point between the fingertips) to position [x, y, z] in metres, gripper pointing down, ' +
      'rotated by orientation radians about the z axis. A motion planner computes the path: a straight line when it is free, otherwise a ' +
      'collision-free path around obstacles (a held object included). Unreachable targets, and targets no collision-free path reaches, ' +
      'raise an error without moving.',
  },
  {
    name: 'open_gripper',
    params: [],
    signature: 'open_gripper() -> None',
    doc: 'Opens the gripper (0.08 m between the fingers), releasing any grasped object.',
  },
  {
    name: 'close_gripper',
    params: [{ name: 'object_name', type: 'str' }],
    signature: 'close_gripper(object_name: str) -> None',
    doc: 'Closes the gripper. If the named object is between the fingers it is grasped; otherwise the fingers close on nothing.',
  },
  {
    name: 'task_completed',
    params: [],
    signature: 'task_completed() -> None',
    // Giving up after repeated errors is the Coder prompt's rule (ablation coder.five_error_stop), not part of the function.
    doc: 'Call only when the task has been completed. Ends the episode.',
  },
];

/** execute_trajectory's description when the simulator moves in straight lines (`--motion straight`). */
export const MALMM_STRAIGHT_MOTION_DOC =
  'Moves the end-effector (the point between the fingertips) to position [x, y, z] in metres, gripper pointing down, ' +
  'rotated by orientation radians about the z axis. The end-effector moves in a straight line to the target (a straight line in joint space where ' +
  'that line cannot be followed); the path does not go around obstacles. Unreachable targets raise an error without moving.';
