import assert from 'node:assert/strict';
import { test } from 'node:test';
import { projectRun } from '../../../../../src/core/trace/projections/runProjection.js';
import { projectRunSummary, whyNoMotion } from '../../../../../src/core/trace/projections/runSummary.js';
import { assertSnapshot, loadFixture } from './helpers.js';

test('run summary: header, success, metrics matching episode_end, per-role cost, the first error (recovered from)', () => {
  const { events } = loadFixture('malmm-pick-place.jsonl');
  const s = projectRunSummary(events);
  assert.equal(s.header?.modelLabel, 'reference (scripted, not an LLM)');
  assert.equal(s.header?.arch, 'malmm');
  assert.equal(s.header?.agentVariant, 'malmm');
  assert.deepEqual(s.result, {
    status: 'success', notStarted: false, reason: 'task_completed', message: undefined, agentClaimedDone: true, claimMismatch: false,
    check: { ok: true, message: 'red block inside yellow container (xy offset 0.0000 m, z above floor 0.0245 m)' },
  });
  const r = s.reported!;
  assert.deepEqual(
    [s.metrics.turns, s.metrics.modelCalls, s.metrics.promptTokens, s.metrics.completionTokens, s.metrics.codeBlocks, s.metrics.codeErrors],
    [r.turns, r.modelCalls, r.promptTokens, r.completionTokens, r.codeBlocks, r.codeErrors],
    'turns counted as the engine counts them (turn 0, the task message, is the setup)',
  );
  assert.deepEqual(s.perRole.map((x) => x.role), ['coder', 'planner', 'supervisor']);
  assert.equal(s.perRole.reduce((n, x) => n + x.calls, 0), s.metrics.modelCalls);
  assert.equal(s.firstError?.kind, 'code_error');
  assert.equal(s.firstError?.turn, 14);
  // The next block ran: recovered from, and a success has no deciding error.
  assert.deepEqual(s.recovered, { count: 1, first: s.firstError });
  assert.equal(s.decidingError, undefined);
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

test('a run refused at the start: not started, no check, and the empty views say why', () => {
  const { events } = loadFixture('malmm-pick-place.jsonl');
  const start = events[0];
  const zero = { turns: 0, modelCalls: 0, cachedCalls: 0, promptTokens: 0, completionTokens: 0, codeBlocks: 0, codeErrors: 0, formatErrors: 0, durationMs: 3, simTimeSecs: 0 };
  const refused = projectRunSummary([
    start,
    { seq: 1, tMs: 1, type: 'error', kind: 'invalid_input', message: "unknown task 'juggle'" },
    { seq: 2, tMs: 2, type: 'episode_end', success: false, reason: 'invalid_input', agentClaimedDone: false, message: "unknown task 'juggle'", metrics: zero },
  ]);
  assert.equal(refused.result.notStarted, true);
  assert.equal(refused.result.check, undefined);
  assert.equal(whyNoMotion(refused), "This run did not start (invalid_input: unknown task 'juggle').");
  // A model that failed on the first call: the run started (a call was made), the check ran and says why it failed.
  const failed = projectRunSummary([
    ...events.slice(0, 5),
    { seq: 5, tMs: 5, type: 'model_response', turn: 1, callId: 'c1', role: 'supervisor', ok: false, error: { kind: 'network', message: 'refused' }, latencyMs: 1, cached: false, attempts: 1 },
    { seq: 6, tMs: 6, type: 'check', turn: 1, name: 'task_success', ok: false, message: 'red block is 0.16 m from the container' },
    { seq: 7, tMs: 7, type: 'episode_end', success: false, reason: 'model_error', agentClaimedDone: false, message: 'model failed', metrics: { ...zero, turns: 1, modelCalls: 1 } },
  ]);
  assert.equal(failed.result.notStarted, false);
  assert.deepEqual(failed.result.check, { ok: false, message: 'red block is 0.16 m from the container' });
  assert.equal(failed.metrics.turns, failed.reported?.turns);
  assert.equal(whyNoMotion(failed), 'No robot motion in this run: it ended (model_error) at turn 1 before any code moved the robot.');
});

test('vision: the header says the switch was on, and the metrics count the image parts the requests carried', () => {
  const { events } = loadFixture('malmm-pick-place.jsonl');
  const start = events[0]!;
  assert.equal(start.type, 'episode_start');
  assert.equal(projectRunSummary(events).header?.vision, false);
  const on = events.map((e) => (e.type === 'episode_start' ? { ...e, options: { ...e.options, vision: true } } : e));
  const none = projectRunSummary(on);
  assert.equal(none.header?.vision, true);
  assert.deepEqual([none.metrics.requestsWithImages, none.metrics.imagesSent], [0, 0]);
  // Two frames on the first request's last message, one on the second's.
  const img = (sha: string) => ({ type: 'image' as const, mediaType: 'image/png' as const, sha256: sha, alt: 'camera' });
  let calls = 0;
  const withFrames = on.map((e) => {
    if (e.type !== 'role_call' || calls >= 2) return e;
    const n = calls++ === 0 ? 2 : 1;
    const msgs = e.messages.slice();
    const last = msgs[msgs.length - 1]!;
    msgs[msgs.length - 1] = { ...last, parts: [{ type: 'text', text: last.content }, ...Array.from({ length: n }, (_, i) => img(`s${i}`))] };
    return { ...e, messages: msgs };
  });
  const seen = projectRunSummary(withFrames);
  assert.deepEqual([seen.metrics.requestsWithImages, seen.metrics.imagesSent], [2, 3]);
});
