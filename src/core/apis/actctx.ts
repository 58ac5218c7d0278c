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
    doc: "Moves the robot close to 'object_to_grasp' so that the object is within the robot's reach.",
  },
  {
    name: 'pick',
    params: [{ name: 'object_to_grasp', type: 'str' }, SPEED, CLEAR, { name: 'grasp', type: 'str' }],
    signature: 'pick(object_to_grasp: str, speed: float, obstacle_clearance: float, grasp: str) -> None',
    doc: "Makes the robot pick up 'object_to_grasp', if it is close enough.",
  },
  {
    name: 'place',
    params: [{ name: 'location', type: 'str' }, { name: 'orientation', type: 'float' }, SPEED, CLEAR],
    signature: 'place(location: str, orientation: float, speed: float, obstacle_clearance: float) -> None',
    doc: "Puts the grasped object on, at or in 'location' and lets go of it. Using 'approach' right before it is not advised.",
  },
  {
    name: 'drop',
    params: [{ name: 'location', type: 'str' }, SPEED, CLEAR],
    signature: 'drop(location: str, speed: float, obstacle_clearance: float) -> None',
    doc: "Goes to 'location' and lets go of the grasped object above it. Using 'approach' right before it is not advised.",
  },
  { name: 'can_grasp', params: [{ name: 'object', type: 'str' }, { name: 'grasp', type: 'str', optional: true }], signature: "can_grasp(object: str, grasp: str = 'top') -> bool", doc: "Returns True if the robot is close enough to 'object' to grasp it securely with the 'top' or 'side' grasp." },
  { name: 'holding', params: [], signature: 'holding() -> bool', doc: 'Returns True if the robot is holding an object.' },
  { name: 'at_location', params: [{ name: 'object', type: 'str' }, { name: 'location', type: 'str' }], signature: 'at_location(object: str, location: str) -> bool', doc: "Returns True if 'object' is at 'location'." },
  { name: 'collision_free', params: [], signature: 'collision_free() -> str', doc: "If the robot hit something during the preceding action, returns its label; otherwise ''." },
  { name: 'timeout', params: [], signature: 'timeout() -> bool', doc: 'Returns True if the preceding action finished in good time.' },
  { name: 'check_motion_health', params: [], signature: 'check_motion_health() -> bool', doc: "Returns True if the robot's motion during the preceding action was safe for its hardware." },
  { name: 'can_reach', params: [{ name: 'goal', type: 'str' }, { name: 'grasp', type: 'str', optional: true }], signature: "can_reach(goal: str, grasp: str = 'top') -> bool", doc: "Returns True if the robot can reach 'goal' (an object or a location) from where it is now, from the side given by 'grasp'; anything outside the workspace gives False." },
  { name: 'task_completed', params: [], signature: 'task_completed() -> None', doc: 'Call when the plan has been carried out.' },
];
