// wipe_plate (LM Trajectory Generators: "wipe the plate with the sponge"): grasp the sponge and wipe the plate.
// A monitor marks the plate's 1 cm cells the sponge's bottom face passed over while touching the plate.
// Success: >= 75% of the plate wiped.
import { cube, plate, tool } from '../sceneObjects.js';
import { find, localOf, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { mjcfSafe } from '../../scene/sceneSpec.js';
import { SINGLE_ARM_WORKSPACE, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition, TaskMonitor } from '../taskDefinition.js';

const PLATE_R = 0.1;
const CELL_M = 0.01;
const SPONGE: [number, number, number] = [0.07, 0.05, 0.03];
/** The sponge's bottom counts as touching within this of the plate's top. */
const CONTACT_M = 0.006;
export const WIPE_COVERAGE = 0.75;

/** Cell centres (plate frame) of the disc, row by row. */
function cells(): [number, number][] {
  const out: [number, number][] = [];
  const n = Math.ceil(PLATE_R / CELL_M);
  for (let i = -n; i < n; i++)
    for (let j = -n; j < n; j++) {
      const c: [number, number] = [(i + 0.5) * CELL_M, (j + 0.5) * CELL_M];
      if (Math.hypot(c[0], c[1]) <= PLATE_R - CELL_M / 2) out.push(c);
    }
  return out;
}

function wipeMonitor(): TaskMonitor {
  const grid = cells();
  let wiped = new Set<number>();
  return {
    sample(view) {
      const s = find(view, 'sponge');
      const p = find(view, 'plate');
      const plateTop = p.pos[2] + p.size[2] / 2;
      if (s.pos[2] - s.size[2] / 2 - plateTop > CONTACT_M) return;
      grid.forEach(([cx, cy], k) => {
        if (wiped.has(k)) return;
        // Cell centre in the sponge's frame.
        const l = localOf([p.pos[0] + cx, p.pos[1] + cy, s.pos[2]], s);
        if (Math.abs(l[0]) <= SPONGE[0] / 2 && Math.abs(l[1]) <= SPONGE[1] / 2) wiped.add(k);
      });
    },
    state: () => ({ wiped: [...wiped].sort((a, b) => a - b), cells: grid.length }),
    load(s) {
      wiped = new Set((s as { wiped?: number[] }).wiped ?? []);
    },
  };
}

export function wipePlateTask(): TaskDefinition {
  const dish = plate('plate', 'white', PLATE_R);
  const sponge = tool({ ...cube('sponge', 'yellow'), name: 'sponge', mjcfName: mjcfSafe('sponge'), size: SPONGE, massKg: 0.03 });
  const objects = [dish, sponge];
  return {
    info: {
      id: 'wipe_plate',
      description: 'Grasp a sponge and wipe at least 75% of a 20 cm plate (coverage of 1 cm cells under the sponge).',
      instruction: 'wipe the plate with the sponge',
      suite: 'trajectory',
      arms: 1,
      imitates: 'LM Trajectory Generators: wipe the plate with the sponge',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'lmtg',
    apis: ['lmtg', 'malmm'],
    scene: singleArmScene('wipe-plate', objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      const side = l.pick([-1, 1]);
      l.at(dish, [side * l.uniform(0.08, 0.14), l.uniform(0.12, 0.22)]);
      l.scatter(sponge, { x: side > 0 ? [-0.26, -0.12] : [0.12, 0.26], y: [0.0, 0.3] }, { gapM: 0.04 });
      return l.placements(objects);
    },
    monitor: wipeMonitor,
    check(view) {
      const m = (view.monitor ?? {}) as { wiped?: number[]; cells?: number };
      const coverage = (m.wiped?.length ?? 0) / (m.cells ?? cells().length);
      return verdict('wipe_plate', coverage >= WIPE_COVERAGE ? [] : [`${(coverage * 100).toFixed(0)}% of the plate wiped (needs ${WIPE_COVERAGE * 100}%)`], `${(coverage * 100).toFixed(0)}% of the plate wiped`);
    },
  };
}
