// pick_middle_fruit: detect the three fruits, sort them by x, pick the middle one. Flaws: the grasp 5 cm too high,
// or closing before lowering.
import { PyTrajectory, TABLE_Z } from './pyTrajectory.js';
import type { TrajgenSolution } from './types.js';

const FRUITS = ['apple', 'orange', 'lemon'];

export const pickMiddleFruit: TrajgenSolution = {
  task: 'pick_middle_fruit',
  matches: (i) => /fruit in the middle/i.test(i),
  detect: () => FRUITS,
  code(_instruction, seen, flaw) {
    const sorted = FRUITS.map((f) => seen.one(f)).sort((a, b) => a.pos[0] - b.pos[0]);
    const mid = sorted[1]!;
    const z = mid.pos[2] + (flaw === 'gripper_pose_error' ? 0.05 : 0);
    const py = new PyTrajectory().comment(`From left to right: ${sorted.map((s) => s.label).join(', ')}; the ${mid.label} is in the middle.`);
    return py.grasp([mid.pos[0], mid.pos[1], z], 0, TABLE_Z + 0.15, flaw === 'close_before_lower').toString();
  },
  flaws: ['gripper_pose_error', 'close_before_lower'],
};
