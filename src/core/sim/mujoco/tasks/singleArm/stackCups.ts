// stack_cups (RLBench stack_cups): three cups of graded sizes; nest the green cup in the red one and the blue
// cup in the green one. Success: each smaller cup stands inside the larger one (axis within the clearance,
// bottom below the larger rim), upright, released, at rest.
import { cup } from '../sceneObjects.js';
import { atRest, find, held, tiltOf, verdict, type ViewObject } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { SINGLE_ARM_WORKSPACE, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition } from '../taskDefinition.js';

const WALL_M = 0.005;

/** Small in big: axes closer than the radial clearance (+5 mm slack), bottom below the big cup's rim. */
function nested(small: ViewObject, big: ViewObject): string | null {
  const off = Math.hypot(small.pos[0] - big.pos[0], small.pos[1] - big.pos[1]);
  const clearance = big.size[0] / 2 - WALL_M - small.size[0] / 2 + 0.005;
  const bottom = small.pos[2] - small.size[2] / 2;
  const rim = big.pos[2] + big.size[2] / 2;
  if (off > clearance) return `the ${small.name} is ${off.toFixed(3)} m off the ${big.name}'s axis (limit ${clearance.toFixed(3)})`;
  if (bottom > rim) return `the ${small.name} sits on top of the ${big.name}, not in it`;
  if (tiltOf(small) > 0.3) return `the ${small.name} is tilted ${tiltOf(small).toFixed(2)} rad`;
  return null;
}

export function stackCupsTask(): TaskDefinition {
  const red = cup('red cup', 'red', 0.055, 0.09, 0.1);
  const green = cup('green cup', 'green', 0.04, 0.07, 0.06);
  // Thick walls: the fingers grip the blue cup from outside and would tunnel through a thin wall.
  const blue = cup('blue cup', 'blue', 0.025, 0.06, 0.04, 0.009);
  const objects = [red, green, blue];
  return {
    info: {
      id: 'stack_cups',
      description: 'Nest three cups of graded sizes: green (8 cm) into red (11 cm), blue (5 cm) into green.',
      instruction: 'Stack the cups: put the green cup into the red cup and the blue cup into the green cup.',
      suite: 'single-arm',
      arms: 1,
      imitates: 'RLBench stack_cups',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'malmm',
    apis: ['malmm', 'lmtg'],
    scene: singleArmScene('stack-cups', objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      for (const o of objects) l.scatter(o, { x: [-0.22, 0.22], y: [0.02, 0.28] }, { gapM: 0.08, yawRange: [-Math.PI, Math.PI] });
      return l.placements(objects);
    },
    check(view) {
      const [r, g, b] = [find(view, red.name), find(view, green.name), find(view, blue.name)];
      const problems: string[] = [];
      if (held(view).length > 0) problems.push(`${held(view).join(', ')} still grasped`);
      for (const p of [nested(g, r), nested(b, g)]) if (p) problems.push(p);
      const moving = [r, g, b].filter((o) => !atRest(o));
      if (moving.length > 0) problems.push(`still moving: ${moving.map((o) => o.name).join(', ')}`);
      return verdict('stack_cups', problems, 'the blue cup is in the green cup, which is in the red cup');
    },
  };
}
