import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTabletopSimulator } from '../../../../../src/core/sim/mujoco/index.js';
import type { Simulator } from '../../../../../src/core/sim/simulator.js';
import { checkStack } from '../../../../../src/core/sim/mujoco/tasks/stackBlocks.js';
import type { TaskView } from '../../../../../src/core/sim/mujoco/tasks/taskDefinition.js';
import { pickAndStack, scriptedStack } from './scriptedStacker.js';

let sim: Simulator;
before(async () => {
  sim = await createTabletopSimulator();
});
after(async () => {
  await sim.close();
});

for (const [taskId, blocks] of [
  ['stack_blocks_2', 2],
  ['stack_blocks', 3],
  ['stack_blocks_4', 4],
] as const) {
  test(`a scripted MALMM-API solution stacks ${blocks} blocks for seeds 0..4 (${taskId})`, async () => {
    for (let seed = 0; seed < 5; seed++) {
      const reset = await sim.reset(taskId, seed);
      assert.equal(reset.observation.state.objects.length, blocks);
      const calls = await scriptedStack(sim);
      assert.equal(calls.length, 8 * (blocks - 1));
      for (const c of calls) assert.equal(c.result.ok, true, `${taskId} seed ${seed}: ${c.fn} ${JSON.stringify(c.args)}`);
      const check = await sim.check();
      assert.equal(check.success, true, `${taskId} seed ${seed}: ${check.detail}`);
      assert.match(check.detail, new RegExp(`^stacked on the green block: .*level ${blocks - 1} .*all at rest$`));
    }
  });
}

test('a do-nothing policy fails, and so does a half-built stack', async () => {
  await sim.reset('stack_blocks', 0);
  const idle = await sim.check();
  assert.equal(idle.success, false);
  assert.match(idle.detail, /^stack_blocks not done: red block is 0\.\d{4} m \(xy\) from the green block \(limit 0\.025\); blue block is/);
  await pickAndStack(sim, 'red block', 'green block', 1);
  const half = await sim.check();
  assert.equal(half.success, false);
  assert.doesNotMatch(half.detail, /red block/);
  assert.match(half.detail, /blue block is 0\.\d{4} m \(xy\) from the green block/);
});

test('holding the last block over the stack is not success', async () => {
  await sim.reset('stack_blocks_2', 2);
  const calls = await scriptedStack(sim);
  assert.ok(calls.every((c) => c.result.ok));
  assert.equal((await sim.check()).success, true);
  // Pick the red block back up and hold it where it was: grasped -> not done.
  const red = (await sim.observe()).state.objects.find((o) => o.name === 'red block')!;
  await sim.call('execute_trajectory', [[red.pos[0], red.pos[1], red.pos[2]], red.euler[2]]);
  await sim.call('close_gripper', ['red block']);
  const held = await sim.check();
  assert.equal(held.success, false);
  assert.match(held.detail, /red block still grasped/);
});

test('checkStack wants one block per level, at rest, with the base on the table', () => {
  const cube = (name: string, pos: [number, number, number], linearSpeed = 0) => ({ name, pos, quat: [1, 0, 0, 0] as [number, number, number, number], size: [0.05, 0.05, 0.05] as [number, number, number], linearSpeed, angularSpeed: 0 });
  const view = (objects: TaskView['objects'], grasped: (string | null)[] = [null]): TaskView => ({ objects, grasped, tableTopZ: 0.75 });
  const ok = checkStack(view([cube('green block', [0, 0.1, 0.775]), cube('red block', [0.01, 0.1, 0.825]), cube('blue block', [0, 0.11, 0.875])]), 'green block');
  assert.equal(ok.success, true, ok.detail);
  const sameLevel = checkStack(view([cube('green block', [0, 0.1, 0.775]), cube('red block', [0.01, 0.1, 0.825]), cube('blue block', [0, 0.11, 0.826])]), 'green block');
  assert.match(sameLevel.detail, /blue block and red block are both at level 1/);
  const between = checkStack(view([cube('green block', [0, 0.1, 0.775]), cube('red block', [0.01, 0.1, 0.85])]), 'green block');
  assert.match(between.detail, /red block is at z 0\.8500, not at a stack level/);
  const moving = checkStack(view([cube('green block', [0, 0.1, 0.775]), cube('red block', [0, 0.1, 0.825], 0.2)]), 'green block');
  assert.match(moving.detail, /not at rest: red block \(0\.200 m\/s\)/);
  const lifted = checkStack(view([cube('green block', [0, 0.1, 0.9]), cube('red block', [0, 0.1, 0.95])]), 'green block');
  assert.match(lifted.detail, /green block is not on the table/);
});
