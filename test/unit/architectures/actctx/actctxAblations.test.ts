// The evaluation-plan reader and the ablation ids the loop acts on besides the prompt text: without the prompt's
// request for the mandatory checks the reader demands none, an evaluation plan written one check per tuple is told
// so, and feedback without scores carries none in its history lines either.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MANDATORY_CHECKS_ABLATION, parseEvaluationPlan, parseTaskPlan } from '../../../../src/architectures/actctx/plan.js';
import { projectActctxPlan } from '../../../../src/architectures/actctx/view/actctxPlan.js';
import { BALL, BIN, GLASS, SINK } from './fakeClearingSim.js';
import { evalPlan, of, plan, py, run, spec } from './scripted.js';

const labels = { objects: [GLASS, BALL], locations: [SINK, BIN] };
const steps = (() => {
  const p = parseTaskPlan(plan(0.3), labels);
  assert.ok(p.ok);
  return p.value;
})();

// The paper's own pattern for the checks of each action, without collision_free, timeout and check_motion_health.
const bareEval = py(`evaluation_plan = [
    (0, {'can_grasp': ('${GLASS}', 'top')}, (True,)),
    (1, {'holding': ()}, (True,)),
    (2, {'at_location': ('${GLASS}', '${SINK}')}, (True,)),
    (3, {}, ()),
    (4, {'holding': ()}, (True,)),
    (5, {'at_location': ('${BALL}', '${BIN}')}, (True,)),
]`);

test('the mandatory checks are demanded only while the prompt asks for them', () => {
  const on = parseEvaluationPlan(bareEval, steps, labels);
  assert.equal(on.ok, false);
  assert.match((on as { error: string }).error, /^The evaluation of action 0 does not check collision_free, timeout, check_motion_health\./);
  const off = parseEvaluationPlan(bareEval, steps, labels, false);
  assert.ok(off.ok, off.ok ? '' : off.error);
  assert.deepEqual(off.value.map((e) => e.checks.map((c) => c.name)), [['can_grasp'], ['holding'], ['at_location'], [], ['holding'], ['at_location']]);
});

test('an evaluation plan written one check per tuple is told it has several tuples for one action, whatever the checks', () => {
  // The paper's Mistral case (a), the way reference-flawed writes it.
  const perCheck = py(`evaluation_plan = [
    (0, {'can_grasp': ('${GLASS}', 'top')}, (True,)),
    (0, {'collision_free': ()}, ('',)),
    (0, {'timeout': ()}, (True,)),
    (0, {'check_motion_health': ()}, (True,)),
    (1, {'holding': ()}, (True,)),
]`);
  for (const mandatory of [true, false]) {
    const r = parseEvaluationPlan(perCheck, steps, labels, mandatory);
    assert.equal(r.ok, false);
    assert.equal(
      (r as { error: string }).error,
      'The evaluation plan indices are not consecutive: action 0 has 4 tuples (lines 2, 3, 4, 5). Give one tuple per action, with all of its checks in one dictionary and their expected outputs in one tuple.',
    );
  }
});

test(`${MANDATORY_CHECKS_ABLATION} off: the prompt does not ask for the mandatory checks and a plan without them runs with no repair`, async () => {
  const answers = { 'actctx/task_plan': [plan(0.3)], 'actctx/evaluation_plan': [bareEval], 'actctx/repair': [evalPlan] };
  const off = await run(spec({}, 'fake_clear', [MANDATORY_CHECKS_ABLATION]), answers);
  assert.equal(off.result.reason, 'plan_validated', off.result.message);
  assert.equal(off.result.end.archMetrics?.repairs, 0);
  const request = of(off.events, 'role_call').find((e) => e.role === 'evaluation_plan')!;
  assert.doesNotMatch(request.messages[request.messages.length - 1]!.content as string, /without exception/);
  const executed = projectActctxPlan(off.events).attempts[0]!.steps;
  assert.deepEqual(executed.map((s) => s.checks.map((c) => c.name)), [['can_grasp'], ['holding'], ['at_location'], [], ['holding'], ['at_location']]);
  // The same answers with the block on: the reader sends the plan back for the missing checks.
  const on = await run(spec(), answers);
  assert.equal(on.result.reason, 'plan_validated', on.result.message);
  assert.equal(on.result.end.archMetrics?.repairs, 1);
  const repair = of(on.events, 'role_call').find((e) => e.role === 'repair')!;
  assert.match(repair.messages[repair.messages.length - 1]!.content as string, /does not check collision_free, timeout, check_motion_health/);
});

test('no_scores: the retune request has no motion score and no scores in its history lines', async () => {
  const answers = {
    'actctx/task_plan': [plan(0.95)],
    'actctx/evaluation_plan': [evalPlan],
    'actctx/retune': [py(`task_plan[1] = (1, 'pick', ('${GLASS}', 0.4, 0.02, 'top'))`)],
  };
  const request = async (off: string[]) => {
    const { result, events } = await run(spec({}, 'fake_clear', off), answers);
    assert.equal(result.reason, 'plan_validated', result.message);
    const call = of(events, 'role_call').find((e) => e.role === 'retune')!;
    return call.messages[call.messages.length - 1]!.content as string;
  };
  const withScores = await request([]);
  assert.match(withScores, /motion score: 0\.1\d+/);
  assert.match(withScores, /FAILURE: pick: glass with yellowish liquid \(0\.95, 0\.02, 'top'\) \| score = 0\.1\d+/);
  const without = await request(['retune.score_in_feedback', 'replan.score_in_feedback']);
  assert.doesNotMatch(without, /score/);
  assert.match(without, /^FAILURE: pick: glass with yellowish liquid \(0\.95, 0\.02, 'top'\)$/m);
});
