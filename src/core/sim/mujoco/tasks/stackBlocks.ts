// stack_blocks (RLBench stack_blocks, as MALMM poses it: "Stack four blocks at the green target area", Fig. 1/10):
// a green target area on the table, N red blocks to stack on it and two blue distractor blocks. Success, as
// RLBench's detector counts it: a column standing on the area (its bottom block on the table inside the area, each
// block on the one below, one per level) holds at least N red blocks, released and at rest. A stack of the blue
// blocks, or a red stack beside the area, does not count.
import type { TaskCheckResult } from '../../simulator.js';
import { atRest, find, held, onArea } from './checks.js';
import { LayoutBuilder } from './layout.js';
import { cube, targetArea } from './sceneObjects.js';
import { SINGLE_ARM_WORKSPACE, singleArmScene } from './tabletopCommon.js';
import type { TaskDefinition, TaskView } from './taskDefinition.js';

/** A block sits on the one below when their centres are this close in xy. */
export const STACK_XY_TOL_M = 0.025;
/** A block's centre must be within this of its level's nominal height. */
export const STACK_LEVEL_TOL_M = 0.012;
const EDGE_M = 0.05;
const AREA_SIDE_M = 0.12;
/** Footprint gap between scattered things: 0.12 m centre to centre for two blocks, so the 0.18 m palm rarely brushes a neighbour. */
const GAP_M = 0.05;

export const STACK_COLOR = 'red';
export const DISTRACTOR_COLOR = 'blue';
const DISTRACTORS = 2;
const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four'];

export function stackBlocksTask(count: 2 | 3 | 4): TaskDefinition {
  const id = count === 3 ? 'stack_blocks' : `stack_blocks_${count}`;
  const area = targetArea('target area', 'green', AREA_SIDE_M);
  const targets = Array.from({ length: count }, (_, i) => cube(`${STACK_COLOR} block ${i + 1}`, STACK_COLOR, EDGE_M));
  const distractors = Array.from({ length: DISTRACTORS }, (_, i) => cube(`${DISTRACTOR_COLOR} block ${i + 1}`, DISTRACTOR_COLOR, EDGE_M));
  const blocks = [...targets, ...distractors];
  const objects = [...blocks, area];
  return {
    info: {
      id,
      description: `Stack ${count} red 5 cm cubes on a 12 cm green target area; ${DISTRACTORS} blue distractor cubes (random positions and yaws).`,
      instruction: `Stack ${NUMBER_WORDS[count]} ${STACK_COLOR} blocks at the green target area.`,
      suite: 'single-arm',
      arms: 1,
      imitates: 'MALMM / RLBench stack_blocks',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'malmm',
    scene: singleArmScene(`stack-blocks-${count}`, objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      l.scatter(area, { x: [-0.18, 0.18], y: [0.06, 0.24] }, { gapM: 0 });
      for (const b of blocks) l.scatter(b, { x: [-0.26, 0.26], y: [-0.01, 0.31] }, { gapM: GAP_M });
      return l.placements(objects);
    },
    check: (view) => checkStack(view, area.name, targets.map((t) => t.name), count),
  };
}

/**
 * Whether a column on `areaName` holds `needed` of `targetNames`: its bottom block on the table with its centre
 * inside the area, each next block within STACK_XY_TOL_M of the one below at the next level; nothing held, the
 * column at rest. Other blocks may be anywhere (RLBench counts the target-colour blocks its detector sees).
 */
export function checkStack(view: TaskView, areaName: string, targetNames: readonly string[], needed: number): TaskCheckResult {
  const area = find(view, areaName);
  const blocks = view.objects.filter((o) => o !== area);
  const h = blocks[0]?.size[2] ?? EDGE_M;
  const levelOf = (z: number): number | undefined => {
    const level = Math.round((z - view.tableTopZ - h / 2) / h);
    return level >= 0 && Math.abs(z - (view.tableTopZ + h / 2 + level * h)) <= STACK_LEVEL_TOL_M ? level : undefined;
  };
  const isTarget = (name: string) => targetNames.includes(name);
  let best: (typeof blocks)[number][] = [];
  for (const bottom of blocks.filter((b) => levelOf(b.pos[2]) === 0 && onArea(b, area))) {
    const column = [bottom];
    for (;;) {
      const below = column[column.length - 1]!;
      const next = blocks.find((b) => !column.includes(b) && levelOf(b.pos[2]) === column.length && Math.hypot(b.pos[0] - below.pos[0], b.pos[1] - below.pos[1]) <= STACK_XY_TOL_M);
      if (!next) break;
      column.push(next);
    }
    const [have, had] = [column, best].map((c) => c.filter((b) => isTarget(b.name)).length) as [number, number];
    if (have > had || (have === had && column.length > best.length)) best = column;
  }
  const stacked = best.filter((b) => isTarget(b.name));
  const problems: string[] = [];
  const grasped = held(view);
  if (grasped.length > 0) problems.push(`${grasped.join(', ')} still grasped`);
  if (stacked.length < needed) {
    const onIt = best.length > 0 ? `the column on the ${areaName} is ${best.map((b) => b.name).join(', ')} (bottom first)` : `no block stands on the ${areaName}`;
    const elsewhere = targetNames.filter((n) => !best.some((b) => b.name === n)).map((n) => {
      const o = find(view, n);
      const off = onArea(o, area) ? 'on the area, not in the column' : `off the area, ${Math.hypot(o.pos[0] - area.pos[0], o.pos[1] - area.pos[1]).toFixed(3)} m (xy) from its centre`;
      return `${n} at z ${o.pos[2].toFixed(3)} ${off}`;
    });
    problems.push(`${stacked.length} of ${needed} target-colour blocks stacked: ${onIt}${elsewhere.length > 0 ? `; ${elsewhere.join('; ')}` : ''}`);
  }
  const moving = best.filter((o) => !atRest(o));
  if (moving.length > 0) problems.push(`not at rest: ${moving.map((o) => `${o.name} (${o.linearSpeed.toFixed(3)} m/s)`).join(', ')}`);
  if (problems.length > 0) return { success: false, detail: `stack_blocks not done: ${problems.join('; ')}` };
  return { success: true, detail: `stacked on the ${areaName}: ${best.map((b, i) => `${b.name} at level ${i}`).join(', ')}; all at rest` };
}
