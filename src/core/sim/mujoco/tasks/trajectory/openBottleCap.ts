// open_bottle_cap (LM Trajectory Generators: "open the bottle cap"): a cap sits on a bottle. Opening it = turning
// it anticlockwise (seen from above) by >= 1 rad while it sits on the bottle, as one unscrews, then lifting it off
// and putting it on the table. A monitor sums the cap's turn while seated. Success: turned >= 1 rad anticlockwise,
// the cap is off the bottle (>= 6 cm from its axis), released; the bottle stands.
import { cylinder } from '../sceneObjects.js';
import { find, held, tiltOf, verdict, yawOf } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { SINGLE_ARM_WORKSPACE, TABLE_TOP_Z, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition, TaskMonitor } from '../taskDefinition.js';

export const UNSCREW_RAD = 1.0;
const BOTTLE_H = 0.16;
const CAP_H = 0.035;

function turnMonitor(): TaskMonitor {
  let turned = 0;
  let last: number | null = null;
  return {
    sample(view) {
      const b = find(view, 'bottle');
      const c = find(view, 'bottle cap');
      const seated = Math.hypot(c.pos[0] - b.pos[0], c.pos[1] - b.pos[1]) < 0.01 && Math.abs(c.pos[2] - (b.pos[2] + BOTTLE_H / 2 + CAP_H / 2)) < 0.008;
      const yaw = yawOf(c);
      if (seated && last !== null) turned += Math.atan2(Math.sin(yaw - last), Math.cos(yaw - last));
      last = seated ? yaw : null;
    },
    state: () => ({ turned: Math.round(turned * 1e4) / 1e4, last }),
    load(s) {
      const v = (s ?? {}) as { turned?: number; last?: number | null };
      turned = v.turned ?? 0;
      last = v.last ?? null;
    },
  };
}

export function openBottleCapTask(): TaskDefinition {
  const bottle = cylinder('bottle', 'green', 0.035, BOTTLE_H, 0.8);
  const cap = cylinder('bottle cap', 'white', 0.02, CAP_H, 0.02);
  const objects = [bottle, cap];
  return {
    info: {
      id: 'open_bottle_cap',
      description: 'Unscrew a cap (turn it >= 1 rad anticlockwise while seated), lift it off and put it on the table.',
      instruction: 'open the bottle cap',
      suite: 'trajectory',
      arms: 1,
      imitates: 'LM Trajectory Generators: open the bottle cap',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'lmtg',
    apis: ['lmtg'],
    scene: singleArmScene('open-bottle-cap', objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      const xy: [number, number] = [l.uniform(-0.12, 0.12), l.uniform(0.08, 0.2)];
      l.at(bottle, xy);
      l.at(cap, xy, l.uniform(-0.5, 0.5), { z: TABLE_TOP_Z + BOTTLE_H + CAP_H / 2 });
      return l.placements(objects);
    },
    monitor: turnMonitor,
    check(view) {
      const b = find(view, bottle.name);
      const c = find(view, cap.name);
      const turned = ((view.monitor ?? {}) as { turned?: number }).turned ?? 0;
      const off = Math.hypot(c.pos[0] - b.pos[0], c.pos[1] - b.pos[1]);
      const problems: string[] = [];
      if (turned < UNSCREW_RAD) problems.push(`the cap was turned ${turned.toFixed(2)} rad anticlockwise on the bottle (needs ${UNSCREW_RAD})`);
      if (off < 0.06) problems.push(`the cap is ${off.toFixed(3)} m from the bottle's axis (needs 0.06: off the bottle)`);
      if (held(view).includes(cap.name)) problems.push('the cap is still held');
      if (tiltOf(b) > 0.2) problems.push('the bottle fell over');
      return verdict('open_bottle_cap', problems, `unscrewed ${turned.toFixed(2)} rad and put down ${off.toFixed(3)} m from the bottle`);
    },
  };
}
