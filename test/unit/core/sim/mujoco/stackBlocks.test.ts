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

for (const [taskId, n] of [
  ['stack_blocks_2', 2],
  ['stack_blocks', 3],
  ['stack_blocks_4', 4],
] as const) {
  test(`a scripted MALMM-API solution stacks ${n} red blocks on the target area for seeds 0..4 (${taskId})`, async () => {
    for (let seed = 0; seed < 5; seed++) {
      const reset = await sim.reset(taskId, seed);
      // N red blocks, two blue distractors, the green target area.
      assert.deepEqual(reset.observation.state.objects.map((o) => o.color).sort(), [...Array(n).fill('red'), 'blue', 'blue', 'green'].sort());
      const calls = await scriptedStack(sim);
      assert.equal(calls.length, 8 * n);
      for (const c of calls) assert.equal(c.result.ok, true, `${taskId} seed ${seed}: ${c.fn} ${JSON.stringify(c.args)}`);
      const check = await sim.check();
      assert.equal(check.success, true, `${taskId} seed ${seed}: ${check.detail}`);
      assert.match(check.detail, new RegExp(`^stacked on the target area: red block \\d at level 0, .*red block \\d at level ${n - 1}; all at rest$`));
    }
  });
}

test('a do-nothing policy fails, and so does a half-built stack', async () => {
  await sim.reset('stack_blocks', 0);
  const idle = await sim.check();
  assert.equal(idle.success, false);
  assert.match(idle.detail, /^stack_blocks not done: 0 of 3 target-colour blocks stacked: no block stands on the target area; red block 1 at z 0\.\d{3} off the area/);
  await pickAndStack(sim, 'red block 1', 'target area', 1);
  await pickAndStack(sim, 'red block 2', 'target area', 2);
  const half = await sim.check();
  assert.equal(half.success, false);
  assert.match(half.detail, /2 of 3 target-colour blocks stacked: the column on the target area is red block 1, red block 2 \(bottom first\); red block 3 at z 0\.\d{3} off the area/);
});

test('a stack of the distractors on the area fails; so does a red stack off the area', async () => {
  await sim.reset('stack_blocks_2', 1);
  for (const [i, name] of ['blue block 1', 'blue block 2'].entries()) for (const c of await pickAndStack(sim, name, 'target area', i + 1)) assert.ok(c.result.ok, `${c.fn}: ${JSON.stringify(c.result)}`);
  const blue = await sim.check();
  assert.equal(blue.success, false);
  assert.match(blue.detail, /0 of 2 target-colour blocks stacked: the column on the target area is blue block 1, blue block 2 \(bottom first\)/);

  await sim.reset('stack_blocks_2', 1);
  // Red block 2 on red block 1, where red block 1 lies: a two-high red stack, off the area.
  for (const c of await pickAndStack(sim, 'red block 2', 'red block 1', 1)) assert.ok(c.result.ok, `${c.fn}: ${JSON.stringify(c.result)}`);
  const s = (await sim.observe()).state.objects;
  const [r1, r2] = ['red block 1', 'red block 2'].map((n) => s.find((o) => o.name === n)!);
  assert.ok(Math.hypot(r2!.pos[0] - r1!.pos[0], r2!.pos[1] - r1!.pos[1]) < 0.02 && r2!.pos[2] > r1!.pos[2] + 0.04, 'the red stack stands');
  const off = await sim.check();
  assert.equal(off.success, false);
  assert.match(off.detail, /0 of 2 target-colour blocks stacked: no block stands on the target area; red block 1 .* off the area/);
});

test('holding the last block over the stack is not success', async () => {
  await sim.reset('stack_blocks_2', 2);
  const calls = await scriptedStack(sim);
  assert.ok(calls.every((c) => c.result.ok));
  assert.equal((await sim.check()).success, true);
  // Pick the top block back up and hold it where it was: grasped -> not done.
  const top = (await sim.observe()).state.objects.filter((o) => o.color === 'red').sort((a, b) => b.pos[2] - a.pos[2])[0]!;
  await sim.call('execute_trajectory', [[top.pos[0], top.pos[1], top.pos[2]], top.euler[2]]);
  await sim.call('close_gripper', [top.name]);
  const held = await sim.check();
  assert.equal(held.success, false);
  assert.match(held.detail, new RegExp(`${top.name} still grasped`));
});

test('checkStack: N target blocks in one column standing on the area, one per level, at rest', () => {
  const cube = (name: string, pos: [number, number, number], linearSpeed = 0) => ({ name, pos, quat: [1, 0, 0, 0] as [number, number, number, number], size: [0.05, 0.05, 0.05] as [number, number, number], linearSpeed, angularSpeed: 0 });
  const area = { name: 'target area', pos: [0, 0.1, 0.751] as [number, number, number], quat: [1, 0, 0, 0] as [number, number, number, number], size: [0.12, 0.12, 0.002] as [number, number, number], linearSpeed: 0, angularSpeed: 0 };
  const view = (objects: TaskView['objects'], grasped: (string | null)[] = [null]): TaskView => ({ objects: [...objects, area], grasped, tableTopZ: 0.75 });
  const reds = ['red 1', 'red 2'];
  const check = (objects: TaskView['objects'], n = 2, grasped?: (string | null)[]) => checkStack(view(objects, grasped), 'target area', reds, n);
  const ok = check([cube('red 1', [0.01, 0.1, 0.775]), cube('red 2', [0.02, 0.11, 0.825]), cube('blue 1', [0.2, 0.2, 0.775])]);
  assert.equal(ok.success, true, ok.detail);
  assert.equal(ok.detail, 'stacked on the target area: red 1 at level 0, red 2 at level 1; all at rest');
  // One fewer than asked.
  assert.match(checkStack(view([cube('red 1', [0, 0.1, 0.775]), cube('red 2', [0, 0.1, 0.825]), cube('red 3', [0.2, 0.2, 0.775])]), 'target area', [...reds, 'red 3'], 3).detail, /2 of 3 target-colour blocks stacked: the column on the target area is red 1, red 2 \(bottom first\); red 3 at z 0\.775 off the area/);
  // The distractors stacked on the area do not count.
  assert.match(check([cube('blue 1', [0, 0.1, 0.775]), cube('blue 2', [0, 0.1, 0.825]), cube('red 1', [0.2, 0.25, 0.775]), cube('red 2', [-0.2, 0.25, 0.775])]).detail, /0 of 2 .*the column on the target area is blue 1, blue 2 \(bottom first\)/);
  // A red stack beside the area does not count (its bottom is 10 cm off the area's centre, outside its 6 cm half side).
  assert.match(check([cube('red 1', [0.1, 0.1, 0.775]), cube('red 2', [0.1, 0.1, 0.825])]).detail, /0 of 2 .*no block stands on the target area; red 1 at z 0\.775 off the area, 0\.100 m/);
  // Two reds side by side on the area are not a stack; nor is one hovering between levels.
  assert.match(check([cube('red 1', [-0.03, 0.1, 0.775]), cube('red 2', [0.03, 0.1, 0.775])]).detail, /1 of 2 .*red 2 at z 0\.775 on the area, not in the column/);
  assert.match(check([cube('red 1', [0, 0.1, 0.775]), cube('red 2', [0, 0.1, 0.85])]).detail, /1 of 2 /);
  // A red block on a blue one on the area is counted, as RLBench's detector would.
  assert.equal(check([cube('blue 1', [0, 0.1, 0.775]), cube('red 1', [0, 0.1, 0.825]), cube('red 2', [0, 0.1, 0.875])]).success, true);
  // The column with the most target blocks counts, not the first found.
  assert.equal(check([cube('blue 1', [-0.03, 0.1, 0.775]), cube('red 1', [0.03, 0.1, 0.775]), cube('red 2', [0.03, 0.1, 0.825])]).success, true);
  assert.match(check([cube('red 1', [0, 0.1, 0.775]), cube('red 2', [0, 0.1, 0.825], 0.2)]).detail, /not at rest: red 2 \(0\.200 m\/s\)/);
  assert.match(check([cube('red 1', [0, 0.1, 0.775]), cube('red 2', [0, 0.1, 0.825])], 2, ['red 2']).detail, /red 2 still grasped/);
});
