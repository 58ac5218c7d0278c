// knock_over_can: close the gripper, go down behind the named can 3 cm below its top and sweep through it away
// from the robot, then lift.
import { StepWriter } from './python.js';
import type { TrajgenSolution } from './types.js';

const RE = /knock over the (\w+ can)/i;

export const knockOverCanSolution: TrajgenSolution = {
  task: 'knock_over_can',
  matches: (instruction) => RE.test(instruction),
  detect: (instruction) => [RE.exec(instruction)![1]!],
  flaws: ['gripper_pose_error'],
  code(instruction, seen, flaw) {
    const can = seen.one(RE.exec(instruction)![1]!);
    // Misjudged height: the sweep passes above the can.
    const z = can.pos[2] + can.height / 2 - 0.03 + (flaw === 'gripper_pose_error' ? 0.06 : 0);
    const behind = can.pos[1] - can.width / 2 - 0.03;
    const x = can.pos[0];
    const w = new StepWriter();
    w.comment('The closed gripper hits the can 3 cm below its top, pushing it over away from the robot.');
    w.gripper('close');
    w.move('behind the can, then down', [[x, behind, z + 0.08, 0], [x, behind, z, 0]]);
    w.move('sweep through the can', [[x, behind + 0.14, z, 0]], 60);
    w.move('lift', [[x, behind + 0.14, z + 0.15, 0]]);
    return w.done();
  },
};
