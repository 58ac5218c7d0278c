// empty_container (RLBench empty_container, as in MALMM): three items of different shapes lie in a large
// container; move them all into the blue container. RLBench's items are shape-sorter pieces, not cubes; ours are
// built from primitives: an upright cylinder, a plus-shaped cross and an L shape (its bounding-box centre,
// the "Center Position" the agents read, sits on the edge of the long bar, not in solid material). Success: every
// item's centre inside the blue container, released, at rest.
import { container, crossShape, cylinder, lShape } from '../sceneObjects.js';
import { atRest, find, held, inside, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { SINGLE_ARM_WORKSPACE, TABLE_TOP_Z, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition } from '../taskDefinition.js';

const WALL_M = 0.01;

export function emptyContainerTask(): TaskDefinition {
  const large = container('large container', 'grey', [0.24, 0.24, 0.07], { fixed: true, wallM: WALL_M });
  // Longer in y: the items go in side by side along y.
  const target = container('blue container', 'blue', [0.16, 0.2, 0.07], { fixed: true, wallM: WALL_M });
  const items = [cylinder('yellow cylinder', 'yellow', 0.017, 0.05, 0.04), crossShape('green cross', 'green', 0.05, 0.02, 0.04, 0.04), lShape('purple L shape', 'purple', 0.06, 0.045, 0.022, 0.04, 0.05)];
  const objects = [large, target, ...items];
  return {
    info: {
      id: 'empty_container',
      description: 'Move three items (an upright cylinder, a cross, an L shape) from a large grey container into a blue container.',
      // MALMM's App. E log wording (Table IV: "Pick all the objects from the large container and put them into the
      // colored container."): which objects are in it is the agents' to read from the state.
      instruction: 'Empty all items from the large container into the blue container.',
      suite: 'single-arm',
      arms: 1,
      imitates: 'MALMM / RLBench empty_container',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'malmm',
    apis: ['malmm', 'lmtg'],
    scene: singleArmScene('empty-container', objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      const side = l.pick([-1, 1]);
      const lx = side * l.uniform(0.1, 0.16);
      const ly = l.uniform(0.1, 0.2);
      l.at(large, [lx, ly]);
      l.at(target, [-side * l.uniform(0.12, 0.17), l.uniform(0.1, 0.2)]);
      // Items in a row along x inside the large container (the L's long bar along x), so the fingers (closing along y)
      // clear the walls and the neighbours.
      l.shuffle([-0.07, 0, 0.07]).forEach((dx, i) => {
        const o = items[i]!;
        l.at(o, [lx + dx + l.uniform(-0.005, 0.005), ly + l.uniform(-0.025, 0.025)], l.uniform(-0.3, 0.3), { z: TABLE_TOP_Z + WALL_M + o.size[2] / 2 });
      });
      return l.placements(objects);
    },
    check(view) {
      const box = find(view, target.name);
      const problems: string[] = [];
      if (held(view).length > 0) problems.push(`${held(view).join(', ')} still grasped`);
      const missing = items.map((i) => find(view, i.name)).filter((o) => !inside(o, box, WALL_M));
      if (missing.length > 0) problems.push(`not in the blue container: ${missing.map((o) => o.name).join(', ')}`);
      const moving = items.map((i) => find(view, i.name)).filter((o) => !atRest(o));
      if (moving.length > 0) problems.push(`still moving: ${moving.map((o) => o.name).join(', ')}`);
      return verdict('empty_container', problems, 'all three items are in the blue container');
    },
  };
}
