// grasp_bowl_rim (LM Trajectory Generators' bowl task, Fig. 10: the first attempt grasps the bowl at its centre
// and fails; a re-plan grasps the rim): a bowl 14 cm wide, wider than the gripper opens (8 cm), so only its rim
// (a 6 mm wall) can be grasped. Success: the bowl is held with its bottom >= 5 cm above the table.
import { cup } from '../sceneObjects.js';
import { held, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { SINGLE_ARM_WORKSPACE, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition } from '../taskDefinition.js';
import { heightAboveTable } from './startPoses.js';

export function graspBowlRimTask(): TaskDefinition {
  const bowl = cup('bowl', 'blue', 0.07, 0.05, 0.12, 0.006);
  const objects = [bowl];
  return {
    info: {
      id: 'grasp_bowl_rim',
      description: 'Lift a bowl wider than the gripper opens: it can only be grasped by its rim.',
      instruction: 'Pick up the bowl.',
      suite: 'trajectory',
      arms: 1,
      imitates: 'LM Trajectory Generators: grasp the bowl (by its rim, Fig. 10)',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'lmtg',
    apis: ['lmtg'],
    scene: singleArmScene('grasp-bowl-rim', objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      l.scatter(bowl, { x: [-0.15, 0.15], y: [0.06, 0.22] });
      return l.placements(objects);
    },
    check(view) {
      const lift = heightAboveTable(view, bowl.name);
      const problems: string[] = [];
      if (!held(view).includes(bowl.name)) problems.push('the bowl is not held');
      if (lift < 0.05) problems.push(`the bowl is ${lift.toFixed(3)} m above the table (needs 0.05)`);
      return verdict('grasp_bowl_rim', problems, `holding the bowl by its rim ${lift.toFixed(3)} m above the table`);
    },
  };
}
