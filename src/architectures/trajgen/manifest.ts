// LM Trajectory Generators' declarations (Kwon, Di Palo, Johns): one task-agnostic main prompt that writes Python
// building dense [x, y, z, yaw] pose lists, a success detector over object-pose tracks, a task summary and a
// re-plan by a new instance. Topologies are the paper's output formats (code, numbers in <trajectory> tags, a
// binary gripper state as the fifth pose element, section 7.2 of the digest).
import type { ArchitectureManifest } from '../../core/architecture/types.js';

/**
 * Our additions to the paper's LMTG, each off unless a variant turns it on (the `waypoint` variant turns on all).
 * The paper runs the pose list open loop and learns the outcome only from the success detector.
 */
export const TRAJGEN_WAYPOINT_ADDITIONS = {
  'api.execution_feedback':
    "The robot API's execution notes in the code output the model reads: close_gripper's result, collisions, grasp slips, poses not reached and the distance short of the last pose, yaw flips (the paper's model sees only its own prints and detect_object's report).",
} as const;

export const TRAJGEN_MANIFEST: ArchitectureManifest = {
  id: 'trajgen',
  label: 'LM Trajectory Generators',
  description:
    'One prompt, no examples and no skills: the model detects objects, then writes Python that builds dense end-effector pose lists; a fresh model call judges success from object-pose tracks and a failure triggers a summary and a re-plan (Kwon, Di Palo, Johns).',
  paper: 'Language Models as Zero-Shot Trajectory Generators',
  api: 'lmtg',
  // One namespace per episode: the authors exec every block in one module's globals; App. F reuses helpers across turns.
  codeNamespace: 'episode',
  simulator: 'tabletop',
  roles: [
    { id: 'main', label: 'Trajectory generator', promptFile: 'main.prompt', description: 'Plans in stages, detects objects, writes the pose-list code (or numbers) and corrects errors.', variables: { task: 'string', ee_position: 'string', numpy: 'boolean', 'failure_summary?': 'string' } },
    { id: 'detector', label: 'Success detector', promptFile: 'detector.prompt', description: 'A fresh call that reads the object-pose tracks and answers task_completed() or task_failed().', variables: { task: 'string', tracks: 'string' } },
    { id: 'summary', label: 'Task summary', promptFile: 'summary.prompt', description: 'The main conversation asked to summarise the failed attempt for the next instance.', variables: { attempt: 'integer' } },
  ],
  topologies: {
    code: { label: 'Code output', description: 'Python that calls detect_object and builds pose lists run by execute_trajectory (the paper\'s method).', roles: ['main', 'detector', 'summary'] },
    numbers: {
      label: 'Numeric trajectory',
      description: 'No code: detections asked for in <detect_object> tags, the trajectory written out as 5-number poses in <trajectory> tags (Fig. 17).',
      roles: ['main', 'detector', 'summary'],
    },
    binary_gripper: {
      label: 'Binary gripper state',
      description: 'Code output, but poses carry a fifth element (1 open, 0 closed) instead of open_gripper/close_gripper (Fig. 18).',
      roles: ['main', 'detector', 'summary'],
    },
  },
  defaultTopology: 'code',
  codeAblations: { ...TRAJGEN_WAYPOINT_ADDITIONS },
  builtInVariants: {
    // The default: the paper's method, every addition of ours off. Same as `default` and `code`.
    paper: { description: "LM Trajectory Generators as the paper ran it: code output, open-loop execution, success detection and re-planning", agent: 'code' },
    waypoint: {
      description: "LM Trajectory Generators with Waypoint's additions on (the robot API's execution notes printed back to the model)",
      agent: 'code',
      on: Object.keys(TRAJGEN_WAYPOINT_ADDITIONS),
    },
    code: { description: 'The paper\'s method: code output, success detection and re-planning', agent: 'code' },
    numbers_trajectory: { description: 'Trajectory written as numbers in <trajectory> tags (out.numbers_trajectory)', agent: 'numbers', off: ['out.code_output'] },
    binary_gripper: { description: 'Gripper state as the fifth pose element (out.binary_gripper)', agent: 'binary_gripper', off: ['out.gripper_functions'] },
    no_replan: { description: 'No success detection or re-planning: the episode ends when the model calls task_completed()', agent: 'code', limits: { replanning: false } },
  },
  limits: [
    { id: 'maxTurns', label: 'Main turns', type: 'int', default: 30, min: 1, max: 500, description: 'Answers of the main conversation per attempt before the attempt stops (not stated in the paper).' },
    {
      id: 'maxErrorCorrections',
      label: 'Error corrections',
      type: 'int',
      default: 3,
      min: 0,
      max: 20,
      description: 'Failed code blocks (or unreadable answers) in a row fed back for correction before the episode ends as a format failure (the paper: up to three).',
    },
    { id: 'replanning', label: 'Success detection and re-planning', type: 'bool', default: true, description: 'After task_completed() a fresh call judges the object tracks; a failure is summarised and re-planned (Fig. 9).' },
    { id: 'maxReplans', label: 'Re-plans', type: 'int', default: 3, min: 0, max: 20, description: 'New instances after failure verdicts (the paper states no maximum; the bowl needed two).' },
    {
      id: 'trackEvery',
      label: 'Track subsampling',
      type: 'int',
      default: 4,
      min: 1,
      max: 1000,
      description: 'Every n-th 50 Hz pose sample goes to the detector (the authors\' code sends every 20th frame of a 240 Hz simulation, 0.083 s apart; 4 samples here are 0.08 s).',
    },
  ],
  endReasons: {
    detector_completed: 'The success detector answered task_completed().',
    detector_failed: 'The success detector answered task_failed() and no re-plan was left.',
    format_failure: 'Code failed (or an answer could not be read) more times in a row than the error-correction limit.',
  },
  metrics: {
    attempts: 'Attempts (the first plus each re-plan).',
    replans: 'Re-plans after a failure verdict.',
    errorCorrections: 'Error feedback messages sent to the main conversation (code errors and unreadable answers).',
    codeBlocks: 'Code blocks (or numeric trajectories) run.',
    detections: 'detect_object calls.',
    trajectories: 'execute_trajectory calls.',
    poses: 'Poses sent to execute_trajectory, all calls.',
    detectorCalls: 'Success-detector calls.',
    detectorFailedVerdicts: 'Failure verdicts of the success detector.',
  },
  // Measured on 27 Nov 2026: the largest usage.promptTokens in the trace of `waypoint run --quiet` (run named in measuredOn).
  modelNeeds: {
    typicalEpisode: { calls: 3, tokens: 4472, measuredOn: 'shake_bottle, variant code, seeds 0-1, 28 Nov 2026' },
    longestRequest: { tokens: 1818, measuredOn: 'reference model, draw_star, seed 0', grows: 'the main prompt, then its corrections and re-plans' },
  },
};
