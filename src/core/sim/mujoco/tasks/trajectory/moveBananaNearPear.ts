// move_banana_near_pear (LM Trajectory Generators: "move the banana near the pear", a task of the authors'
// simulated release, [repo] assets; whether it is among the paper's 30 the text does not say): a banana (an 18 cm
// bar) and a pear stand at least 25 cm apart. As the paper's judge reads the tracks: the banana's track ends near the
// pear, whose track stays put. Success: the banana's centre within NEAR_M of the pear's, at least 10 cm closer than
// it started; the pear moved < 3 cm; the banana released and at rest.
import { cube, sphere } from '../sceneObjects.js';
import { atRest, find, held, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { SINGLE_ARM_WORKSPACE, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition } from '../taskDefinition.js';
import { movedFromStart, startPoses, startPosesMonitor } from './startPoses.js';

/** Near: centres this close, i.e. at most about 6 cm between the banana's side and the pear. */
export const NEAR_M = 0.12;

export function moveBananaNearPearTask(): TaskDefinition {
  const banana = { ...cube('banana', 'yellow'), size: [0.18, 0.04, 0.035] as [number, number, number], massKg: 0.12 };
  const pear = sphere('pear', 'green', 0.035, 0.18);
  const objects = [banana, pear];
  return {
    info: {
      id: 'move_banana_near_pear',
      description: 'Move a banana next to a pear (centres within 12 cm) without moving the pear.',
      instruction: 'move the banana near the pear',
      suite: 'trajectory',
      arms: 1,
      imitates: "LM Trajectory Generators: move the banana near the pear (the authors' simulated task)",
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'lmtg',
    apis: ['lmtg'],
    scene: singleArmScene('move-banana-near-pear', objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      const side = l.pick([-1, 1]);
      l.at(pear, [side * l.uniform(0.1, 0.18), l.uniform(0.05, 0.25)]);
      l.at(banana, [-side * l.uniform(0.1, 0.18), l.uniform(0.05, 0.25)], l.uniform(-1.2, 1.2));
      return l.placements(objects);
    },
    monitor: () => startPosesMonitor(),
    check(view) {
      const start = startPoses(view);
      if (!start) return verdict('move_banana_near_pear', ['nothing moved'], '');
      const b = find(view, banana.name);
      const p = find(view, pear.name);
      const d = Math.hypot(b.pos[0] - p.pos[0], b.pos[1] - p.pos[1]);
      const d0 = Math.hypot(start[banana.name]!.pos[0] - start[pear.name]!.pos[0], start[banana.name]!.pos[1] - start[pear.name]!.pos[1]);
      const problems: string[] = [];
      if (d > NEAR_M) problems.push(`the banana is ${d.toFixed(3)} m from the pear (at most ${NEAR_M})`);
      else if (d0 - d < 0.1) problems.push(`the banana came only ${(d0 - d).toFixed(3)} m closer`);
      if (movedFromStart(view, pear.name) > 0.03) problems.push('the pear was moved');
      if (held(view).includes(banana.name)) problems.push('the banana is still held');
      if (!atRest(b)) problems.push('the banana is still moving');
      return verdict('move_banana_near_pear', problems, `the banana lies ${d.toFixed(3)} m from the pear`);
    },
  };
}
