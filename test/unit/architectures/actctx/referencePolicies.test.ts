// The reference model's Action Contextualization policies (scripted, not an LLM), called in process the way the
// local endpoint calls them (role in the request metadata, answers from the messages only), on the fake clearing
// world: the competent profile's plan passes at once; reference-flawed carries the full glass too fast (the
// paper's Fig. 7 slip), holding() fails, and its retune slows the pick down. In the blocked world (the glass in the
// ball's way, the task naming the ball first) the reference plans the task's order, runs into the glass, and only
// the collision feedback puts the glass first (§V-A), since the description says nothing about where it stands.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ModelClient, ModelRequest, ModelResult } from '../../../../src/core/llm/client.js';
import { registerReferencePolicies } from '../../../../src/core/llm/reference/policies.js';
import { architectures } from '../../../../src/architectures/registry.js';
import { defaultReferenceModels } from '../../../../src/core/llm/reference/policy.js';
import { projectActctxPlan } from '../../../../src/architectures/actctx/view/actctxPlan.js';
import { BALL, FakeClearingSim, GLASS } from './fakeClearingSim.js';
import { of, runWith, spec } from './scripted.js';
import { createTabletopSimulator } from '../../../../src/core/sim/mujoco/index.js';

registerReferencePolicies(architectures);

function inProcess(profile: 'reference' | 'reference-flawed'): ModelClient {
  const policy = defaultReferenceModels().get(profile)!;
  return {
    id: profile,
    async complete(r: ModelRequest): Promise<ModelResult> {
      return { ok: true, text: policy.answer(r.messages, { ...(r.meta ? { meta: r.meta } : {}), ...(r.seed !== undefined ? { seed: r.seed } : {}) }), latencyMs: 0, cached: false, attempts: 1 };
    },
  };
}

test('reference: the plan and its evaluation plan read, every check passes, no retune', async () => {
  const { result, events } = await runWith(spec(), inProcess('reference'));
  assert.equal(result.reason, 'plan_validated', result.message);
  assert.equal(result.success, true);
  assert.equal(result.end.archMetrics?.retunes, 0);
  assert.ok(of(events, 'parsed_output').every((p) => p.ok));
  const steps = projectActctxPlan(events).attempts[0]!.steps;
  assert.deepEqual(steps.map((s) => s.action), ['approach', 'pick', 'place', 'approach', 'pick', 'drop']);
  assert.equal(steps[1]!.named.speed, '0.4', 'the full glass moves slowly');
});

test('reference-flawed: a fast pick of the full glass fails holding(); the retune slows it and the plan passes', async () => {
  const { result, events } = await runWith(spec(), inProcess('reference-flawed'));
  assert.equal(result.reason, 'plan_validated', result.message);
  const view = projectActctxPlan(events);
  const first = view.attempts[0]!;
  assert.equal(first.success, false);
  const failed = first.steps.find((s) => s.failed)!;
  assert.equal(failed.action, 'pick');
  assert.equal(failed.label, GLASS);
  assert.ok(Number(failed.named.speed) > 0.8, `flawed speed ${failed.named.speed}`);
  assert.ok(failed.checks.some((c) => c.name === 'holding' && !c.ok));
  const speedChange = view.attempts.flatMap((a) => a.changes).find((c) => c.param === 'speed' && c.action === 'pick');
  assert.ok(speedChange && Number(speedChange.after) < Number(speedChange.before), JSON.stringify(view.attempts.map((a) => a.changes)));
  assert.ok((result.end.archMetrics?.retunes ?? 0) >= 1);
});

test('reference on the real simulator: ac_single_empty_glass (IV-C case a) is approached, picked and set down in the sink, every check as planned', async () => {
  const sim = await createTabletopSimulator();
  try {
    const { result, events } = await runWith(spec({}, 'ac_single_empty_glass'), inProcess('reference'), sim);
    assert.equal(result.reason, 'plan_validated', result.message);
    assert.equal(result.success, true, result.message);
    assert.equal(result.end.archMetrics?.retunes, 0);
    const steps = projectActctxPlan(events).attempts[0]!.steps;
    assert.deepEqual(steps.map((s) => `${s.action} ${s.label}`), ['approach empty glass 1', 'pick empty glass 1', 'place large white sink']);
    assert.ok(steps.every((s) => s.checks.every((c) => c.ok)));
    assert.ok(steps.every((s) => (s.mT ?? 0) > 0), 'every action has a positive motion score');
  } finally {
    await sim.close();
  }
});

test('reference, blocked world: the task order first, a collision with the glass, retunes, then a replan from the collision feedback puts the glass first and passes', async () => {
  const { result, events } = await runWith(spec(), inProcess('reference'), new FakeClearingSim({ blocked: true }));
  assert.equal(result.reason, 'plan_validated', result.message);
  assert.equal(result.success, true, result.message);
  const view = projectActctxPlan(events);
  const first = view.attempts[0]!;
  assert.equal(first.steps[0]!.label, BALL, 'without relations the plan keeps the task\'s order');
  assert.equal(first.success, false);
  assert.ok(first.steps.some((s) => s.checks.some((c) => c.name === 'collision_free' && !c.ok && c.observed.includes(GLASS))), 'the first execution runs into the glass');
  const calls = of(events, 'role_call');
  const firstFeedback = calls.findIndex((c) => (c.role === 'retune' || c.role === 'replan') && c.messages.some((m) => m.role === 'user' && m.content.includes(`collided with ${GLASS}`)));
  assert.ok(firstFeedback >= 0, 'a retune or replan request reports the collision');
  const replanAt = calls.findIndex((c) => c.role === 'replan');
  assert.ok(replanAt >= firstFeedback, 'the replan comes after the collision feedback');
  assert.equal(result.end.archMetrics?.replans, 1);
  assert.ok(Number(result.end.archMetrics?.retunes) >= 1, 'retunes were tried before the replan');
  const last = view.attempts[view.attempts.length - 1]!;
  assert.equal(last.kind, 'replan');
  assert.equal(last.steps[0]!.label, GLASS, 'the replan puts the glass first');
  assert.ok(last.success);
});

test('reference, blocked world with scene.spatial_relations on: the description says the glass is beside the ball, so the first plan puts it first', async () => {
  const { result, events } = await runWith(spec({}, 'fake_clear', [], ['scene.spatial_relations']), inProcess('reference'), new FakeClearingSim({ blocked: true }));
  assert.equal(result.reason, 'plan_validated', result.message);
  const view = projectActctxPlan(events);
  assert.equal(view.attempts.length, 1, 'no retune, no replan');
  assert.equal(view.attempts[0]!.steps[0]!.label, GLASS);
});
