// drop_ball_into_cup: grasp the ball at its centre, carry it over the cup, open 3 cm above the rim so it drops in.
// Flaws: the grasp 5 cm too high (closes on air), or closing before lowering.
import { PyTrajectory } from './pyTrajectory.js';
import type { TrajgenSolution } from './types.js';

export const dropBallIntoCup: TrajgenSolution = {
  task: 'drop_ball_into_cup',
  matches: (i) => /\bball\b/i.test(i) && /\bcup\b/i.test(i),
  detect: () => ['ball', 'cup'],
  code(_instruction, seen, flaw) {
    const ball = seen.one('ball');
    const cup = seen.one('cup');
    const z = ball.pos[2] + (flaw === 'gripper_pose_error' ? 0.05 : 0);
    const py = new PyTrajectory().grasp([ball.pos[0], ball.pos[1], z], 0, 0.95, flaw === 'close_before_lower');
    // The ball's bottom 3 cm above the rim when the fingers open.
    return py.place(cup.pos[0], cup.pos[1], cup.pos[2] + cup.height / 2 + ball.height / 2 + 0.03, 0).toString();
  },
  flaws: ['gripper_pose_error', 'close_before_lower'],
};
