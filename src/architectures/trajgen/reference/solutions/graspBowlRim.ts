// grasp_bowl_rim: the bowl is wider than the gripper opens, so grasp its rim: the wall nearest the robot, fingers
// closing along y across it. Flaws: the bowl grasped at its centre (the paper's Fig. 10 first attempt), or the
// grasp 5 cm too high.
import { PyTrajectory, TABLE_Z } from './pyTrajectory.js';
import type { TrajgenSolution } from './types.js';

export const graspBowlRim: TrajgenSolution = {
  task: 'grasp_bowl_rim',
  matches: (i) => /pick up the bowl|grasp the bowl|lift the bowl/i.test(i),
  detect: () => ['bowl', 'bowl rim'],
  code(_instruction, seen, flaw) {
    const py = new PyTrajectory();
    if (flaw === 'grip_at_centre') {
      const bowl = seen.one('bowl');
      return py.comment('Grasp the bowl at its centre.').grasp([bowl.pos[0], bowl.pos[1], bowl.pos[2]], 0, TABLE_Z + 0.15).toString();
    }
    const rim = seen.one('bowl rim');
    const r = rim.length / 2 - 0.003;
    const z = rim.pos[2] - 0.008 + (flaw === 'gripper_pose_error' ? 0.05 : 0);
    py.comment(`The rim is ${rim.length.toFixed(3)} m across, wider than the gripper: grasp the wall nearest the robot, ${r.toFixed(3)} m from the centre.`);
    return py.grasp([rim.pos[0], rim.pos[1] - r, z], 0, TABLE_Z + 0.15).toString();
  },
  flaws: ['grip_at_centre', 'gripper_pose_error'],
};
