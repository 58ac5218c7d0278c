// draw_circle ("draw a circle 10cm wide with its centre at [x,y,z] with the gripper closed"): close the gripper,
// lower it to the circle's first point with the fingertips 3 mm above the table (they reach 1.2 cm below the tool
// centre), go once round the circle in 100 points, lift. Nothing to detect: the instruction gives the circle.
// Flaw: the circle helper with a hard-coded height (0.9 m), so the fingertips never come down to the table.
import { StepWriter, type PyPose } from './python.js';
import type { TrajgenSolution } from './types.js';

const RE = /draw a circle 10cm wide with its centre at \[(-?[\d.]+),\s*(-?[\d.]+),\s*(-?[\d.]+)\] with the gripper closed/i;
const FINGERTIPS_BELOW_TOOL_M = 0.012;

export const drawCircle: TrajgenSolution = {
  task: 'draw_circle',
  matches: (instruction) => RE.test(instruction),
  detect: () => [],
  flaws: ['hard_coded_height'],
  code(instruction, _seen, flaw) {
    const m = RE.exec(instruction)!;
    const c: [number, number, number] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const z = c[2] + FINGERTIPS_BELOW_TOOL_M + 0.003;
    const r = 0.05;
    const first: PyPose = [c[0] + r, c[1], z, 0];
    const w = new StepWriter();
    w.gripper('close');
    w.move('above the circle\'s first point, then down to the table', [[first[0], first[1], z + 0.08, 0], first]);
    w.raw(`def circle_trajectory(centre, radius, z, num_points=100):\n    """Points round a circle of the given radius at height z, starting and ending at angle 0."""\n    return [[centre[0] + radius * math.cos(2 * math.pi * (i + 1) / num_points), centre[1] + radius * math.sin(2 * math.pi * (i + 1) / num_points), ${flaw === 'hard_coded_height' ? '0.9' : 'z'}, 0.0] for i in range(num_points)]`);
    w.dense('round the circle with the closed fingertips on the table', `circle_trajectory([${c[0].toFixed(3)}, ${c[1].toFixed(3)}], ${r}, ${z.toFixed(3)}, 100)`);
    w.move('lift off the table', [[first[0], first[1], z + 0.08, 0]]);
    return w.done();
  },
};
