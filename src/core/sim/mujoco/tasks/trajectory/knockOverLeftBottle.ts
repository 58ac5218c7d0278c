// knock_over_left_bottle (LM Trajectory Generators: "knock over the left bottle"): two bottles stand side by side,
// their colours swapped by the seed, so the instruction names the target only by where it stands. Success: the
// bottle that started on the left (smaller x) lies (tilt > 1.2 rad), the other stands (tilt < 0.2 rad).
import { cylinder } from '../sceneObjects.js';
import { atRest, find, tiltOf, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { SINGLE_ARM_WORKSPACE, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition } from '../taskDefinition.js';
import { FALLEN_RAD } from './knockOverCan.js';
import { startPoses, startPosesMonitor } from './startPoses.js';

export function knockOverLeftBottleTask(): TaskDefinition {
  const bottles = [cylinder('green bottle', 'green', 0.028, 0.2, 0.2), cylinder('white bottle', 'white', 0.028, 0.2, 0.2)];
  return {
    info: {
      id: 'knock_over_left_bottle',
      description: 'Two bottles stand side by side (colours swapped by the seed); knock over the left one only.',
      instruction: 'knock over the left bottle',
      suite: 'trajectory',
      arms: 1,
      imitates: 'LM Trajectory Generators: knock over the left bottle',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'lmtg',
    apis: ['lmtg'],
    scene: singleArmScene('knock-over-left-bottle', bottles),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      const c: [number, number] = [l.uniform(-0.06, 0.06), l.uniform(0.08, 0.18)];
      const sides = l.shuffle([-1, 1]);
      bottles.forEach((b, i) => l.at(b, [c[0] + sides[i]! * l.uniform(0.09, 0.12), c[1] + l.uniform(-0.03, 0.03)]));
      return l.placements(bottles);
    },
    monitor: () => startPosesMonitor(),
    check(view) {
      const start = startPoses(view);
      if (!start) return verdict('knock_over_left_bottle', ['nothing moved: both bottles stand'], '');
      const left = bottles.reduce((a, b) => (start[a.name]!.pos[0] <= start[b.name]!.pos[0] ? a : b)).name;
      const problems: string[] = [];
      for (const b of bottles) {
        const o = find(view, b.name);
        const tilt = tiltOf(o);
        if (b.name === left && tilt < FALLEN_RAD) problems.push(`the left bottle (${b.name}) still stands (tilt ${tilt.toFixed(2)} rad)`);
        if (b.name !== left && tilt > 0.2) problems.push(`the right bottle (${b.name}) was knocked over too`);
        if (!atRest(o)) problems.push(`the ${b.name} is still moving`);
      }
      return verdict('knock_over_left_bottle', problems, `the left bottle (${left}) lies on the table; the right one stands`);
    },
  };
}
