// Action Contextualization's Fig. 6 cases and Appendix E's first plan on the KUKA iiwa 7 R800 with its Allegro-class
// hand (--robot iiwa), under its default friction grasps, executed as the loop executes a plan (iiwaFig6Cases.ts).
// Where the iiwa reproduces the paper, the test says: the initial plan fails, the tuned one passes. Where it does not
// yet, the test records the measured shortfall (where and why), so a change that closes it, or moves it, shows here;
// docs/actctx.md has the numbers.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTabletopSimulator } from '../../../../../src/core/sim/mujoco/index.js';
import type { Simulator } from '../../../../../src/core/sim/simulator.js';
import { APP_E_FIRST_PLAN, executePlan, FIG6_CASES, type PlanOutcome } from './iiwaFig6Cases.js';

let sim: Simulator;
before(async () => {
  sim = await createTabletopSimulator({ robot: 'iiwa' });
});
after(async () => {
  await sim.close();
});

const show = (o: PlanOutcome) => `failed at ${o.failedAt}: ${o.failedChecks.join(' ')} ${o.taskDetail}\n${o.outputs.join('\n')}`;
const byId = (prefix: string) => FIG6_CASES.find((c) => c.id.startsWith(prefix))!;

test('(c) paper ball 1: at clearance 0.02 the top pick puts the fingers on the table; at the paper\'s 0.04 the plan passes', { timeout: 600_000 }, async () => {
  const c = byId('(c)');
  const initial = await executePlan(sim, c.task, c.initial);
  assert.equal(initial.failedAt, 1, show(initial));
  assert.deepEqual(initial.failedChecks, ['collision_free="table"'], show(initial));
  const tuned = await executePlan(sim, c.task, c.tuned);
  assert.ok(tuned.passed, show(tuned));
});

test('(d) paper ball 2: a top grasp runs the arm into paper ball 1; the paper\'s side grasp at 0.005 passes', { timeout: 600_000 }, async () => {
  const c = byId('(d)');
  const initial = await executePlan(sim, c.task, c.initial);
  assert.equal(initial.failedAt, 1, show(initial));
  assert.deepEqual(initial.failedChecks, ['collision_free="crumpled paper ball 1"', 'holding=false'], show(initial));
  const tuned = await executePlan(sim, c.task, c.tuned);
  assert.ok(tuned.passed, show(tuned));
});

test('(a) empty glass, shortfall: the paper\'s side approach at clearance 0.07 times out short of its pre-grasp pose; 0.02 grasps but the drop misses', { timeout: 900_000 }, async () => {
  const c = byId('(a)');
  const tuned = await executePlan(sim, c.task, c.tuned);
  assert.equal(tuned.failedAt, 0, show(tuned));
  assert.deepEqual(tuned.failedChecks, ['timeout=false'], show(tuned));
  assert.match(tuned.outputs[0]!, /timed out after 40 s, 0\.1\d\d m from the goal/);
  const initial = await executePlan(sim, c.task, c.initial);
  assert.equal(initial.passed, false, show(initial));
  // Held by friction all the way (nothing slips); let go over the trash can, the tall glass does not end inside.
  assert.match(initial.outputs[1]!, /grasped empty glass 1/, show(initial));
  assert.doesNotMatch(initial.outputs.join('\n'), /slipped out/, show(initial));
  assert.match(initial.outputs[2]!, /let go of empty glass 1 over large red trash can/, show(initial));
});

test('(b) full glass, shortfall: the side picks at 0.02 and at the paper\'s 0.05 both hold; both places let go 5 cm over the sink and the glass falls over', { timeout: 600_000 }, async () => {
  const c = byId('(b)');
  for (const steps of [c.initial, c.tuned]) {
    const o = await executePlan(sim, c.task, steps);
    // Every action's checks pass (the hand no longer touches the sink: its thumb stays in when it opens); the task's
    // own check fails.
    assert.equal(o.failedAt, null, show(o));
    assert.equal(o.passed, false, show(o));
    assert.match(o.taskDetail, /the glass with yellowish liquid spilled: tilted/, show(o));
    assert.match(o.outputs[1]!, /grasped glass with yellowish liquid/);
    assert.doesNotMatch(o.outputs.join('\n'), /slipped out/, show(o));
    assert.match(o.outputs[2]!, /released glass with yellowish liquid 0\.0[4-6]\d m from the release pose in large white sink/, show(o));
  }
});

test('App. E first plan: approach and pick pass; at the place the held apple meets the trash can\'s rim and slips out of the hand, so the plan fails (caught by the task\'s check, not a collision as in the paper)', { timeout: 600_000 }, async () => {
  const o = await executePlan(sim, 'ac_sequential', APP_E_FIRST_PLAN);
  assert.equal(o.failedAt, null, show(o));
  assert.equal(o.passed, false, show(o));
  assert.match(o.outputs[1]!, /grasped half-eaten apple/, show(o));
  // The place steers past the full glass, stops short over the trash can, and the friction grip loses the apple there.
  assert.match(o.outputs[2]!, /steered around glass with yellowish liquid/, show(o));
  assert.match(o.outputs[2]!, /^grasp: half-eaten apple slipped out of the gripper at t=/m, show(o));
  assert.match(o.taskDetail, /half-eaten apple is not in the large red trash can/, show(o));
});
