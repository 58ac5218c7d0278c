// LLaMAR's declarations (Nayak et al.): the four modules, the paper's module ablations (Table 4) and baselines as
// topologies, team sizes and the exploration ablation as built-in variants, the step cap T = 30, end reasons and
// the paper's metrics.
import type { Picoschema } from '../../core/prompt/schema.js';
import type { ArchitectureManifest } from '../../core/architecture/types.js';

/** Every module gets the team and its input dict (loop.ts `baseVars` plus `input`). */
const VARS: Picoschema = { agent_count: 'string', agent_names: 'string', 'agents(array)': 'string', robot_word: 'string', input: 'string' };

export const LLAMAR_MANIFEST: ArchitectureManifest = {
  id: 'llamar',
  label: 'LLaMAR',
  description: 'Planner, Actor, Corrector and Verifier plan centrally for 1-5 household robots that each see part of the house (Nayak et al.).',
  paper: 'LLaMAR: Long-Horizon Planning for Multi-Agent Robots in Partially Observable Environments',
  api: 'llamar',
  simulator: 'household',
  runsCode: false,
  roles: [
    { id: 'planner', label: 'Planner', promptFile: 'planner.prompt', description: 'Keeps the list of open subtasks from the task, what the robots have seen and the memory.', variables: VARS },
    { id: 'actor', label: 'Actor', promptFile: 'actor.prompt', description: 'Chooses one high-level action per robot and updates the shared memory.', variables: VARS },
    { id: 'corrector', label: 'Corrector', promptFile: 'corrector.prompt', description: 'Explains failed actions and proposes a corrective action per robot for the next step.', variables: VARS },
    { id: 'verifier', label: 'Verifier', promptFile: 'verifier.prompt', description: 'Moves open subtasks to the completed list when the robots have done them.', variables: VARS },
    { id: 'act', label: 'Act baseline', promptFile: 'act.prompt', description: "Names every robot's next action and nothing else, from the task, the views and the trace (App. E.2; Table 4's Actor only).", variables: VARS },
    { id: 'react', label: 'ReAct baseline', promptFile: 'react.prompt', description: "Thinks over the task, the views and the trace, then names every robot's next action (App. E.3).", variables: VARS },
    { id: 'central', label: 'Central planner', promptFile: 'central.prompt', description: 'One model call per step that reasons and chooses every robot\'s action (the CoT baseline\'s shape).', variables: VARS },
  ],
  topologies: {
    llamar: { label: 'LLaMAR', description: 'Planner -> Actor -> joint step -> Corrector -> Verifier, every step (Algorithm 2).', roles: ['planner', 'actor', 'corrector', 'verifier'] },
    pav: { label: 'Planner + Actor + Verifier', description: 'Without the Corrector: failures are seen only as the previous action and its success; the Actor has no failure-reason field (Table 4, row 2).', roles: ['planner', 'actor', 'verifier'] },
    pac: { label: 'Planner + Actor + Corrector (oracle)', description: 'Without the Verifier: the simulator\'s checker fills the completed subtasks and ends the episode when the task is done, privileged information (Table 4, row 3).', roles: ['planner', 'actor', 'corrector'] },
    actor_only: { label: 'Actor only (Act)', description: "One call per step that names every robot's action, without reasoning, memory, subtasks or corrections (Table 4, row 1; the Act baseline of App. E.2).", roles: ['act'] },
    react: { label: 'ReAct', description: 'One call per step that thinks, then names every robot\'s action, from the views and the trace of the steps (the ReAct baseline of App. E.3, Table 3).', roles: ['react'] },
    central: { label: 'Central single-model planner', description: 'One model plans and acts for all robots in one answer per step, with the step history (the CoT baseline\'s shape, Table 3).', roles: ['central'] },
  },
  defaultTopology: 'llamar',
  builtInVariants: {
    llamar: { description: 'LLaMAR: Planner, Actor, Corrector, Verifier (2 robots)', agent: 'llamar' },
    // Our additions to the paper's prompts are default="off" blocks; this variant turns them on.
    waypoint: {
      description: "LLaMAR with Waypoint's additions on (the Corrector's list of the simulator's failure causes, the Actor's notes on the simulator)",
      agent: 'llamar',
      on: ['corrector.failure_causes', 'actor.simulator_notes'],
    },
    // Without the Corrector the Actor neither reasons out failures (the failure-reason field) nor reads corrections.
    pav: { description: 'Without the Corrector (Planner + Actor + Verifier)', agent: 'pav', off: ['actor.failure_reason_field', 'actor.corrections'] },
    pac: { description: 'Without the Verifier: oracle subtask completion (Planner + Actor + Corrector)', agent: 'pac' },
    actor_only: { description: 'Actor only (the Act baseline of App. E.2)', agent: 'actor_only' },
    react: { description: 'The ReAct baseline (App. E.3): think, then act', agent: 'react' },
    central: { description: 'One central model for planning and acting (CoT-style)', agent: 'central' },
    no_explore: { description: 'Without the exploration action', agent: 'llamar', off: ['actor.explore'], limits: { explore: false } },
    central_no_explore: { description: 'One central model, without the exploration action', agent: 'central', off: ['central.explore'], limits: { explore: false } },
    agents_1: { description: 'LLaMAR with 1 robot', agent: 'llamar', agents: 1 },
    agents_2: { description: 'LLaMAR with 2 robots', agent: 'llamar', agents: 2 },
    agents_3: { description: 'LLaMAR with 3 robots', agent: 'llamar', agents: 3 },
    agents_4: { description: 'LLaMAR with 4 robots', agent: 'llamar', agents: 4 },
    agents_5: { description: 'LLaMAR with 5 robots', agent: 'llamar', agents: 5 },
  },
  limits: [
    { id: 'maxSteps', label: 'Step cap (T)', type: 'int', default: 30, min: 1, max: 500, description: 'High-level steps (one joint action of all robots each) before the episode stops as failed; the paper uses T = 30.' },
    {
      id: 'maxFormatErrors',
      label: 'Unusable answers in a row',
      type: 'int',
      default: 3,
      min: 1,
      description: 'Answers in a row that are not a dict with the required keys, or that name a robot or an object that does not exist; each is fed back and retried, and this many end the episode as format_failure.',
    },
    { id: 'explore', label: 'Explore action', type: 'bool', default: true, description: 'Whether Explore is an admissible action (off: the "without exploration" ablation).' },
    { id: 'exploreRounds', label: 'Explore rounds (K)', type: 'int', default: 3, min: 1, max: 10, description: 'Look-around-and-move rounds per Explore (the paper\'s K = 3).' },
    { id: 'exploreMoves', label: 'Explore moves (J)', type: 'int', default: 2, min: 0, max: 10, description: 'Cells moved toward the best direction per round (the paper\'s J = 2).' },
    {
      id: 'embeddingThreshold',
      label: 'Embedding match threshold',
      type: 'number',
      default: 0.5,
      min: 0,
      max: 1,
      description: "Least cosine similarity at which the embedding matcher takes the closest admissible action (the run's --embedding-model); embedding models differ in how alike unrelated phrases score, so tune it per model.",
    },
    {
      id: 'viewDescriptions',
      label: 'Describe the views',
      type: 'bool',
      default: true,
      description: 'Add what each robot sees in words (what is on or in what; open, on, sliced, dirty states), the text stand-in for the egocentric images GPT-4V gets in the paper.',
    },
  ],
  endReasons: {
    step_cap: 'the step cap (T) was reached before the task was verified done',
    subtasks_done: 'the Verifier closed every open subtask (or, without a Verifier, the oracle checker said the task is done)',
    all_done: 'every robot answered Done (topologies without a Verifier end here)',
    format_failure: 'too many answers in a row could not be used (not a dict, missing keys, an unknown robot or an unseen object)',
  },
  metrics: {
    success: 'the checker says every subtask is done (1) or not (0); the success rate over episodes is its mean',
    transportRate: 'fraction of the checker\'s subtasks completed',
    coverage: 'fraction of the task\'s objects that were the target of a successful action',
    balance: 'min over robots of the subtasks each completed, over (max + 1e-4)',
    steps: 'high-level steps taken (capped at maxSteps)',
    completedSubtasks: 'checker subtasks completed',
    totalSubtasks: 'checker subtasks of the task',
    failedActions: 'actions that ran and failed',
    formatErrors: 'answers fed back because they could not be used',
    corrections: 'corrective actions the Corrector proposed',
    correctionsFollowed: 'failed actions whose robot took the proposed correction next and succeeded',
    repeatedFailures: 'failed actions repeated unchanged in the next step',
    prematureDone: 'steps where every robot answered Done while subtasks were still open (the Verifier kept the episode going)',
    verifierFalseDone: '1 when the Verifier closed every subtask but the checker says the task is not done',
    'credit.<robot>': 'subtasks completed by each robot (the s_i of Balance)',
  },
  // Measured on 27 Nov 2026: the largest usage.promptTokens in the trace of `waypoint run --quiet` (run named in measuredOn).
  modelNeeds: {
    typicalEpisode: { calls: 42, tokens: 53559, measuredOn: '1_put_bread_lettuce_tomato_fridge, variant llamar, seeds 0-1, 28 Nov 2026' },
    longestRequest: { tokens: 1759, measuredOn: 'reference model, wash_bowl_mug_pot_pan, seed 0', grows: "the robots' observations and the memory, not the whole history" },
    vision: "the paper's modules see each robot's egocentric image (GPT-4V); with the run's vision on, every role's request carries each robot's egocentric frame from a simulator that sends images (the AI2-THOR adapter), as image parts after the text; otherwise, and always on the embedded household (no camera), Waypoint describes the views in words (limit viewDescriptions)",
    embeddings: "the paper matches a free-form action to the admissible ones with a fine-tuned SentenceBERT; Waypoint uses the run's --embedding-model from the endpoint's /v1/embeddings, else the lexical fallback matcher",
  },
};
