// knock_over_can (LM Trajectory Generators: "knock over the left bottle"): two cans stand on the table; knock
// over the one the seed names, leave the other standing. Success: the target lies (tilt > 1.2 rad), the other
// stands (tilt < 0.2 rad), both at rest.
import { cylinder, tool } from '../sceneObjects.js';
import { atRest, find, tiltOf, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { SINGLE_ARM_WORKSPACE, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition } from '../taskDefinition.js';

export const FALLEN_RAD = 1.2;

export function knockOverCanTask(): TaskDefinition {
  const cans = [tool(cylinder('red can', 'red', 0.03, 0.14, 0.2)), tool(cylinder('green can', 'green', 0.03, 0.14, 0.2))];
  return {
    info: {
      id: 'knock_over_can',
      description: 'Two cans stand on the table; knock over the one named in the instruction and leave the other standing.',
      instruction: 'Knock over the red can.',
      suite: 'trajectory',
      arms: 1,
      imitates: 'LM Trajectory Generators: knock over the left bottle',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'lmtg',
    apis: ['lmtg', 'malmm'],
    scene: singleArmScene('knock-over-can', cans),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      const y = l.uniform(0.08, 0.2);
      const xs = l.shuffle([-0.12, 0.12]);
      cans.forEach((c, i) => l.at(c, [xs[i]! + l.uniform(-0.04, 0.04), y + l.uniform(-0.04, 0.04)]));
      return l.placements(cans);
    },
    goal(rng) {
      const target = cans[Math.floor(rng.next() * cans.length)]!.name;
      return { instruction: `Knock over the ${target}.`, params: { target } };
    },
    check(view) {
      const target = String(view.goal?.params['target'] ?? 'red can');
      const problems: string[] = [];
      for (const c of cans) {
        const o = find(view, c.name);
        const tilt = tiltOf(o);
        if (c.name === target && tilt < FALLEN_RAD) problems.push(`the ${c.name} is still standing (tilt ${tilt.toFixed(2)} rad)`);
        if (c.name !== target && tilt > 0.2) problems.push(`the ${c.name} was knocked over too`);
        if (!atRest(o)) problems.push(`the ${c.name} is still moving`);
      }
      return verdict('knock_over_can', problems, `the ${target} lies on the table; the other can stands`);
    },
  };
}
