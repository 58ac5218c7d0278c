// pick_rightmost_can (LM Trajectory Generators: "pick the rightmost can", a task of the authors' simulated release,
// [repo] assets; whether it is among the paper's 30 the text does not say): three cans of different colours stand
// in a row across the table in a seeded order. As the paper's judge reads the tracks: the can that started furthest
// right (largest x) rose, the others stayed. Success: it is held with its bottom >= 5 cm above the table; the other
// two moved < 2 cm and stand.
import { cylinder } from '../sceneObjects.js';
import { find, held, tiltOf, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { SINGLE_ARM_WORKSPACE, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition } from '../taskDefinition.js';
import { heightAboveTable, movedFromStart, startPoses, startPosesMonitor } from './startPoses.js';

export function pickRightmostCanTask(): TaskDefinition {
  const cans = ['red', 'green', 'blue'].map((c) => cylinder(`${c} can`, c, 0.033, 0.12, 0.3));
  return {
    info: {
      id: 'pick_rightmost_can',
      description: 'Three cans in a row in a seeded order; pick up the rightmost one (lift it 5 cm).',
      instruction: 'pick the rightmost can',
      suite: 'trajectory',
      arms: 1,
      imitates: "LM Trajectory Generators: pick the rightmost can (the authors' simulated task)",
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'lmtg',
    apis: ['lmtg'],
    scene: singleArmScene('pick-rightmost-can', cans),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      const c: [number, number] = [l.uniform(-0.05, 0.05), l.uniform(0.08, 0.22)];
      const order = l.shuffle([-1, 0, 1]);
      cans.forEach((o, i) => l.at(o, [c[0] + order[i]! * l.uniform(0.11, 0.13), c[1] + l.uniform(-0.04, 0.04)]));
      return l.placements(cans);
    },
    monitor: () => startPosesMonitor(),
    check(view) {
      const start = startPoses(view);
      if (!start) return verdict('pick_rightmost_can', ['nothing moved'], '');
      const byX = [...cans].sort((a, b) => start[a.name]!.pos[0] - start[b.name]!.pos[0]);
      const target = byX[2]!.name;
      const problems: string[] = [];
      const lift = heightAboveTable(view, target);
      if (!held(view).includes(target)) problems.push(`the ${target} (the rightmost) is not held`);
      if (lift < 0.05) problems.push(`the ${target} is ${lift.toFixed(3)} m above the table (needs 0.05)`);
      for (const o of [byX[0]!, byX[1]!]) {
        if (held(view).includes(o.name) || movedFromStart(view, o.name) > 0.02) problems.push(`the ${o.name} was moved`);
        else if (tiltOf(find(view, o.name)) > 0.2) problems.push(`the ${o.name} fell over`);
      }
      return verdict('pick_rightmost_can', problems, `holding the ${target} ${lift.toFixed(3)} m above the table`);
    },
  };
}
