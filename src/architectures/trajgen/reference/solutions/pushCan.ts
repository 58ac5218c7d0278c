// push_can: close the gripper, go down behind the can (on the robot's side) low enough that it slides, push it
// along +y until its centre is on the line, back off and lift.
import { StepWriter } from './python.js';
import type { TrajgenSolution } from './types.js';

const TABLE_Z = 0.75;

export const pushCanSolution: TrajgenSolution = {
  task: 'push_can',
  matches: (instruction) => /\bpush\b/i.test(instruction) && /\bcan\b/i.test(instruction),
  detect: () => ['can', 'line'],
  flaws: ['gripper_pose_error'],
  code(_instruction, seen, flaw) {
    const can = seen.one('can');
    const mark = seen.one('line');
    // Pushing high on the can tips it over instead of sliding it.
    const z = TABLE_Z + (flaw === 'gripper_pose_error' ? 0.06 : 0.02);
    const yaw = Math.PI / 2;
    const behind = can.pos[1] - can.width / 2 - 0.011 - 0.02;
    const goal = mark.pos[1] - 0.011 - can.width / 2;
    const x = can.pos[0];
    const w = new StepWriter();
    w.comment('Closed fingers turned a quarter turn push with their ends; low on the can so it slides rather than tips.');
    w.gripper('close');
    w.move('behind the can, then down near the table', [[x, behind, z + 0.1, yaw], [x, behind, z, yaw]]);
    w.move('push the can away until its centre is on the line', [[x, goal, z, yaw]], 100);
    w.move('back off and lift', [[x, goal - 0.04, z, yaw], [x, goal - 0.04, z + 0.1, yaw]]);
    return w.done();
  },
};
