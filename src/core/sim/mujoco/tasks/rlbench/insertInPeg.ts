// insert_in_peg (RLBench insert_onto_square_peg, "insert in peg" in MALMM): a square ring lies on the table beside
// three coloured pegs; the seed's variation names the peg. Success: the ring is threaded on that peg (its centre
// within 1.5 cm of the peg's axis, its bottom below the peg's top by at least 3 cm), released, at rest.
import { atRest, find, held, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { cylinder, rgbaOf } from '../sceneObjects.js';
import { SINGLE_ARM_WORKSPACE, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition } from '../taskDefinition.js';
import { mjcfSafe, type ObjectSpec, type PartSpec } from '../../scene/sceneSpec.js';

const RING_SIDE_M = 0.06;
const RING_WALL_M = 0.012;
// Thick enough that pads closing at its centre stay clear of the table (they reach 14 mm below the tool point).
const RING_HEIGHT_M = 0.032;
const PEG_RADIUS_M = 0.01;
const PEG_HEIGHT_M = 0.1;
const PEG_COLORS = ['red', 'green', 'blue'] as const;

/** Four walls around a square hole (no bottom): the hole is 3.6 cm across, the peg 2 cm. */
function squareRing(name: string, color: string): ObjectSpec {
  const h = RING_SIDE_M / 2;
  const t = RING_WALL_M / 2;
  const z = RING_HEIGHT_M / 2;
  const parts: PartSpec[] = [
    { shape: 'box', size: [h, t, z], pos: [0, h - t, 0] },
    { shape: 'box', size: [h, t, z], pos: [0, -h + t, 0] },
    { shape: 'box', size: [t, h - 2 * t, z], pos: [h - t, 0, 0] },
    { shape: 'box', size: [t, h - 2 * t, z], pos: [-h + t, 0, 0] },
  ];
  return { name, mjcfName: mjcfSafe(name), shape: 'compound', size: [RING_SIDE_M, RING_SIDE_M, RING_HEIGHT_M], color, rgba: rgbaOf(color), massKg: 0.05, parts };
}

export function insertInPegTask(): TaskDefinition {
  const ring = squareRing('square ring', 'yellow');
  const pegs = PEG_COLORS.map((c) => ({ ...cylinder(`${c} peg`, c, PEG_RADIUS_M, PEG_HEIGHT_M, 0.1), mount: { kind: 'fixed' as const } }));
  const objects = [ring, ...pegs];
  return {
    info: {
      id: 'insert_in_peg',
      description: 'A 6 cm square ring and three 10 cm coloured pegs; the seed names the peg the ring goes onto.',
      instruction: 'Insert the square ring into the red peg.',
      suite: 'single-arm',
      arms: 1,
      imitates: 'MALMM / RLBench insert_onto_square_peg',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'malmm',
    scene: singleArmScene('insert-in-peg', objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      for (const p of pegs) l.scatter(p, { x: [-0.22, 0.22], y: [0.02, 0.28] }, { gapM: 0.09 });
      l.scatter(ring, { x: [-0.24, 0.24], y: [0.0, 0.3] }, { gapM: 0.06 });
      return l.placements(objects);
    },
    goal(rng) {
      const color = PEG_COLORS[Math.min(PEG_COLORS.length - 1, Math.floor(rng.next() * PEG_COLORS.length))]!;
      // MALMM's wording (Table IV, "Insert the square ring into the colored peg."), no hint how.
      return { instruction: `Insert the square ring into the ${color} peg.`, params: { peg: `${color} peg` } };
    },
    check(view) {
      const pegName = (view.goal?.params.peg as string | undefined) ?? 'red peg';
      const p = find(view, pegName);
      const r = find(view, ring.name);
      const off = Math.hypot(r.pos[0] - p.pos[0], r.pos[1] - p.pos[1]);
      const pegTop = p.pos[2] + PEG_HEIGHT_M / 2;
      const ringBottom = r.pos[2] - RING_HEIGHT_M / 2;
      const problems: string[] = [];
      if (held(view).length > 0) problems.push(`${held(view).join(', ')} still grasped`);
      if (off > 0.015) problems.push(`the ring's centre is ${(off * 100).toFixed(1)} cm from the ${pegName}'s axis`);
      else if (ringBottom > pegTop - 0.03) problems.push(`the ring is not down the ${pegName} (its bottom at z ${ringBottom.toFixed(3)}, the peg's top at ${pegTop.toFixed(3)})`);
      if (!atRest(r)) problems.push('the ring is still moving');
      return verdict('insert_in_peg', problems, `the square ring is on the ${pegName}`);
    },
  };
}
