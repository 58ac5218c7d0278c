// The LM Trajectory Generators tasks added for issue 12: each seedable, a scripted dense-pose solution through the
// LMTG API succeeds on seeds 0..2, doing nothing fails, and the tasks' named parts are found by detect_object.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTabletopSimulator } from '../../../../../src/core/sim/mujoco/index.js';
import type { Simulator } from '../../../../../src/core/sim/simulator.js';
import { LMTG_TASK_SOLUTIONS } from './scripted/lmtgTaskSolutions.js';

let sim: Simulator;
before(async () => {
  sim = await createTabletopSimulator();
});
after(async () => {
  await sim.close();
});

for (const [taskId, solve] of Object.entries(LMTG_TASK_SOLUTIONS)) {
  test(`${taskId}: a scripted LMTG-API solution succeeds for seeds 0..2 and doing nothing fails`, async () => {
    const layouts = new Set<string>();
    for (let seed = 0; seed < 3; seed++) {
      const { task, observation } = await sim.reset(taskId, seed);
      layouts.add(JSON.stringify(observation.state.objects.map((o) => o.pos)) + task.instruction);
      const idle = await sim.check();
      assert.equal(idle.success, false, `${taskId} seed ${seed}: doing nothing must fail (${idle.detail})`);
      await solve(sim, task.instruction);
      const check = await sim.check();
      assert.equal(check.success, true, `${taskId} seed ${seed}: ${check.detail}`);
    }
    assert.equal(layouts.size, 3, 'each seed gives its own layout');
  });
}

test('parts of the new objects answer detect_object: rim, handle, slot; a lying bottle reads long and low', async () => {
  const part = async (taskId: string, query: string) => {
    await sim.reset(taskId, 0);
    const r = await sim.call('detect_object', [query]);
    assert.equal(r.ok, true);
    return r.ok ? (r.output ?? '') : '';
  };
  assert.match(await part('grasp_bowl_rim', 'rim of the bowl'), /Position of bowl rim: .*\nDimensions:\nWidth: 0\.140\nLength: 0\.140\nHeight: 0\.010/);
  assert.match(await part('move_pan_left', 'pan handle'), /Position of pan handle: .*\nDimensions:\nWidth: 0\.120\nLength: 0\.024\nHeight: 0\.016/);
  assert.match(await part('toaster_slot', 'slot'), /Position of toaster slot: .*\nDimensions:\nWidth: 0\.130\nLength: 0\.032\nHeight: 0\.060/);
  assert.match(await part('align_bottle', 'bottle'), /Width: 0\.200\nLength: 0\.060\nHeight: 0\.060/);
  assert.match(await part('open_bottle_cap', 'cap of the bottle'), /^Position of bottle cap: /);
});
