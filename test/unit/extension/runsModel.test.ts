import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunSummary } from '../../../src/core/runs/runStore.js';
import { groupRuns, runItemView, runOutcome, runTimeLabel } from '../../../src/extension/views/runsModel.js';

const run = (runId: string, o: Partial<RunSummary> = {}): RunSummary => ({ runId, path: `/w/.waypoint/runs/${runId}/trace.jsonl`, arch: 'malmm', task: 'stack_blocks', variant: 'default', seed: 0, warnings: 0, ...o });

test('groups by task and variant; groups by newest run, runs newest first', () => {
  const groups = groupRuns([
    run('20260101-100000-a', { success: true, reason: 'task_completed' }),
    run('20260103-100000-b', { variant: 'lean', success: false, reason: 'turn_cap' }),
    run('20260102-100000-c', { success: false, reason: 'model_error' }),
    run('20260104-100000-d', { task: 'pick_place' }),
  ]);
  assert.deepEqual(groups.map((g) => g.label), ['pick_place · default', 'stack_blocks · lean', 'stack_blocks · default']);
  assert.deepEqual(groups[2].runs.map((r) => r.runId), ['20260102-100000-c', '20260101-100000-a']);
  assert.equal(groups[2].description, '2 runs · 1/2 succeeded');
  assert.equal(groups[0].description, '1 run');
});

test('newest by start time, not by run id: a sweep run named by its key sorts by when it started', () => {
  const groups = groupRuns([
    run('roco-sort_cubes-roco-s0-3f2a', { task: 'sort_cubes', startedAt: '2026-11-21T10:00:00.000Z' }),
    run('20261121-110000-trajgen-push_can-s0-aaaa', { task: 'push_can', startedAt: '2026-11-21T11:00:00.000Z' }),
    run('roco-sort_cubes-roco-s1-77b0', { task: 'sort_cubes', startedAt: '2026-11-21T10:30:00.000Z' }),
  ]);
  assert.deepEqual(groups.map((g) => g.label), ['push_can · default', 'sort_cubes · default']);
  assert.deepEqual(groups[1].runs.map((r) => r.runId), ['roco-sort_cubes-roco-s1-77b0', 'roco-sort_cubes-roco-s0-3f2a']);
});

test('outcomes: running wins, then success, cancelled, failure, incomplete', () => {
  assert.equal(runOutcome(run('r', { success: true }), true), 'running');
  assert.equal(runOutcome(run('r', { success: true }), false), 'success');
  assert.equal(runOutcome(run('r', { success: false, reason: 'cancelled' }), false), 'cancelled');
  assert.equal(runOutcome(run('r', { success: false, reason: 'turn_cap' }), false), 'failure');
  assert.equal(runOutcome(run('r'), false), 'incomplete');
});

test('labels carry time, seed, turns and reason; tooltip names model and path', () => {
  const r = run('20261121-210030-malmm-stack_blocks-s3-27e9', { seed: 3, turns: 74, success: true, reason: 'task_completed', model: 'reference (scripted, not an LLM)', startedAt: '2026-11-21T21:00:30.580Z' });
  const v = runItemView(r);
  assert.equal(v.label, '2026-11-21 21:00:30  malmm · seed 3');
  assert.equal(v.description, '74 turns · task_completed');
  assert.match(v.tooltip, /model: reference/);
  assert.match(v.tooltip, /\/w\/\.waypoint\/runs\/20261121-210030/);
  assert.equal(runTimeLabel(run('20261121-210030-x')), '2026-11-21 21:00:30');
  assert.match(runItemView(run('r', { warnings: 1 })).tooltip, /interrupted/);
});

test('a run refused at the start shows as not started and does not count as an attempt', () => {
  const refused = run('20260105-100000-e', { success: false, reason: 'invalid_input', notStarted: true, turns: 0 });
  assert.equal(runOutcome(refused, false), 'not-started');
  const view = runItemView(refused);
  assert.equal(view.description, 'not started (invalid_input)');
  assert.match(view.tooltip, /result: not started · invalid_input\n/);
  const [g] = groupRuns([refused, run('20260101-100000-a', { success: true, reason: 'task_completed' })]);
  assert.equal(g.description, '2 runs · 1/1 succeeded');
});
