// Action Contextualization's declarations (Gupta, Yao et al.): one conversation with a task planner, an
// evaluation-plan writer, retunes and replans; limits by the paper's (and the authors' code's) budgets.
import type { Picoschema } from '../../core/prompt/schema.js';
import type { ArchitectureManifest } from '../../core/architecture/types.js';

const FUNCTIONS = { signature: 'string', doc: 'string' };
/** The failed action's report (loop.ts failureOf) and the tried parameter sets, for a retune or a replan. */
const FAILURE_VARS: Picoschema = {
  failure_index: 'integer',
  failed_action: 'string',
  current_arguments: 'string',
  motion_score: 'string',
  failure_reason: 'string',
  'past_failures(array)': 'string',
  'past_successes(array)': 'string',
};

export const ACTCTX_MANIFEST: ArchitectureManifest = {
  id: 'actctx',
  label: 'Action Contextualization',
  description:
    'One conversation writes a task plan of parameterised skills and an evaluation plan of checks; a failing action is retuned (speed, clearance, grasp, orientation) before the plan is replanned; motion scores M_I + M_E judge every action and Q every plan (Gupta, Yao et al.).',
  paper: 'Action Contextualization: Adaptive Task Planning and Action Tuning using LLMs',
  api: 'actctx',
  simulator: 'tabletop',
  // Plans are Python literals read with a parser and run action by action; no code runs.
  runsCode: false,
  roles: [
    { id: 'task_plan', label: 'Task plan (Prompt 1)', promptFile: 'task_plan.prompt', description: 'Writes task_plan from the scene description, the label lists and the task.', variables: { scene_description: 'string', objects: 'string', locations: 'string', 'actions(array)': FUNCTIONS, task: 'string' } },
    { id: 'evaluation_plan', label: 'Evaluation plan (Prompts 2, 7)', promptFile: 'evaluation_plan.prompt', description: 'Writes the checks for each action and their expected outputs.', variables: { 'checks(array)': FUNCTIONS, objects: 'string', locations: 'string' } },
    { id: 'retune', label: 'Retune (Prompts 3-5, 8, 9)', promptFile: 'retune.prompt', description: 'Changes the arguments of the failed action in place.', variables: FAILURE_VARS },
    { id: 'replan', label: 'Replan (Prompt 6)', promptFile: 'replan.prompt', description: 'Writes a new task plan after the retunes ran out.', variables: { ...FAILURE_VARS, max_change: 'integer' } },
    { id: 'improve', label: 'Retune after success (IV-B)', promptFile: 'improve.prompt', description: 'Changes one action of a successful plan to raise its motion score.', variables: { total_time: 'string', average_score: 'string', 'past_failures(array)': 'string', 'past_successes(array)': 'string' } },
    { id: 'improve_replan', label: 'Replan after success (IV-B)', promptFile: 'improve_replan.prompt', description: 'Writes a new task plan after a successful one to raise its motion score (IV-B\'s P1 when the last retune passed).', variables: { total_time: 'string', average_score: 'string', 'past_failures(array)': 'string', 'past_successes(array)': 'string', max_change: 'integer' } },
    { id: 'repair', label: 'Syntax repair', promptFile: 'repair.prompt', description: 'Sends back what was wrong with an answer\'s code and asks for it again.', variables: { problem: 'string' } },
  ],
  topologies: {
    actctx: {
      label: 'Action Contextualization',
      description: 'Plan, evaluation plan, simulate with checks; retune the failed action, then replan.',
      roles: ['task_plan', 'evaluation_plan', 'retune', 'replan', 'improve', 'improve_replan', 'repair'],
    },
  },
  defaultTopology: 'actctx',
  // Text the loop builds in code that the paper's method lacks (off unless a variant turns it on).
  codeAblations: {
    'scene.spatial_relations':
      "The scene description states spatial relations (what stands right next to or is wedged between what, what lies behind what as the robot sees it, what a fixture hangs over); the paper's description of the photo (App. E) has none.",
  },
  builtInVariants: {
    actctx: { description: 'The paper\'s loop (Sec. III, IV-D)', agent: 'actctx' },
    waypoint: { description: "The paper's loop with Waypoint's additions on (spatial relations in the scene description)", agent: 'actctx', on: ['scene.spatial_relations'] },
    no_scores: { description: 'Feedback without motion scores', agent: 'actctx', off: ['retune.score_in_feedback', 'replan.score_in_feedback'] },
    no_history: { description: 'Feedback without the history of tried parameters', agent: 'actctx', off: ['retune.parameter_history', 'replan.parameter_history'] },
  },
  limits: [
    {
      id: 'retunesPerAction',
      // The id keeps the paper's name ("3 retunes per action", IV-D); the counter is the authors' (per plan).
      label: 'Retune budget per plan',
      type: 'int',
      default: 3,
      min: 0,
      max: 20,
      description:
        'Retunes a plan may use before it is replanned, counted afresh after each replan: one counter for the whole plan, not one per action (the authors\' code; IV-D says 3 per action). A retune after which the plan fails at a later action is free, so a plan that gets further with each retune can take more. With retuneAfterSuccess it also bounds the retunes of a plan that passes.',
    },
    { id: 'maxReplans', label: 'Replans', type: 'int', default: 1, min: 0, max: 10, description: 'Replans after the retunes ran out (IV-B: 1; the authors\' scripts use 2 to 7).' },
    {
      id: 'planRuns',
      label: 'Independent runs',
      type: 'int',
      default: 1,
      min: 1,
      max: 30,
      description: 'Plan generations from the same start, each in its own conversation from a simulator snapshot; the plan with the highest Q among the validated ones is kept (IV-D: 14). A run whose answer stays unreadable drops out; the episode is a format failure only when every run does.',
    },
    {
      id: 'retuneAfterSuccess',
      label: 'Retune after success',
      type: 'bool',
      default: false,
      description: 'After a successful plan, keep retuning one action to raise the motion score until the retunes run out (IV-B); the paper advises against it (V-B c).',
    },
    {
      id: 'fixedTrials',
      label: 'Fixed trials (IV-B)',
      type: 'bool',
      default: false,
      description:
        "IV-B's protocol: every plan gets exactly retunesPerAction retunes and the run exactly maxReplans replans, whatever each execution's result (P0 + 3 retunes, P1 + 3 retunes = 8 trials); after a success the retune raises the score (improve) and the replan writes a better plan (improve_replan). Every execution is a trial, counted in executions and executionsPassed.",
    },
    { id: 'taskPlanRepairs', label: 'Task plan repairs', type: 'int', default: 3, min: 0, max: 20, description: 'Syntax repairs of a task plan before the run ends as a format failure (the authors\' code: 3).' },
    { id: 'evaluationPlanRepairs', label: 'Evaluation plan repairs', type: 'int', default: 5, min: 0, max: 20, description: 'Syntax repairs of an evaluation plan (the authors\' code: 5).' },
    { id: 'retuneRepairs', label: 'Retune repairs', type: 'int', default: 5, min: 0, max: 20, description: 'Syntax repairs of a retune (the authors\' code: 5).' },
    { id: 'replanRepairs', label: 'Replan repairs', type: 'int', default: 3, min: 0, max: 20, description: 'Syntax repairs of a replan (the authors\' code: 3).' },
    { id: 'replanLengthChange', label: 'Replan length change', type: 'int', default: 5, min: 0, max: 50, description: 'A replan may have this many actions more or fewer than the plan it replaces (Prompt 6).' },
  ],
  endReasons: {
    plan_validated: 'The chosen plan ran with every check as expected.',
    budget_exhausted: 'The retunes and replans ran out and the last plan still fails a check.',
    format_failure: 'No run gave a usable plan: in every run an answer could not be read after the repair limit (the paper\'s syntax check-and-repair loop). With planRuns > 1 a run that fails so drops out and the others decide.',
  },
  metrics: {
    planQuality: 'Q of the chosen run\'s final plan: mean M_T over its actions (-2 for an action that never moved).',
    retunes: 'Retunes in the chosen run (after failures and, with retuneAfterSuccess, after successes).',
    replans: 'Replans in the chosen run.',
    trials: 'Plan executions in all runs after the first of each (retunes + replans, Fig. 8b).',
    executions: 'Plan executions in all runs, the first of each included (IV-B\'s trials: 8 per episode with fixedTrials).',
    executionsPassed: 'Plan executions in all runs that passed every check (IV-B scores each; its SR is executionsPassed / executions).',
    runs: 'Independent runs (planRuns).',
    formatFailedRuns: 'Runs that ended because an answer could not be read after the repair limit (left out of the selection).',
    validatedRuns: 'Runs whose final plan passed every check.',
    chosenRun: 'The run kept (1-based): a validated one with the highest Q, else the highest Q; runs that ended in a format failure are not candidates.',
    repairs: 'Syntax repairs asked for, all runs.',
  },
  // Measured on 27 Nov 2026: the largest usage.promptTokens in the trace of `waypoint run --quiet` (run named in measuredOn).
  modelNeeds: {
    typicalEpisode: { calls: 7, tokens: 18835, measuredOn: 'ac_sequential, the paper default (no spatial relations), seeds 0-1, 28 Nov 2026: 3 retunes and 1 replan from the collision feedback', scalesWith: 'planRuns',
      // IV-B's protocol: P0 and 3 retunes, P1 and 3 retunes whatever each result (examples/papers/actctx-iv-b.yaml).
      whenOn: { fixedTrials: { calls: 10, tokens: 30208, measuredOn: 'ac_single_whole_apple and ac_single_full_glass, retunesPerAction 3, maxReplans 1, seed 0, 28 Nov 2026 (29,591 and 30,825 tokens)' } },
    },
    longestRequest: { tokens: 4084, measuredOn: 'reference-flawed, ac_single_full_glass, seed 0 (1658 on clear_table_sink with the reference model)', grows: 'one conversation, longer with each retune and replan' },
  },
};
