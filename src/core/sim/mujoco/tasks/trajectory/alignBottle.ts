// align_bottle (LM Trajectory Generators: "align the bottle vertically"): a bottle lies on its side, its axis
// within 40 degrees of the x axis; "vertically" is the paper's top-down camera image's vertical, the y axis (away
// from the robot). Success: the bottle still lies (its axis within 17 degrees of horizontal), its axis within
// 10 degrees of the y axis, released, at rest.
import { quatMul, quatRotate } from '../../math3.js';
import type { Quat } from '../../simState.js';
import { cylinder } from '../sceneObjects.js';
import { atRest, find, held, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { SINGLE_ARM_WORKSPACE, TABLE_TOP_Z, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition } from '../taskDefinition.js';

export const ALIGN_TOL_RAD = 0.175;

/** Lying on its side with its axis (local z) along yaw `a`. */
export function lyingQuat(a: number): Quat {
  const yaw: Quat = [Math.cos(a / 2), 0, 0, Math.sin(a / 2)];
  const tip: Quat = [Math.cos(Math.PI / 4), 0, Math.sin(Math.PI / 4), 0];
  return quatMul(yaw, tip);
}

export function alignBottleTask(): TaskDefinition {
  const R = 0.03;
  const bottle = cylinder('bottle', 'green', R, 0.2, 0.25);
  const objects = [bottle];
  return {
    info: {
      id: 'align_bottle',
      description: 'A bottle lies on its side roughly along x; turn it to lie along the y axis (vertical in a top-down image).',
      instruction: 'align the bottle vertically',
      suite: 'trajectory',
      arms: 1,
      imitates: 'LM Trajectory Generators: align the bottle vertically',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'lmtg',
    apis: ['lmtg'],
    scene: singleArmScene('align-bottle', objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      const a = l.uniform(-0.7, 0.7);
      l.at(bottle, [l.uniform(-0.1, 0.1), l.uniform(0.1, 0.2)], 0, { z: TABLE_TOP_Z + R, quat: lyingQuat(a) });
      return l.placements(objects);
    },
    check(view) {
      const o = find(view, bottle.name);
      const axis = quatRotate(o.quat, [0, 0, 1]);
      const flat = Math.hypot(axis[0], axis[1]);
      const offY = Math.acos(Math.min(1, Math.abs(axis[1]) / Math.max(flat, 1e-9)));
      const problems: string[] = [];
      if (Math.abs(axis[2]) > 0.3) problems.push('the bottle does not lie on its side');
      if (offY > ALIGN_TOL_RAD) problems.push(`the bottle's axis is ${((offY * 180) / Math.PI).toFixed(0)} degrees from the y axis (limit 10)`);
      if (held(view).includes(bottle.name)) problems.push('the bottle is still held');
      if (!atRest(o)) problems.push('the bottle is still moving');
      return verdict('align_bottle', problems, `the bottle lies ${((offY * 180) / Math.PI).toFixed(1)} degrees from the y axis`);
    },
  };
}
