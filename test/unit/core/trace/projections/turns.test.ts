import assert from 'node:assert/strict';
import { test } from 'node:test';
import { projectTimeline, routeTarget, TurnTimelineBuilder } from '../../../../../src/core/trace/projections/turns.js';
import { assertSnapshot, loadFixture } from './helpers.js';

const { events } = loadFixture('malmm-pick-place.jsonl');

test('timeline: one row per turn with role, Supervisor routing and outcome', () => {
  const rows = projectTimeline(events);
  assert.equal(rows.length, 29);
  assert.deepEqual(rows.slice(0, 7).map((r) => [r.turn, r.role, r.routeTo ?? '']), [
    [0, 'Environment', ''],
    [1, 'supervisor', 'Planner'],
    [2, 'planner', ''],
    [3, 'supervisor', 'Coder'],
    [4, 'coder', ''],
    [5, 'supervisor', 'Executor'],
    [6, 'Executor', ''],
  ]);
  const failed = rows.find((r) => r.outcome === 'code_error')!;
  assert.equal(failed.turn, 14);
  assert.match(failed.errorText!, /NameError: name 'position_above_container' is not defined/);
  assert.match(failed.summary, /^exit 1: /);
  assert.ok(failed.flags.some((f) => f.kind === 'consecutive_errors' && f.message === 'code error 1 of 5 in a row'));
  // The Supervisor sending the Coder back after the error is flagged as a non-default transition.
  const retry = rows.find((r) => r.turn === 15)!;
  assert.equal(retry.routeTo, 'Coder');
  assert.deepEqual(retry.flags.map((f) => f.kind), ['retry_after_error']);
  // The collision check marks the execution that nudged the blue block.
  assert.equal(rows.find((r) => r.turn === 18)!.outcome, 'check_failed');
  const coder = rows.find((r) => r.turn === 4)!;
  assert.equal(coder.kind, 'model');
  assert.equal(coder.model, 'waypoint-reference-v1');
  assert.ok(coder.promptTokens! > 100 && coder.completionTokens! > 10);
  assert.equal(coder.cached, false);
  assert.equal(typeof coder.latencyMs, 'number');
  assertSnapshot('malmm-pick-place.timeline', rows);
});

test('timeline detail: the exact messages, raw response, parsed output and prompt path of a turn', () => {
  const b = new TurnTimelineBuilder();
  for (const e of events) b.add(e);
  const d = b.detail(16)!;
  assert.equal(d.role, 'coder');
  assert.equal(d.calls.length, 1);
  const c = d.calls[0];
  assert.equal(c.call?.promptPath, 'prompts/malmm/coder.prompt');
  assert.equal(c.call?.messages[0].role, 'system');
  assert.ok(c.call!.messages.some((m) => m.content.includes("name 'position_above_container' is not defined")), 'the Coder saw the error');
  assert.match(c.response!.text!, /```python/);
  assert.equal(c.parsed?.kind, 'code');
  assert.match(String(c.parsed?.value), /position_above_container = \[/);
  const exec = b.detail(14)!;
  assert.equal(exec.executions.length, 1);
  assert.equal(exec.observations.length, 1);
  assert.equal(b.detail(999), undefined);
});

test('timeline is the same whether events arrive at once or one by one', () => {
  const b = new TurnTimelineBuilder();
  let rows = b.rows();
  for (const e of events) {
    b.add(e);
    if (e.seq % 7 === 0) rows = b.rows();
  }
  rows = b.rows();
  assert.deepEqual(rows, projectTimeline(events));
});

test('timeline outcomes: pending call, model error, format error', () => {
  const partial = events.filter((e) => e.seq <= events.findIndex((x) => x.type === 'role_call' && x.turn === 2));
  const rows = projectTimeline(partial);
  assert.equal(rows[rows.length - 1].outcome, 'pending');
  const bad = events.map((e) =>
    e.type === 'model_response' && e.turn === 2 ? { ...e, ok: false, text: undefined, usage: undefined, error: { kind: 'timeout' as const, message: 'no answer in 60 s' } } :
    e.type === 'parsed_output' && e.turn === 4 ? { ...e, ok: false, value: undefined, error: 'no ```python code block in the reply' } : e,
  );
  const r2 = projectTimeline(bad);
  assert.equal(r2.find((r) => r.turn === 2)!.outcome, 'model_error');
  assert.equal(r2.find((r) => r.turn === 2)!.errorText, 'timeout: no answer in 60 s');
  assert.equal(r2.find((r) => r.turn === 4)!.outcome, 'format_error');
});

test('routeTarget reads strings and objects', () => {
  assert.equal(routeTarget('Coder'), 'Coder');
  assert.equal(routeTarget({ next: 'Planner' }), 'Planner');
  assert.equal(routeTarget({ speaker: 'Executor' }), 'Executor');
  assert.equal(routeTarget(42), undefined);
  assert.equal(routeTarget(''), undefined);
});
