// Issue 25: LMTG's tasks as the paper poses them. Each: the paper's wording, a scripted solution through the LMTG
// API succeeds, and doing nothing or a wrong trajectory (the kind the paper's judge would reject) fails the check.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTabletopSimulator } from '../../../../../src/core/sim/mujoco/index.js';
import type { Simulator } from '../../../../../src/core/sim/simulator.js';
import { detect, lcall, run, through, type Pose } from './scripted/lmtgScript.js';
import { TRAJECTORY_SOLUTIONS } from './scripted/trajectorySolutions.js';

let sim: Simulator;
before(async () => {
  sim = await createTabletopSimulator();
});
after(async () => {
  await sim.close();
});

/** Once round a 10 cm circle at the tool-centre height z, gripper as it is. */
async function circle(c: [number, number], z: number): Promise<void> {
  await through(sim, [
    [c[0] + 0.05, c[1], z + 0.08, 0],
    [c[0] + 0.05, c[1], z, 0],
  ]);
  await run(sim, Array.from({ length: 100 }, (_, i): Pose => [c[0] + 0.05 * Math.cos((2 * Math.PI * (i + 1)) / 100), c[1] + 0.05 * Math.sin((2 * Math.PI * (i + 1)) / 100), z, 0]));
  await through(sim, [[c[0] + 0.05, c[1], z + 0.08, 0]]);
}

test('draw_circle: the paper\'s words; the closed gripper round the circle on the table succeeds; open, high, off-centre or idle fails', async () => {
  const { task } = await sim.reset('draw_circle', 0);
  assert.equal(task.instruction, 'draw a circle 10cm wide with its centre at [0.0,0.3,0.75] with the gripper closed');
  assert.equal((await sim.check()).success, false, 'doing nothing');
  await lcall(sim, 'close_gripper', []);
  await circle([0, 0.3], 0.765);
  const good = await sim.check();
  assert.equal(good.success, true, good.detail);

  const wrong: [string, () => Promise<void>][] = [
    ['open gripper', () => circle([0, 0.3], 0.765)],
    ['closed, 4 cm above the table', async () => (await lcall(sim, 'close_gripper', []), circle([0, 0.3], 0.805))],
    ['closed, 3 cm off the centre', async () => (await lcall(sim, 'close_gripper', []), circle([0.03, 0.3], 0.765))],
  ];
  for (const [what, draw] of wrong) {
    await sim.reset('draw_circle', 0);
    await draw();
    const r = await sim.check();
    assert.equal(r.success, false, `${what}: ${r.detail}`);
  }
});

test('push_can: the paper\'s words; pushed right succeeds (seeds 0..2 in trajectoryTasks); carried right, or pushed left, fails', async () => {
  const { task } = await sim.reset('push_can', 0);
  assert.equal(task.instruction, 'push the can towards the right');
  await TRAJECTORY_SOLUTIONS['push_can']!(sim, task.instruction);
  assert.equal((await sim.check()).success, true);

  // Carried: grasped, lifted, put down 15 cm to the right. The can ends where a push would leave it; its track rose.
  await sim.reset('push_can', 0);
  const can = await detect(sim, 'can');
  const at: [number, number, number] = [can.pos[0], can.pos[1], can.pos[2]];
  await through(sim, [[at[0], at[1], at[2] + 0.1, 0], [at[0], at[1], at[2], 0]]);
  await lcall(sim, 'close_gripper', []);
  await through(sim, [[at[0], at[1], at[2] + 0.05, 0], [at[0] + 0.15, at[1], at[2] + 0.05, 0], [at[0] + 0.15, at[1], at[2] + 0.003, 0]]);
  await lcall(sim, 'open_gripper', []);
  await through(sim, [[at[0] + 0.15, at[1], at[2] + 0.12, 0]]);
  const carried = await sim.check();
  assert.equal(carried.success, false, carried.detail);
  assert.match(carried.detail, /lifted/);

  // Pushed the wrong way.
  await sim.reset('push_can', 0);
  const c2 = await detect(sim, 'can');
  await lcall(sim, 'close_gripper', []);
  const right = c2.pos[0] + c2.width / 2 + 0.031;
  await through(sim, [[right, c2.pos[1], 0.87, Math.PI], [right, c2.pos[1], 0.77, Math.PI]]);
  await through(sim, [[right - 0.12, c2.pos[1], 0.77, Math.PI]], 100);
  await through(sim, [[right - 0.08, c2.pos[1], 0.87, Math.PI]]);
  const left = await sim.check();
  assert.equal(left.success, false, left.detail);
});
