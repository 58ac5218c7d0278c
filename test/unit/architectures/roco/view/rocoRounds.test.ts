// The Rounds view model from a RoCo trace: lanes per robot, decisions, attempts split at a rejected plan, checks'
// verdicts with the feedback text, the executed plan and the round's success check.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isRoundsEvent, rocoRounds } from '../../../../../src/architectures/roco/view/rocoRounds.js';
import type { TraceEvent } from '../../../../../src/protocol/trace.js';

let seq = 0;
// Events as the viewer receives them (already validated); only the fields the projection reads matter here.
const ev = (o: Record<string, unknown>) => ({ seq: seq++, tMs: 0, ...o }) as unknown as TraceEvent;
const start = ev({
  type: 'episode_start', schemaVersion: 2, runId: 'r', arch: 'roco', agentVariant: 'dialog', task: 'handover', taskDescription: 'hand it over', seed: 0, variant: 'default', ablations: {},
  model: { provider: 'reference', model: 'reference', label: 'reference' }, prompts: [], options: {}, agents: ['Alice', 'Bob'], humans: ['Alice'],
});

test('rocoRounds: a rejected attempt and an executed re-plan in one round, lanes by robot, the human turn marked', () => {
  const call = (turn: number, agent: string, human = false) => ev({ type: 'role_call', round: 1, agent, turn, callId: `c${turn}`, role: 'dialog', messages: [], model: human ? 'human' : 'reference', params: {}, ...(human ? { human: true } : {}) });
  const events = [
    start,
    call(1, 'Alice', true),
    ev({ type: 'chat_message', round: 1, agent: 'Alice', turn: 1, speaker: 'Alice', content: 'I lift. PROCEED' }),
    ev({ type: 'parsed_output', round: 1, agent: 'Alice', turn: 1, callId: 'c1', role: 'dialog', ok: true, kind: 'dialog', value: { decision: 'PROCEED', human: true } }),
    call(2, 'Bob'),
    ev({ type: 'chat_message', round: 1, agent: 'Bob', turn: 2, speaker: 'Bob', content: 'EXECUTE\nNAME Alice ACTION MOVE (0, 0, 2.2)\nNAME Bob ACTION WAIT' }),
    ev({ type: 'parsed_output', round: 1, agent: 'Bob', turn: 2, callId: 'c2', role: 'dialog', ok: true, kind: 'dialog', value: { decision: 'EXECUTE' } }),
    ev({ type: 'parsed_output', round: 1, turn: 2, callId: 'c2', role: 'dialog', ok: true, kind: 'plan', value: { attempt: 1, actions: [{ agent: 'Alice', name: 'MOVE', args: [[0, 0, 2.2]] }, { agent: 'Bob', name: 'WAIT', args: [] }] } }),
    ev({ type: 'check', round: 1, turn: 2, name: 'plan: parse', ok: true, message: 'passed' }),
    ev({ type: 'check', round: 1, turn: 2, name: 'plan: IK', ok: false, message: ' - IK failed: on Alice\'s goal (0.00, 0.00, 2.20)' }),
    ev({ type: 'action_result', round: 1, turn: 2, actionId: 'a1', results: [{ agent: 'Alice', name: 'MOVE', ok: false, error: 'This proposed plan failed: IK failed' }], durationMs: 1 }),
    ev({ type: 'chat_message', round: 1, agent: 'Alice', turn: 3, speaker: 'Alice', content: 'Lower. PROCEED' }),
    ev({ type: 'chat_message', round: 1, agent: 'Bob', turn: 4, speaker: 'Bob', content: 'EXECUTE\nNAME Alice ACTION MOVE (0, 0, 1)\nNAME Bob ACTION WAIT' }),
    ev({ type: 'parsed_output', round: 1, turn: 4, callId: 'c4', role: 'dialog', ok: true, kind: 'plan', value: { attempt: 2, actions: [{ agent: 'Alice', name: 'MOVE', args: [[0, 0, 1], [[0, 0, 1.5], [0, 0, 1]]] }, { agent: 'Bob', name: 'WAIT', args: [] }] } }),
    ev({ type: 'check', round: 1, turn: 4, name: 'plan: IK', ok: true, message: 'passed' }),
    ev({ type: 'action_result', round: 1, turn: 4, actionId: 'a2', results: [{ agent: 'Alice', name: 'MOVE', ok: true, output: 'Alice moved to (0.00, 0.00, 1.00)' }], durationMs: 1 }),
    ev({ type: 'check', round: 1, turn: 4, name: 'task_success', ok: false, message: 'not done' }),
    ev({ type: 'chat_message', round: 2, agent: 'Alice', turn: 5, speaker: 'Alice', content: 'no EXECUTE here' }),
    ev({ type: 'check', round: 2, turn: 5, name: 'plan: parse', ok: false, message: 'This previous response from [Alice] failed to parse!' }),
  ];
  const v = rocoRounds(events);
  assert.deepEqual(v.agents, ['Alice', 'Bob']);
  assert.deepEqual(v.humans, ['Alice']);
  assert.equal(v.rounds.length, 2);
  const [a1, a2] = v.rounds[0]!.attempts;
  assert.equal(v.rounds[0]!.attempts.length, 2);
  assert.deepEqual(a1!.turns.map((t) => [t.agent, t.decision, t.human ?? false]), [['Alice', 'PROCEED', true], ['Bob', 'EXECUTE', false]]);
  assert.equal(a1!.outcome, 'rejected');
  assert.match(a1!.result ?? '', /IK failed: on Alice/);
  assert.deepEqual(a1!.plan, ['NAME Alice ACTION MOVE (0, 0, 2.2)', 'NAME Bob ACTION WAIT']);
  assert.deepEqual(a1!.checks.map((c) => [c.name, c.ok]), [['parse', true], ['IK', false]]);
  assert.equal(a2!.outcome, 'executed');
  assert.deepEqual(a2!.plan, ['NAME Alice ACTION MOVE (0, 0, 1) PATH [(0, 0, 1.5), (0, 0, 1)]', 'NAME Bob ACTION WAIT']);
  assert.match(a2!.result ?? '', /Alice moved to/);
  assert.deepEqual(v.rounds[0]!.success, { ok: false, message: 'not done' });
  assert.equal(v.rounds[1]!.attempts[0]!.outcome, 'unparsed');
});

test('rocoRounds: a run without rounds has no lanes', () => {
  assert.deepEqual(rocoRounds([start, ev({ type: 'chat_message', turn: 1, speaker: 'Coder', content: 'x' })]).rounds, []);
});

test('rocoRounds: once the episode has ended no attempt is in progress; one cut short says it ended before its plan ran', () => {
  const events = [
    start,
    ev({ type: 'chat_message', round: 1, agent: 'Alice', turn: 1, speaker: 'Alice', content: 'I lift. PROCEED' }),
    ev({ type: 'parsed_output', round: 1, agent: 'Alice', turn: 1, callId: 'c1', role: 'dialog', ok: true, kind: 'dialog', value: { decision: 'PROCEED' } }),
  ];
  assert.equal(rocoRounds(events).rounds[0]!.attempts[0]!.outcome, 'open', 'a live run: the dialog goes on');
  const ended = rocoRounds([...events, ev({ type: 'episode_end', success: false, reason: 'round_cap', agentClaimedDone: false, metrics: {} })]);
  const a = ended.rounds[0]!.attempts[0]!;
  assert.equal(a.outcome, 'ended');
  assert.match(a.result ?? '', /episode ended \(round_cap\) before this attempt's plan ran/);
});

test("isRoundsEvent: RoCo's dialog turns, plans and plan checks are; Action Contextualization's round counters are not", () => {
  assert.equal(isRoundsEvent({ type: 'parsed_output', round: 1, kind: 'dialog' }), true);
  assert.equal(isRoundsEvent({ type: 'parsed_output', round: 1, kind: 'plan' }), true);
  assert.equal(isRoundsEvent({ type: 'check', round: 2, name: 'plan: IK' }), true);
  assert.equal(isRoundsEvent({ type: 'parsed_output', kind: 'dialog' }), false, 'no round counter');
  // actctx: each plan execution is a round; its retunes and checks are not a dialog.
  assert.equal(isRoundsEvent({ type: 'chat_message', round: 1 }), false);
  assert.equal(isRoundsEvent({ type: 'parsed_output', round: 1, kind: 'retune' }), false);
  assert.equal(isRoundsEvent({ type: 'check', round: 1, name: 'holding' }), false);
  assert.equal(isRoundsEvent({ type: 'action_result', round: 1 }), false);
});
