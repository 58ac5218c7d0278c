import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTabletopSimulator, SNAPSHOT_KIND } from '../../../../../src/core/sim/mujoco/index.js';
import type { Simulator } from '../../../../../src/core/sim/simulator.js';
import type { WorldState } from '../../../../../src/protocol/trace.js';
import { pickAndStack } from './scriptedStacker.js';

let a: Simulator;
let b: Simulator;
before(async () => {
  [a, b] = await Promise.all([createTabletopSimulator(), createTabletopSimulator()]);
});
after(async () => {
  await a.close();
  await b.close();
});

function assertSameState(x: WorldState, y: WorldState, tol: number): void {
  assert.equal(x.grasped, y.grasped);
  assert.equal(x.gripperOpen, y.gripperOpen);
  x.objects.forEach((o, i) => o.pos.forEach((v, k) => assert.ok(Math.abs(v - y.objects[i]!.pos[k]!) <= tol, `${o.name}[${k}]: ${v} vs ${y.objects[i]!.pos[k]}`)));
  x.ee.pos.forEach((v, k) => assert.ok(Math.abs(v - y.ee.pos[k]!) <= tol));
}

test('same seed and same calls give identical final positions, in two simulators and after a re-reset', async () => {
  const run = async (sim: Simulator) => {
    await sim.reset('stack_blocks', 7);
    await pickAndStack(sim, 'blue block 1', 'red block 2', 1);
    await sim.call('execute_trajectory', [[0.2, 0.1, 0.95], 1.0]);
    return { state: (await sim.observe()).state, t: sim.simTimeSecs(), traj: (await sim.drainTrajectory()).samples };
  };
  const first = await run(a);
  const second = await run(b);
  const third = await run(a);
  for (const other of [second, third]) {
    assertSameState(first.state, other.state, 1e-9);
    assert.equal(first.t, other.t);
    assert.deepEqual(first.traj, other.traj);
  }
  // A different seed gives a different layout.
  const r = await b.reset('stack_blocks', 8);
  assert.notDeepEqual(r.observation.state.objects[0]!.pos, first.state.objects[0]!.pos);
});

test('a restored copy continues exactly like the original, including a held object', async () => {
  await a.reset('stack_blocks', 4);
  // Mid-task: the red block 1 is held above the table.
  const red = (await a.observe()).state.objects.find((o) => o.name === 'red block 1')!;
  await a.call('execute_trajectory', [[red.pos[0], red.pos[1], red.pos[2] + 0.1], red.euler[2]]);
  await a.call('execute_trajectory', [[red.pos[0], red.pos[1], red.pos[2]], red.euler[2]]);
  await a.call('close_gripper', ['red block 1']);
  await a.call('execute_trajectory', [[red.pos[0], red.pos[1], red.pos[2] + 0.15], red.euler[2]]);
  const snap = await a.snapshot();
  assert.equal(snap.kind, SNAPSHOT_KIND);
  // The snapshot survives JSON (it travels in traces and across processes).
  const copy = JSON.parse(JSON.stringify(snap)) as typeof snap;

  await b.reset('stack_blocks_2', 0); // a different scene: restore must rebuild it
  await b.restore(copy);
  assert.equal(b.simTimeSecs(), a.simTimeSecs());
  assertSameState((await a.observe()).state, (await b.observe()).state, 0);
  assert.equal((await b.observe()).text, (await a.observe()).text);

  // Both hold the red block 1: finish by placing it, then stacking blue on top.
  const finish = async (sim: Simulator) => {
    const s = (await sim.observe()).state;
    const g = s.objects.find((o) => o.name === 'red block 2')!;
    await sim.call('execute_trajectory', [[g.pos[0], g.pos[1], 0.92], g.euler[2]]);
    await sim.call('execute_trajectory', [[g.pos[0], g.pos[1], 0.845], g.euler[2]]);
    await sim.call('open_gripper', []);
    await sim.call('execute_trajectory', [[g.pos[0], g.pos[1], 0.945], g.euler[2]]);
    await pickAndStack(sim, 'blue block 1', 'red block 2', 2);
    return { state: (await sim.observe()).state, check: await sim.check(), t: sim.simTimeSecs() };
  };
  const fa = await finish(a);
  const fb = await finish(b);
  assertSameState(fa.state, fb.state, 1e-9);
  assert.equal(fa.t, fb.t);
  assert.deepEqual(fa.check, fb.check);
  // The three-high stack stands (on red block 2, off the target area: the check says not done, the same in both).
  const at = (name: string) => fa.state.objects.find((o) => o.name === name)!.pos;
  assert.ok(Math.hypot(at('blue block 1')[0] - at('red block 2')[0], at('blue block 1')[1] - at('red block 2')[1]) < 0.02 && at('blue block 1')[2] - at('red block 2')[2] > 0.09, JSON.stringify(fa.state.objects));

  // Restoring into the original rewinds it too.
  await a.restore(snap);
  const again = await finish(a);
  assertSameState(again.state, fa.state, 1e-9);
});

test('restore rejects a foreign snapshot', async () => {
  await assert.rejects(a.restore({ kind: 'other', data: {} }), /restore: snapshot kind 'other' is not waypoint\.mujoco-tabletop\/1/);
});
