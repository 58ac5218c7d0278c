// MALMM's declarations (Singh et al.): roles, the paper's topologies (Table II), limits and end reasons.
import type { Picoschema } from '../../core/prompt/schema.js';
import type { ArchitectureManifest } from '../../core/architecture/types.js';

// What the loop passes each role's prompt (loop.ts builds them once per episode); SA gets all of them.
const SUPERVISOR_VARS: Picoschema = { task: 'string', ee_position: 'string', ee_yaw: 'string', state: 'string' };
const PLANNER_VARS: Picoschema = { task: 'string', table_top_z: 'string', x_range: 'string', y_range: 'string', axes: 'string' };
const CODER_VARS: Picoschema = { 'api(array)': { signature: 'string', doc: 'string' } };

/**
 * Our additions to the paper's MALMM, each a named ablation that is off unless a variant turns it on (the
 * `waypoint` variant turns on all of them). Prompt additions are `{{#ablation "id" default="off"}}` blocks; the
 * others change text the loop builds in code. docs/malmm.md says what each adds and why it is not the paper's.
 */
export const MALMM_WAYPOINT_ADDITIONS = {
  'supervisor.routing_hints': 'Supervisor prompt: HOW TO ROUTE rules (the paper leaves routing to the model).',
  'planner.task_line': "Planner prompt: the task sentence (the paper's Planner prompt is static; the task arrives in the chat).",
  'planner.completion_hint': 'Planner prompt: "when the task is done, ask the Coder to call task_completed()".',
  'executor.state_header': 'Executor reply: a "Current environment state:" header before the state dump.',
  'executor.sim_notes': "Executor reply: the simulator's notes in the code output (collisions, reach shortfalls, missed grasps).",
  'state.ee_details': "State dump: the end effector's yaw and gripper lines (the paper prints position and grasp only).",
} as const;
export type MalmmAddition = keyof typeof MALMM_WAYPOINT_ADDITIONS;

/** Whether one of our additions is on: only when the variant turns it on. */
export function waypointAddition(ablations: Readonly<Record<string, boolean>>, id: MalmmAddition): boolean {
  return ablations[id] === true;
}

export const MALMM_MANIFEST: ArchitectureManifest = {
  id: 'malmm',
  label: 'MALMM',
  description: 'Supervisor routes a group chat between a Planner, a Coder and a code Executor (Singh et al.).',
  paper: 'MALMM: Multi-Agent Large Language Models for Zero-Shot Robotics Manipulation',
  api: 'malmm',
  simulator: 'tabletop',
  roles: [
    { id: 'supervisor', label: 'Supervisor', promptFile: 'supervisor.prompt', description: 'Chooses the next speaker from the whole chat.', variables: SUPERVISOR_VARS },
    { id: 'planner', label: 'Planner', promptFile: 'planner.prompt', description: 'Describes the scene, plans, checks each step and re-plans.', variables: PLANNER_VARS },
    { id: 'coder', label: 'Coder', promptFile: 'coder.prompt', description: 'Writes one Python block per step.', variables: CODER_VARS },
    { id: 'agent', label: 'Single agent', promptFile: 'sa.prompt', description: 'Plans and codes alone (SA baseline).', variables: { ...SUPERVISOR_VARS, ...PLANNER_VARS, ...CODER_VARS } },
  ],
  topologies: {
    malmm: { label: 'MALMM', description: 'Supervisor + Planner + Coder + Executor, dynamic routing.', roles: ['supervisor', 'planner', 'coder'] },
    ma: { label: 'MA', description: 'Fixed cycle Planner -> Coder -> Executor, same prompts, no Supervisor.', roles: ['planner', 'coder'] },
    sa: { label: 'SA', description: 'One agent plans and codes, with the new state after every block.', roles: ['agent'] },
    sa_nofeedback: { label: 'SA without feedback', description: 'One agent writes all the code at once; it runs once without revision.', roles: ['agent'] },
  },
  defaultTopology: 'malmm',
  codeAblations: Object.fromEntries(Object.entries(MALMM_WAYPOINT_ADDITIONS).filter(([id]) => /^(executor|state)\./.test(id))),
  builtInVariants: {
    // The default: the paper's prompts and feedback only (every addition of ours off). Same as `default`.
    paper: { description: "MALMM as the paper describes it: the paper's prompt sections and executor feedback only", agent: 'malmm' },
    waypoint: {
      description: "MALMM with Waypoint's additions on (routing hints, task and completion lines, state header, simulator notes, yaw/gripper lines)",
      agent: 'malmm',
      on: Object.keys(MALMM_WAYPOINT_ADDITIONS),
    },
    malmm: { description: 'Full MALMM (Supervisor, Planner, Coder, Executor)', agent: 'malmm' },
    ma: { description: 'MA baseline: fixed Planner -> Coder -> Executor cycle', agent: 'ma' },
    sa: { description: 'SA baseline: one agent plans and codes, with feedback', agent: 'sa' },
    sa_nofeedback: {
      description: 'SA without feedback: one pass, all code at once',
      agent: 'sa_nofeedback',
      off: ['sa.step_feedback', 'sa.step_by_step_code'],
    },
  },
  limits: [
    {
      id: 'maxTurns',
      label: 'Turn cap',
      type: 'int',
      default: 150,
      min: 1,
      description:
        "Chat messages before the episode stops: every Planner, Coder or single-agent answer and every Executor report counts one, as AutoGen's max_round counts group-chat messages. Supervisor routing calls and the opening task message do not count, so MALMM, MA and SA get the same budget of speaking turns (the paper reports no cap).",
    },
    {
      id: 'maxConsecutiveErrors',
      label: 'Consecutive errors',
      type: 'int',
      default: 5,
      min: 1,
      description: 'Failed code blocks or unparseable answers in a row before the episode stops (the paper gives up after five).',
    },
  ],
  endReasons: {},
  metrics: {},
  // Measured on 27 Nov 2026: the largest usage.promptTokens in the trace of `waypoint run --quiet` (run named in measuredOn).
  modelNeeds: {
    longestRequest: { tokens: 12696, measuredOn: 'reference model, stack_blocks_4, seed 0 (7851 on stack_blocks with reference-flawed)', grows: 'the whole group chat, longer every turn' },
  },
};
