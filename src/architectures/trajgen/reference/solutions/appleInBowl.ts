// apple_in_bowl: grasp the apple at its centre, carry it over the bowl, lower it just inside and release. Flaws: the
// grasp 5 cm too high, or closing before lowering.
import { PyTrajectory } from './pyTrajectory.js';
import type { TrajgenSolution } from './types.js';

export const appleInBowl: TrajgenSolution = {
  task: 'apple_in_bowl',
  matches: (i) => /apple/i.test(i) && /bowl/i.test(i),
  detect: () => ['apple', 'bowl'],
  code(_instruction, seen, flaw) {
    const apple = seen.one('apple');
    const bowl = seen.one('bowl');
    const z = apple.pos[2] + (flaw === 'gripper_pose_error' ? 0.05 : 0);
    const py = new PyTrajectory().grasp([apple.pos[0], apple.pos[1], z], 0, 0.95, flaw === 'close_before_lower');
    return py.place(bowl.pos[0], bowl.pos[1], bowl.pos[2] + bowl.height / 2 + apple.height / 2 + 0.01, 0).toString();
  },
  flaws: ['gripper_pose_error', 'close_before_lower'],
};
