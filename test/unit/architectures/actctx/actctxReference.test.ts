// Acceptance: the reference model (scripted, NOT an LLM) through the Action Contextualization loop on the real
// tabletop simulator solves every table-clearing task at seed 0 (two with weld grasps, see WELD;
// ac_single_empty_glass is in referencePolicies.test.ts). In this file each run took 2.2-7.7 s on the shared
// 2-core machine at load 2-3 (46 s for the file; 54 s at load 4-8); from the CLI near idle at most 9.2 s
// (docs/reference-model.md), so all are in the default suite.
// ac_robust_lamp is checked in detail. By default the description has no relations (the paper's has none), so the
// reference plans the task's order with a top grasp, fails, and learns from the feedback: the collision with the
// glass puts the glass first in the replan, the collision with the lamp turns the apple's grasp to the side (§V-A).
// With scene.spatial_relations on (the waypoint variant) it reads both from the description and passes at once.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ModelClient, ModelRequest, ModelResult } from '../../../../src/core/llm/client.js';
import { registerReferencePolicies } from '../../../../src/core/llm/reference/policies.js';
import { architectures } from '../../../../src/architectures/registry.js';
import { defaultReferenceModels } from '../../../../src/core/llm/reference/policy.js';
import { createTabletopSimulator } from '../../../../src/core/sim/mujoco/index.js';
import type { Simulator } from '../../../../src/core/sim/simulator.js';
import { projectActctxPlan } from '../../../../src/architectures/actctx/view/actctxPlan.js';
import { runWith, spec } from './scripted.js';

registerReferencePolicies(architectures);

const reference: ModelClient = (() => {
  const policy = defaultReferenceModels().get('reference')!;
  return {
    id: 'reference',
    async complete(r: ModelRequest): Promise<ModelResult> {
      return { ok: true, text: policy.answer(r.messages, { ...(r.meta ? { meta: r.meta } : {}), ...(r.seed !== undefined ? { seed: r.seed } : {}) }), latencyMs: 0, cached: false, attempts: 1 };
    },
  };
})();

let sim: Simulator;
let weldSim: Simulator;
before(async () => {
  sim = await createTabletopSimulator();
  weldSim = await createTabletopSimulator({ grasp: 'weld' });
});
after(async () => {
  await sim.close();
  await weldSim.close();
});

// The Panda's side grasp of the low half-eaten apple holds it above its centre; with friction grasps (the default)
// it slips out as the pick backs away (test/unit/core/sim/mujoco/drops.test.ts), so these two tasks, whose apple
// must be taken from the side, run with weld grasps (docs/actctx.md).
const WELD = new Set(['clear_table_shelf', 'ac_robust_lamp']);

const TASKS = [
  'clear_table_bin',
  'clear_table_sink',
  'clear_table_shelf',
  'ac_single_whole_apple',
  'ac_single_half_eaten_apple',
  'ac_single_full_glass',
  'ac_single_paper_ball_1',
  'ac_single_paper_ball_2',
  'ac_sequential',
  'ac_robust_random',
  'ac_robust_lamp',
];

for (const task of TASKS) {
  test(`reference on the real simulator: ${task} at seed 0 ends plan_validated and the task's own check passes${WELD.has(task) ? ' (weld grasps)' : ''}`, async (t) => {
    const t0 = performance.now();
    const { result, events } = await runWith(spec({}, task), reference, WELD.has(task) ? weldSim : sim);
    const m = result.end.archMetrics ?? {};
    t.diagnostic(`${task}: ${((performance.now() - t0) / 1000).toFixed(1)} s wall, Q ${Number(m['planQuality']).toFixed(4)}, retunes ${String(m['retunes'])}, replans ${String(m['replans'])}`);
    assert.equal(result.reason, 'plan_validated', result.message);
    assert.equal(result.success, true, result.message);
    if (task !== 'ac_robust_lamp') return;
    const attempts = projectActctxPlan(events).attempts;
    assert.equal(attempts[0]!.steps[0]!.label, 'half-eaten apple', 'without relations the first plan keeps the task\'s order');
    assert.equal(attempts[0]!.success, false);
    const collided = (name: string) => attempts.findIndex((a) => a.steps.some((s) => s.checks.some((c) => c.name === 'collision_free' && !c.ok && c.observed.includes(name))));
    const replan = attempts.findIndex((a) => a.kind === 'replan');
    assert.ok(replan > 0 && collided('glass with yellowish liquid') >= 0 && collided('glass with yellowish liquid') < replan, 'a collision with the glass came before the replan');
    assert.ok(collided('overhead lamp') >= 0, 'a top grasp ran into the lamp');
    const final = attempts[attempts.length - 1]!;
    assert.deepEqual(
      final.steps.map((s) => `${s.action} ${s.label}`),
      ['approach glass with yellowish liquid', 'pick glass with yellowish liquid', 'place large white sink', 'approach half-eaten apple', 'pick half-eaten apple', 'drop large red trash can'],
    );
    assert.equal(final.steps[4]!.named.grasp, "'side'", 'the feedback turned the apple\'s grasp to the side');
  });
}

test('reference with scene.spatial_relations on: ac_robust_lamp passes at once, the glass first and the apple from the side, as the description says (weld grasps)', async () => {
  const { result, events } = await runWith(spec({}, 'ac_robust_lamp', [], ['scene.spatial_relations']), reference, weldSim);
  assert.equal(result.reason, 'plan_validated', result.message);
  assert.equal(result.success, true, result.message);
  const attempts = projectActctxPlan(events).attempts;
  assert.equal(attempts.length, 1, 'no retune, no replan');
  const steps = attempts[0]!.steps;
  assert.deepEqual(
    steps.map((s) => `${s.action} ${s.label}`),
    ['approach glass with yellowish liquid', 'pick glass with yellowish liquid', 'place large white sink', 'approach half-eaten apple', 'pick half-eaten apple', 'drop large red trash can'],
  );
  assert.equal(steps[4]!.named.grasp, "'side'", 'the apple under the lamp is taken from the side');
  assert.ok(steps.every((s) => s.checks.every((c) => c.ok)), 'every check passes');
  assert.ok(steps.every((s) => (s.mT ?? 0) > 0), 'every action has a positive motion score');
});
