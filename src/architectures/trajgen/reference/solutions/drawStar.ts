// draw_star: take the marker out of its holder (its top against the palm, as draw_shape), then draw the pentagram as the paper's
// generated code does (Appendix F): five points on a circle of half the width, joined 1-3-5-2-4-1, each stroke a
// line of poses with the tip 1 mm above the table. Flaw: the stroke helper with a hard-coded height (0.9 m), so the
// tip never touches the table.
import { PyTrajectory, pyPose, TABLE_Z } from './pyTrajectory.js';
import type { TrajgenSolution } from './types.js';
import { GRIP_BELOW_TOP_M, PALM_ABOVE_TOOL_M } from './drawShape.js';

const STAR_HELPER = `
def star_trajectory(center, radius, z, yaw, points_per_edge=50):
    """A five-pointed star: points on a circle joined 1-3-5-2-4-1, the first pointing along +y.

    center: [x, y] of the star; radius: half its width; z: height of the tool; yaw: the wrist's yaw.
    """
    corners = [[center[0] + radius * math.cos(math.pi / 2 + 2 * math.pi * k / 5),
                center[1] + radius * math.sin(math.pi / 2 + 2 * math.pi * k / 5)] for k in range(5)]
    order = [0, 2, 4, 1, 3, 0]
    poses = []
    for a, b in zip(order[:-1], order[1:]):
        start = [corners[a][0], corners[a][1], z, yaw]
        end = [corners[b][0], corners[b][1], z, yaw]
        poses += linear_trajectory(start, end, points_per_edge)
    return poses
`;

const FLAWED_HELPER = STAR_HELPER.replace('        start = [corners[a][0], corners[a][1], z, yaw]\n        end = [corners[b][0], corners[b][1], z, yaw]', '        start = [corners[a][0], corners[a][1], 0.9, yaw]\n        end = [corners[b][0], corners[b][1], 0.9, yaw]');

export const drawStar: TrajgenSolution = {
  task: 'draw_star',
  matches: (i) => /five-pointed star/i.test(i),
  detect: () => ['marker'],
  code(instruction, seen, flaw) {
    const m = /centred at \[(-?[\d.]+),\s*(-?[\d.]+)/.exec(instruction) ?? /centre at \[(-?[\d.]+),\s*(-?[\d.]+)/.exec(instruction);
    const c: [number, number] = m ? [Number(m[1]), Number(m[2])] : [0, 0.15];
    const marker = seen.one('marker');
    const top = marker.pos[2] + marker.height / 2;
    const reach = marker.height - PALM_ABOVE_TOOL_M;
    const drawZ = TABLE_Z + reach + 0.001;
    const first: [number, number] = [c[0], c[1] + 0.05];
    const py = new PyTrajectory().raw(flaw === 'hard_coded_height' ? FLAWED_HELPER : STAR_HELPER);
    py.comment('Take the marker out of its holder, its top against the palm.').grasp([marker.pos[0], marker.pos[1], top - GRIP_BELOW_TOP_M], 0, top + 0.1);
    py.comment(`Bring the tip down at the star's first point (the tool ${reach.toFixed(3)} m above the tip).`);
    py.through([
      [first[0], first[1], drawZ + 0.05, 0],
      [first[0], first[1], drawZ, 0],
    ]);
    py.comment('Draw the star.');
    py.custom(`star_trajectory(${pyPose(c)}, 0.05, ${drawZ.toFixed(3)}, 0.0)`, [first[0], first[1], drawZ, 0]);
    return py.to([first[0], first[1], drawZ + 0.08, 0]).toString();
  },
  flaws: ['hard_coded_height'],
};
