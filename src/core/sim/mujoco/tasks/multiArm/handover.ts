// handover (in the spirit of RoCoBench's passing tasks): Alice and Bob stand far apart and their reach zones
// barely touch; a wrench lies on Alice's side and belongs in the toolbox on Bob's side. Alice holds it out in the
// middle by one end, Bob takes the free end (a PICK of an object the other robot holds is a handover: the giver
// lets go), then puts it away. Success: the wrench in the toolbox.
import { mjcfSafe } from '../../scene/sceneSpec.js';
import { container, cube } from '../sceneObjects.js';
import { atRest, find, held, inside, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import type { TaskDefinition } from '../taskDefinition.js';
import { armsInRow, MULTI_ARM_WORKSPACE, multiArmScene } from './multiArmCommon.js';

export function handoverTask(): TaskDefinition {
  const wrench = { ...cube('wrench', 'grey'), name: 'wrench', mjcfName: mjcfSafe('wrench'), size: [0.2, 0.03, 0.04] as [number, number, number], massKg: 0.2 };
  const toolbox = container('toolbox', 'red', [0.28, 0.2, 0.06], { fixed: true, wallM: 0.01 });
  const objects = [wrench, toolbox];
  return {
    info: {
      id: 'handover',
      description: 'Two arms whose reach zones only meet in the middle: Alice hands a 20 cm wrench to Bob in the air, Bob puts it in his toolbox.',
      instruction: 'Put the wrench into the toolbox. Alice reaches x < 0.05, Bob reaches x > -0.05: hand it over in the middle.',
      suite: 'multi-arm',
      arms: 2,
      imitates: 'RoCo / RoCoBench (passing objects between robots)',
    },
    workspace: MULTI_ARM_WORKSPACE,
    defaultApi: 'roco',
    apis: ['roco'],
    multiArm: {
      robots: [
        { name: 'Alice', reachX: [-0.6, 0.05] },
        { name: 'Bob', reachX: [-0.05, 0.6] },
      ],
      observation: 'partial',
    },
    locations: [{ name: 'toolbox', kind: 'container', wallM: 0.01 }],
    scene: multiArmScene('handover', armsInRow(['Alice', 'Bob'], 0.8), objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      // Lengthwise toward Bob, right of Alice's base: Alice grips the end nearer her, the far end stays free and
      // still out of Bob's reach.
      l.at(wrench, [l.uniform(-0.28, -0.24), l.uniform(0.08, 0.16)], l.uniform(-0.15, 0.15));
      l.at(toolbox, [l.uniform(0.32, 0.42), l.uniform(0.12, 0.2)]);
      return l.placements(objects);
    },
    check(view) {
      const w = find(view, wrench.name);
      const problems: string[] = [];
      if (held(view).length > 0) problems.push(`${held(view).join(', ')} still grasped`);
      if (!inside(w, find(view, toolbox.name), 0.01)) problems.push('the wrench is not in the toolbox');
      else if (!atRest(w)) problems.push('the wrench is still moving');
      return verdict('handover', problems, 'the wrench is in the toolbox');
    },
  };
}
