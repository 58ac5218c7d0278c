// pick_chip_bag: detect the can and the chip bags, pick the bag whose centre lies right of the can (larger x),
// grasping across its short side. Flaws: the grasp 5 cm too high (closes on air), or closing before lowering.
import { nearestYaw, PyTrajectory, TABLE_Z } from './pyTrajectory.js';
import type { TrajgenSolution } from './types.js';

export const pickChipBag: TrajgenSolution = {
  task: 'pick_chip_bag',
  matches: (i) => /chip bag/i.test(i) && /right of the can/i.test(i),
  detect: () => ['can', 'chip bag'],
  code(_instruction, seen, flaw) {
    const can = seen.one('can');
    const bag = seen.find('chip bag').find((b) => b.pos[0] > can.pos[0]) ?? seen.one('chip bag');
    const z = bag.pos[2] + (flaw === 'gripper_pose_error' ? 0.05 : 0);
    const py = new PyTrajectory().comment(`The chip bag right of the can (x ${bag.pos[0].toFixed(3)} > ${can.pos[0].toFixed(3)}): grasp it across its shorter side.`);
    return py.grasp([bag.pos[0], bag.pos[1], z], nearestYaw(bag.yawWidth), TABLE_Z + 0.15, flaw === 'close_before_lower').toString();
  },
  flaws: ['gripper_pose_error', 'close_before_lower'],
};
