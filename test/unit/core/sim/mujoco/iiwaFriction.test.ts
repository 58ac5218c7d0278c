// The iiwa's Allegro-class hand holds by friction by default (issue 25), as every other robot does: its fingers close
// under torque-limited position servos until they meet the object, no weld is switched on, and contact forces alone
// carry it. Each ActCtx dining object is carried through a pick-and-place of its ac_single_* task that suits the iiwa
// (iiwaFrictionCarry.ts) and ends where the task wants it; a poor grasp of the half-eaten apple is knocked out of
// the hand on the trash can's rim under friction, while a weld carries it. Measured numbers: docs/actctx.md.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTabletopSimulator } from '../../../../../src/core/sim/mujoco/index.js';
import type { Simulator } from '../../../../../src/core/sim/simulator.js';
import type { Step } from './iiwaFig6Cases.js';
import { carry, IIWA_CARRIES, take, type Carry } from './iiwaFrictionCarry.js';

const BIN = 'large red trash can';

let sim: Simulator;
before(async () => {
  sim = await createTabletopSimulator({ robot: 'iiwa' });
});
after(async () => {
  await sim.close();
});

const show = (c: Carry) => `${c.detail}\nslipped ${c.slipped.join(', ') || 'none'}; grip ${JSON.stringify(c.grip)}\n${c.outputs.join('\n')}`;

test('the iiwa grasps by friction unless weld is asked for, and its simulator line says so', () => {
  assert.match(sim.version!, /, friction grasps,.*robot: KUKA iiwa 7 R800/);
});

for (const { object, task, steps, shortfall } of IIWA_CARRIES) {
  const ends = shortfall ? `; shortfall: ${shortfall}` : ', and it ends in place';
  test(`${task}: the hand holds the ${object} by contact alone from the pick to the release${ends}`, { timeout: 300_000 }, async () => {
    const c = await carry(sim, task, steps);
    assert.deepEqual(c.holdingAfterPick, [true], show(c));
    assert.deepEqual(c.slipped, [], show(c));
    assert.equal(c.weldWhileHeld, false, `no weld while held\n${show(c)}`);
    // Held by the fingers' squeeze: the contacts press on it with more than its weight.
    assert.ok(c.grip && c.grip.contacts >= 2 && c.grip.normalN > c.grip.weightN, show(c));
    // Still in the hand when the place or drop reached its release point (the skill lets go only of what it holds).
    assert.match(c.outputs[2]!, new RegExp(`^(place|drop)\\(.*\\): (released|let go of) ${object} `), show(c));
    assert.equal(c.success, !shortfall, show(c));
    // The empty glass's shortfall is the grip: the lift turns it in the fingers (a weld holds it within 3 degrees).
    if (shortfall) assert.ok(c.inHandAfterPick!.turnDeg > 10, `turned ${JSON.stringify(c.inHandAfterPick)}`);
  });
}

test('a poor grasp drops one: the half-eaten apple taken short of its side grasp pose is knocked out of the hand on the trash can\'s rim; a weld carries it in', { timeout: 300_000 }, async () => {
  // Clearance 0.03: the approach and the pick stop 3.4 cm short of the grasp pose, so the fingers hold the apple
  // by its near side; place (not drop) lowers it into the trash can, and the rim catches it.
  const poor: Step[] = [...take('half-eaten apple', 0.5, 0.03, 'side'), ['place', BIN, 0, 0.5, 0.02]];
  const f = await carry(sim, 'ac_single_half_eaten_apple', poor);
  assert.deepEqual(f.holdingAfterPick, [true], show(f));
  assert.deepEqual(f.slipped, ['half-eaten apple'], show(f));
  assert.match(f.outputs[2]!, /^grasp: half-eaten apple slipped out of the gripper at t=/m, show(f));
  assert.equal(f.success, false, show(f));
  const weld = await createTabletopSimulator({ robot: 'iiwa', grasp: 'weld' });
  try {
    const w = await carry(weld, 'ac_single_half_eaten_apple', poor);
    assert.deepEqual(w.slipped, [], show(w));
    assert.equal(w.weldWhileHeld, true, show(w));
    assert.equal(w.success, true, show(w));
  } finally {
    await weld.close();
  }
});
