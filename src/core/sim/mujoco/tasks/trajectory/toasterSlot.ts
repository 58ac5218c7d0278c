// toaster_slot (LM Trajectory Generators: the toaster task, whose slot the paper's detector failed to segment): a
// slice of bread stands on the table; put it into the toaster's slot (3.2 cm wide, 6 cm deep; the slice is 1.6 cm
// thick). Success: the slice's centre is inside the slot's footprint, its bottom >= 3 cm below the toaster's top,
// released.
import type { ObjectSpec, PartSpec } from '../../scene/sceneSpec.js';
import { mjcfSafe } from '../../scene/sceneSpec.js';
import { cube, rgbaOf } from '../sceneObjects.js';
import { find, held, localOf, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { SINGLE_ARM_WORKSPACE, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition } from '../taskDefinition.js';

const T: [number, number, number] = [0.22, 0.14, 0.12];
export const SLOT: [number, number, number] = [0.13, 0.032, 0.06];

/** A fixed toaster with one slot along its local x; feature 'slot' is the slot's empty volume. */
export function toaster(name: string, color: string): ObjectSpec {
  const [x, y, z] = T.map((v) => v / 2) as [number, number, number];
  const [sx, sy, sz] = SLOT.map((v) => v / 2) as [number, number, number];
  const parts: PartSpec[] = [
    // Below the slot's floor.
    { shape: 'box', size: [x, y, z - sz], pos: [0, 0, -sz] },
    // Around the slot: both ends, then front and back.
    { shape: 'box', size: [(x - sx) / 2, y, sz], pos: [-(x + sx) / 2, 0, z - sz] },
    { shape: 'box', size: [(x - sx) / 2, y, sz], pos: [(x + sx) / 2, 0, z - sz] },
    { shape: 'box', size: [sx, (y - sy) / 2, sz], pos: [0, -(y + sy) / 2, z - sz] },
    { shape: 'box', size: [sx, (y - sy) / 2, sz], pos: [0, (y + sy) / 2, z - sz] },
  ];
  return {
    name,
    mjcfName: mjcfSafe(name),
    shape: 'compound',
    size: T,
    color,
    rgba: rgbaOf(color),
    massKg: 2,
    mount: { kind: 'fixed' },
    parts,
    features: [{ name: 'slot', pos: [0, 0, z - sz], size: SLOT }],
  };
}

export function toasterSlotTask(): TaskDefinition {
  const t = toaster('toaster', 'grey');
  const bread = { ...cube('bread', 'brown'), size: [0.1, 0.016, 0.09] as [number, number, number], massKg: 0.03 };
  const objects = [t, bread];
  return {
    info: {
      id: 'toaster_slot',
      description: 'Put a standing slice of bread into the slot of a toaster (a thin part to detect and aim at).',
      instruction: 'Put the bread into the toaster slot.',
      suite: 'trajectory',
      arms: 1,
      imitates: 'LM Trajectory Generators: the toaster task ("the slot of a toaster")',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'lmtg',
    apis: ['lmtg'],
    scene: singleArmScene('toaster-slot', objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      const side = l.pick([-1, 1]);
      l.at(t, [side * l.uniform(0.1, 0.15), l.uniform(0.14, 0.22)], l.uniform(-0.4, 0.4));
      l.at(bread, [-side * l.uniform(0.1, 0.16), l.uniform(0.02, 0.12)], l.uniform(-0.5, 0.5));
      return l.placements(objects);
    },
    check(view) {
      const o = find(view, t.name);
      const b = find(view, bread.name);
      const l = localOf(b.pos, o);
      const depth = o.pos[2] + T[2] / 2 - (b.pos[2] - b.size[2] / 2);
      const problems: string[] = [];
      if (Math.abs(l[0]) > SLOT[0] / 2 || Math.abs(l[1]) > SLOT[1] / 2) problems.push('the bread is not over the slot');
      if (depth < 0.03) problems.push(`the bread's bottom is ${depth.toFixed(3)} m below the toaster's top (needs 0.03: in the slot)`);
      if (held(view).includes(bread.name)) problems.push('the bread is still held');
      return verdict('toaster_slot', problems, `the bread stands in the slot, ${depth.toFixed(3)} m deep`);
    },
  };
}
