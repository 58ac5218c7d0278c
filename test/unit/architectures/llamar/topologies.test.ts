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
