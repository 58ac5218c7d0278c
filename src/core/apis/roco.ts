// RoCo's action interface as generated code sees it (Mandi et al.): one EXECUTE plan per round, checked by the
// five ordered checks. RoCo's own loop acts with structured joint actions instead (EpisodeContext.actJointly).
import type { ApiFunctionSpec } from '../sim/simulator.js';

export const ROCO_API: ApiFunctionSpec[] = [
  {
    name: 'execute_plan',
    params: [{ name: 'plan', type: 'str' }],
    signature: 'execute_plan(plan: str) -> bool',
    doc:
      "Checks and runs one round: lines 'NAME <robot> ACTION <PICK obj | PLACE obj target | MOVE (x, y, z) | WAIT> [PATH [(x, y, z), ...]]', " +
      'one per robot, after EXECUTE. Returns True if it ran; otherwise prints the environment feedback and nothing moves.',
  },
  {
    name: 'check_plan',
    params: [{ name: 'plan', type: 'str' }],
    signature: 'check_plan(plan: str) -> bool',
    doc: 'Runs the five checks (parse, task constraints, IK, collision, waypoints) without moving; prints the feedback.',
  },
];
