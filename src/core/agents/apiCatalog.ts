// Robot API functions per architecture, as the agents see them. Handler-free metadata: the language server
// (completion, hover) and webviews import this; the simulator implements the functions.
import type { ApiFunctionSpec } from '../sim/simulator.js';

export const MALMM_API: ApiFunctionSpec[] = [
  {
    name: 'execute_trajectory',
    params: [
      { name: 'position', type: 'vec3' },
      { name: 'orientation', type: 'float' },
    ],
    signature: 'execute_trajectory(position: list[float], orientation: float) -> None',
    doc: 'Move the end effector, gripper pointing down, to one waypoint [x, y, z] (metres, world frame) with yaw `orientation` (radians, about +z). A motion planner computes the path; the call returns when the motion ends.',
  },
  { name: 'open_gripper', params: [], signature: 'open_gripper() -> None', doc: 'Open the gripper, releasing any held object.' },
  {
    name: 'close_gripper',
    params: [{ name: 'object_name', type: 'str' }],
    signature: 'close_gripper(object_name: str) -> None',
    doc: 'Close the gripper to grasp the named object (a name from the current environment state). The fingers must be around the object.',
  },
  {
    name: 'task_completed',
    params: [],
    signature: 'task_completed() -> None',
    doc: 'Declare the task finished and stop the episode. Also call it after five consecutive errors.',
  },
];

/** Architecture id -> the API its generated code may call. Later issues add trajgen, actctx, roco. */
export const API_CATALOG: Record<string, ApiFunctionSpec[]> = {
  malmm: MALMM_API,
};

/** Handlebars helpers a Waypoint .prompt may use: dotprompt's built-ins plus Waypoint's `ablation` block. */
export const PROMPT_HELPERS: Record<string, string> = {
  role: 'Starts a message with the given role: {{role "system"}} / {{role "user"}}.',
  history: 'Inserts the conversation so far (the messages the engine passes to this role).',
  section: 'Marks a named section of the rendered prompt.',
  media: 'Inserts a media part (unused by the tabletop roles).',
  json: 'Serialises a value as JSON.',
  ifEquals: 'Block shown when two values are equal.',
  unlessEquals: 'Block shown when two values differ.',
  ablation:
    'Block shown when the ablation id is on in the active variant; otherwise its {{else}} part (or nothing). Usage: {{#ablation "id" label="..."}}...{{else}}...{{/ablation}}',
  if: 'Handlebars conditional block.',
  unless: 'Handlebars negated conditional block.',
  each: 'Handlebars loop over a list.',
  with: 'Handlebars context block.',
};
