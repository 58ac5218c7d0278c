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
    // The paper's description (Fig. 9): what the function takes, not how the robot moves. How ours moves is the
    // prompts' `api.motion_notes` addition, off by default.
    doc: 'Executes the trajectory of the robot arm end-effector for a position and an orientation: a list of 3 position values and one float orientation value.',
  },
  {
    name: 'open_gripper',
    params: [],
    signature: 'open_gripper() -> None',
    doc: 'Opens the gripper.',
  },
  {
    name: 'close_gripper',
    params: [{ name: 'object_name', type: 'str' }],
    signature: 'close_gripper(object_name: str) -> None',
    doc: 'Closes the gripper; takes the name of the object as input.',
  },
  {
    name: 'task_completed',
    params: [],
    signature: 'task_completed() -> None',
    // Giving up after repeated errors is the Coder prompt's rule (ablation coder.five_error_stop), not part of the function.
    doc: 'Call only when the task has been completed.',
  },
];

/** execute_trajectory's description when the simulator moves in straight lines (`--motion straight`). */
export const MALMM_STRAIGHT_MOTION_DOC =
  'Moves the end-effector (the point between the fingertips) to position [x, y, z] in metres, gripper pointing down, ' +
  'rotated by orientation radians about the z axis. The end-effector moves in a straight line to the target (a straight line in joint space where ' +
  'that line cannot be followed); the path does not go around obstacles. Unreachable targets raise an error without moving.';
