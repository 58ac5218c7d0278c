// shake_bottle: grasp the bottle 4 cm below its top, lift to 0.95 m, shake it with two 100-point sinusoids along z
// (5 cm amplitude, two cycles each, as in the paper's mustard-bottle transcript), put it back down and release.
import { StepWriter } from './python.js';
import type { TrajgenSolution } from './types.js';

export const shakeBottleSolution: TrajgenSolution = {
  task: 'shake_bottle',
  matches: (instruction) => /\bshake\b/i.test(instruction) && /\bbottle\b/i.test(instruction),
  detect: () => ['mustard bottle'],
  flaws: ['gripper_pose_error', 'close_before_lower'],
  code(_instruction, seen, flaw) {
    const b = seen.one('bottle');
    // Misjudged grasp height: 6 cm above the top, the fingers close on air.
    const gz = b.pos[2] + b.height / 2 - 0.04 + (flaw === 'gripper_pose_error' ? 0.1 : 0);
    const [x, y] = b.pos;
    const w = new StepWriter();
    w.comment(`The bottle is grasped 4 cm below its top (z ${gz.toFixed(3)}); shaking is a sinusoid along z.`);
    if (flaw === 'close_before_lower') w.move('above the bottle', [[x, y, gz + 0.1, 0]]).gripper('close').move('down to the bottle', [[x, y, gz, 0]]);
    else w.move('above the bottle, then down to it', [[x, y, gz + 0.1, 0], [x, y, gz, 0]]).gripper('close');
    w.move('lift the bottle', [[x, y, 0.95, 0]]);
    w.raw(
      'def shake_trajectory(centre, amplitude, cycles, num_points=100):\n    """Up-and-down sinusoid about centre ([x, y, z, rotation]) along z."""\n' +
        '    return [[centre[0], centre[1], centre[2] + amplitude * math.sin(2 * math.pi * cycles * i / (num_points - 1)), centre[3]] for i in range(num_points)]',
    );
    w.dense('shake up and down, two cycles', 'shake_trajectory(previous_end, 0.05, 2, 100)');
    w.dense('shake up and down, two more cycles', 'shake_trajectory(previous_end, 0.05, 2, 100)');
    w.move('put the bottle back down where it stood', [[x, y, gz + 0.004, 0]]);
    w.gripper('open');
    w.move('lift the gripper clear', [[x, y, gz + 0.12, 0]]);
    return w.done();
  },
};
