// push_can ("push the can towards the right"): close the gripper, go down on the can's left low enough that it
// slides, push it 15 cm along +x, back off and lift (the authors' transcript pushes 0.2 m from the can's left side).
import { StepWriter } from './python.js';
import type { TrajgenSolution } from './types.js';

const TABLE_Z = 0.75;
export const PUSH_M = 0.15;

export const pushCanSolution: TrajgenSolution = {
  task: 'push_can',
  matches: (instruction) => /\bpush\b/i.test(instruction) && /\bcan\b/i.test(instruction),
  detect: () => ['can'],
  flaws: ['gripper_pose_error'],
  code(_instruction, seen, flaw) {
    const can = seen.one('can');
    // Misjudged height: the closed fingers pass over the can's top instead of meeting its side.
    const z = TABLE_Z + (flaw === 'gripper_pose_error' ? 0.08 : 0.02);
    const yaw = 0;
    const [x, y] = can.pos;
    const left = x - can.width / 2 - 0.011 - 0.02;
    const goal = left + PUSH_M;
    const w = new StepWriter();
    w.comment('Closed fingers push with their side; low on the can so it slides rather than tips.');
    w.gripper('close');
    w.move('to the left of the can, then down near the table', [[left, y, z + 0.1, yaw], [left, y, z, yaw]]);
    w.move('push the can towards the right', [[goal, y, z, yaw]], 100);
    w.move('back off and lift', [[goal - 0.04, y, z, yaw], [goal - 0.04, y, z + 0.1, yaw]]);
    return w.done();
  },
};
