// pick_chip_bag (LM Trajectory Generators: "pick up the chip bag which is to the right of the can"): two chip bags
// flank a can; the seed decides which colour stands on the right. Success: the bag that started right of the can
// (larger x) is held with its bottom >= 5 cm above the table; the other bag moved < 2 cm; the can stands.
import { cube, cylinder } from '../sceneObjects.js';
import { find, held, tiltOf, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { SINGLE_ARM_WORKSPACE, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition } from '../taskDefinition.js';
import { heightAboveTable, movedFromStart, startPoses, startPosesMonitor } from './startPoses.js';

export const LIFT_M = 0.05;

export function pickChipBagTask(): TaskDefinition {
  const bag = (color: string) => ({ ...cube(`${color} chip bag`, color), size: [0.12, 0.06, 0.035] as [number, number, number], massKg: 0.06 });
  const bags = [bag('orange'), bag('green')];
  const can = cylinder('can', 'red', 0.033, 0.12, 0.3);
  const objects = [can, ...bags];
  return {
    info: {
      id: 'pick_chip_bag',
      description: 'Two chip bags flank a can; pick up the one to the right of the can (lift it 5 cm).',
      instruction: 'pick up the chip bag which is to the right of the can',
      suite: 'trajectory',
      arms: 1,
      imitates: 'LM Trajectory Generators: pick up the chip bag which is to the right of the can',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'lmtg',
    apis: ['lmtg'],
    scene: singleArmScene('pick-chip-bag', objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      const c: [number, number] = [l.uniform(-0.08, 0.08), l.uniform(0.08, 0.22)];
      l.at(can, c);
      const sides = l.shuffle([-1, 1]);
      bags.forEach((b, i) => l.at(b, [c[0] + sides[i]! * l.uniform(0.13, 0.16), c[1] + l.uniform(-0.04, 0.04)], l.uniform(-0.4, 0.4)));
      return l.placements(objects);
    },
    monitor: () => startPosesMonitor(),
    check(view) {
      const start = startPoses(view);
      if (!start) return verdict('pick_chip_bag', ['nothing moved'], '');
      const canX = start[can.name]!.pos[0];
      const target = bags.find((b) => start[b.name]!.pos[0] > canX)!.name;
      const other = bags.find((b) => b.name !== target)!.name;
      const problems: string[] = [];
      const lift = heightAboveTable(view, target);
      if (!held(view).includes(target)) problems.push(`the ${target} (right of the can) is not held`);
      if (lift < LIFT_M) problems.push(`the ${target} is ${lift.toFixed(3)} m above the table (needs ${LIFT_M})`);
      if (held(view).includes(other) || movedFromStart(view, other) > 0.02) problems.push(`the ${other} (left of the can) was moved`);
      if (tiltOf(find(view, can.name)) > 0.2) problems.push('the can fell over');
      return verdict('pick_chip_bag', problems, `holding the ${target} ${lift.toFixed(3)} m above the table`);
    },
  };
}
