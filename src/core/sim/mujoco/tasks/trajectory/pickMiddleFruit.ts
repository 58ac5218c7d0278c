// pick_middle_fruit (LM Trajectory Generators: "pick the fruit in the middle"): an apple, an orange and a lemon
// in a row across the table, in a seeded order. Success: the fruit that started between the other two (by x) is
// held with its bottom >= 5 cm above the table; the other two moved < 2 cm.
import { sphere } from '../sceneObjects.js';
import { held, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { SINGLE_ARM_WORKSPACE, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition } from '../taskDefinition.js';
import { heightAboveTable, movedFromStart, startPoses, startPosesMonitor } from './startPoses.js';

export function pickMiddleFruitTask(): TaskDefinition {
  const fruits = [sphere('apple', 'red', 0.034, 0.15), sphere('orange', 'orange', 0.036, 0.15), sphere('lemon', 'yellow', 0.03, 0.1)];
  return {
    info: {
      id: 'pick_middle_fruit',
      description: 'Three fruits in a row in a seeded order; pick up the one in the middle (lift it 5 cm).',
      instruction: 'pick the fruit in the middle',
      suite: 'trajectory',
      arms: 1,
      imitates: 'LM Trajectory Generators: pick the fruit in the middle',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'lmtg',
    apis: ['lmtg'],
    scene: singleArmScene('pick-middle-fruit', fruits),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      const c: [number, number] = [l.uniform(-0.05, 0.05), l.uniform(0.1, 0.22)];
      const order = l.shuffle([-1, 0, 1]);
      fruits.forEach((f, i) => l.at(f, [c[0] + order[i]! * l.uniform(0.11, 0.13), c[1] + l.uniform(-0.03, 0.03)]));
      return l.placements(fruits);
    },
    monitor: () => startPosesMonitor(),
    check(view) {
      const start = startPoses(view);
      if (!start) return verdict('pick_middle_fruit', ['nothing moved'], '');
      const byX = [...fruits].sort((a, b) => start[a.name]!.pos[0] - start[b.name]!.pos[0]);
      const target = byX[1]!.name;
      const problems: string[] = [];
      const lift = heightAboveTable(view, target);
      if (!held(view).includes(target)) problems.push(`the ${target} (in the middle) is not held`);
      if (lift < 0.05) problems.push(`the ${target} is ${lift.toFixed(3)} m above the table (needs 0.05)`);
      for (const f of [byX[0]!, byX[2]!]) if (held(view).includes(f.name) || movedFromStart(view, f.name) > 0.02) problems.push(`the ${f.name} was moved`);
      return verdict('pick_middle_fruit', problems, `holding the ${target} ${lift.toFixed(3)} m above the table`);
    },
  };
}
