// meat_off_grill (RLBench meat_off_grill, as in MALMM): a chicken leg and a steak lie on a grill; the seed's
// variation names one of them, which goes to the serving area beside the grill. Success: that piece's centre
// lies inside the serving area (1 cm margin), resting on the table, released; the other stays on the grill.
import { atRest, find, held, onArea, onTable, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { cylinder, rgbaOf, targetArea } from '../sceneObjects.js';
import { SINGLE_ARM_WORKSPACE, TABLE_TOP_Z, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition } from '../taskDefinition.js';
import { mjcfSafe, type ObjectSpec } from '../../scene/sceneSpec.js';

const GRILL_SIZE: [number, number, number] = [0.22, 0.16, 0.04];
const MEATS = ['steak', 'chicken'] as const;

function grill(): ObjectSpec {
  return { name: 'grill', mjcfName: mjcfSafe('grill'), shape: 'box', size: GRILL_SIZE, color: 'black', rgba: rgbaOf('black'), massKg: 2, mount: { kind: 'fixed' } };
}

function steak(): ObjectSpec {
  return { name: 'steak', mjcfName: mjcfSafe('steak'), shape: 'box', size: [0.07, 0.045, 0.032], color: 'brown', rgba: rgbaOf('brown'), massKg: 0.1 };
}

export function meatOffGrillTask(): TaskDefinition {
  const g = grill();
  const meats = { steak: steak(), chicken: cylinder('chicken', 'orange', 0.02, 0.05, 0.08) };
  const area = targetArea('serving area', 'white', 0.12);
  const objects = [g, meats.steak, meats.chicken, area];
  return {
    info: {
      id: 'meat_off_grill',
      description: 'A steak and a chicken leg on a grill; the seed names one, to be put on the 12 cm serving area.',
      instruction: 'Take the steak off the grill and put it on the serving area.',
      suite: 'single-arm',
      arms: 1,
      imitates: 'MALMM / RLBench meat_off_grill',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'malmm',
    scene: singleArmScene('meat-off-grill', objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      const gp = l.scatter(g, { x: [-0.2, 0.2], y: [0.06, 0.24] }, { gapM: 0, yawRange: [-0.3, 0.3] });
      // Both pieces lie on the grill, one on each half along its length.
      const c = Math.cos(gp.yawRad);
      const s = Math.sin(gp.yawRad);
      const top = TABLE_TOP_Z + GRILL_SIZE[2];
      const onGrill = (o: ObjectSpec, along: number) => l.at(o, [gp.pos[0] + along * c, gp.pos[1] + along * s], gp.yawRad + l.uniform(-0.3, 0.3), { z: top + o.size[2] / 2 });
      onGrill(meats.steak, -0.055);
      onGrill(meats.chicken, 0.055);
      l.scatter(area, { x: [-0.24, 0.24], y: [-0.02, 0.3] }, { gapM: 0.03 });
      return l.placements(objects);
    },
    goal(rng) {
      const meat = MEATS[Math.min(MEATS.length - 1, Math.floor(rng.next() * MEATS.length))]!;
      return { instruction: `Take the ${meat} off the grill and put it on the serving area.`, params: { meat } };
    },
    check(view) {
      const meat = (view.goal?.params.meat as (typeof MEATS)[number] | undefined) ?? 'steak';
      const other = meat === 'steak' ? 'chicken' : 'steak';
      const m = find(view, meat);
      const a = find(view, area.name);
      const o = find(view, other);
      const gr = find(view, g.name);
      const problems: string[] = [];
      if (held(view).length > 0) problems.push(`${held(view).join(', ')} still grasped`);
      if (!onArea(m, a, 0.01)) problems.push(`the ${meat} at [${m.pos[0].toFixed(3)}, ${m.pos[1].toFixed(3)}] is outside the serving area centred at [${a.pos[0].toFixed(3)}, ${a.pos[1].toFixed(3)}]`);
      else if (!onTable(m, view)) problems.push(`the ${meat} is not resting on the table (z ${m.pos[2].toFixed(3)})`);
      if (!atRest(m)) problems.push(`the ${meat} is still moving`);
      if (!onArea(o, gr, 0)) problems.push(`the ${other} left the grill`);
      return verdict('meat_off_grill', problems, `the ${meat} rests on the serving area and the ${other} is still on the grill`);
    },
  };
}
