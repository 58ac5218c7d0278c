// Action Contextualization's can_reach for a location asks what place will do: with an object in the hand, it is True
// exactly when place then finds an IK solution over the location (checks.ts and skills.ts share placePoses).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTabletopSimulator } from '../../../../../src/core/sim/mujoco/index.js';
import type { Simulator } from '../../../../../src/core/sim/simulator.js';
import { act, value } from './scripted/actctxSolutions.js';

let sim: Simulator;
before(async () => {
  sim = await createTabletopSimulator();
});
after(async () => {
  await sim.close();
});

const BALL = 'crumpled paper ball 1';

test('can_reach(location) with paper ball 1 in the hand agrees with what place then does, the sink out of reach included', async () => {
  await sim.reset('ac_single_paper_ball_1', 0);
  await act(sim, 'approach', BALL, 0.5, 0.005, 'top');
  await act(sim, 'pick', BALL, 0.5, 0.005, 'top');
  assert.equal(await value(sim, 'holding'), true);
  const held = await sim.snapshot();
  const seen: Record<string, boolean> = {};
  for (const loc of ['large red trash can', 'large white sink', 'storage shelf']) {
    await sim.restore(held);
    const reach = await value(sim, 'can_reach', loc);
    const placed = await act(sim, 'place', loc, 0, 0.5, 0.02);
    const out = placed.ok ? (placed.output ?? '') : '';
    const found = !/no IK solution above/.test(out);
    assert.equal(reach, found, `${loc}: can_reach ${String(reach)}, place: ${out.split('\n')[0]}`);
    if (found) assert.match(out, /released crumpled paper ball 1/);
    seen[loc] = found;
  }
  // With this ball in the hand place finds no IK solution over the sink; the check used to try another pose (the
  // tool 10 cm over the place heights, at yaw 0) and said True there.
  assert.deepEqual(seen, { 'large red trash can': true, 'large white sink': false, 'storage shelf': true });
});
