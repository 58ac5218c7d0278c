// push_can (LM Trajectory Generators: "push the can towards the right"): push a can (without lifting it) until
// its centre is on a line painted on the table. Success: within 2.5 cm of the line, upright, at rest, released.
import { cylinder, line, tool } from '../sceneObjects.js';
import { atRest, find, held, localOf, tiltOf, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { SINGLE_ARM_WORKSPACE, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition } from '../taskDefinition.js';

export const LINE_TOL_M = 0.025;

export function pushCanTask(): TaskDefinition {
  // Squat, so a push low on its side slides it instead of tipping it (table friction 0.8: push below r / 0.8),
  // and lower than the palm (4.3 cm above the pads' tips... plus the tips' height) while pushing.
  const can = tool(cylinder('can', 'red', 0.04, 0.06, 0.25));
  const mark = line('line', 'blue', 0.3);
  const objects = [can, mark];
  return {
    info: {
      id: 'push_can',
      description: 'Push a can along the table (no lifting) until it stands on a painted line 10-16 cm away.',
      instruction: 'Push the can away from you until it is on the blue line. Do not pick it up.',
      suite: 'trajectory',
      arms: 1,
      imitates: 'LM Trajectory Generators: push the can towards the right',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'lmtg',
    apis: ['lmtg', 'malmm'],
    scene: singleArmScene('push-can', objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      const x = l.uniform(-0.15, 0.15);
      // Far enough from the base that the tool can get behind the can at table height.
      const y = l.uniform(0.07, 0.12);
      l.at(can, [x, y]);
      // The line runs along x (yaw 0), 12-18 cm further from the robot.
      const lineY = y + l.uniform(0.1, 0.16);
      return [...l.placements([can]), { pos: [x + l.uniform(-0.05, 0.05), lineY, 0.75 + 0.001], yawRad: 0 }];
    },
    check(view) {
      const c = find(view, can.name);
      const m = find(view, mark.name);
      const l = localOf(c.pos, m);
      const problems: string[] = [];
      if (held(view).length > 0) problems.push('the can is held (it must be pushed)');
      if (Math.abs(l[1]) > LINE_TOL_M || Math.abs(l[0]) > m.size[0] / 2) problems.push(`the can is ${Math.abs(l[1]).toFixed(3)} m from the line (limit ${LINE_TOL_M})`);
      if (tiltOf(c) > 0.2) problems.push('the can fell over');
      if (!atRest(c)) problems.push('the can is still moving');
      return verdict('push_can', problems, `the can stands ${Math.abs(l[1]).toFixed(3)} m from the line`);
    },
  };
}
