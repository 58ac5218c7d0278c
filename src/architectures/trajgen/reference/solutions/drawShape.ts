// draw_shape: grip the marker with its top against the palm (4.3 cm below its top; held by friction, a marker
// gripped lower creeps up the pads until it meets the palm), lower its tip to 1 mm above the table at the outline's first
// point, go round the outline (a circle as 64 points, a polygon through its corners) and lift.
import type { TrajgenSolution } from './types.js';
import { StepWriter, type PyPose } from './python.js';

const TABLE_Z = 0.75;
/** Gripped this far below its top, the marker's top sits under the palm, which is this far above the tool centre. */
export const GRIP_BELOW_TOP_M = 0.043;
export const PALM_ABOVE_TOOL_M = 0.0434;
const RE = /Draw an? (\w+) 10 cm wide centred at \[(-?[\d.]+), (-?[\d.]+)\]/i;

function corners(shape: string, c: [number, number], r: number): [number, number][] {
  if (shape === 'square') return [[-r, -r], [r, -r], [r, r], [-r, r]].map(([x, y]) => [c[0] + x!, c[1] + y!]);
  if (shape === 'triangle') return [0, 1, 2].map((k) => [c[0] + r * Math.cos(Math.PI / 2 + (2 * Math.PI * k) / 3), c[1] + r * Math.sin(Math.PI / 2 + (2 * Math.PI * k) / 3)]);
  return [];
}

export const drawShapeSolution: TrajgenSolution = {
  task: 'draw_shape',
  matches: (instruction) => RE.test(instruction),
  detect: () => ['marker'],
  flaws: ['gripper_pose_error', 'close_before_lower'],
  code(instruction, seen, flaw) {
    const m = RE.exec(instruction)!;
    const shape = m[1]!.toLowerCase();
    const c: [number, number] = [Number(m[2]), Number(m[3])];
    const marker = seen.one('marker');
    const top = marker.pos[2] + marker.height / 2;
    // Misjudged grip: 8 cm too high, the fingers close on air above the marker (5 cm too high, the pads' lower edges
    // still caught its top and it drew).
    const gripZ = top - GRIP_BELOW_TOP_M + (flaw === 'gripper_pose_error' ? 0.08 : 0);
    const reach = marker.height - PALM_ABOVE_TOOL_M;
    const drawZ = TABLE_Z + reach + 0.001;
    const [mx, my] = marker.pos;
    const w = new StepWriter();
    w.comment(`The marker is grasped with its top against the palm (z ${gripZ.toFixed(3)}); its tip is then ${reach.toFixed(3)} m below the gripper.`);
    if (flaw === 'close_before_lower') w.move('above the marker', [[mx, my, gripZ + 0.1, 0]]).gripper('close').move('down to the marker', [[mx, my, gripZ, 0]]);
    else w.move('above the marker, then down to it', [[mx, my, gripZ + 0.1, 0], [mx, my, gripZ, 0]]).gripper('close');
    const r = 0.05;
    const first: PyPose = shape === 'circle' ? [c[0] + r, c[1], drawZ, 0] : [...corners(shape, c, r)[0]!, drawZ, 0];
    w.move('lift the marker and lower its tip onto the outline\'s first point', [[mx, my, gripZ + 0.1, 0], [first[0], first[1], drawZ + 0.05, 0], first]);
    if (shape === 'circle') {
      w.raw(`def circle_trajectory(centre, radius, z, num_points=100):\n    """Points round a circle of the given radius at height z, starting and ending at angle 0."""\n    return [[centre[0] + radius * math.cos(2 * math.pi * (i + 1) / num_points), centre[1] + radius * math.sin(2 * math.pi * (i + 1) / num_points), z, 0.0] for i in range(num_points)]`);
      w.dense('round the circle with the tip on the table', `circle_trajectory([${c[0].toFixed(3)}, ${c[1].toFixed(3)}], ${r}, ${drawZ.toFixed(3)}, 100)`);
    } else {
      const pts = corners(shape, c, r);
      w.move(`along the ${shape}'s sides back to its first corner`, [...pts.slice(1), pts[0]!].map((p) => [p[0], p[1], drawZ, 0] as PyPose), 30);
    }
    w.move('lift the tip off the table', [[first[0], first[1], drawZ + 0.08, 0]]);
    return w.done();
  },
};
