// Action Contextualization's interface (Tables I-III of the paper): skills approach/pick/place/drop with their
// positional argument orders, and the checks the evaluation plans call. Checks return values (bool, or a label
// for collision_free).
import type { ApiFunctionSpec } from '../sim/simulator.js';

const SPEED = { name: 'speed', type: 'float' as const };
const CLEAR = { name: 'obstacle_clearance', type: 'float' as const };

export const ACTCTX_API: ApiFunctionSpec[] = [
  {
    name: 'approach',
    params: [{ name: 'object_to_grasp', type: 'str' }, SPEED, CLEAR, { name: 'grasp', type: 'str' }],
    signature: 'approach(object_to_grasp: str, speed: float, obstacle_clearance: float, grasp: str) -> None',
    doc: "Moves the gripper close to object_to_grasp (0.1 m away, above it for grasp='top', beside it for 'side') so that it is within reach.",
  },
  {
    name: 'pick',
    params: [{ name: 'object_to_grasp', type: 'str' }, SPEED, CLEAR, { name: 'grasp', type: 'str' }],
    signature: 'pick(object_to_grasp: str, speed: float, obstacle_clearance: float, grasp: str) -> None',
    doc: 'Grasps object_to_grasp (from the top or the side) and lifts it, if it is close enough.',
  },
  {
    name: 'place',
    params: [{ name: 'location', type: 'str' }, { name: 'orientation', type: 'float' }, SPEED, CLEAR],
    signature: 'place(location: str, orientation: float, speed: float, obstacle_clearance: float) -> None',
    doc: 'Puts the grasped object down at the location and releases it. orientation in [0, 1]: how strictly to keep the object as it is on the way.',
  },
  {
    name: 'drop',
    params: [{ name: 'location', type: 'str' }, SPEED, CLEAR],
    signature: 'drop(location: str, speed: float, obstacle_clearance: float) -> None',
    doc: 'Releases the grasped object over the location.',
  },
  { name: 'can_grasp', params: [{ name: 'object', type: 'str' }, { name: 'grasp', type: 'str', optional: true }], signature: "can_grasp(object: str, grasp: str = 'top') -> bool", doc: 'True if the gripper is close to the object and the grasp pose is reachable and free.' },
  { name: 'holding', params: [], signature: 'holding() -> bool', doc: 'True if the gripper holds an object.' },
  { name: 'at_location', params: [{ name: 'object', type: 'str' }, { name: 'location', type: 'str' }], signature: 'at_location(object: str, location: str) -> bool', doc: 'True if the object is in (or on) the location.' },
  { name: 'collision_free', params: [], signature: 'collision_free() -> str', doc: "The label of what the robot collided with in the preceding action, or '' if nothing." },
  { name: 'timeout', params: [], signature: 'timeout() -> bool', doc: `True if the preceding action finished within its time limit.` },
  { name: 'check_motion_health', params: [], signature: 'check_motion_health() -> bool', doc: 'True if the preceding action\'s motion score M_T (dexterity + clearance) is positive.' },
  { name: 'can_reach', params: [{ name: 'goal', type: 'str' }, { name: 'grasp', type: 'str', optional: true }], signature: "can_reach(goal: str, grasp: str = 'top') -> bool", doc: 'True if an inverse-kinematics solution exists for the goal (an object to grasp or a location).' },
  { name: 'task_completed', params: [], signature: 'task_completed() -> None', doc: 'Call when the plan has been carried out.' },
];
