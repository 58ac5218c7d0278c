// LM Trajectory Generators' action space (Kwon et al.): detect_object(name) prints position, dimensions and yaw
// of every matching object or part; execute_trajectory(trajectory) follows a dense list of [x, y, z, yaw] poses
// (gripper pointing down; a fifth element 1/0 opens/closes the gripper where it changes); open_gripper() /
// close_gripper() take no object name; task_completed() ends the attempt (the engine handles it). task_failed() is
// not here: in the paper only the success detector has it, and it answers in text (agents/trajgen).
import type { ApiFunctionSpec } from '../sim/simulator.js';

export const LMTG_API: ApiFunctionSpec[] = [
  {
    name: 'detect_object',
    params: [{ name: 'object_or_object_part', type: 'str' }],
    signature: 'detect_object(object_or_object_part: str) -> None',
    doc:
      'Prints the position (centre, metres), dimensions (width = longer horizontal side, length = shorter, height) and the ' +
      'yaw of both horizontal sides of every object or object part matching the text, e.g. "red block", "cup", "handle", "rim of the red cup".',
  },
  {
    name: 'execute_trajectory',
    params: [{ name: 'trajectory', type: 'poses' }],
    signature: 'execute_trajectory(trajectory: list) -> None',
    doc:
      'Moves the end-effector through a dense list of poses [x, y, z, yaw] (metres, radians about z), gripper pointing down; ' +
      'a fifth element (1 open, 0 closed) sets the gripper where it changes. ' +
      'one point after the other (about 50 points per second: more points = slower). Every pose is checked first; an unreachable pose raises an error without moving.',
  },
  { name: 'open_gripper', params: [], signature: 'open_gripper() -> None', doc: 'Opens the gripper (0.08 m), releasing what it holds.' },
  { name: 'close_gripper', params: [], signature: 'close_gripper() -> None', doc: 'Closes the gripper, grasping whatever is between the fingers.' },
  { name: 'task_completed', params: [], signature: 'task_completed() -> None', doc: 'Call only once the task has been completed; the attempt ends and its result is judged.' },
];

/**
 * The lines of execution feedback the lmtg API prints (besides detect_object's report and argument errors): collisions,
 * grasp slips, close_gripper's result, execute_trajectory's yaw flips and shortfalls. One line each;
 * a simulator serving this API prints them in these forms, and the trajgen loop drops them by this pattern.
 */
export const EXECUTION_FEEDBACK_LINE =
  /^(?:collision: .+ <-> .+ at t=\d+\.\d\d s(?:, depth \d+\.\d mm)?|grasp: .+ slipped out of the gripper at t=\d+\.\d\d s|close_gripper: (?:grasped .+|nothing grasped|already holding .+)|execute_trajectory: (?:\d+ pose\(s\) were executed a half turn away in yaw .+|pose \d+ \[.+\] (?:unreachable|needs a joint jump) .+|stopped \d+\.\d{4} m from the last pose .+))$/;
