import assert from 'node:assert/strict';
import { test } from 'node:test';
import { argsSummary, MotionScoreBuilder, projectMotionScores } from '../../../../../src/core/trace/projections/motionScores.js';
import { projectRun } from '../../../../../src/core/trace/projections/runProjection.js';
import { packEvents } from '../../../../../src/protocol/webview.js';
import type { TraceEvent } from '../../../../../src/protocol/trace.js';
import { withMotionMetrics } from '../../../../fixtures/traces/withMotionMetrics.js';
import { loadFixture } from './helpers.js';

const events = withMotionMetrics(loadFixture('malmm-pick-place.jsonl').events);
const close = (a: number | null, b: number, msg?: string) => assert.ok(a !== null && Math.abs(a - b) < 1e-9, `${msg ?? ''} ${a} != ${b}`);

test('one action per API call with metrics, in trace order, with its Executor turn', () => {
  const { actions } = projectMotionScores(events);
  assert.deepEqual(actions.map((a) => [a.index, a.turn, a.fn]), [
    [0, 6, 'execute_trajectory'], [1, 6, 'execute_trajectory'], [2, 10, 'close_gripper'],
    [3, 18, 'execute_trajectory'], [4, 18, 'execute_trajectory'], [5, 22, 'execute_trajectory'], [6, 22, 'open_gripper'],
  ]);
  // Values come straight from the trace's metrics.
  const calls = events.flatMap((e) => (e.type === 'code_execution' ? e.apiCalls.filter((c) => c.metrics) : []));
  actions.forEach((a, i) => {
    const m = calls[i].metrics!;
    assert.deepEqual([a.mI, a.mE, a.mT, a.startSecs, a.minClearanceM, a.closestPair, a.collisionCount, a.maxHeldTiltRad], [m.mI, m.mE, m.mT, m.startSecs, m.minClearanceM, m.closestPair, m.collisionCount, m.maxHeldTiltRad]);
  });
  assert.equal(actions[0].args, '[0.301, 0.105, 0.877], 0.524');
  assert.equal(actions[2].args, '"red block"');
  assert.equal(actions[3].startSecs, 4.52);
  assert.equal(actions[6].moved, false, 'the sentinel action did not move');
  assert.equal(actions.filter((a) => a.moved).length, 6);
});

test('summary: Q = mean M_T over all actions (sentinel included), min M_I and clearance over actions that moved', () => {
  const s = projectMotionScores(events).summary;
  close(s.q, (1.03 + 0.43 + 0.4 + 0.64 + 0.11 + 0.39 - 2) / 7, 'Q');
  close(s.minMI, 0.09, 'min M_I');
  assert.equal(s.minMIAction, 4);
  close(s.minClearanceM, 0.006, 'min clearance');
  assert.deepEqual(s.minClearancePair, ['red block', 'blue block']);
  assert.equal(s.collisions, 1);
  close(s.maxHeldTiltRad, 0.118);
  assert.equal(s.plans.length, 1);
  assert.equal(s.plans[0].q, s.q);
  assert.equal(s.plans[0].actions, 7);
});

test('a trace without metrics (the plain fixture) has no actions and null scores', () => {
  const s = projectMotionScores(loadFixture('malmm-pick-place.jsonl').events).summary;
  assert.deepEqual(s, { actions: 0, moved: 0, q: null, minMI: null, minMIAction: null, minClearanceM: null, minClearancePair: null, minClearanceAction: null, collisions: 0, maxHeldTiltRad: null, plans: [] });
});

test('incremental: appending in batches (and packed trajectories) gives the same view model as one pass', () => {
  const once = projectMotionScores(events);
  const b = new MotionScoreBuilder();
  const versions: number[] = [];
  for (let i = 0; i < events.length; i += 9) {
    for (const e of events.slice(i, i + 9)) b.add(e);
    versions.push(b.version);
  }
  assert.deepEqual(b.actions, once.actions);
  assert.deepEqual(b.summary(), once.summary);
  assert.equal(versions[versions.length - 1], 7);
  const run = projectRun(packEvents(events));
  assert.deepEqual(run.motion.actions, once.actions);
  assert.deepEqual(run.motion.forTurn(18).map((a) => a.index), [3, 4]);
  // Re-sent events are skipped by RunProjection (seq), so actions are not duplicated.
  run.append(events);
  assert.equal(run.motion.actions.length, 7);
});

test('argsSummary rounds floats and cuts long argument lists', () => {
  assert.equal(argsSummary([[0.123456, 1, -0.00049]]), '[0.123, 1, 0]');
  assert.equal(argsSummary([]), '');
  const long = argsSummary([Array.from({ length: 40 }, (_, i) => i + 0.5)]);
  assert.equal(long.length, 60);
  assert.ok(long.endsWith('…'));
});

test('a failed call keeps its metrics and ok=false', () => {
  const e = events.find((x) => x.type === 'code_execution' && x.turn === 6) as Extract<TraceEvent, { type: 'code_execution' }>;
  const failed = { ...e, seq: 9999, apiCalls: [{ ...e.apiCalls[0], ok: false, error: 'IK failed' }] };
  const { actions } = projectMotionScores([failed]);
  assert.equal(actions.length, 1);
  assert.equal(actions[0].ok, false);
});
