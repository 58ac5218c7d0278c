// Every collision the robot causes is reported with the pair and the depth: the arm's links, a held object
// hitting the scene, and objects the robot sets going hitting each other. Resting contacts, a placed block
// landing and a clean pick-and-stack report nothing. The straight-line motion option (`motion: 'straight'`) goes
// through what is in the way, so the collisions happen; the planned default would go around (plannedMotion.test.ts).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTabletopSimulator } from '../../../../../src/core/sim/mujoco/index.js';
import type { ApiCallResult, Simulator } from '../../../../../src/core/sim/simulator.js';
import { cubeYaw, pickAndStack } from './scriptedStacker.js';

let sim: Simulator;
before(async () => {
  sim = await createTabletopSimulator({ motion: 'straight' });
});
after(async () => {
  await sim.close();
});

const outputOf = (r: ApiCallResult): string => (r.ok ? (r.output ?? '') : `error: ${r.error}`);
const collisionsOf = (r: ApiCallResult) => (r.ok ? (r.collisions ?? []) : []);

async function objects() {
  return (await sim.observe()).state.objects;
}

test('dragging a held block into another one reports the pair (held) and the depth; the other block moved', async () => {
  await sim.reset('stack_blocks', 0);
  const before = await objects();
  const red = before.find((o) => o.name === 'red block 1')!;
  const blue = before.find((o) => o.name === 'blue block 1')!;
  const yaw = cubeYaw(red.euler[2]);
  for (const [fn, args] of [
    ['execute_trajectory', [[red.pos[0], red.pos[1], red.pos[2] + 0.1], yaw]],
    ['execute_trajectory', [[red.pos[0], red.pos[1], red.pos[2]], yaw]],
    ['close_gripper', ['red block 1']],
    ['execute_trajectory', [[red.pos[0], red.pos[1], red.pos[2] + 0.01], yaw]],
  ] as const) {
    const r = await sim.call(fn, [...args]);
    assert.equal(r.ok, true);
    assert.deepEqual(collisionsOf(r), [], `${fn}: a grasp and a lift are not collisions`);
  }
  // 1 cm above the table, straight through the blue block 1.
  const drag = await sim.call('execute_trajectory', [[blue.pos[0], blue.pos[1], red.pos[2] + 0.01], yaw]);
  const held = collisionsOf(drag).find((c) => c.a === 'red block 1 (held)' && c.b === 'blue block 1');
  assert.ok(held, JSON.stringify(collisionsOf(drag)));
  assert.equal(held.kind, 'held');
  assert.ok(held.depthM! > 0 && held.depthM! < 0.02, `depth ${held.depthM}`);
  assert.match(outputOf(drag), /^collision: red block 1 \(held\) <-> blue block 1 at t=\d+\.\d\d s, depth \d+\.\d mm$/m);
  const moved = (await objects()).find((o) => o.name === 'blue block 1')!;
  assert.ok(Math.hypot(moved.pos[0] - blue.pos[0], moved.pos[1] - blue.pos[1]) > 0.01, 'the blue block 1 was pushed');
});

test('pushing one block into another with the fingers reports finger <-> block and block <-> block', async () => {
  // Seed 7: the path from the blue block 1 to the blue block 2 is clear of the other blocks.
  await sim.reset('stack_blocks', 7);
  const start = await objects();
  const g = start.find((o) => o.name === 'blue block 2')!;
  const b = start.find((o) => o.name === 'blue block 1')!;
  const L = Math.hypot(g.pos[0] - b.pos[0], g.pos[1] - b.pos[1]);
  const u = [(g.pos[0] - b.pos[0]) / L, (g.pos[1] - b.pos[1]) / L];
  const yaw = Math.atan2(u[1]!, u[0]!) + Math.PI / 2;
  const from = [b.pos[0] - 0.07 * u[0]!, b.pos[1] - 0.07 * u[1]!];
  await sim.call('close_gripper', ['blue block 1']);
  await sim.call('execute_trajectory', [[from[0], from[1], 0.9], yaw]);
  await sim.call('execute_trajectory', [[from[0], from[1], b.pos[2]], yaw]);
  const push = await sim.call('execute_trajectory', [[g.pos[0] - 0.01 * u[0]!, g.pos[1] - 0.01 * u[1]!, b.pos[2]], yaw]);
  const pairs = collisionsOf(push).map((c) => `${c.kind}: ${c.a} <-> ${c.b}`);
  assert.ok(pairs.some((p) => /^arm: (left|right) finger <-> blue block 1$/.test(p)), pairs.join('; '));
  const knock = collisionsOf(push).find((c) => c.kind === 'object' && [c.a, c.b].sort().join('+') === 'blue block 1+blue block 2');
  assert.ok(knock, pairs.join('; '));
  assert.ok(knock.depthM! > 0);
  assert.match(outputOf(push), /collision: blue block (1 <-> blue block 2|2 <-> blue block 1) at t=\d+\.\d\d s, depth \d+\.\d mm/);
  // A sliding block is not a collision with the table.
  assert.ok(!pairs.some((p) => p.endsWith('<-> table')), pairs.join('; '));
});

test('a clean pick-and-stack reports no collision', async () => {
  await sim.reset('stack_blocks', 1);
  const calls = await pickAndStack(sim, 'red block 1', 'red block 2', 1);
  const all = calls.flatMap((c) => collisionsOf(c.result).map((x) => `${c.fn}: ${x.a} <-> ${x.b}`));
  assert.deepEqual(all, []);
});

test('with the straight-line option execute_trajectory says what the motion is: a straight line, no obstacle avoidance (and the arm does go straight through)', async () => {
  const { api } = await sim.reset('stack_blocks', 0);
  const doc = api.find((f) => f.name === 'execute_trajectory')!.doc;
  assert.match(doc, /straight line/);
  assert.match(doc, /does not go around obstacles/);
  assert.doesNotMatch(doc, /planner/i);
});
