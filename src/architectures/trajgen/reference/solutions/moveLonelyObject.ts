// move_lonely_object: of the detected blocks, the one farthest from the rest is lonely; put it down 11 cm from the
// others' centroid on its own side, fingers along the way in so they open sideways. Flaw: closing before lowering.
import { nearestYaw, PyTrajectory, TABLE_Z } from './pyTrajectory.js';
import type { TrajgenSolution } from './types.js';

export const moveLonelyObject: TrajgenSolution = {
  task: 'move_lonely_object',
  matches: (i) => /lonely object/i.test(i),
  detect: () => ['block'],
  code(_instruction, seen, flaw) {
    const blocks = seen.find('block');
    const spread = (b: (typeof blocks)[number]) => blocks.reduce((s, c) => s + Math.hypot(c.pos[0] - b.pos[0], c.pos[1] - b.pos[1]), 0);
    const lonely = blocks.reduce((a, c) => (spread(a) >= spread(c) ? a : c));
    const others = blocks.filter((b) => b !== lonely);
    const cx = others.reduce((s, b) => s + b.pos[0], 0) / others.length;
    const cy = others.reduce((s, b) => s + b.pos[1], 0) / others.length;
    const dir = Math.atan2(lonely.pos[1] - cy, lonely.pos[0] - cx);
    const yaw = nearestYaw(lonely.yawWidth, nearestYaw(dir), Math.PI / 2);
    const py = new PyTrajectory().comment(`The ${lonely.label} stands apart; the others' centre is [${cx.toFixed(3)}, ${cy.toFixed(3)}].`);
    py.grasp(lonely.pos, yaw, 0.92, flaw === 'close_before_lower');
    return py.place(cx + 0.11 * Math.cos(dir), cy + 0.11 * Math.sin(dir), TABLE_Z + lonely.height / 2 + 0.004, yaw, 0.92).toString();
  },
  flaws: ['close_before_lower'],
};
