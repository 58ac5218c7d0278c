// RoCo's declarations (Mandi et al.): one dialog agent per robot, the paper's baselines and ablations as
// topologies and variants, the loop's limits by the code's names (T = --tsteps, K = --num_replans,
// M = max_calls_per_round, defaults 10 / 5 / 10), end reasons and metrics (Table 2: success, environment steps,
// re-plans; plus dialog turns and tokens).
import type { Picoschema } from '../../core/prompt/schema.js';
import type { ArchitectureManifest } from '../../core/architecture/types.js';

/** What every call of either role gets (loop.ts `shared`). */
const SHARED_VARS: Picoschema = {
  task: 'string',
  'actions(array)': { n: 'integer', usage: 'string', doc: 'string' },
  'rules(array)': 'string',
  'strategy(array)': 'string',
  example: 'string',
  path_required: 'boolean',
  path_points: 'integer',
  round_history: 'string',
  failed_plans: 'string',
  last_plan_failed: 'boolean',
};

/**
 * Our additions to the paper's RoCo, each off unless a variant turns it on (`waypoint` turns on all). The first three
 * are prompt blocks; the observation ones change text the renderer builds in code. docs/roco.md's ledger says why.
 */
export const ROCO_WAYPOINT_ADDITIONS = ['dialog.share_reach', 'task.others_goals_reach', 'task.strategy_rules', 'observation.coordinates', 'observation.base_positions', 'observation.others_grippers'] as const;

export const ROCO_MANIFEST: ArchitectureManifest = {
  id: 'roco',
  label: 'RoCo',
  description: 'One dialog agent per robot (Alice, Bob, ...): rounds of PROCEED/EXECUTE dialog, five ordered plan checks with re-plans, joint multi-arm execution (Mandi et al.).',
  paper: 'RoCo: Dialectic Multi-Robot Collaboration with Large Language Models',
  api: 'roco',
  simulator: 'tabletop',
  // Plans are EXECUTE text checked and run by the simulator; no Python runs, so no sandbox is started (in a sweep
  // worker that saves a Pyodide process: ~3 CPU s and ~170 MB each).
  runsCode: false,
  roles: [
    {
      id: 'dialog', label: 'Robot dialog agent', promptFile: 'dialog.prompt', description: 'Speaks for one robot: discusses with the others, ends with PROCEED or the final EXECUTE plan.',
      variables: { ...SHARED_VARS, agent: 'string', others: 'string', capability: 'string', 'others_capability(array)': 'string', observation: 'string', previous_chat: 'string', 'feedback(array)': 'string', current_chat: 'string', last_call: 'boolean' },
    },
    {
      id: 'central', label: 'Central planner', promptFile: 'central.prompt', description: 'Central Plan baseline: one agent sees the whole scene and plans for every robot at once.',
      variables: { ...SHARED_VARS, agents: 'string', 'robots(array)': 'string', observation: 'string', 'feedback(array)': 'string' },
    },
  ],
  topologies: {
    dialog: { label: 'Dialog', description: 'Every robot speaks in turn; the plan is checked, fed back on failure (up to K re-plans) and executed jointly.', roles: ['dialog'], humanSeats: true },
    dialog_no_feedback: {
      label: 'Dialog w/o feedback',
      description: 'A failed plan is discarded without its reasons (one attempt per round); the round budget is doubled, as in the paper.',
      roles: ['dialog'],
      humanSeats: true,
    },
    dialog_linear_paths: { label: 'Dialog, linear waypoints', description: 'The agents\' PATHs are replaced by as many points on the straight line from each gripper to where its PATH ends (Fig. 4); actions without a PATH keep none.', roles: ['dialog'], humanSeats: true },
    dialog_topdown_paths: {
      label: 'Dialog, top-down waypoints',
      description: 'The agents\' PATHs are replaced by hard-coded top-down waypoints to where each PATH ends: up, across, down (Fig. 4); actions without a PATH keep none.',
      roles: ['dialog'],
      humanSeats: true,
    },
    dialog_no_paths: { label: 'Dialog, no waypoints', description: 'The agents\' PATHs are dropped: the multi-arm planner searches without seeds.', roles: ['dialog'], humanSeats: true },
    central: { label: 'Central Plan (oracle)', description: 'One agent with the full observation and all capabilities plans for every robot; same feedback.', roles: ['central'] },
  },
  defaultTopology: 'dialog',
  codeAblations: {
    'observation.coordinates': "Positions in the scene text where the paper's observation has none (sort_cubes: each cube's panel only; make_sandwich: food by side and stack; sweep_floor: the cubes' states and the grippers only)",
    'observation.others_grippers': "Every robot's gripper in each robot's scene (sort_cubes: the paper tells each robot its own goal and the cubes only)",
    'observation.base_positions': "Each robot's base position in its capability line (the paper gives none)",
  },
  builtInVariants: {
    dialog: { description: 'RoCo dialog (the paper\'s method)', agent: 'dialog' },
    central_plan: { description: 'Central Plan (oracle): one agent plans for all robots', agent: 'central' },
    no_history: { description: 'Dialog w/o history: no dialog or actions of past rounds in the prompt', agent: 'dialog', off: ['dialog.history'] },
    no_feedback: { description: 'Dialog w/o feedback: failed plans discarded without reasons, twice the rounds', agent: 'dialog_no_feedback', off: ['dialog.feedback'] },
    linear_waypoints: { description: 'Linear waypoints instead of the agents\' PATHs', agent: 'dialog_linear_paths' },
    topdown_waypoints: { description: 'Hard-coded top-down waypoints instead of the agents\' PATHs', agent: 'dialog_topdown_paths' },
    no_waypoints: { description: 'No waypoints: the planner searches unseeded', agent: 'dialog_no_paths' },
    waypoint: {
      description: "RoCo dialog with Waypoint's additions on (each robot told every robot's goal and reach, the tasks' strategy rules, coordinates and base positions everywhere, every robot's gripper, and asked to say what it can reach and what it needs)",
      agent: 'dialog',
      on: [...ROCO_WAYPOINT_ADDITIONS],
    },
  },
  limits: [
    { id: 'maxRounds', label: 'Rounds (T)', type: 'int', default: 10, min: 1, max: 100, description: 'Rounds (environment interactions) before the episode fails; RoCo\'s --tsteps. Dialog w/o feedback gets twice as many.' },
    { id: 'maxReplans', label: 'Plan attempts per round (K)', type: 'int', default: 5, min: 1, max: 20, description: 'Dialogs per round whose plan may fail a check before the round ends without execution; RoCo\'s --num_replans.' },
    { id: 'maxDialogTurns', label: 'Dialog turns (M)', type: 'int', default: 10, min: 1, max: 50, description: 'Agent responses in one dialog before the last speaker must give the plan; RoCo\'s max_calls_per_round.' },
  ],
  endReasons: {
    reward_positive: 'the task\'s reward became positive after an executed plan (the simulator\'s success check mid-episode)',
    round_cap: 'maxRounds rounds passed without a positive reward',
    format_failure: 'maxReplans plans in a row failed to parse (no EXECUTE block, unknown robot, malformed PATH, ...): a whole round of Dialog, maxReplans rounds of w/o feedback',
  },
  metrics: {
    success: '1 when the reward became positive, else 0',
    envSteps: 'plans executed in the simulator (the paper\'s environment steps)',
    rounds: 'rounds run',
    replans: 'plan attempts beyond the first, summed over rounds',
    replansPerRound: 'plan attempts per round, averaged over rounds (1.0 = every first plan passed; Table 2\'s re-plan column)',
    dialogTurns: 'agent responses in all dialogs',
    humanTurns: 'responses typed by a person in a robot\'s seat',
    tokens: 'prompt + completion tokens of every model call',
    formatFailures: 'plans that failed to parse',
    checkFailures: 'plans rejected by the task-constraint, IK, collision or waypoint check',
    executionFailures: 'checked plans the multi-arm planner could not move (fed back next round)',
    plannerChecks: 'configurations the multi-arm planner checked for collisions (its cost; the waypoint study\'s measure)',
    rrtPlans: 'approach motions that needed a BiRRT search (the direct joint line was not free)',
  },
  // Measured on 27 Nov 2026: the largest usage.promptTokens in the trace of `waypoint run --quiet` (run named in measuredOn).
  modelNeeds: {
    typicalEpisode: { calls: 12, tokens: 16263, measuredOn: 'sort_cubes, variant dialog, seeds 0-1, 28 Nov 2026' },
    longestRequest: { tokens: 3059, measuredOn: 'reference-flawed, sort_cubes, seed 0 (1844 with the reference model)', grows: "the round's dialog and the feedback on failed plans" },
  },
};
