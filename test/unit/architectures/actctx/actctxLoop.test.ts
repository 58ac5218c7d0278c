// The Action Contextualization loop end to end through the engine, with scripted model answers and a small fake
// clearing world (the MuJoCo runs go through the CLI): a retune after holding() fails, the syntax repair loop and
// its format failure, and the multi-run selection.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseTaskPlan } from '../../../../src/architectures/actctx/plan.js';
import { projectActctxPlan } from '../../../../src/architectures/actctx/view/actctxPlan.js';
import { BALL, BIN, GLASS, SINK } from './fakeClearingSim.js';
import { evalPlan, of, plan, py, retuneExchange, run, runWith, spec } from './scripted.js';
import { ResponseCache, withCache } from '../../../../src/core/llm/cache.js';
import type { ModelClient, ModelRequest } from '../../../../src/core/llm/client.js';
import { MemoryHost } from '../../core/llm/helpers/memoryHost.js';

test('a fast pick lets the full glass slip: holding() fails, the retune lowers the speed and the plan passes; trace and plan view show both attempts', async () => {
  const { result, events, sim } = await retuneExchange();
  assert.equal(result.reason, 'plan_validated', result.message);
  assert.equal(result.success, true);
  assert.equal(result.end.archMetrics?.retunes, 1);
  assert.equal(result.end.archMetrics?.replans, 0);
  assert.equal(result.end.archMetrics?.trials, 1);
  // The retune request is the paper's failure report: index, action, arguments, score, reason, history.
  const retuneCall = of(events, 'role_call').find((e) => e.role === 'retune')!;
  const request = retuneCall.messages[retuneCall.messages.length - 1]!.content as string;
  assert.match(request, /failure index: 1\nfailed action: pick\ncurrent arguments: \('glass with yellowish liquid', 0\.95, 0\.02, 'top'\)/);
  assert.match(request, /motion score: 0\.1\d+/);
  assert.match(request, /failure reason: The action failed because of: holding\(\) returned False, expected True/);
  assert.match(request, /Earlier failures of this action:\nFAILURE: pick: glass with yellowish liquid \(0\.95, 0\.02, 'top'\) \| score = /);
  // One conversation: the retune request carries the plan and the evaluation plan before it.
  assert.ok(retuneCall.messages.some((m) => m.role === 'assistant' && /task_plan = \[/.test(m.content as string)));
  assert.ok(retuneCall.messages.some((m) => m.role === 'assistant' && /evaluation_plan = \[/.test(m.content as string)));
  // Both executions, from the same start (the fake world was restored between them).
  const view = projectActctxPlan(events);
  assert.deepEqual(view.attempts.map((a) => [a.label, a.kind, a.success, a.failedIndex]), [['P0', 'plan', false, 1], ['R1', 'retune', true, null]]);
  const [p0, r1] = view.attempts;
  assert.equal(p0!.steps.length, 2, 'P0 stopped after the failed pick');
  assert.deepEqual(p0!.steps[1]!.checks.find((c) => c.name === 'holding'), { name: 'holding', args: '()', expected: 'True', observed: 'False', ok: false });
  assert.equal(p0!.steps[1]!.named.speed, '0.95');
  assert.equal(r1!.steps[1]!.named.speed, '0.4');
  assert.deepEqual(r1!.changes, [{ index: 1, action: 'pick', param: 'speed', before: '0.95', after: '0.4' }]);
  assert.deepEqual(r1!.steps[1]!.changed, ['speed']);
  // Scores per action and attempt: the slower pick scores higher (the fake's M_E falls with speed).
  assert.ok(r1!.steps[1]!.mT! > p0!.steps[1]!.mT!);
  assert.ok(Math.abs(p0!.steps[1]!.mT! - (p0!.steps[1]!.mI! + p0!.steps[1]!.mE!)) < 1e-12);
  assert.equal(r1!.steps.length, 6);
  const q = r1!.steps.reduce((s, x) => s + x.mT!, 0) / 6;
  assert.ok(Math.abs(r1!.q! - q) < 1e-12);
  assert.ok(Math.abs(result.end.archMetrics!.planQuality! - q) < 1e-12);
  // Every skill and every check went through ctx.act (structured actions, one step per action).
  const acts = of(events, 'action');
  assert.ok(acts.length >= 8 + 6 + 6 * 4);
  assert.equal(sim.calls.filter((c) => c.fn === 'pick' && c.args[0] === GLASS).length, 2);
  const end = of(events, 'episode_end')[0]!;
  assert.equal(end.archMetrics?.retunes, 1);
});

test('bad plans get the paper-style feedback, are counted, and after the repair limit end the run as a format failure', async () => {
  const labels = { objects: [GLASS, BALL], locations: [SINK, BIN] };
  const bad = [
    py(`task_plan = [(0, 'pick', ('${GLASS}', 0.5, 0.02, 'top')`),
    py(`task_plan = [(0, 'pick', ('${GLASS}', 0.5, 0.02))]`),
    py(`task_plan = [(0, 'pick', ('${GLASS}', 1.5, 0.02, 'top'))]`),
    py(`task_plan = [(0, 'pick', ('pear', 0.5, 0.02, 'top'))]`),
  ];
  const feedback = bad.map((b) => {
    const p = parseTaskPlan(b, labels);
    assert.equal(p.ok, false);
    return (p as { error: string }).error;
  });
  assert.match(feedback[0]!, /^I ran your code and it raised the following error: SyntaxError: .*line 1.* Please correct it\.$/);
  assert.match(feedback[1]!, /TypeError: pick\(\) missing 1 required positional argument: 'grasp'/);
  assert.match(feedback[2]!, /ValueError: pick\(\): speed must be in \(0, 1\], got 1\.5/);
  assert.match(feedback[3]!, /ValueError: pick\(\): 'pear' is not one of the objects: 'glass with yellowish liquid', 'crumpled paper ball'/);

  const { result, events } = await run(spec({ taskPlanRepairs: 3 }), { 'actctx/task_plan': [bad[0]!], 'actctx/repair': bad.slice(1) });
  assert.equal(result.reason, 'format_failure');
  assert.equal(result.success, false);
  assert.match(result.message ?? '', /the task_plan could not be read after 3 repairs/);
  const parsed = of(events, 'parsed_output');
  assert.deepEqual(parsed.map((p) => [p.role, p.ok]), [['task_plan', false], ['repair', false], ['repair', false], ['repair', false]]);
  assert.deepEqual(parsed.map((p) => p.error), feedback);
  // Each repair request is the feedback itself, in the same conversation.
  const repairs = of(events, 'role_call').filter((e) => e.role === 'repair');
  assert.deepEqual(repairs.map((r) => r.messages[r.messages.length - 1]!.content), feedback.slice(0, 3));
  const end = of(events, 'episode_end')[0]!;
  assert.equal(end.metrics.formatErrors, 4);
  assert.equal(end.archMetrics?.repairs, 3);
});

test('a repaired plan runs; the multi-run selection keeps the validated run with the highest Q and the trace keeps every run', async () => {
  const { result, events } = await run(spec({ planRuns: 2, retunesPerAction: 0, maxReplans: 0 }), {
    // Run 1: a syntax slip, repaired, then a plan at speed 0.6 (passes). Run 2: speed 0.3 (passes, higher Q).
    'actctx/task_plan': [py('task_plan = [(0, "pick"'), plan(0.3)],
    'actctx/repair': [plan(0.6)],
    'actctx/evaluation_plan': [evalPlan, evalPlan],
  });
  assert.equal(result.reason, 'plan_validated', result.message);
  assert.equal(result.end.archMetrics?.runs, 2);
  assert.equal(result.end.archMetrics?.validatedRuns, 2);
  assert.equal(result.end.archMetrics?.chosenRun, 2);
  assert.equal(result.end.archMetrics?.repairs, 1);
  const view = projectActctxPlan(events);
  const runs = view.runs();
  assert.deepEqual(runs.map((r) => [r.run, r.success, r.chosen]), [[1, true, false], [2, true, true]]);
  assert.ok(runs[1]!.q! > runs[0]!.q!);
  const sel = of(events, 'check').find((e) => e.name === 'plan_selection')!;
  assert.match(sel.message ?? '', /kept run 2 of 2/);
  // Each run started from the same snapshot: both executions began at t = 0 in the fake world.
  assert.equal(of(events, 'restore').length >= 3, true);
});

test('retuneAfterSuccess: a passing plan is retuned to raise its score until the retunes run out (IV-B)', async () => {
  const { result, events } = await run(spec({ retuneAfterSuccess: true, retunesPerAction: 2 }), {
    'actctx/task_plan': [plan(0.6)],
    'actctx/evaluation_plan': [evalPlan],
    'actctx/improve': [py(`task_plan[5] = (5, 'drop', ('${BIN}', 0.3, 0.02))`), py(`task_plan[3] = (3, 'approach', ('${BALL}', 0.3, 0.02, 'top'))`)],
  });
  assert.equal(result.reason, 'plan_validated', result.message);
  assert.equal(result.end.archMetrics?.retunes, 2);
  const view = projectActctxPlan(events);
  assert.deepEqual(view.attempts.map((a) => [a.label, a.kind, a.success]), [['P0', 'plan', true], ['R1', 'improve', true], ['R2', 'improve', true]]);
  // Each slower action scores higher in the fake world, so Q rises with every retune.
  assert.ok(view.attempts[1]!.q! > view.attempts[0]!.q! && view.attempts[2]!.q! > view.attempts[1]!.q!);
  const req = of(events, 'role_call').find((e) => e.role === 'improve')!;
  assert.match(req.messages[req.messages.length - 1]!.content as string, /The task plan succeeded: it took \d+\.\d\d s and its average motion score is 0\.1\d+/);
});

// IV-B: "The LLM iterates the retune process four times. Then, we prompt it to re-generate the motion plan and repeat
// the retune process four times. Hence, the robotic system performed 8 trials for each object", each scored.
const evalPlanSink = evalPlan.replace(`'at_location': ('${BALL}', '${BIN}')`, `'at_location': ('${BALL}', '${SINK}')`);
const ivbAnswers = () => ({
  'actctx/task_plan': [plan(0.95)],
  'actctx/evaluation_plan': [evalPlan, evalPlanSink],
  'actctx/retune': [py(`task_plan[1] = (1, 'pick', ('${GLASS}', 0.4, 0.02, 'top'))`), py(`task_plan[1] = (1, 'pick', ('${GLASS}', 0.4, 0.02, 'top'))`), py(`task_plan[5] = (5, 'drop', ('${SINK}', 0.5, 0.02))`)],
  'actctx/improve': [py(`task_plan[5] = (5, 'drop', ('${BIN}', 0.3, 0.02))`), py(`task_plan[1] = (1, 'pick', ('${GLASS}', 0.9, 0.02, 'top'))`), py(`task_plan[3] = (3, 'approach', ('${BALL}', 0.3, 0.02, 'top'))`)],
  'actctx/replan': [plan(0.95)],
});

test('fixedTrials (IV-B): P0 and 3 retunes, P1 and 3 retunes whatever each result, every execution a scored trial', async () => {
  const { result, events } = await run(spec({ fixedTrials: true, retunesPerAction: 3, maxReplans: 1 }), ivbAnswers());
  const view = projectActctxPlan(events);
  // A retune after a success raises the score (improve) and may break the plan (the paper's apple and paper ball 2);
  // a retune that moves the failure later (P1's R1: from the pick to the drop) still counts as one of the three.
  assert.deepEqual(
    view.attempts.map((a) => [a.label, a.kind, a.success]),
    [['P0', 'plan', false], ['R1', 'retune', true], ['R2', 'improve', true], ['R3', 'improve', false], ['P1', 'replan', false], ['R1', 'retune', false], ['R2', 'retune', true], ['R3', 'improve', true]],
  );
  assert.equal(view.attempts[5]!.failedIndex, 5);
  const m = result.end.archMetrics!;
  assert.deepEqual([m.executions, m.executionsPassed, m.retunes, m.replans, m.trials], [8, 4, 6, 1, 7]);
  // The run's result is its last execution.
  assert.equal(result.reason, 'plan_validated', result.message);
  // The replan after P0's last retune failed is Prompt 6, followed by a fresh evaluation plan (Prompt 7).
  assert.equal(of(events, 'role_call').filter((e) => e.role === 'evaluation_plan').length, 2);
  assert.equal(of(events, 'role_call').some((e) => e.role === 'improve_replan'), false);
});

test('fixedTrials (IV-B): after a passing last retune the replan still comes, as a replan for a better score', async () => {
  const { result, events } = await run(spec({ fixedTrials: true, retunesPerAction: 3, maxReplans: 1 }), {
    'actctx/task_plan': [plan(0.6)],
    'actctx/evaluation_plan': [evalPlan, evalPlan],
    'actctx/improve': [3, 4, 5, 3, 4, 5].map((i) => py(`task_plan[${i}] = ${i === 5 ? `(5, 'drop', ('${BIN}', 0.4, 0.02))` : `(${i}, '${i === 3 ? 'approach' : 'pick'}', ('${BALL}', 0.4, 0.02, 'top'))`}`)),
    'actctx/improve_replan': [plan(0.5)],
  });
  const view = projectActctxPlan(events);
  assert.deepEqual(view.attempts.map((a) => [a.label, a.kind, a.success]), [['P0', 'plan', true], ['R1', 'improve', true], ['R2', 'improve', true], ['R3', 'improve', true], ['P1', 'replan', true], ['R1', 'improve', true], ['R2', 'improve', true], ['R3', 'improve', true]]);
  assert.deepEqual([result.end.archMetrics!.executions, result.end.archMetrics!.executionsPassed], [8, 8]);
  const req = of(events, 'role_call').find((e) => e.role === 'improve_replan')!;
  const text = req.messages[req.messages.length - 1]!.content as string;
  assert.match(text, /^The task plan succeeded: it took \d+\.\d\d s and its average motion score is 0\.\d+\.\nStarting from this plan and what follows, write a new plan that raises the score\./);
  assert.match(text, /within plus or minus 5 actions of the original task plan/);
});

test('without fixedTrials the same answers end at the first passing plan (the retunes serve success only)', async () => {
  const { result, events } = await run(spec({ retunesPerAction: 3, maxReplans: 1 }), ivbAnswers());
  assert.deepEqual(projectActctxPlan(events).attempts.map((a) => [a.label, a.success]), [['P0', false], ['R1', true]]);
  assert.deepEqual([result.end.archMetrics!.executions, result.end.archMetrics!.executionsPassed], [2, 1]);
});

test('multi-run selection: a run whose plan stays unreadable drops out, the others are still compared, and the trace shows all three', async () => {
  const { result, events } = await run(spec({ planRuns: 3, retunesPerAction: 0, maxReplans: 0, taskPlanRepairs: 0 }), {
    // Run 1 passes at speed 0.6; run 2's task plan does not read (no repair allowed); run 3 passes at 0.3, higher Q.
    'actctx/task_plan': [plan(0.6), py('task_plan = [(0, "pick"'), plan(0.3)],
    'actctx/evaluation_plan': [evalPlan, evalPlan],
  });
  assert.equal(result.reason, 'plan_validated', result.message);
  assert.equal(result.success, true);
  const m = result.end.archMetrics!;
  assert.deepEqual([m.runs, m.validatedRuns, m.formatFailedRuns, m.chosenRun], [3, 2, 1, 3]);
  const view = projectActctxPlan(events);
  assert.deepEqual(view.runs().map((r) => [r.run, r.success, r.chosen, r.formatFailure !== null]), [[1, true, false, false], [2, false, false, true], [3, true, true, false]]);
  assert.match(view.runs()[1]!.formatFailure!, /the task_plan could not be read after 0 repairs: I ran your code and it raised the following error: SyntaxError/);
  assert.deepEqual(view.attempts.map((a) => [a.run, a.label, a.success]), [[1, 'P0', true], [3, 'P0', true]]);
  const sel = of(events, 'check').find((e) => e.name === 'plan_selection')!;
  assert.match(sel.message ?? '', /kept run 3 of 3 \(Q = 0\.\d{4}; 2 validated; 1 left out after a format failure\)/);
});

test('multi-run selection: when no run gives a readable plan the episode is a format failure naming each run', async () => {
  const { result, events } = await run(spec({ planRuns: 2, taskPlanRepairs: 0 }), { 'actctx/task_plan': [py('task_plan = ['), py('plan = []')] });
  assert.equal(result.reason, 'format_failure');
  assert.match(result.message ?? '', /^no run gave a readable plan \(run 1: the task_plan could not be read after 0 repairs: .*; run 2: the task_plan could not be read after 0 repairs: I expected the code to assign 'task_plan' but it assigns 'plan'\.\)$/);
  assert.deepEqual([result.end.archMetrics?.runs, result.end.archMetrics?.formatFailedRuns], [2, 2]);
  assert.equal(of(events, 'check').filter((e) => e.name === 'plan_run').length, 2);
  assert.equal(of(events, 'check').some((e) => e.name === 'plan_selection'), false);
});

// IV-D: "repeat the process N times independently, keep the best Q". Every run asks the same first question, so a
// response cache keyed on the request alone handed runs 2..N run 1's answers; each run is now its own sample.
test('multi-run selection: N runs send N independent requests through the response cache, and a re-run replays all N from it', async () => {
  const speeds = [0.6, 0.3, 0.45];
  const sent: ModelRequest[] = [];
  const inner: ModelClient = {
    id: 'counting',
    async complete(request) {
      sent.push(request);
      const role = request.meta?.role;
      const n = sent.filter((r) => r.meta?.role === role).length;
      const text = role === 'task_plan' ? plan(speeds[n - 1]!) : evalPlan;
      return { ok: true, text, latencyMs: 0, cached: false, attempts: 1 };
    },
  };
  const cache = new ResponseCache(new MemoryHost(), '/ws/.waypoint/cache');
  const limits = { planRuns: 3, retunesPerAction: 0, maxReplans: 0 };
  const first = await runWith(spec(limits), withCache(inner, cache));
  assert.equal(first.result.reason, 'plan_validated', first.result.message);
  assert.equal(sent.filter((r) => r.meta?.role === 'task_plan').length, 3, 'one task-plan request per run reached the model');
  assert.deepEqual(sent.filter((r) => r.meta?.role === 'task_plan').map((r) => r.sampleIndex), [undefined, 1, 2]);
  // The three runs got three different plans, so the selection compared three different Qs and kept the slowest.
  assert.equal(first.result.end.archMetrics?.chosenRun, 2);
  const calls = of(first.events, 'role_call').filter((e) => e.role === 'task_plan');
  assert.deepEqual(calls.map((c) => c.params.sample), [undefined, 1, 2]);
  assert.equal(of(first.events, 'model_response').filter((e) => e.cached).length, 0);
  // The same episode again: every answer from the cache, run for run.
  const before = sent.length;
  const again = await runWith(spec(limits), withCache(inner, cache));
  assert.equal(sent.length, before, 'no request reached the model the second time');
  assert.equal(again.result.end.archMetrics?.chosenRun, 2);
  assert.ok(of(again.events, 'model_response').every((e) => e.cached));
});

test('the retune budget: retunesPerAction retunes that fail at the same action, then the replan (never one more)', async () => {
  // Every retune keeps the pick too fast, so the glass slips at index 1 each time.
  const tooFast = [0.9, 0.85, 0.82].map((v) => py(`task_plan[1] = (1, 'pick', ('${GLASS}', ${v}, 0.02, 'top'))`));
  const { result, events } = await run(spec({ retunesPerAction: 2, maxReplans: 1 }), {
    'actctx/task_plan': [plan(0.95)],
    'actctx/evaluation_plan': [evalPlan, evalPlan],
    'actctx/retune': tooFast,
    'actctx/replan': [plan(0.4)],
  });
  assert.equal(result.reason, 'plan_validated', result.message);
  const roles = of(events, 'role_call').map((c) => c.role).filter((r) => r === 'retune' || r === 'replan');
  assert.deepEqual(roles, ['retune', 'retune', 'replan']);
  assert.deepEqual([result.end.archMetrics?.retunes, result.end.archMetrics?.replans], [2, 1]);
});

test('a retune that moves the failure to a later action does not use up the budget (the authors\' counter)', async () => {
  // The plan drops the ball in the sink: after the glass is fixed, the failure moves from index 1 to index 5, and the
  // one retune of the budget is still there for it.
  const wrongBin = plan(0.95).replace(`(5, 'drop', ('${BIN}', 0.5, 0.02))`, `(5, 'drop', ('${SINK}', 0.5, 0.02))`);
  assert.notEqual(wrongBin, plan(0.95));
  const { result, events } = await run(spec({ retunesPerAction: 1, maxReplans: 0 }), {
    'actctx/task_plan': [wrongBin],
    'actctx/evaluation_plan': [evalPlan],
    'actctx/retune': [py(`task_plan[1] = (1, 'pick', ('${GLASS}', 0.4, 0.02, 'top'))`), py(`task_plan[5] = (5, 'drop', ('${BIN}', 0.5, 0.02))`)],
  });
  assert.equal(result.reason, 'plan_validated', result.message);
  assert.equal(result.end.archMetrics?.retunes, 2);
  const view = projectActctxPlan(events);
  assert.deepEqual(view.attempts.map((a) => [a.label, a.success, a.failedIndex]), [['P0', false, 1], ['R1', false, 5], ['R2', true, null]]);
});

test('maxReplans replans and no more: a plan that keeps failing is replanned exactly once with maxReplans 1, then the run ends unvalidated', async () => {
  const { result, events } = await run(spec({ retunesPerAction: 0, maxReplans: 1 }), {
    'actctx/task_plan': [plan(0.95)],
    'actctx/evaluation_plan': [evalPlan, evalPlan, evalPlan],
    'actctx/replan': [plan(0.9), plan(0.85)],
  });
  assert.equal(result.success, false);
  assert.notEqual(result.reason, 'plan_validated');
  assert.equal(of(events, 'role_call').filter((c) => c.role === 'replan').length, 1);
  assert.deepEqual([result.end.archMetrics?.replans, result.end.archMetrics?.retunes], [1, 0]);
  assert.deepEqual(projectActctxPlan(events).attempts.map((a) => [a.label, a.success]), [['P0', false], ['P1', false]]);
});
