import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTabletopSimulator } from '../../../../../src/core/sim/mujoco/index.js';
import type { Simulator } from '../../../../../src/core/sim/simulator.js';
import { TRAJECTORY_SOLUTIONS } from './scripted/trajectorySolutions.js';

let sim: Simulator;
before(async () => {
  sim = await createTabletopSimulator();
});
after(async () => {
  await sim.close();
});

for (const [taskId, solve] of Object.entries(TRAJECTORY_SOLUTIONS)) {
  test(`${taskId}: a scripted LMTG-API solution (dense poses) succeeds for seeds 0..2 and doing nothing fails`, async () => {
    for (let seed = 0; seed < 3; seed++) {
      const { task, api } = await sim.reset(taskId, seed);
      assert.deepEqual(api.map((f) => f.name), ['detect_object', 'execute_trajectory', 'open_gripper', 'close_gripper', 'task_completed']);
      const idle = await sim.check();
      assert.equal(idle.success, false, `${taskId} seed ${seed}: doing nothing must fail (${idle.detail})`);
      await solve(sim, task.instruction);
      const check = await sim.check();
      assert.equal(check.success, true, `${taskId} seed ${seed}: ${check.detail}`);
    }
  });
}
