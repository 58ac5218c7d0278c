// sort_cubes (RoCoBench Sort Cubes): three arms in a row, seven panels in a line; each robot reaches only three
// panels. Each cube must end on its panel, so some must be passed along (put on a shared panel for the next
// robot). Success: every cube on its target panel, released, at rest.
import { cube, targetArea } from '../sceneObjects.js';
import { atRest, find, held, onArea, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import type { TaskDefinition } from '../taskDefinition.js';
import { armsInRow, MULTI_ARM_WORKSPACE, multiArmScene, PANDA, UR5E_ROBOTIQ, UR5E_SUCTION } from './multiArmCommon.js';

const PANEL_Y = 0.15;
const panelX = (k: number) => -0.51 + 0.17 * (k - 1);
export const SORT_GOALS: Record<string, string> = { blue_square: 'panel2', pink_polygon: 'panel4', yellow_trapezoid: 'panel6' };

export function sortCubesTask(): TaskDefinition {
  const panels = [1, 2, 3, 4, 5, 6, 7].map((k) => targetArea(`panel${k}`, 'grey', 0.12));
  const cubes = [cube('blue_square', 'blue'), cube('pink_polygon', 'pink'), cube('yellow_trapezoid', 'yellow')];
  const objects = [...cubes, ...panels];
  const robots = [
    { name: 'Alice', reachX: [panelX(1) - 0.09, panelX(3) + 0.09] as [number, number], reachText: 'panel1, panel2, panel3', standsText: 'in front of panel2', goalText: 'place blue_square on panel2' },
    { name: 'Bob', reachX: [panelX(3) - 0.09, panelX(5) + 0.09] as [number, number], reachText: 'panel3, panel4, panel5', standsText: 'in front of panel4', goalText: 'place pink_polygon on panel4' },
    { name: 'Chad', reachX: [panelX(5) - 0.09, panelX(7) + 0.09] as [number, number], reachText: 'panel5, panel6, panel7', standsText: 'in front of panel6', goalText: 'place yellow_trapezoid on panel6' },
  ];
  return {
    info: {
      id: 'sort_cubes',
      description: 'Three arms (UR5E + Robotiq gripper, Franka Panda, UR5E + suction) sort three cubes onto panels 2, 4 and 6 of seven; each reaches only three panels, so cubes are passed along.',
      // As RoCo's agent prompt (App. 10.4): the shared context only; each robot's goal and reach reach only it.
      instruction: 'Sort the cubes into their target panels. 7 panels on the table, ordered left to right: panel1, ..., panel7, a straight assembly line. The task is NOT done until all three cubes are sorted.',
      suite: 'multi-arm',
      arms: 3,
      imitates: 'RoCo / RoCoBench Sort Cubes',
    },
    workspace: MULTI_ARM_WORKSPACE,
    defaultApi: 'roco',
    apis: ['roco'],
    multiArm: {
      robots,
      observation: 'shared',
      combinedPick: true,
      rules: ['You can only PICK cubes from and PLACE cubes on the panels you reach.', 'PLACE a cube only on a free panel; only one cube per panel.'],
      strategy: ['To move a cube farther than you reach, put it on a panel the next robot reaches.'],
      // RoCo's Sort Cubes describes the scene by panels, "no output numerical coordinates" (its describe_obs).
      coordinates: false,
      // App. 10.4: the robot's own goal and the cubes' locations; the code adds the robot's own gripper state only.
      grippers: 'own',
    },
    locations: panels.map((p) => ({ name: p.name, kind: 'surface' as const, single: true })),
    scene: multiArmScene('sort-cubes', armsInRow(['Alice', 'Bob', 'Chad'], 0.45, [UR5E_ROBOTIQ, PANDA, UR5E_SUCTION]), objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      panels.forEach((p, i) => l.at(p, [panelX(i + 1), PANEL_Y]));
      // Cubes on distinct panels, none on its own; the blue one always starts on Bob's or Chad's side.
      for (;;) {
        const ks = l.shuffle([1, 3, 4, 5, 6, 7]).slice(0, 3);
        const [blue, pink, yellow] = ks as [number, number, number];
        if (blue < 4 || pink === 4 || yellow === 6) continue;
        [blue, pink, yellow].forEach((k, i) => l.at(cubes[i]!, [panelX(k) + l.uniform(-0.02, 0.02), PANEL_Y + l.uniform(-0.02, 0.02)], l.uniform(-0.4, 0.4)));
        break;
      }
      return l.placements(objects);
    },
    check(view) {
      const problems: string[] = [];
      if (held(view).length > 0) problems.push(`${held(view).join(', ')} still grasped`);
      for (const [c, p] of Object.entries(SORT_GOALS)) {
        const o = find(view, c);
        if (!onArea(o, find(view, p)) || Math.abs(o.pos[2] - view.tableTopZ - 0.025) > 0.01) problems.push(`${c} is not on ${p}`);
        else if (!atRest(o)) problems.push(`${c} is still moving`);
      }
      return verdict('sort_cubes', problems, 'blue_square is on panel2, pink_polygon on panel4, yellow_trapezoid on panel6');
    },
  };
}
