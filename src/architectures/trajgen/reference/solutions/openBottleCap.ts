// open_bottle_cap: grasp the cap (its upper part), turn it anticlockwise by 1.4 rad in place (unscrewing), lift it
// off, and put it on the table 12 cm to the side. Flaw: closing before lowering (nothing in the fingers to turn).
import { PyTrajectory, TABLE_Z } from './pyTrajectory.js';
import type { TrajgenSolution } from './types.js';

export const openBottleCap: TrajgenSolution = {
  task: 'open_bottle_cap',
  matches: (i) => /open the bottle cap/i.test(i),
  detect: () => ['bottle', 'bottle cap'],
  code(_instruction, seen, flaw) {
    const cap = seen.one('bottle cap');
    const at: [number, number, number] = [cap.pos[0], cap.pos[1], cap.pos[2] + 0.008];
    const py = new PyTrajectory().comment('Lower the open gripper around the cap.');
    py.to([at[0], at[1], at[2] + 0.1, -0.7]);
    if (flaw === 'close_before_lower') py.close();
    py.to([at[0], at[1], at[2], -0.7]);
    if (flaw !== 'close_before_lower') py.close();
    py.comment('Unscrew: turn anticlockwise (positive yaw) in place.').to([at[0], at[1], at[2], 0.7]);
    const side = at[0] > 0 ? -0.12 : 0.12;
    return py.place(at[0] + side, at[1], TABLE_Z + cap.height / 2 + 0.012, 0.7, at[2] + 0.08).toString();
  },
  flaws: ['close_before_lower'],
};
