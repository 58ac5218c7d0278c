// pick_rightmost_can: detect the cans, take the one with the largest x, grasp it from above across its width and
// lift. Flaws: the grasp 5 cm too high (the fingers close over its top), or closing before lowering.
import { PyTrajectory, TABLE_Z } from './pyTrajectory.js';
import type { TrajgenSolution } from './types.js';

export const pickRightmostCan: TrajgenSolution = {
  task: 'pick_rightmost_can',
  matches: (i) => /rightmost can/i.test(i),
  detect: () => ['can'],
  code(_instruction, seen, flaw) {
    const cans = [...seen.find('can')].sort((a, b) => a.pos[0] - b.pos[0]);
    const right = cans[cans.length - 1]!;
    const z = right.pos[2] + 0.02 + (flaw === 'gripper_pose_error' ? 0.05 : 0);
    const py = new PyTrajectory().comment(`From left to right: ${cans.map((c) => `${c.label} (x ${c.pos[0].toFixed(3)})`).join(', ')}; the ${right.label} is the rightmost.`);
    return py.grasp([right.pos[0], right.pos[1], z], 0, TABLE_Z + 0.2, flaw === 'close_before_lower').toString();
  },
  flaws: ['gripper_pose_error', 'close_before_lower'],
};
