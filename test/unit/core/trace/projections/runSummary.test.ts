import assert from 'node:assert/strict';
import { test } from 'node:test';
import { projectRun } from '../../../../../src/core/trace/projections/runProjection.js';
import { projectRunSummary } from '../../../../../src/core/trace/projections/runSummary.js';
import { assertSnapshot, loadFixture } from './helpers.js';

test('run summary: header, success, metrics matching episode_end, per-role cost, first error', () => {
  const { events } = loadFixture('malmm-pick-place.jsonl');
  const s = projectRunSummary(events);
  assert.equal(s.header?.modelLabel, 'reference (scripted, not an LLM)');
  assert.equal(s.header?.arch, 'malmm');
  assert.equal(s.header?.agentVariant, 'malmm');
  assert.deepEqual(s.result, { status: 'success', reason: 'task_completed', message: undefined, agentClaimedDone: true, claimMismatch: false });
  const r = s.reported!;
  assert.deepEqual(
    [s.metrics.turns - 1, s.metrics.modelCalls, s.metrics.promptTokens, s.metrics.completionTokens, s.metrics.codeBlocks, s.metrics.codeErrors],
    [r.turns, r.modelCalls, r.promptTokens, r.completionTokens, r.codeBlocks, r.codeErrors],
    'turn 0 (the task message) is not counted by the engine',
  );
  assert.deepEqual(s.perRole.map((x) => x.role), ['coder', 'planner', 'supervisor']);
  assert.equal(s.perRole.reduce((n, x) => n + x.calls, 0), s.metrics.modelCalls);
  assert.equal(s.firstError?.kind, 'code_error');
  assert.equal(s.firstError?.turn, 14);
  assert.equal(s.metrics.maxConsecutiveCodeErrors, 1);
  assertSnapshot('malmm-pick-place.summary', s);
});

test('a truncated run is "running", with metrics computed from the events read', () => {
  const { events } = loadFixture('malmm-pick-place.truncated.jsonl');
  const s = projectRunSummary(events);
  assert.equal(s.result.status, 'running');
  assert.equal(s.reported, undefined);
  assert.ok(s.metrics.modelCalls > 10);
  assert.ok(s.metrics.simTimeSecs > 5);
});

test('run projection ignores events it has already seen (a re-sent append batch)', () => {
  const { events } = loadFixture('malmm-pick-place.jsonl');
  const p = projectRun(events.slice(0, 60));
  assert.equal(p.append(events.slice(40)), events.length - 60);
  assert.deepEqual(p.timeline.rows(), projectRun(events).timeline.rows());
  assert.equal(p.series.length, projectRun(events).series.length);
});

test('claim mismatch: the agent said done but the success check failed', () => {
  const { events } = loadFixture('malmm-pick-place.jsonl');
  const last = events[events.length - 1];
  assert.equal(last.type, 'episode_end');
  const s = projectRunSummary([...events.slice(0, -1), { ...last, success: false, reason: 'task_completed' } as typeof last]);
  assert.equal(s.result.status, 'failure');
  assert.equal(s.result.claimMismatch, true);
});
