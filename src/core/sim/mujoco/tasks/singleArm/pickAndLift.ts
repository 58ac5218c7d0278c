// pick_and_lift (RLBench pick_and_lift): lift the red block into a floating target sphere. Success: the red
// block is held with its centre within 4 cm of the target's centre.
import { cube, markerSphere } from '../sceneObjects.js';
import { find, fmt, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { SINGLE_ARM_WORKSPACE, TABLE_TOP_Z, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition } from '../taskDefinition.js';

export const LIFT_TOL_M = 0.04;

export function pickAndLiftTask(): TaskDefinition {
  const block = cube('red block', 'red');
  const target = markerSphere('target', 'green', 0.04);
  const distractors = [cube('blue block', 'blue'), cube('yellow block', 'yellow')];
  const objects = [block, ...distractors, target];
  return {
    info: {
      id: 'pick_and_lift',
      description: 'Pick up the red cube and hold it inside a floating green target sphere (4 cm tolerance); two distractors.',
      instruction: 'Pick up the red block and lift it up to the target.',
      suite: 'single-arm',
      arms: 1,
      imitates: 'RLBench pick_and_lift',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'malmm',
    apis: ['malmm', 'lmtg'],
    scene: singleArmScene('pick-and-lift', objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      for (const o of [block, ...distractors]) l.scatter(o, { x: [-0.26, 0.26], y: [-0.01, 0.31] }, { gapM: 0.06 });
      // The target floats: it takes no table space.
      const p = { pos: [l.uniform(-0.2, 0.2), l.uniform(0.05, 0.25), TABLE_TOP_Z + l.uniform(0.15, 0.3)] as [number, number, number], yawRad: 0 };
      return [...l.placements([block, ...distractors]), p];
    },
    check(view) {
      const b = find(view, block.name);
      const t = find(view, target.name);
      const d = Math.hypot(b.pos[0] - t.pos[0], b.pos[1] - t.pos[1], b.pos[2] - t.pos[2]);
      const problems: string[] = [];
      if (!view.grasped.includes(block.name)) problems.push('the red block is not held');
      if (d > LIFT_TOL_M) problems.push(`the red block at ${fmt(b.pos)} is ${d.toFixed(3)} m from the target at ${fmt(t.pos)} (limit ${LIFT_TOL_M})`);
      return verdict('pick_and_lift', problems, `the red block is held ${d.toFixed(3)} m from the target's centre`);
    },
  };
}
