// sort_by_color (in the spirit of MALMM's RLBench suite): two red and two blue cubes go onto the area of their
// colour. Success: each cube's centre on its area, resting on the table, released.
import { cube, targetArea } from '../sceneObjects.js';
import { atRest, find, held, onArea, onTable, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { SINGLE_ARM_WORKSPACE, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition } from '../taskDefinition.js';

export function sortByColorTask(): TaskDefinition {
  const areas = [targetArea('red area', 'red', 0.14), targetArea('blue area', 'blue', 0.14)];
  const blocks = ['red block 1', 'red block 2', 'blue block 1', 'blue block 2'].map((n) => cube(n, n.split(' ')[0]!, 0.045));
  const objects = [...blocks, ...areas];
  return {
    info: {
      id: 'sort_by_color',
      description: 'Sort two red and two blue 4.5 cm cubes onto the red and the blue 14 cm areas.',
      instruction: 'Put each block on the area of the same colour.',
      suite: 'single-arm',
      arms: 1,
      imitates: 'MALMM-style RLBench sorting (RoCo sort_cubes, single arm)',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'malmm',
    apis: ['malmm', 'lmtg'],
    scene: singleArmScene('sort-by-color', objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      const side = l.pick([-1, 1]);
      l.at(areas[0]!, [side * l.uniform(0.16, 0.22), l.uniform(0.2, 0.28)], l.uniform(-0.3, 0.3));
      l.at(areas[1]!, [-side * l.uniform(0.16, 0.22), l.uniform(0.2, 0.28)], l.uniform(-0.3, 0.3));
      for (const b of blocks) l.scatter(b, { x: [-0.26, 0.26], y: [-0.01, 0.3] }, { gapM: 0.06 });
      return l.placements(objects);
    },
    check(view) {
      const problems: string[] = [];
      if (held(view).length > 0) problems.push(`${held(view).join(', ')} still grasped`);
      for (const b of blocks) {
        const o = find(view, b.name);
        const area = find(view, `${b.color} area`);
        if (!onArea(o, area) || !onTable(o, view)) problems.push(`${b.name} is not on the ${b.color} area`);
        else if (!atRest(o)) problems.push(`${b.name} is still moving`);
      }
      return verdict('sort_by_color', problems, 'both red blocks are on the red area and both blue blocks on the blue area');
    },
  };
}
