// apple_in_bowl (LM Trajectory Generators: "place the apple in the bowl"): an apple and a wide bowl on the table.
// Success: the apple rests inside the bowl (within its walls, below its rim), released.
import { cup, sphere } from '../sceneObjects.js';
import { atRest, find, held, inside, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { SINGLE_ARM_WORKSPACE, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition } from '../taskDefinition.js';

export function appleInBowlTask(): TaskDefinition {
  const apple = sphere('apple', 'red', 0.034, 0.15);
  const bowl = cup('bowl', 'white', 0.08, 0.06, 0.3, 0.006);
  const objects = [apple, bowl];
  return {
    info: {
      id: 'apple_in_bowl',
      description: 'Put an apple into a 16 cm bowl.',
      instruction: 'place the apple in the bowl',
      suite: 'trajectory',
      arms: 1,
      imitates: 'LM Trajectory Generators: place the apple in the bowl',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'lmtg',
    apis: ['lmtg'],
    scene: singleArmScene('apple-in-bowl', objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      l.scatter(bowl, { x: [-0.18, 0.18], y: [0.05, 0.25] });
      l.scatter(apple, { x: [-0.22, 0.22], y: [0.0, 0.28] }, { gapM: 0.05 });
      return l.placements(objects);
    },
    check(view) {
      const a = find(view, apple.name);
      const b = find(view, bowl.name);
      const problems: string[] = [];
      if (held(view).includes(apple.name)) problems.push('the apple is still held');
      if (!inside(a, b, 0.006)) problems.push('the apple is not in the bowl');
      if (!atRest(a)) problems.push('the apple is still moving');
      return verdict('apple_in_bowl', problems, 'the apple lies in the bowl');
    },
  };
}
