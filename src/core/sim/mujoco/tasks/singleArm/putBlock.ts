// put_block (RLBench put_block, as in MALMM): put the red block in the green target area. Two distractor
// blocks. Success: the red block's centre lies inside the area (1 cm margin), resting on the table, released.
import { cube, targetArea } from '../sceneObjects.js';
import { atRest, find, held, onArea, onTable, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { SINGLE_ARM_WORKSPACE, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition } from '../taskDefinition.js';

const AREA_SIDE_M = 0.12;

export function putBlockTask(): TaskDefinition {
  const block = cube('red block', 'red');
  const area = targetArea('target area', 'green', AREA_SIDE_M);
  const distractors = [cube('blue block', 'blue'), cube('yellow block', 'yellow')];
  const objects = [block, ...distractors, area];
  return {
    info: {
      id: 'put_block',
      description: 'Put a 5 cm red cube into a 12 cm square green target area; two distractor cubes.',
      instruction: 'Put the red block in the target area.',
      suite: 'single-arm',
      arms: 1,
      imitates: 'MALMM / RLBench put_block',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'malmm',
    apis: ['malmm', 'lmtg'],
    scene: singleArmScene('put-block', objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      l.scatter(area, { x: [-0.22, 0.22], y: [0.02, 0.28] }, { gapM: 0 });
      for (const o of [block, ...distractors]) l.scatter(o, { x: [-0.26, 0.26], y: [-0.01, 0.31] }, { gapM: 0.06 });
      return l.placements(objects);
    },
    check(view) {
      const b = find(view, block.name);
      const a = find(view, area.name);
      const problems: string[] = [];
      if (held(view).length > 0) problems.push(`${held(view).join(', ')} still grasped`);
      if (!onArea(b, a, 0.01)) problems.push(`the red block at [${b.pos[0].toFixed(3)}, ${b.pos[1].toFixed(3)}] is outside the target area centred at [${a.pos[0].toFixed(3)}, ${a.pos[1].toFixed(3)}]`);
      else if (!onTable(b, view)) problems.push(`the red block is not resting on the table (z ${b.pos[2].toFixed(3)})`);
      if (!atRest(b)) problems.push('the red block is still moving');
      return verdict('put_block', problems, `the red block rests in the target area (offset [${(b.pos[0] - a.pos[0]).toFixed(3)}, ${(b.pos[1] - a.pos[1]).toFixed(3)}] m)`);
    },
  };
}
