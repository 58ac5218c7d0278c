// Issue 25: LMTG's tasks as the paper poses them. Each: the paper's wording, a scripted solution through the LMTG
// API succeeds, and doing nothing or a wrong trajectory (the kind the paper's judge would reject) fails the check.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTabletopSimulator } from '../../../../../src/core/sim/mujoco/index.js';
import type { Simulator } from '../../../../../src/core/sim/simulator.js';
import { detect, grasp, lcall, run, through, type Pose } from './scripted/lmtgScript.js';
import { LMTG_TASK_SOLUTIONS } from './scripted/lmtgTaskSolutions.js';
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

/** Lowers what is held to (x, y, z), opens, rises. */
async function putDown(x: number, y: number, z: number, yaw = 0): Promise<void> {
  await through(sim, [[x, y, 0.95, yaw], [x, y, z, yaw]]);
  await lcall(sim, 'open_gripper', []);
  await through(sim, [[x, y, z + 0.1, yaw]]);
}

test('the authors\' simulated tasks keep their words; the wrong can, the ball beside the cup, the banana left far off fail', async () => {
  const words: Record<string, string> = { pick_rightmost_can: 'pick the rightmost can', drop_ball_into_cup: 'drop the ball into the cup', move_banana_near_pear: 'move the banana near the pear' };
  for (const [id, text] of Object.entries(words)) {
    const { task } = await sim.reset(id, 1);
    assert.equal(task.instruction, text);
    await LMTG_TASK_SOLUTIONS[id]!(sim, task.instruction);
    assert.equal((await sim.check()).success, true, id);
  }

  // The middle can picked instead of the rightmost.
  await sim.reset('pick_rightmost_can', 1);
  const cans = await Promise.all(['red can', 'green can', 'blue can'].map((n) => detect(sim, n)));
  const mid = [...cans].sort((a, b) => a.pos[0] - b.pos[0])[1]!;
  await grasp(sim, [mid.pos[0], mid.pos[1], mid.pos[2] + 0.02], 0, 0.95);
  const wrongCan = await sim.check();
  assert.equal(wrongCan.success, false, wrongCan.detail);
  assert.match(wrongCan.detail, /rightmost\) is not held/);

  // The ball put down on the table 12 cm beside the cup.
  await sim.reset('drop_ball_into_cup', 1);
  const ball = await detect(sim, 'ball');
  const cup = await detect(sim, 'cup');
  await grasp(sim, ball.pos, 0, 0.95);
  const side = cup.pos[0] > 0 ? -1 : 1;
  await putDown(cup.pos[0] + side * 0.12, cup.pos[1], ball.pos[2] + 0.003);
  const beside = await sim.check();
  assert.equal(beside.success, false, beside.detail);
  assert.match(beside.detail, /not in the cup/);

  // The banana lifted and put back down 5 cm from where it was: moved, not near the pear.
  await sim.reset('move_banana_near_pear', 1);
  const banana = await detect(sim, 'banana');
  const pear = await detect(sim, 'pear');
  const yaw = Math.atan2(Math.sin(2 * banana.yawWidth), Math.cos(2 * banana.yawWidth)) / 2;
  await grasp(sim, banana.pos, yaw, 0.9);
  const away = Math.sign(banana.pos[0] - pear.pos[0]);
  await putDown(banana.pos[0] + away * 0.02, banana.pos[1] - 0.05, banana.pos[2] + 0.004, yaw);
  const far = await sim.check();
  assert.equal(far.success, false, far.detail);
  assert.match(far.detail, /from the pear/);
});
