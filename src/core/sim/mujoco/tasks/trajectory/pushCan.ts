// push_can (LM Trajectory Generators: "push the can towards the right", Fig. 1 and the authors' push_can_right
// transcript): a can stands on the left half of the table; push it (not carry it) to the right. The paper's judge
// looked at the can's track; ours reads the same track: it moved >= 10 cm to the right (+x), more to the right than
// sideways, its centre never rose more than 1 cm (pushed, not lifted), and it stands upright, released, at rest.
import { cylinder, tool } from '../sceneObjects.js';
import { atRest, find, held, tiltOf, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { SINGLE_ARM_WORKSPACE, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition, TaskMonitor } from '../taskDefinition.js';
import { startPoses, startPosesMonitor } from './startPoses.js';

export const PUSH_MIN_M = 0.1;
export const LIFT_MAX_M = 0.01;

/** The can's highest centre over the episode (a lift shows here even when it is put back down). */
function maxHeightMonitor(name: string): TaskMonitor {
  let maxZ: number | undefined;
  return {
    sample(view) {
      const o = view.objects.find((x) => x.name === name);
      if (o && (maxZ === undefined || o.pos[2] > maxZ)) maxZ = o.pos[2];
    },
    state: () => (maxZ === undefined ? {} : { maxZ }),
    load(s) {
      maxZ = (s as { maxZ?: number } | undefined)?.maxZ;
    },
  };
}

export function pushCanTask(): TaskDefinition {
  // Squat, so a push low on its side slides it instead of tipping it (table friction 0.8: push below r / 0.8).
  const can = tool(cylinder('can', 'red', 0.04, 0.06, 0.25));
  const objects = [can];
  return {
    info: {
      id: 'push_can',
      description: 'Push a can at least 10 cm to the right along the table (no lifting); its track is judged.',
      instruction: 'push the can towards the right',
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
      // Left of centre, with room on its right to be pushed into and on its left for the fingers.
      l.at(can, [l.uniform(-0.18, -0.06), l.uniform(0.05, 0.2)]);
      return l.placements(objects);
    },
    monitor: () => startPosesMonitor(maxHeightMonitor(can.name)),
    check(view) {
      const start = startPoses(view)?.[can.name];
      if (!start) return verdict('push_can', ['the can has not moved'], '');
      const c = find(view, can.name);
      const dx = c.pos[0] - start.pos[0];
      const dy = c.pos[1] - start.pos[1];
      const maxZ = ((view.monitor as { extra?: { maxZ?: number } } | undefined)?.extra?.maxZ ?? start.pos[2]) as number;
      const problems: string[] = [];
      if (dx < PUSH_MIN_M) problems.push(`the can moved ${dx.toFixed(3)} m to the right (needs ${PUSH_MIN_M})`);
      else if (Math.abs(dy) > dx) problems.push(`the can moved ${Math.abs(dy).toFixed(3)} m sideways, more than to the right`);
      if (maxZ - start.pos[2] > LIFT_MAX_M) problems.push(`the can was lifted ${(maxZ - start.pos[2]).toFixed(3)} m (it must be pushed)`);
      if (held(view).includes(can.name)) problems.push('the can is held (it must be pushed)');
      if (tiltOf(c) > 0.2) problems.push('the can fell over');
      if (!atRest(c)) problems.push('the can is still moving');
      return verdict('push_can', problems, `the can slid ${dx.toFixed(3)} m to the right`);
    },
  };
}
