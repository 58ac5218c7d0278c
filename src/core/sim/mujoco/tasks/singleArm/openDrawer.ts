// open_drawer (RLBench open_drawer, as in MALMM's suite): a low cabinet with three drawers side by side; the
// seed says which one to open. Success: that drawer pulled out >= 10 cm, the others < 3 cm.
import { drawerCabinet } from '../sceneObjects.js';
import { find, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { SINGLE_ARM_WORKSPACE, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition } from '../taskDefinition.js';

export const DRAWER_OPEN_M = 0.1;
const SIDES = ['left', 'middle', 'right'] as const;

export function openDrawerTask(): TaskDefinition {
  const [cabinet, ...drawers] = drawerCabinet(SIDES.map((s) => `${s} drawer`), 'white');
  const objects = [cabinet!, ...drawers];
  return {
    info: {
      id: 'open_drawer',
      description: 'Pull one of three side-by-side drawers (slide joints) open by at least 10 cm; the seed picks which.',
      instruction: 'Open the middle drawer.',
      suite: 'single-arm',
      arms: 1,
      imitates: 'MALMM suite / RLBench open_drawer',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'malmm',
    apis: ['malmm', 'lmtg'],
    scene: singleArmScene('open-drawer', objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      l.at(cabinet!, [l.uniform(-0.08, 0.08), l.uniform(0.28, 0.34)]);
      for (const d of drawers) l.slide(d);
      return l.placements(objects);
    },
    goal(rng) {
      const side = SIDES[Math.floor(rng.next() * SIDES.length)]!;
      return { instruction: `Open the ${side} drawer.`, params: { drawer: `${side} drawer` } };
    },
    check(view) {
      const want = String(view.goal?.params['drawer'] ?? 'middle drawer');
      const problems: string[] = [];
      const states = drawers.map((d) => ({ name: d.name, open: find(view, d.name).slideM ?? 0 }));
      for (const s of states) {
        if (s.name === want && s.open < DRAWER_OPEN_M) problems.push(`the ${s.name} is open ${s.open.toFixed(3)} m (needs ${DRAWER_OPEN_M})`);
        if (s.name !== want && s.open >= 0.03) problems.push(`the ${s.name} is open ${s.open.toFixed(3)} m too`);
      }
      return verdict('open_drawer', problems, `the ${want} is open ${states.find((s) => s.name === want)!.open.toFixed(3)} m`);
    },
  };
}
