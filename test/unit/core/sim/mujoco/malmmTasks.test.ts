// The MALMM tasks added for the paper's nine: each seedable with its RLBench-style variation, a scripted solution
// that succeeds, and a do-nothing run that fails.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTabletopSimulator } from '../../../../../src/core/sim/mujoco/index.js';
import type { Simulator } from '../../../../../src/core/sim/simulator.js';
import { MALMM_TASK_SOLUTIONS } from './scripted/malmmTaskSolutions.js';

let sim: Simulator;
before(async () => {
  sim = await createTabletopSimulator();
});
after(async () => {
  await sim.close();
});

for (const [taskId, solve] of Object.entries(MALMM_TASK_SOLUTIONS)) {
  test(`${taskId}: a scripted MALMM-API solution succeeds for seeds 0..2, doing nothing fails, the seed varies the goal`, async () => {
    const instructions = new Set<string>();
    for (let seed = 0; seed < 3; seed++) {
      const { task } = await sim.reset(taskId, seed);
      instructions.add(task.instruction);
      const idle = await sim.check();
      assert.equal(idle.success, false, `${taskId} seed ${seed}: doing nothing must fail (${idle.detail})`);
      await solve(sim, task.instruction);
      const check = await sim.check();
      assert.equal(check.success, true, `${taskId} seed ${seed}: ${check.detail}`);
    }
    const more = await Promise.all([3, 4, 5, 6].map(async (s) => (await sim.reset(taskId, s)).task.instruction));
    for (const i of more) instructions.add(i);
    assert.ok(instructions.size >= 2, `the variation changes with the seed: ${[...instructions].join(' | ')}`);
  });
}

test('a variation that cannot be placed fails at reset with a message naming the task, the seed and the object', async () => {
  const { seededLayout } = await import('../../../../../src/core/sim/mujoco/tabletopSim.js');
  const { putBlockTask } = await import('../../../../../src/core/sim/mujoco/tasks/singleArm/putBlock.js');
  const { LayoutBuilder } = await import('../../../../../src/core/sim/mujoco/tasks/layout.js');
  const { cube } = await import('../../../../../src/core/sim/mujoco/tasks/sceneObjects.js');
  // Twelve 5 cm cubes in a 12 cm square: no collision-free layout exists.
  const crowded = { ...putBlockTask(), layout: (rng: import('../../../../../src/core/host.js').Rng) => {
    const l = new LayoutBuilder(rng);
    const cubes = Array.from({ length: 12 }, (_, i) => cube(`cube ${i}`, 'red'));
    for (const c of cubes) l.scatter(c, { x: [0, 0.12], y: [0, 0.12] }, { gapM: 0.01 });
    return l.placements(cubes);
  } };
  assert.throws(() => seededLayout(crowded, 7), /^Error: reset: task 'put_block' seed 7 has no collision-free layout: could not place 'cube \d+' in x \[0, 0\.12\], y \[0, 0\.12\] clear of \d+ placed objects$/);
  // The registered tasks place at every seed tried.
  for (const seed of [0, 1, 2]) assert.equal(seededLayout(putBlockTask(), seed).length, 4);
});
