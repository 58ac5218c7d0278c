import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTabletopSimulator, TabletopSimulator } from '../../../../../src/core/sim/mujoco/index.js';
import { SINGLE_ARM_SOLUTIONS } from './scripted/singleArmSolutions.js';

let a: TabletopSimulator;
let b: TabletopSimulator;
before(async () => {
  [a, b] = (await Promise.all([createTabletopSimulator(), createTabletopSimulator()])) as TabletopSimulator[];
});
after(async () => {
  await a.close();
  await b.close();
});

test('a task monitor\'s state (the deepest button press) and the seeded goal travel with snapshots', async () => {
  const { task } = await a.reset('push_button', 2);
  await SINGLE_ARM_SOLUTIONS['push_button']!(a, task.instruction);
  const pressed = await a.check();
  assert.equal(pressed.success, true, pressed.detail);
  const snap = JSON.parse(JSON.stringify(await a.snapshot()));
  await b.reset('open_drawer', 1);
  await b.restore(snap);
  assert.deepEqual(await b.check(), pressed);
  // A goal comes back from the seed: open_drawer's drawer.
  const d = await a.reset('open_drawer', 5);
  const s2 = JSON.parse(JSON.stringify(await a.snapshot()));
  await b.reset('stack_blocks', 0);
  await b.restore(s2);
  await SINGLE_ARM_SOLUTIONS['open_drawer']!(b, d.task.instruction);
  assert.equal((await b.check()).success, true);
});

test('Action Contextualization\'s memory of the last skill and the motion metrics are restored', async () => {
  await a.reset('clear_table_bin', 0);
  const r = await a.call('pick', ['crumpled paper ball 2', 0.5, 0.02, 'top']);
  assert.equal(r.ok, true);
  const snap = JSON.parse(JSON.stringify(await a.snapshot()));
  const health = await a.call('check_motion_health', []);
  await b.reset('stack_blocks', 0);
  await b.restore(snap);
  assert.deepEqual(await b.call('check_motion_health', []), health);
  assert.deepEqual(await b.call('collision_free', []), await a.call('collision_free', []));
  assert.deepEqual(b.motionMetrics(), a.motionMetrics());
  // Both continue identically.
  const ca = await a.call('pick', ['crumpled paper ball 2', 0.5, 0.005, 'top']);
  const cb = await b.call('pick', ['crumpled paper ball 2', 0.5, 0.005, 'top']);
  assert.deepEqual(cb, ca);
  assert.deepEqual((await b.observe()).state, (await a.observe()).state);
});
