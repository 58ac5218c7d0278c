// pack_grocery (RoCoBench Pack Grocery): Alice (UR5E + Robotiq gripper) and Bob (Franka Panda) face each other
// across the table and pack four groceries lying close together into a bin; both reach everything, so their
// paths must be coordinated, and every move carries a PATH of four waypoints (RoCo's code forces paths for this
// task). Shared observation. Success: every item inside the bin, released, at rest.
import { mjcfSafe } from '../../scene/sceneSpec.js';
import { container, cube, cylinder, sphere } from '../sceneObjects.js';
import { atRest, find, held, inside, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import type { TaskDefinition } from '../taskDefinition.js';
import { armsFacing, FACING_WORKSPACE, multiArmScene, PANDA, UR5E_ROBOTIQ } from './multiArmCommon.js';

export function packGroceryTask(): TaskDefinition {
  const bin = container('bin', 'grey', [0.42, 0.3, 0.06], { fixed: true, wallM: 0.01 });
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
      description: 'Two arms facing each other (UR5E + Robotiq gripper, Franka Panda) pack four groceries (apple, banana, milk, soda can) into a bin with coordinated waypoint paths.',
      instruction: 'Pack the apple, the banana, the milk and the soda_can into the bin.',
      suite: 'multi-arm',
      arms: 2,
      imitates: 'RoCo / RoCoBench Pack Grocery',
    },
    workspace: FACING_WORKSPACE,
    defaultApi: 'roco',
    apis: ['roco'],
    multiArm: {
      robots: [
        { name: 'Alice', reachX: [-0.6, 0.6], reachText: 'every item and the bin', standsText: 'on the left side of the table' },
        { name: 'Bob', reachX: [-0.6, 0.6], reachText: 'every item and the bin', standsText: 'on the right side of the table' },
      ],
      observation: 'shared',
      path: 'required',
      pathPoints: 4,
      pathStdMaxM: 0.19, // RoCo's task_pack.py waypoint_std_threshold
      rules: [
        'Every PICK and PLACE needs a PATH of exactly four (x, y, z) waypoints from your gripper to above the target; the last one is the target.',
        'Keep grippers above the table and below z = 1.3; keep your path away from the other robot.',
        'Only PICK with an empty gripper, only PLACE what you hold; both robots must not PICK the same item.',
      ],
    },
    locations: [{ name: 'bin', kind: 'container', wallM: 0.01 }],
    scene: multiArmScene('pack-grocery', armsFacing(['Alice', 'Bob'], [UR5E_ROBOTIQ, PANDA]), objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      l.at(bin, [l.uniform(-0.04, 0.04), l.uniform(0.3, 0.36)]);
      // The groceries lie close together in front of the bin, two on each robot's half.
      const order = l.shuffle(items);
      order.forEach((o, i) => l.scatter(o, { x: i < 2 ? [-0.3, -0.08] : [0.08, 0.3], y: [-0.2, 0.08] }, { gapM: 0.03, yawRange: [-0.4, 0.4] }));
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
