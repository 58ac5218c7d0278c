// knock_over_left_bottle: of the detected bottles the one with the smaller x; close the gripper, come down behind it
// (robot side) near its top and push it away from the robot. Flaw: the push line 7 cm to the side (misses it).
import { PyTrajectory } from './pyTrajectory.js';
import type { TrajgenSolution } from './types.js';

export const knockOverLeftBottle: TrajgenSolution = {
  task: 'knock_over_left_bottle',
  matches: (i) => /knock over the left bottle/i.test(i),
  detect: () => ['bottle'],
  code(_instruction, seen, flaw) {
    const b = seen.find('bottle').reduce((a, c) => (a.pos[0] <= c.pos[0] ? a : c));
    const x = b.pos[0] + (flaw === 'gripper_pose_error' ? 0.07 : 0);
    const z = b.pos[2] + b.height / 2 - 0.03;
    const behind = b.pos[1] - b.width / 2 - 0.03;
    const py = new PyTrajectory().comment(`The left bottle is the ${b.label} (x ${b.pos[0].toFixed(3)}). Close the gripper to push with it.`).close();
    py.through([
      [x, behind, z + 0.08, 0],
      [x, behind, z, 0],
    ]);
    py.comment('Push through the bottle near its top, away from the robot, then rise.');
    return py.to([x, behind + 0.14, z, 0], 60).to([x, behind + 0.14, z + 0.15, 0]).toString();
  },
  flaws: ['gripper_pose_error'],
};
