// LLaMAR end to end on the household simulator with the reference model (scripted, NOT an LLM): a task of each
// MAP-THOR category with two robots, one with one robot and one with three; the Corrector's exchange after an
// out-of-range Pickup; and the bad Actor answers (not a dict, missing keys, a fourth robot of two, an unseen
// object), each fed back, counted and, at the limit, ending the episode as a format failure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HouseholdExtra } from '../../../../src/protocol/household.js';
import type { EventOf, TraceEvent } from '../../../../src/protocol/trace.js';
import { runLlamar, policyClient } from './helpers.js';

const of = <T extends TraceEvent['type']>(events: TraceEvent[], type: T) => events.filter((e): e is EventOf<T> => e.type === type);

for (const [category, task] of [
  [1, 'put_bread_lettuce_tomato_fridge'],
  [2, 'open_all_drawers'],
  [3, 'put_all_groceries_fridge'],
  [4, 'make_living_room_dark'],
] as const) {
  test(`category ${category}: ${task} succeeds with 2 robots (seed 0), verified by the checker, with the paper's metrics`, async () => {
    const { result, events } = await runLlamar({ task, agents: 2 });
    assert.equal(result.success, true, `${result.reason}: ${result.message}`);
    assert.equal(result.reason, 'subtasks_done');
    const start = of(events, 'episode_start')[0]!;
    assert.deepEqual(start.agents, ['Alice', 'Bob']);
    assert.equal(start.limits?.maxSteps, 30);
    const m = result.end.archMetrics!;
    assert.equal(m.success, 1);
    assert.equal(m.transportRate, 1);
    assert.equal(m.coverage, 1);
    assert.ok(m.balance! >= 0 && m.balance! <= 1);
    assert.equal(m.steps, result.end.metrics.steps);
    assert.ok(m.steps! <= 30);
    // Every step's joint action has one result per robot, and every event of a step carries it.
    for (const a of of(events, 'action')) {
      assert.deepEqual(a.actions.map((x) => x.agent), ['Alice', 'Bob']);
      assert.equal(a.joint, true);
      assert.ok(a.step! >= 1);
    }
    // Four modules per step, in the paper's order.
    const roles = of(events, 'role_call').filter((c) => c.step === 1).map((c) => c.role);
    assert.deepEqual(roles, ['planner', 'actor', 'corrector', 'verifier']);
    assert.equal(of(events, 'error').length, 0);
  });
}

test('one robot and three robots: the team size reaches the simulator, the prompts and the actions', async () => {
  const one = await runLlamar({ task: 'put_bread_lettuce_tomato_fridge', agents: 1 });
  assert.equal(one.result.success, true, `${one.result.reason}: ${one.result.message}`);
  assert.deepEqual(of(one.events, 'episode_start')[0]!.agents, ['Alice']);
  const actor1 = of(one.events, 'role_call').find((c) => c.role === 'actor')!;
  assert.match(actor1.messages[0]!.content, /a team of 1 household robot named Alice\b/);
  assert.match(actor1.messages[0]!.content, /"Alice's action": "\.\.\." \}/);
  assert.equal(one.result.end.archMetrics!['credit.Alice'], one.result.end.archMetrics!.completedSubtasks);

  const three = await runLlamar({ task: 'put_all_groceries_fridge', agents: 3 });
  assert.equal(three.result.success, true, `${three.result.reason}: ${three.result.message}`);
  assert.deepEqual(of(three.events, 'episode_start')[0]!.agents, ['Alice', 'Bob', 'Charlie']);
  for (const a of of(three.events, 'action')) assert.equal(a.actions.length, 3);
  const actor3 = of(three.events, 'role_call').find((c) => c.role === 'actor')!;
  assert.match(actor3.messages[0]!.content, /named Alice, Bob and Charlie/);
  assert.match(actor3.messages[1]!.content, /Charlie's observation: \[/);
  // Per-robot views: each observation event of a robot lists only what that robot sees.
  const views = of(three.events, 'observation').filter((o) => o.view === 'agent');
  assert.ok(views.length >= 3);
  for (const v of views) {
    const h = HouseholdExtra.parse(v.state.extra!.household);
    assert.equal(h.agent, v.agent);
    assert.equal(h.checker, undefined, 'no ground truth in a robot view');
    assert.match(v.rendered!, new RegExp(`^${v.agent}'s observation: \\[`));
  }
});

test("the Corrector's exchange: an out-of-range Pickup fails, the Corrector proposes NavigateTo, and the retry succeeds", async () => {
  // Step 1: the Actor (scripted) picks up the first object Alice sees without walking to it; afterwards the
  // reference policies play every role.
  let target = '';
  const model = policyClient('reference', (role, nth, req) => {
    if (role !== 'actor' || nth !== 1) return undefined;
    const dict = req.messages.at(-1)!.content;
    target = /Alice's observation: \[[^\]]*'((?:Bread|Tomato|Lettuce)_\d+)'/.exec(dict)?.[1] ?? '';
    return JSON.stringify({ 'failure reason': 'None', memory: '', reason: `Alice picks up ${target}`, subtask: 'transport', "Alice's action": `pick up object ${target}` });
  });
  // Seed 1 with one robot: Alice starts 2 m from the tomato she sees (checked below).
  const { result, events } = await runLlamar({ task: 'put_bread_lettuce_tomato_fridge', agents: 1, seed: 1, model });
  assert.ok(target, 'Alice sees an item of the task at the start');
  const results = of(events, 'action_result');
  const first = results[0]!.results[0]!;
  assert.deepEqual([first.agent, first.name, first.ok], ['Alice', 'Pickup', false]);
  assert.equal(first.error, `I tried to pick up ${target} in the previous step but was unsuccessful.`);
  assert.match(String(first.value), new RegExp(`${target} is \\d\\.\\d\\d m away; the interaction range is 1\\.5 m`));
  const correction = of(events, 'parsed_output').find((p) => p.role === 'corrector' && p.step === 1)!;
  assert.deepEqual((correction.value as { corrections: Record<string, string> }).corrections, { Alice: `navigate to object ${target}` });
  assert.match((correction.value as { failureReason: string }).failureReason, /too far away|out of view/);
  // The next Actor call is shown the correction and follows it; then the pickup works.
  const actor2 = of(events, 'role_call').filter((c) => c.role === 'actor')[1]!;
  assert.match(actor2.messages.at(-1)!.content, new RegExp(`Robots' corrective actions: \\{Alice: navigate to object ${target}\\}`));
  assert.match(actor2.messages.at(-1)!.content, new RegExp(`Alice's previous failures: Previously, I have tried to pick up ${target}, but was unsuccessful`));
  const second = results[1]!.results[0]!;
  assert.deepEqual([second.name, second.ok, second.output], ['NavigateTo', true, `I navigated to ${target} in the previous step and was successful.`]);
  const third = results[2]!.results[0]!;
  assert.deepEqual([third.name, third.ok], ['Pickup', true]);
  assert.equal(result.end.archMetrics!.correctionsFollowed, 1);
  assert.equal(result.success, true, `${result.reason}: ${result.message}`);
});

test('bad Actor answers are fed back, counted, and after maxFormatErrors in a row end the episode as format_failure', async () => {
  const bad = [
    'Alice should walk to the fridge first.',
    JSON.stringify({ memory: '', reason: 'go' }),
    JSON.stringify({ memory: '', reason: 'go', subtask: 's', "Alice's action": 'explore', "Bob's action": 'explore', "David's action": 'stay idle' }),
    JSON.stringify({ memory: '', reason: 'go', subtask: 's', "Alice's action": 'pick up object Apple_7', "Bob's action": 'explore' }),
  ];
  const model = policyClient('reference', (role, nth) => (role === 'actor' ? bad[nth - 1] : undefined));
  const { result, events } = await runLlamar({ task: 'put_bread_lettuce_tomato_fridge', agents: 2, limits: { maxFormatErrors: 4 }, model });
  assert.equal(result.reason, 'format_failure');
  assert.equal(result.success, false);
  const errors = of(events, 'parsed_output').filter((p) => !p.ok).map((p) => p.error!);
  assert.equal(errors.length, 4);
  assert.match(errors[0]!, /expected a dict/);
  assert.match(errors[1]!, /missing key "subtask"/);
  assert.match(errors[1]!, /missing "Alice's action", "Bob's action"/);
  assert.match(errors[2]!, /"David's action": David is not on this team \(robots: Alice, Bob\)/);
  assert.match(errors[3]!, /pick up object Apple_7.*Apple_7 has not been seen by any robot/);
  // Each retry shows the Actor its previous answer and what was wrong with it.
  const actorCalls = of(events, 'role_call').filter((c) => c.role === 'actor');
  assert.equal(actorCalls.length, 4);
  for (let i = 1; i < 4; i++) {
    const feedback = actorCalls[i]!.messages.at(-1)!;
    assert.equal(feedback.role, 'user');
    assert.ok(feedback.content.startsWith(`That answer cannot be used: ${errors[i - 1]}`), feedback.content);
    assert.equal(actorCalls[i]!.messages.at(-2)!.content, bad[i - 1]);
  }
  assert.equal(result.end.metrics.formatErrors, 4);
  assert.equal(result.end.archMetrics!.formatErrors, 4);
  assert.equal(of(events, 'action').length, 0, 'no invalid action reached the simulator');
  assert.match(result.message!, /4 unusable answers in a row/);
});

test('an unusable answer followed by a good one: the episode goes on and the count of errors stays', async () => {
  const model = policyClient('reference', (role, nth) => (role === 'actor' && nth === 1 ? '{"memory": "x"' : undefined));
  const { result, events } = await runLlamar({ task: 'put_bread_lettuce_tomato_fridge', agents: 2, model });
  assert.equal(result.success, true, `${result.reason}: ${result.message}`);
  const first = of(events, 'parsed_output').find((p) => p.role === 'actor')!;
  assert.equal(first.ok, false);
  assert.match(first.error!, /expected ',' or '}' in the dict at line 1/);
  assert.equal(result.end.archMetrics!.formatErrors, 1);
});

test('reference-flawed makes the reported mistakes; with the Corrector they are corrected, without it they repeat', async () => {
  // Seeds at which the flawed dice (over the episode's messages, not the system prompt) make each mistake.
  const withC = await runLlamar({ task: 'put_bread_lettuce_tomato_fridge', agents: 2, seed: 10, model: policyClient('reference-flawed') });
  const withoutC = await runLlamar({ task: 'put_bread_lettuce_tomato_fridge', agents: 2, seed: 10, variant: 'pav', model: policyClient('reference-flawed') });
  const a = withC.result.end.archMetrics!;
  const b = withoutC.result.end.archMetrics!;
  assert.ok(a.failedActions! >= 1, 'the flawed Actor makes mistakes');
  assert.ok(b.repeatedFailures! > a.repeatedFailures!, `repeated failures with the Corrector ${a.repeatedFailures}, without ${b.repeatedFailures}`);
  assert.equal(b.corrections, 0);
  assert.ok(a.corrections! >= 1);
  const roles = new Set(of(withoutC.events, 'role_call').map((c) => c.role));
  assert.deepEqual([...roles].sort(), ['actor', 'planner', 'verifier']);
  // The paper's reported mistakes, each seen: out of range, a closed fridge, Done too early (the Verifier keeps the
  // episode going, so the run still succeeds), and (without the Corrector) the same failed action again.
  const other = await runLlamar({ task: 'put_bread_lettuce_tomato_fridge', agents: 2, seed: 2, model: policyClient('reference-flawed') });
  const failures = (r: typeof withC) => of(r.events, 'action_result').flatMap((e) => e.results.filter((x) => !x.ok).map((x) => `${x.name}: ${String(x.value)}`));
  assert.ok(failures(withC).some((f) => /^Pickup: \w+_\d+ is \d\.\d\d m away; the interaction range is 1\.5 m$/.test(f)), failures(withC).join('; '));
  assert.ok(failures(other).some((f) => f === 'Put: Fridge_1 is closed'), failures(other).join('; '));
  for (const r of [withC, other]) {
    assert.ok(r.result.end.archMetrics!.prematureDone! >= 1, 'every robot said Done with subtasks open');
    assert.equal(r.result.success, true, `${r.result.reason}: ${r.result.message}`);
  }
  assert.ok(failures(withoutC).filter((f) => f === 'Put: Fridge_1 is closed').length >= 3, 'without the Corrector the closed-fridge Put repeats');
});

test('the step cap ends the episode as step_cap after exactly T steps, with the checker metrics of that state', async () => {
  // Three steps are too few for this task; every step of the team is one joint action.
  const { result, events } = await runLlamar({ task: 'put_bread_lettuce_tomato_fridge', agents: 2, limits: { maxSteps: 3 } });
  assert.equal(result.reason, 'step_cap', result.message);
  assert.equal(result.message, 'stopped at the step cap (3 steps)');
  assert.equal(result.success, false);
  const actions = of(events, 'action');
  assert.deepEqual(actions.map((a) => a.step), [1, 2, 3]);
  assert.equal(result.end.archMetrics!.steps, 3);
  assert.equal(of(events, 'role_call').filter((c) => c.role === 'planner').length, 3);
  assert.ok(result.end.archMetrics!.transportRate! < 1);
});
