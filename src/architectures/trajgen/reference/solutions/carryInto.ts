// One solution for tasks that put an item into a container (apple_in_bowl, drop_ball_into_cup): grasp the item at
// its centre, carry it over the container and open with its bottom `aboveRimM` over the rim. Flaws: the grasp 5 cm
// too high (closes on air), or closing before lowering.
import { PyTrajectory } from './pyTrajectory.js';
import type { TrajgenSolution } from './types.js';

export function carryInto(task: string, item: string, container: string, matches: (instruction: string) => boolean, aboveRimM: number): TrajgenSolution {
  return {
    task,
    matches,
    detect: () => [item, container],
    code(_instruction, seen, flaw) {
      const it = seen.one(item);
      const c = seen.one(container);
      const z = it.pos[2] + (flaw === 'gripper_pose_error' ? 0.05 : 0);
      const py = new PyTrajectory().grasp([it.pos[0], it.pos[1], z], 0, 0.95, flaw === 'close_before_lower');
      return py.place(c.pos[0], c.pos[1], c.pos[2] + c.height / 2 + it.height / 2 + aboveRimM, 0).toString();
    },
    flaws: ['gripper_pose_error', 'close_before_lower'],
  };
}
