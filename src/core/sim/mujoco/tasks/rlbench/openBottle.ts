// open_bottle (RLBench open_wine_bottle, "open bottle" in MALMM): a wine bottle stands on the table with a cap on
// its neck. The cap's skirt hangs 2 cm down around the neck, so it comes off only by lifting it (a sideways pull
// jams it against the neck and tips the bottle). RLBench has one variation; the seed moves the bottle. Success:
// the cap is off the bottle (its centre more than 4 cm from the bottle's axis, or below the neck's top by more
// than the skirt), released, and the bottle still stands.
import { find, held, tiltOf, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { rgbaOf } from '../sceneObjects.js';
import { SINGLE_ARM_WORKSPACE, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition } from '../taskDefinition.js';
import { mjcfSafe, type ObjectSpec } from '../../scene/sceneSpec.js';

const BODY_RADIUS_M = 0.034;
const BODY_HEIGHT_M = 0.15;
const NECK_RADIUS_M = 0.012;
const NECK_HEIGHT_M = 0.07;
export const BOTTLE_HEIGHT_M = BODY_HEIGHT_M + NECK_HEIGHT_M;
/** The cap: a 4 cm square top with a skirt of four walls; its opening is 3 cm across (the neck is 2.4 cm). */
const CAP_SIDE_M = 0.04;
const CAP_WALL_M = 0.005;
const CAP_TOP_M = 0.008;
const CAP_HEIGHT_M = 0.03;

/** Body and neck, one fixed-shape free object; frame at the bounding box centre. */
function wineBottle(name: string, color: string): ObjectSpec {
  const zBody = -BOTTLE_HEIGHT_M / 2 + BODY_HEIGHT_M / 2;
  const zNeck = BOTTLE_HEIGHT_M / 2 - NECK_HEIGHT_M / 2;
  return {
    name,
    mjcfName: mjcfSafe(name),
    shape: 'compound',
    size: [2 * BODY_RADIUS_M, 2 * BODY_RADIUS_M, BOTTLE_HEIGHT_M],
    color,
    rgba: rgbaOf(color),
    massKg: 0.8,
    parts: [
      { shape: 'cylinder', size: [BODY_RADIUS_M, BODY_HEIGHT_M / 2], pos: [0, 0, zBody], massKg: 0.75 },
      { shape: 'cylinder', size: [NECK_RADIUS_M, NECK_HEIGHT_M / 2], pos: [0, 0, zNeck], massKg: 0.05 },
    ],
  };
}

/** The cap: a top plate and four skirt walls. Frame at the bounding box centre. */
function cap(name: string, color: string): ObjectSpec {
  const h = CAP_SIDE_M / 2;
  const t = CAP_WALL_M / 2;
  const skirt = (CAP_HEIGHT_M - CAP_TOP_M) / 2;
  const zSkirt = -CAP_HEIGHT_M / 2 + skirt;
  return {
    name,
    mjcfName: mjcfSafe(name),
    shape: 'compound',
    size: [CAP_SIDE_M, CAP_SIDE_M, CAP_HEIGHT_M],
    color,
    rgba: rgbaOf(color),
    massKg: 0.02,
    parts: [
      { shape: 'box', size: [h, h, CAP_TOP_M / 2], pos: [0, 0, CAP_HEIGHT_M / 2 - CAP_TOP_M / 2] },
      { shape: 'box', size: [h, t, skirt], pos: [0, h - t, zSkirt] },
      { shape: 'box', size: [h, t, skirt], pos: [0, -h + t, zSkirt] },
      { shape: 'box', size: [t, h - 2 * t, skirt], pos: [h - t, 0, zSkirt] },
      { shape: 'box', size: [t, h - 2 * t, skirt], pos: [-h + t, 0, zSkirt] },
    ],
  };
}

export function openBottleTask(): TaskDefinition {
  const bottle = wineBottle('wine bottle', 'green');
  const c = cap('cap', 'yellow');
  const objects = [bottle, c];
  return {
    info: {
      id: 'open_bottle',
      description: 'A 22 cm wine bottle with a cap on its neck (a skirt 2.2 cm down the neck); take the cap off, the bottle left standing.',
      instruction: 'Remove the cap of the wine bottle.',
      suite: 'single-arm',
      arms: 1,
      imitates: 'MALMM / RLBench open_wine_bottle',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'malmm',
    scene: singleArmScene('open-bottle', objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      const b = l.scatter(bottle, { x: [-0.2, 0.2], y: [0.02, 0.26] }, { yawRange: [-Math.PI, Math.PI] });
      // Resting on the neck: the top plate's underside on the neck's top face (0.5 mm above it).
      const neckTop = b.pos[2] + BOTTLE_HEIGHT_M / 2;
      l.at(c, [b.pos[0], b.pos[1]], l.uniform(-Math.PI / 4, Math.PI / 4), { z: neckTop + 0.0005 + CAP_TOP_M - CAP_HEIGHT_M / 2 });
      return l.placements(objects);
    },
    check(view) {
      const b = find(view, bottle.name);
      const k = find(view, c.name);
      const neckTop = b.pos[2] + BOTTLE_HEIGHT_M / 2;
      const off = Math.hypot(k.pos[0] - b.pos[0], k.pos[1] - b.pos[1]);
      const capBottom = k.pos[2] - CAP_HEIGHT_M / 2;
      const problems: string[] = [];
      if (held(view).length > 0) problems.push(`${held(view).join(', ')} still grasped`);
      const onNeck = off < 0.04 && capBottom > neckTop - CAP_HEIGHT_M - 0.005;
      if (onNeck) problems.push(`the cap is still on the bottle (${(off * 100).toFixed(1)} cm from its axis, its bottom at z ${capBottom.toFixed(3)}, the neck's top at ${neckTop.toFixed(3)})`);
      if (tiltOf(b) > 0.3) problems.push('the wine bottle fell over');
      return verdict('open_bottle', problems, `the cap is off the wine bottle (${(off * 100).toFixed(1)} cm from its axis) and the bottle stands`);
    },
  };
}
