// LLaMAR's Table 4 rows and App. E.2-E.3 baselines as the paper ran them: what each topology's roles are asked and
// told, on the rendered requests of a run with the reference model, and what the loop does without a module.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ModelRequest } from '../../../../src/core/llm/client.js';
import { policyClient, runLlamar } from './helpers.js';

const TASK = 'put_bread_lettuce_tomato_fridge';
const of = (requests: ModelRequest[], role: string) => requests.filter((r) => r.meta?.role === role);
const system = (r: ModelRequest) => r.messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n');
const user = (r: ModelRequest) => r.messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');

test('P+A+V (Table 4 row 2): without the Corrector the Actor has no failure-reason field and reads no corrections', async () => {
  const model = policyClient();
  const { result } = await runLlamar({ task: TASK, agents: 2, variant: 'pav', model });
  const actor = of(model.requests, 'actor');
  assert.ok(actor.length > 0);
  for (const r of actor) {
    assert.doesNotMatch(system(r), /failure reason/i, 'the failure-reason field is the Corrector\'s job');
    assert.doesNotMatch(system(r) + user(r), /corrective actions/i);
  }
  assert.equal(of(model.requests, 'corrector').length, 0);
  assert.equal(result.success, true, `${result.reason}: ${result.message}`);
  // The full system keeps the field (App. E.1), so the check above can tell the two apart.
  const full = policyClient();
  await runLlamar({ task: TASK, agents: 2, limits: { maxSteps: 1 }, model: full });
  assert.match(system(of(full.requests, 'actor')[0]!), /failure reason/i);
});

test('P+A+C (Table 4 row 3): without the Verifier the oracle fills the completed subtasks the Planner and Actor read', async () => {
  const model = policyClient();
  const { result } = await runLlamar({ task: TASK, agents: 2, variant: 'pac', model });
  assert.equal(of(model.requests, 'verifier').length, 0);
  assert.equal(result.success, true, `${result.reason}: ${result.message}`);
  const completedLine = (r: ModelRequest) => /Robots' completed subtasks: (.*?),?$/m.exec(user(r))?.[1] ?? '';
  const planner = of(model.requests, 'planner');
  assert.equal(completedLine(planner[0]!), 'None', 'nothing is done before the first step');
  // The checker's subtasks as it names them, e.g. PutObject(Fridge, Tomato), once the robots have done them.
  const later = [...planner, ...of(model.requests, 'actor')].map(completedLine).filter((l) => l !== 'None');
  assert.ok(later.length > 0, 'a completed list reaches the modules');
  assert.ok(later.some((l) => /Fridge/.test(l)), later.join(' | '));
});

// App. E.2 (Act) and E.3 (ReAct): one call per step from the task, the views and the trace of the steps; no memory,
// subtasks or corrections. Act answers only the robots' actions; ReAct thinks first ("Think"), then acts ("Action").
const NOT_IN_BASELINES = [/combined memory/i, /open subtasks/i, /failure reason/i, /corrective action/i, /previous failures/i];

for (const [variant, role] of [['actor_only', 'act'], ['react', 'react']] as const) {
  test(`${variant} (App. E.${role === 'act' ? 2 : 3}): one ${role} call per step from the task, the views and the trace; the reference model runs it`, async () => {
    const model = policyClient();
    const { result } = await runLlamar({ task: '1_put_pots_pans_stove_burners', agents: 2, variant, model });
    assert.deepEqual([...new Set(model.requests.map((r) => r.meta?.role))], [role]);
    const first = model.requests[0]!;
    const last = model.requests.at(-1)!;
    for (const re of NOT_IN_BASELINES) assert.doesNotMatch(system(first) + user(last), re);
    // The paper's notes, and the trace of every step so far with each action's success.
    assert.match(system(first), /close it again before it navigates somewhere else/);
    assert.match(user(first), /Robots' history: None/);
    assert.match(user(last), /Robots' history: step 1: Alice: .* \((un)?successful\); Bob: /);
    assert.equal((user(last).match(/step \d+:/g) ?? []).length, model.requests.length - 1, 'the whole trace, not the last steps');
    assert.equal(result.success, true, `${result.reason}: ${result.message}`);
  });
}

test('Act answers only the actions, keyed by robot; ReAct a "Think" string and then an "Action" dict', async () => {
  const act = policyClient();
  await runLlamar({ task: '1_put_pots_pans_stove_burners', agents: 2, variant: 'actor_only', limits: { maxSteps: 1 }, model: act });
  assert.match(system(act.requests[0]!), /\{"Alice": "action for Alice", "Bob": "action for Bob"\}/);
  assert.doesNotMatch(system(act.requests[0]!), /"Think"|"memory"|"reason"/);
  const react = policyClient();
  await runLlamar({ task: '1_put_pots_pans_stove_burners', agents: 2, variant: 'react', limits: { maxSteps: 1 }, model: react });
  const sys = system(react.requests[0]!);
  assert.match(sys, /\{"Think": "\.\.\.", "Action": \{"Alice": "\.\.\.", "Bob": "\.\.\."\}\}/);
  assert.doesNotMatch(sys, /"memory"|"reason"/);
});

test("the baselines' answers are read in their shapes; a ReAct answer without its Action dict is fed back", async () => {
  const ok = policyClient('reference', (role) => (role === 'act' ? '{"Alice": "stay idle", "Bob": "rotate in Left direction"}' : undefined));
  const a = await runLlamar({ task: '1_put_pots_pans_stove_burners', agents: 2, variant: 'actor_only', limits: { maxSteps: 1 }, model: ok });
  assert.equal(a.result.end.archMetrics!.formatErrors, 0);
  const bad = policyClient('reference', (role) => (role === 'react' ? '{"Think": "Alice waits.", "Action": "stay idle"}' : undefined));
  const b = await runLlamar({ task: '1_put_pots_pans_stove_burners', agents: 2, variant: 'react', limits: { maxSteps: 1, maxFormatErrors: 1 }, model: bad });
  assert.equal(b.result.reason, 'format_failure');
  assert.match(b.result.message ?? '', /"Action" must be a dictionary from robot name to action/);
});

// App. E.2 and E.3 list no Explore action (it is LLaMAR's own, §4.4): the baselines neither see it nor may take it,
// unless their prompt's `explore` block (our addition, default off) is switched on.
for (const [variant, role, block] of [['actor_only', 'act', 'act.explore'], ['react', 'react', 'react.explore']] as const) {
  test(`${variant}: no Explore in the action list and an "explore" answer is refused; with ${block} on, both`, async () => {
    const answer = role === 'act' ? '{"Alice": "explore", "Bob": "stay idle"}' : '{"Think": "Nobody sees a pot yet.", "Action": {"Alice": "explore", "Bob": "stay idle"}}';
    const script = (r: string, nth: number) => (r === role && nth === 1 ? answer : undefined);
    const explored = (events: { type: string }[]) =>
      events.some((e) => e.type === 'parsed_output' && (e as { ok?: boolean }).ok === true && /Explore/.test(JSON.stringify((e as { value?: unknown }).value)));
    const off = policyClient('reference', script);
    const a = await runLlamar({ task: '1_put_pots_pans_stove_burners', agents: 2, variant, model: off, limits: { maxSteps: 2 } });
    assert.doesNotMatch(system(off.requests[0]!), /"explore"/);
    assert.equal(explored(a.events), false, 'the answer naming explore is not taken as Explore');
    const refused = a.events.find((e) => e.type === 'parsed_output' && (e as { ok?: boolean }).ok === false) as { error?: string } | undefined;
    assert.ok(refused, 'the explore answer is fed back as unusable');
    const on = policyClient('reference', script);
    const b = await runLlamar({ task: '1_put_pots_pans_stove_burners', agents: 2, variant, model: on, limits: { maxSteps: 2 }, ablations: { [block]: true } });
    assert.match(system(on.requests[0]!), /"explore"/);
    assert.equal(explored(b.events), true, 'with the block on, explore is an admissible action');
  });
}
