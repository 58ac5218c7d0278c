// rubbish_in_bin (RLBench rubbish_in_bin, as in MALMM): a crumpled piece of paper, a tomato and an apple lie on
// the table next to a bin. Success: the rubbish is inside the bin, the tomato and the apple are not.
import { container, crumpledPaper, sphere } from '../sceneObjects.js';
import { find, held, inside, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { SINGLE_ARM_WORKSPACE, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition } from '../taskDefinition.js';

const WALL_M = 0.01;

export function rubbishInBinTask(): TaskDefinition {
  const bin = container('bin', 'black', [0.18, 0.18, 0.12], { fixed: true, wallM: WALL_M });
  const rubbish = crumpledPaper('rubbish');
  const tomato = sphere('tomato', 'red', 0.03, 0.1);
  const apple = sphere('apple', 'green', 0.035, 0.15);
  const objects = [bin, rubbish, tomato, apple];
  return {
    info: {
      id: 'rubbish_in_bin',
      description: 'Put a crumpled piece of paper into a bin; a tomato and an apple must stay out.',
      instruction: 'Put the rubbish in the bin.',
      suite: 'single-arm',
      arms: 1,
      imitates: 'MALMM / RLBench rubbish_in_bin',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'malmm',
    apis: ['malmm', 'lmtg'],
    scene: singleArmScene('rubbish-in-bin', objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      const side = l.pick([-1, 1]);
      l.at(bin, [side * l.uniform(0.14, 0.2), l.uniform(0.12, 0.24)]);
      for (const o of [rubbish, tomato, apple]) l.scatter(o, { x: [-0.25, 0.25], y: [0.0, 0.3] }, { gapM: 0.05, yawRange: [-Math.PI, Math.PI] });
      return l.placements(objects);
    },
    check(view) {
      const b = find(view, bin.name);
      const problems: string[] = [];
      if (held(view).length > 0) problems.push(`${held(view).join(', ')} still grasped`);
      if (!inside(find(view, rubbish.name), b, WALL_M)) problems.push('the rubbish is not in the bin');
      for (const o of [tomato, apple]) if (inside(find(view, o.name), b, WALL_M)) problems.push(`the ${o.name} is in the bin`);
      return verdict('rubbish_in_bin', problems, 'the rubbish is in the bin; the tomato and the apple are not');
    },
  };
}
