// pack_grocery (RoCoBench Pack Grocery): two arms side by side pack four groceries into a bin between them;
// each reaches the bin and its own side. Success: every item inside the bin, released, at rest.
import { mjcfSafe } from '../../scene/sceneSpec.js';
import { container, cube, cylinder, sphere } from '../sceneObjects.js';
import { atRest, find, held, inside, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import type { TaskDefinition } from '../taskDefinition.js';
import { armsInRow, MULTI_ARM_WORKSPACE, multiArmScene } from './multiArmCommon.js';

export function packGroceryTask(): TaskDefinition {
  const bin = container('bin', 'grey', [0.32, 0.22, 0.06], { fixed: true, wallM: 0.01 });
  const items = [
    sphere('apple', 'red', 0.033, 0.15),
    { ...cube('banana', 'yellow'), name: 'banana', mjcfName: mjcfSafe('banana'), size: [0.11, 0.035, 0.04] as [number, number, number], massKg: 0.12 },
    { ...cube('milk', 'white'), name: 'milk', mjcfName: mjcfSafe('milk'), size: [0.055, 0.055, 0.1] as [number, number, number], massKg: 0.25 },
    cylinder('soda_can', 'cyan', 0.03, 0.1, 0.2),
  ];
  const objects = [bin, ...items];
  return {
    info: {
      id: 'pack_grocery',
      description: 'Two arms pack four groceries (apple, banana, milk, soda can) into a bin between them; each reaches its own side and the bin.',
      instruction: 'Pack the apple, the banana, the milk and the soda_can into the bin.',
      suite: 'multi-arm',
      arms: 2,
      imitates: 'RoCo / RoCoBench Pack Grocery',
    },
    workspace: MULTI_ARM_WORKSPACE,
    defaultApi: 'roco',
    apis: ['roco'],
    multiArm: {
      robots: [
        { name: 'Alice', reachX: [-0.6, 0.17] },
        { name: 'Bob', reachX: [-0.17, 0.6] },
      ],
      observation: 'shared',
    },
    locations: [{ name: 'bin', kind: 'container', wallM: 0.01 }],
    scene: multiArmScene('pack-grocery', armsInRow(['Alice', 'Bob'], 0.5), objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      l.at(bin, [0, l.uniform(0.24, 0.3)]);
      const order = l.shuffle(items);
      order.forEach((o, i) => l.scatter(o, { x: i < 2 ? [-0.45, -0.18] : [0.18, 0.45], y: [-0.05, 0.12] }, { gapM: 0.03, yawRange: [-0.4, 0.4] }));
      return l.placements(objects);
    },
    check(view) {
      const box = find(view, bin.name);
      const problems: string[] = [];
      if (held(view).length > 0) problems.push(`${held(view).join(', ')} still grasped`);
      const out = items.filter((o) => !inside(find(view, o.name), box, 0.01)).map((o) => o.name);
      if (out.length > 0) problems.push(`not in the bin: ${out.join(', ')}`);
      const moving = items.filter((o) => !atRest(find(view, o.name))).map((o) => o.name);
      if (moving.length > 0) problems.push(`still moving: ${moving.join(', ')}`);
      return verdict('pack_grocery', problems, 'all four groceries are in the bin');
    },
  };
}
