import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TraceEvent } from '../../../../../src/protocol/trace.js';
import { projectRetryDiffs, RetryDiffBuilder } from '../../../../../src/core/trace/projections/retryDiffs.js';
import { loadFixture } from './helpers.js';

const { events } = loadFixture('malmm-pick-place.jsonl');

test('retry diff pairs the failed Coder block with the next one and links both Coder turns', () => {
  const diffs = projectRetryDiffs(events);
  assert.equal(diffs.length, 1);
  const d = diffs[0];
  assert.equal(d.role, 'coder');
  assert.deepEqual([d.before.turn, d.before.sourceTurn, d.after.turn, d.after.sourceTurn], [14, 12, 18, 16]);
  assert.equal(d.before.error?.type, 'NameError');
  assert.ok(!d.before.code.includes('position_above_container = '));
  assert.ok(d.after.code.includes('position_above_container = '));
  assert.equal(d.fixed, true);
  assert.equal(d.consecutiveErrors, 1);
  const b = new RetryDiffBuilder();
  for (const e of events) b.add(e);
  assert.deepEqual(b.forTurn(16).map((x) => x.id), [d.id], 'selecting the fixed Coder turn finds the diff');
  assert.deepEqual(b.forTurn(18).map((x) => x.id), [d.id]);
  assert.deepEqual(b.forTurn(12).map((x) => x.id), [d.id], 'the failed turn finds it as "before"');
  assert.deepEqual(b.forTurn(4), []);
});

test('consecutive failures chain: each retry is diffed against the previous failure, roles kept apart', () => {
  let seq = 0;
  const exec = (role: string, ok: boolean, code: string): TraceEvent => ({
    seq: seq++, tMs: 0, type: 'code_execution', turn: seq, role, language: 'python', code, ok, exitCode: ok ? 0 : 1, stdout: '',
    error: ok ? undefined : { type: 'NameError', message: 'x' }, durationMs: 1, apiCalls: [], namespacePersisted: false,
  });
  const diffs = projectRetryDiffs([exec('coder', false, 'a'), exec('agent', true, 'z'), exec('coder', false, 'b'), exec('coder', true, 'c'), exec('coder', true, 'd')]);
  assert.deepEqual(diffs.map((d) => [d.before.code, d.after.code, d.consecutiveErrors, d.fixed]), [['a', 'b', 1, false], ['b', 'c', 2, true]]);
});
