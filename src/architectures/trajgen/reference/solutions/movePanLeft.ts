// move_pan_left: the pan is too wide to grasp, so grasp its handle (across its width), lift 2 cm, slide 15 cm to
// the left (-x), set it down and release. Flaws: grasping the pan at its centre, or the grasp 5 cm too high. (Closing
// before lowering is no flaw here: the closed fingers pressed on the handle drag the pan along.)
import { nearestYaw, PyTrajectory } from './pyTrajectory.js';
import type { TrajgenSolution } from './types.js';

export const movePanLeft: TrajgenSolution = {
  task: 'move_pan_left',
  matches: (i) => /move the pan/i.test(i) && /left/i.test(i),
  detect: () => ['pan', 'pan handle'],
  code(_instruction, seen, flaw) {
    const py = new PyTrajectory();
    const h = flaw === 'grip_at_centre' ? seen.one('pan') : seen.one('pan handle');
    const yaw = nearestYaw(h.yawWidth);
    py.comment(flaw === 'grip_at_centre' ? 'Grasp the pan in the middle.' : 'Grasp the handle across its width.');
    const z = h.pos[2] + (flaw === 'gripper_pose_error' ? 0.05 : 0);
    py.grasp([h.pos[0], h.pos[1], z], yaw, z + 0.02);
    py.comment('Slide it 15 cm to the left, set it down, let go.');
    py.to([h.pos[0] - 0.15, h.pos[1], z + 0.02, yaw]).to([h.pos[0] - 0.15, h.pos[1], z + 0.002, yaw]).open();
    return py.to([h.pos[0] - 0.15, h.pos[1], z + 0.1, yaw]).toString();
  },
  flaws: ['grip_at_centre', 'gripper_pose_error'],
};
