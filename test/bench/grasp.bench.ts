// npm run bench:grasp — the scripted (non-LLM) solutions of every task of every tabletop architecture, seeds
// 0..N-1 per task, under both grasp models: friction grasps (the default for every robot API; objects can slip and
// drop) against weld grasps (held until opened). MALMM's API (its tasks and the single-arm suite), LMTG (the
// trajectory suite), Action Contextualization (the table-clearing scenes) and RoCo (the multi-arm tasks): every task
// of the task registry, under its default API. Prints a markdown table for docs/simulator.md: successes, Wilson 95%
// interval, how many grasps slipped, and the failures.
// Options: --seeds 20 --only <task,...> --arch <malmm,lmtg,actctx,roco>. Hours for every task at 20 seeds on a
// shared 2-core machine; issue 25's table was measured at fewer seeds (see the docs).
import { parseArgs } from 'node:util';
import { createTabletopSimulator } from '../../src/core/sim/mujoco/index.js';
import type { GraspMode } from '../../src/core/sim/mujoco/simState.js';
import type { ApiCallResult, Simulator } from '../../src/core/sim/simulator.js';
import { taskCatalog } from '../../src/core/sim/mujoco/tasks/registry.js';
import { wilson95 } from '../../src/core/sweep/stats.js';
import { act, AC_SOLUTIONS, CLEARING_SOLUTIONS } from '../unit/core/sim/mujoco/scripted/actctxSolutions.js';
import { LMTG_TASK_SOLUTIONS } from '../unit/core/sim/mujoco/scripted/lmtgTaskSolutions.js';
import { MALMM_TASK_SOLUTIONS } from '../unit/core/sim/mujoco/scripted/malmmTaskSolutions.js';
import { ROCO_SOLUTIONS } from '../unit/core/sim/mujoco/scripted/rocoSolutions.js';
import { SINGLE_ARM_SOLUTIONS } from '../unit/core/sim/mujoco/scripted/singleArmSolutions.js';
import { TRAJECTORY_SOLUTIONS } from '../unit/core/sim/mujoco/scripted/trajectorySolutions.js';
import { scriptedStack } from '../unit/core/sim/mujoco/scriptedStacker.js';

const { values: a } = parseArgs({ options: { seeds: { type: 'string', default: '20' }, only: { type: 'string' }, arch: { type: 'string' } } });
const seeds = Number(a.seeds);

type Solve = (sim: Simulator, instruction: string) => Promise<void>;
const stack: Solve = async (sim) => {
  await scriptedStack(sim);
};
const acPlan =
  (steps: (typeof AC_SOLUTIONS)[string]): Solve =>
  async (sim) => {
    for (const [fn, ...args] of steps) await act(sim, fn, ...args);
  };
// Scripted solutions by architecture; which tasks run comes from the task registry (each task under its default
// API), so a task added there without a solution here stops the bench instead of dropping out of the table.
const SOLUTIONS: Record<string, Record<string, Solve>> = {
  malmm: { stack_blocks_2: stack, stack_blocks: stack, stack_blocks_4: stack, ...SINGLE_ARM_SOLUTIONS, ...MALMM_TASK_SOLUTIONS },
  lmtg: { ...TRAJECTORY_SOLUTIONS, ...LMTG_TASK_SOLUTIONS },
  actctx: { ...CLEARING_SOLUTIONS, ...Object.fromEntries(Object.entries(AC_SOLUTIONS).map(([t, steps]) => [t, acPlan(steps)])) },
  roco: ROCO_SOLUTIONS,
};
const catalog = taskCatalog();
const unsolved = catalog.filter((t) => !SOLUTIONS[t.defaultApi]?.[t.id]).map((t) => `${t.defaultApi}/${t.id}`);
if (unsolved.length) throw new Error(`grasp bench: no scripted solution for ${unsolved.join(', ')} (add one to SOLUTIONS)`);
const ARCH_ORDER = ['malmm', 'lmtg', 'actctx', 'roco'];
const rows = catalog
  .filter((t) => !a.arch || a.arch.split(',').includes(t.defaultApi))
  .filter((t) => !a.only || a.only.split(',').includes(t.id))
  .map((t) => ({ arch: t.defaultApi, task: t.id, solve: SOLUTIONS[t.defaultApi]![t.id]! }))
  .sort((x, y) => ARCH_ORDER.indexOf(x.arch) - ARCH_ORDER.indexOf(y.arch));

/** Counts the simulator's "grasp: ... slipped" lines by wrapping call(). */
function counting(sim: Simulator): { sim: Simulator; slips: () => number } {
  let slips = 0;
  const call = sim.call.bind(sim);
  sim.call = async (fn: string, args: unknown[]): Promise<ApiCallResult> => {
    const r = await call(fn, args);
    if (r.ok) slips += (r.output?.match(/^grasp: .* slipped out of the gripper/gm) ?? []).length;
    return r;
  };
  return { sim, slips: () => slips };
}

const t0 = performance.now();
console.log(`scripted solutions of every tabletop architecture, seeds 0-${seeds - 1}, friction vs weld grasps`);
console.log('| API | task | friction: successes | rate [95% Wilson] | slipped grasps | weld: successes | rate [95% Wilson] |');
console.log('|---|---|---|---|---|---|---|');
const total: Record<GraspMode, number> = { friction: 0, weld: 0 };
const sims: Record<GraspMode, ReturnType<typeof counting>> = {
  friction: counting(await createTabletopSimulator({ grasp: 'friction' })),
  weld: counting(await createTabletopSimulator({ grasp: 'weld' })),
};
const failures: string[] = [];
for (const { arch, task, solve } of rows) {
  const cells: string[] = [];
  for (const mode of ['friction', 'weld'] as const) {
    const { sim, slips } = sims[mode];
    const before = slips();
    let ok = 0;
    for (let seed = 0; seed < seeds; seed++) {
      const { task: info } = await sim.reset(task, seed);
      let why = '';
      try {
        await solve(sim, info.instruction);
      } catch (err) {
        why = (err as Error).message.split('\n').slice(0, 2).join(' ').slice(0, 240);
      }
      const check = await sim.check();
      if (check.success) ok++;
      else failures.push(`${mode} ${task} seed ${seed}: ${check.detail}${why ? ` (${why})` : ''}`);
    }
    total[mode] += ok;
    const w = wilson95(ok, seeds);
    cells.push(`${ok}/${seeds}`, `${Math.round((100 * ok) / seeds)}% [${Math.round(100 * w.low)}, ${Math.round(100 * w.high)}]`);
    if (mode === 'friction') cells.push(String(slips() - before));
  }
  console.log(`| ${arch} | ${task} | ${cells.join(' | ')} |`);
}
const n = rows.length * seeds;
console.log(`| all | ${rows.length} tasks | ${total.friction}/${n} | ${((100 * total.friction) / n).toFixed(1)}% | | ${total.weld}/${n} | ${((100 * total.weld) / n).toFixed(1)}% |`);
for (const f of failures) console.log(`failed: ${f}`);
console.log(`${rows.length} tasks x ${seeds} seeds x 2 grasp models in ${((performance.now() - t0) / 60000).toFixed(1)} min`);
await sims.friction.sim.close();
await sims.weld.sim.close();
