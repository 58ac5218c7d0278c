// The three table-clearing scenes (Action Contextualization, Sec. IV): bin, sink, shelf.
import { container, crumpledPaper, cube, cylinder, glass, overheadLamp, shelf, sink, sphere } from '../sceneObjects.js';
import { mjcfSafe, type ObjectSpec } from '../../scene/sceneSpec.js';
import { clearingTask } from './clearTable.js';
import type { TaskDefinition } from '../taskDefinition.js';

function named(o: ObjectSpec, name: string): ObjectSpec {
  return { ...o, name, mjcfName: mjcfSafe(name) };
}

/** Paper balls into the trash can; ball 2 sits between a tuna can and a soap bar (1 cm to the open fingers). */
export function clearTableBinTask(): TaskDefinition {
  const bin = container('large red trash can', 'red', [0.2, 0.2, 0.16], { fixed: true, wallM: 0.01 });
  const ball1 = crumpledPaper('crumpled paper ball 1');
  const ball2 = crumpledPaper('crumpled paper ball 2');
  const tuna = cylinder('tuna can', 'grey', 0.04, 0.05, 0.2);
  const soap = named({ ...cube('soap', 'pink'), size: [0.06, 0.09, 0.035], massKg: 0.12 }, 'soap bar');
  const objects = [bin, ball1, ball2, tuna, soap];
  return clearingTask({
    id: 'clear_table_bin',
    key: 'clear-table-bin',
    description: 'Throw two paper balls into a trash can; one is wedged between a tuna can and a soap bar (needs a small obstacle_clearance).',
    instruction: "Put away the 'crumpled paper ball 1' and the 'crumpled paper ball 2' into the 'large red trash can'.",
    objects,
    locations: [{ name: bin.name, kind: 'container', wallM: 0.01 }],
    goals: { [ball1.name]: bin.name, [ball2.name]: bin.name },
    layout(l) {
      const side = l.pick([-1, 1]);
      l.at(bin, [side * 0.2, l.uniform(0.22, 0.28)]);
      // Ball 2 in front, its neighbours across the line from the robot's base so the open fingers pass them 1 cm apart.
      const b2: [number, number] = [-side * l.uniform(0.05, 0.12), l.uniform(0.12, 0.2)];
      const base: [number, number] = [0, -0.35];
      const d = Math.hypot(b2[0] - base[0], b2[1] - base[1]);
      const perp: [number, number] = [-(b2[1] - base[1]) / d, (b2[0] - base[0]) / d];
      const yaw = Math.atan2(b2[1] - base[1], b2[0] - base[0]);
      l.at(ball2, b2, yaw);
      // Open pads reach 0.052 m to each side; neighbours' near faces at 0.062 m.
      l.at(tuna, [b2[0] + perp[0] * (0.062 + 0.04), b2[1] + perp[1] * (0.062 + 0.04)]);
      l.at(soap, [b2[0] - perp[0] * (0.062 + 0.03), b2[1] - perp[1] * (0.062 + 0.03)], yaw + Math.PI / 2);
      l.scatter(ball1, { x: [-0.25, 0.25], y: [-0.02, 0.3] }, { gapM: 0.08, yawRange: [-Math.PI, Math.PI] });
    },
  });
}

/** Two glasses into the sink; the full one is watched for spills (tilt, falling). */
export function clearTableSinkTask(): TaskDefinition {
  const basin = sink('large white sink', 'white');
  // Thick walls: the fingers grip glasses from outside (a thin wall lets fast fingers tunnel through).
  const full = named(glass('glass', 'cyan', 0.034, 0.12, true, 0.008), 'glass with yellowish liquid');
  const empty = named(glass('glass', 'cyan', 0.034, 0.12, false, 0.008), 'empty glass');
  const objects = [basin, full, empty];
  return clearingTask({
    id: 'clear_table_sink',
    key: 'clear-table-sink',
    description: 'Put a full and an empty glass into the sink; the full glass must stay upright (spill if tilted > 0.35 rad or dropped).',
    instruction: "Put away the 'glass with yellowish liquid' and the 'empty glass' into the 'large white sink'.",
    objects,
    locations: [{ name: basin.name, kind: 'container', wallM: 0.015 }],
    goals: { [full.name]: basin.name, [empty.name]: basin.name },
    upright: [full.name],
    fullGlass: full.name,
    layout(l) {
      const side = l.pick([-1, 1]);
      l.at(basin, [side * 0.15, l.uniform(0.2, 0.26)]);
      for (const g of [full, empty]) l.scatter(g, { x: side > 0 ? [-0.25, 0.0] : [0.0, 0.25], y: [0.0, 0.28] }, { gapM: 0.06 });
    },
  });
}

/** Two apples onto the shelf; the half-eaten one is under an overhead lamp (a top grasp cannot reach it). */
export function clearTableShelfTask(): TaskDefinition {
  const rack = shelf('storage shelf', 'brown');
  const eaten = sphere('half-eaten apple', 'yellow', 0.035, 0.12);
  const whole = sphere('whole apple', 'red', 0.036, 0.15);
  const lamp = overheadLamp('overhead lamp', 'black', 0.22, [0, 0.07]);
  const objects = [rack, eaten, whole, lamp];
  return clearingTask({
    id: 'clear_table_shelf',
    key: 'clear-table-shelf',
    description: 'Put two apples on a storage shelf; the half-eaten one lies under an overhead lamp, so only a side grasp reaches it.',
    instruction: "Put away the 'half-eaten apple' and the 'whole apple' onto the 'storage shelf'.",
    objects,
    locations: [{ name: rack.name, kind: 'surface' }],
    goals: { [eaten.name]: rack.name, [whole.name]: rack.name },
    layout(l) {
      const side = l.pick([-1, 1]);
      l.at(rack, [side * 0.26, l.uniform(0.2, 0.26)]);
      // Far enough out that the hand can turn sideways in front of the lamp, and clear of the shelf (a side-turned
      // palm reaches 9 cm to either side).
      const a: [number, number] = [-side * l.uniform(0.04, 0.1), l.uniform(0.22, 0.27)];
      l.at(eaten, a);
      // The shade hangs over the apple; its pole stands behind it (away from the robot).
      l.at(lamp, a, 0, { z: 0.75 + 0.115 });
      // The whole apple lies on the lamp's side of the table, away from the side-approach corridor.
      l.scatter(whole, { x: side > 0 ? [-0.26, -0.18] : [0.18, 0.26], y: [-0.02, 0.1] }, { gapM: 0.04 });
    },
  });
}
