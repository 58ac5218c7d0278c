// move_banana_near_pear: grasp the banana at its middle across its short side, turn it side-on to the pear on the
// way and put it down 8 cm from the pear's centre, on the side it came from. Flaws: the grasp 5 cm too high
// (closes on air), or closing before lowering.
import { nearestYaw, PyTrajectory } from './pyTrajectory.js';
import type { TrajgenSolution } from './types.js';

export const moveBananaNearPear: TrajgenSolution = {
  task: 'move_banana_near_pear',
  matches: (i) => /banana/i.test(i) && /pear/i.test(i),
  detect: () => ['banana', 'pear'],
  code(_instruction, seen, flaw) {
    const banana = seen.one('banana');
    const pear = seen.one('pear');
    const grip = nearestYaw(banana.yawWidth);
    const z = banana.pos[2] + (flaw === 'gripper_pose_error' ? 0.05 : 0);
    const dx = banana.pos[0] - pear.pos[0];
    const dy = banana.pos[1] - pear.pos[1];
    const d = Math.hypot(dx, dy);
    const goal: [number, number] = [pear.pos[0] + (0.08 * dx) / d, pear.pos[1] + (0.08 * dy) / d];
    // Held across its short side, the banana's long side lies along the gripper's yaw: square to the pear's direction.
    const place = nearestYaw(Math.atan2(dy, dx) + Math.PI / 2, grip);
    const py = new PyTrajectory().grasp([banana.pos[0], banana.pos[1], z], grip, 0.9, flaw === 'close_before_lower');
    return py.place(goal[0], goal[1], banana.pos[2] + 0.004, place, 0.9).toString();
  },
  flaws: ['gripper_pose_error', 'close_before_lower'],
};
