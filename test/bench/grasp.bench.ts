// npm run bench:grasp — the scripted (non-LLM) MALMM-API solutions under both grasp models, seeds 0..N-1 per
// task: friction grasps (default; objects can slip and drop) against weld grasps (held until opened). Prints a
// markdown table for docs/simulator.md: successes, Wilson 95% interval, and how many grasps slipped.
// Options: --seeds 20 --only <task,...>. About 20 minutes for every task at 20 seeds on a 2-core machine.
import { parseArgs } from 'node:util';
import { createTabletopSimulator } from '../../src/core/sim/mujoco/index.js';
import type { GraspMode } from '../../src/core/sim/mujoco/simState.js';
import type { ApiCallResult, Simulator } from '../../src/core/sim/simulator.js';
import { wilson95 } from '../../src/core/sweep/stats.js';
import { MALMM_TASK_SOLUTIONS } from '../unit/core/sim/mujoco/scripted/malmmTaskSolutions.js';
import { SINGLE_ARM_SOLUTIONS } from '../unit/core/sim/mujoco/scripted/singleArmSolutions.js';
import { scriptedStack } from '../unit/core/sim/mujoco/scriptedStacker.js';

const { values: a } = parseArgs({ options: { seeds: { type: 'string', default: '20' }, only: { type: 'string' } } });
const seeds = Number(a.seeds);

type Solve = (sim: Simulator, instruction: string) => Promise<void>;
const stack: Solve = async (sim) => {
  await scriptedStack(sim);
};
const SOLUTIONS: Record<string, Solve> = { stack_blocks_2: stack, stack_blocks: stack, stack_blocks_4: stack, ...SINGLE_ARM_SOLUTIONS, ...MALMM_TASK_SOLUTIONS };
const tasks = Object.keys(SOLUTIONS).filter((t) => !a.only || a.only.split(',').includes(t));

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
console.log(`scripted MALMM-API solutions, seeds 0-${seeds - 1}, friction vs weld grasps`);
console.log('| task | friction: successes | rate [95% Wilson] | slipped grasps | weld: successes | rate [95% Wilson] |');
console.log('|---|---|---|---|---|---|');
const total: Record<GraspMode, number> = { friction: 0, weld: 0 };
const sims: Record<GraspMode, ReturnType<typeof counting>> = {
  friction: counting(await createTabletopSimulator({ grasp: 'friction' })),
  weld: counting(await createTabletopSimulator({ grasp: 'weld' })),
};
const failures: string[] = [];
for (const task of tasks) {
  const cells: string[] = [];
  for (const mode of ['friction', 'weld'] as const) {
    const { sim, slips } = sims[mode];
    const before = slips();
    let ok = 0;
    for (let seed = 0; seed < seeds; seed++) {
      const { task: info } = await sim.reset(task, seed);
      try {
        await SOLUTIONS[task]!(sim, info.instruction);
      } catch (err) {
        failures.push(`${mode} ${task} seed ${seed}: ${(err as Error).message}`);
      }
      const check = await sim.check();
      if (check.success) ok++;
      else failures.push(`${mode} ${task} seed ${seed}: ${check.detail}`);
    }
    total[mode] += ok;
    const w = wilson95(ok, seeds);
    cells.push(`${ok}/${seeds}`, `${Math.round((100 * ok) / seeds)}% [${Math.round(100 * w.low)}, ${Math.round(100 * w.high)}]`);
    if (mode === 'friction') cells.push(String(slips() - before));
  }
  console.log(`| ${task} | ${cells.join(' | ')} |`);
}
const n = tasks.length * seeds;
console.log(`| all (${tasks.length} tasks) | ${total.friction}/${n} | ${((100 * total.friction) / n).toFixed(1)}% | | ${total.weld}/${n} | ${((100 * total.weld) / n).toFixed(1)}% |`);
for (const f of failures) console.log(`failed: ${f}`);
console.log(`${tasks.length} tasks x ${seeds} seeds x 2 grasp models in ${((performance.now() - t0) / 60000).toFixed(1)} min`);
await sims.friction.sim.close();
await sims.weld.sim.close();
