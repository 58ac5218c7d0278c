// The LMTG views' projection on a real engine trace (toaster_slot, detections estimated by the seeded detector):
// one path step per execute_trajectory with its generated poses and the executed end-effector path that followed
// it, gripper marks between them, and each detect_object estimate beside its truth with the errors.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { PATHS_PROJECTION, projectTrajgenPaths, type TrajgenPaths } from '../../../../../src/architectures/trajgen/view/trajgenPaths.js';
import { projectRun } from '../../../../../src/core/trace/projections/runProjection.js';
import { packTrajectory } from '../../../../../src/protocol/webview.js';
import type { EventOf, TraceEvent } from '../../../../../src/protocol/trace.js';
import { lmtgSolutionTrace } from './trajgenTrace.js';

let events: TraceEvent[];
let view: TrajgenPaths;
before(async () => {
  events = await lmtgSolutionTrace('toaster_slot', 0, 'estimated');
  view = projectTrajgenPaths(events);
});

test('one step per execute_trajectory: the generated poses as sent, the executed path close to them', () => {
  const calls = events.filter((e): e is EventOf<'api_call'> => e.type === 'api_call' && e.fn === 'execute_trajectory');
  assert.equal(view.steps.length, calls.length);
  assert.ok(view.steps.length >= 6);
  view.steps.forEach((s, i) => {
    assert.equal(s.step, i + 1);
    assert.deepEqual(s.poses, calls[i]!.args[0]);
    assert.ok(s.executed.length > 0, `step ${s.step} has an executed path`);
    assert.ok(s.maxDeviationM < 0.03, `step ${s.step} strays ${s.maxDeviationM} m`);
  });
  // The last executed point of a step is near its last generated pose.
  const s = view.steps[1]!;
  const last = s.poses[s.poses.length - 1]!;
  const end = s.executed[s.executed.length - 1]!;
  assert.ok(Math.hypot(end[0] - last[0], end[1] - last[1], end[2] - last[2]) < 0.01);
  assert.deepEqual(view.gripper.map((g) => [g.fn, g.afterStep]), [['close_gripper', 2], ['open_gripper', 6]]);
});

test('each detect_object box: the printed estimate beside the truth, with errors; the run is marked estimated', () => {
  assert.deepEqual(view.detections.map((d) => [d.call, d.query, d.label]), [[1, 'bread', 'bread'], [2, 'toaster slot', 'toaster slot']]);
  assert.equal(view.estimated, true);
  for (const d of view.detections) {
    assert.ok(d.centreErrM > 0 && d.centreErrM < 0.1);
    assert.notDeepEqual(d.estimate, d.truth);
  }
});

test('the run projection carries the view, and packed trajectories give the same paths as trace events', () => {
  const packed = events.map((e) => (e.type === 'trajectory' ? packTrajectory(e) ?? e : e));
  const p = projectRun(packed, { projections: [PATHS_PROJECTION] });
  assert.deepEqual(p.of(PATHS_PROJECTION).result().steps.map((s) => s.executed), view.steps.map((s) => s.executed));
});
