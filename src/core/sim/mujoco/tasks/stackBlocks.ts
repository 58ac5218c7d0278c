// stack_blocks (imitates RLBench's stack_blocks as used by MALMM): N cubes of distinct colours lie on the
// table; the agent must stack all of them on the base (green) block. Success is geometric: every other block
// rests within 2.5 cm (xy) of the base, one per level, none held, everything at rest.
import type { TaskCheckResult } from '../../simulator.js';
import { SINGLE_ARM, SINGLE_ARM_WORKSPACE, TABLE, TIMESTEP_SECS, block, scatterOnTable } from './tabletopCommon.js';
import type { TaskDefinition, TaskView } from './taskDefinition.js';

export const STACK_XY_TOL_M = 0.025;
/** A block's centre must be within this of its level's nominal height. */
export const STACK_LEVEL_TOL_M = 0.012;
export const REST_LINEAR_MPS = 0.01;
export const REST_ANGULAR_RADPS = 0.1;
/** Centre-to-centre; 0.12 rather than 0.1 so the 0.18 m wide palm rarely brushes a neighbouring stack. */
const MIN_SEPARATION_M = 0.12;
const EDGE_MARGIN_M = 0.04;

const BASE_COLOR = 'green';
const MOVABLE_COLORS = ['red', 'blue', 'yellow'];

export function stackBlocksTask(blockCount: 2 | 3 | 4): TaskDefinition {
  const id = blockCount === 3 ? 'stack_blocks' : `stack_blocks_${blockCount}`;
  const movable = MOVABLE_COLORS.slice(0, blockCount - 1).map((c) => block(c));
  const base = block(BASE_COLOR);
  const objects = [base, ...movable];
  const names = movable.map((b) => `the ${b.name}`);
  const list = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return {
    info: {
      id,
      description: `Stack ${blockCount - 1} coloured 5 cm cube${blockCount > 2 ? 's' : ''} on a ${BASE_COLOR} base cube (${blockCount} blocks, random positions and yaws).`,
      instruction: `Stack ${list} on top of the ${base.name}.`,
      suite: 'single-arm',
      arms: 1,
      imitates: 'MALMM / RLBench stack_blocks',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'malmm',
    scene: { key: `tabletop-blocks-${blockCount}`, table: TABLE, arms: [SINGLE_ARM], objects, timestepSecs: TIMESTEP_SECS },
    layout: (rng) => scatterOnTable(rng, objects, SINGLE_ARM_WORKSPACE, MIN_SEPARATION_M, EDGE_MARGIN_M),
    check: (view) => checkStack(view, base.name),
  };
}

export function checkStack(view: TaskView, baseName: string): TaskCheckResult {
  const base = view.objects.find((o) => o.name === baseName);
  if (!base) return { success: false, detail: `no base object '${baseName}' in the scene` };
  const h = base.size[2];
  const problems: string[] = [];
  const held = view.grasped.filter((g): g is string => g !== null);
  if (held.length > 0) problems.push(`${held.join(', ')} still grasped`);
  const baseRestZ = view.tableTopZ + h / 2;
  if (Math.abs(base.pos[2] - baseRestZ) > STACK_LEVEL_TOL_M) problems.push(`${base.name} is not on the table (z ${base.pos[2].toFixed(4)}, expected ${baseRestZ.toFixed(4)})`);
  const placed: string[] = [];
  const levels = new Map<number, string>();
  for (const o of view.objects) {
    if (o === base) continue;
    const dxy = Math.hypot(o.pos[0] - base.pos[0], o.pos[1] - base.pos[1]);
    const level = Math.round((o.pos[2] - base.pos[2]) / h);
    const expectedZ = base.pos[2] + level * h;
    if (dxy > STACK_XY_TOL_M) problems.push(`${o.name} is ${dxy.toFixed(4)} m (xy) from the ${base.name} (limit ${STACK_XY_TOL_M})`);
    else if (level < 1 || Math.abs(o.pos[2] - expectedZ) > STACK_LEVEL_TOL_M) problems.push(`${o.name} is at z ${o.pos[2].toFixed(4)}, not at a stack level`);
    else if (levels.has(level)) problems.push(`${o.name} and ${levels.get(level)} are both at level ${level}`);
    else {
      levels.set(level, o.name);
      placed.push(`${o.name} at level ${level} (xy offset ${dxy.toFixed(4)} m)`);
    }
  }
  const moving = view.objects.filter((o) => o.linearSpeed > REST_LINEAR_MPS || o.angularSpeed > REST_ANGULAR_RADPS);
  if (moving.length > 0) problems.push(`not at rest: ${moving.map((o) => `${o.name} (${o.linearSpeed.toFixed(3)} m/s)`).join(', ')}`);
  if (problems.length > 0) return { success: false, detail: `stack_blocks not done: ${problems.join('; ')}` };
  return { success: true, detail: `stacked on the ${base.name}: ${placed.join(', ')}; all at rest` };
}
