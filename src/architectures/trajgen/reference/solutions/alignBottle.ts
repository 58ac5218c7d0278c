// align_bottle: the lying bottle's longer side is its axis; grasp it across the middle, lift 5 cm, turn the wrist
// until the axis points along y, set it down, release. Flaw: the grasp 5 cm too high (the fingers close above the
// bottle). (A grasp yaw a quarter turn off is no flaw in this simulator: the fingers pressed on the lying bottle
// still hold it.)
import { nearestYaw, PyTrajectory } from './pyTrajectory.js';
import type { TrajgenSolution } from './types.js';

export const alignBottle: TrajgenSolution = {
  task: 'align_bottle',
  matches: (i) => /align the bottle/i.test(i),
  detect: () => ['bottle'],
  code(_instruction, seen, flaw) {
    const b = seen.one('bottle');
    const yaw = nearestYaw(b.yawWidth);
    const target = nearestYaw(yaw + (Math.PI / 2 - nearestYaw(b.yawWidth, Math.PI / 2)), yaw);
    const py = new PyTrajectory().comment(`The bottle lies along yaw ${b.yawWidth.toFixed(3)}; vertical in the image is the y axis (yaw pi/2).`);
    py.grasp([b.pos[0], b.pos[1], b.pos[2] + (flaw === 'gripper_pose_error' ? 0.05 : 0)], yaw, b.pos[2] + 0.05);
    py.comment('Turn the wrist so the bottle lies along y, set it down, release.');
    py.to([b.pos[0], b.pos[1], b.pos[2] + 0.05, target]).to([b.pos[0], b.pos[1], b.pos[2] + 0.003, target]).open();
    return py.to([b.pos[0], b.pos[1], b.pos[2] + 0.1, target]).toString();
  },
  flaws: ['gripper_pose_error'],
};
