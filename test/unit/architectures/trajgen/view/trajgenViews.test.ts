// The trajgen views' projection: the poses of every execute_trajectory call as per-axis series with the gripper
// state they ran under (calls between lists, or a fifth pose element), and each detector verdict with its tracks
// and answer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TrajgenViewBuilder } from '../../../../../src/architectures/trajgen/view/trajgenViews.js';
import type { TraceEvent } from '../../../../../src/protocol/trace.js';

let seq = 0;
const ev = (e: Record<string, unknown>) => ({ seq: seq++, tMs: seq, ...e }) as unknown as TraceEvent;

test('trajgen views: pose series follow the gripper calls and the fifth element; verdicts keep their tracks and answer', () => {
  const b = new TrajgenViewBuilder();
  assert.equal(b.active, false);
  b.add(ev({ type: 'api_call', turn: 2, role: 'main', index: 0, fn: 'execute_trajectory', args: [[[0, 0, 1, 0], [0.1, 0, 0.9, 0.1]]] }));
  b.add(ev({ type: 'api_call', turn: 2, role: 'main', index: 1, fn: 'close_gripper', args: [] }));
  b.add(ev({ type: 'api_call', turn: 2, role: 'main', index: 2, fn: 'execute_trajectory', args: [[[0.1, 0, 1, 0]]] }));
  // The numeric mode acts through the loop: a fifth element opens the gripper again.
  b.add(ev({ type: 'action', turn: 3, actionId: 'a1', joint: false, actions: [{ agent: 'robot', name: 'execute_trajectory', args: [[[0.2, 0.1, 1, 0, 1], 'bad', [0.3, 0.1, 1, 0, 0]]] }] }));
  const s = b.poses();
  assert.deepEqual(s.x, [0, 0.1, 0.1, 0.2, 0.3]);
  assert.deepEqual(s.z, [1, 0.9, 1, 1, 1]);
  assert.deepEqual(s.yaw, [0, 0.1, 0, 0, 0]);
  assert.deepEqual(s.gripper, [1, 1, 0, 1, 0]);
  assert.deepEqual(s.segments.map((g) => [g.turn, g.call, g.start, g.count]), [[2, 1, 0, 2], [2, 2, 2, 1], [3, 3, 3, 2]]);

  b.add(ev({ type: 'model_response', turn: 4, callId: 'c9', role: 'detector', ok: true, text: '1. It should move.\n```python\ntask_failed()\n```' }));
  const tracks = [{ query: 'can', object: 'can', tSecs: [0, 0.08], pos: [[0, 0.1, 0.78], [0, 0.1, 0.78]], yaw: [0, 0] }];
  b.add(ev({ type: 'check', turn: 4, name: 'success_detection', ok: false, message: 'attempt 1: …', callId: 'c9', attempt: 1, verdict: 'failed', tracks }));
  b.add(ev({ type: 'check', turn: 4, name: 'collision', ok: false, message: 'not a verdict' }));
  assert.equal(b.active, true);
  const v = b.detections();
  assert.equal(v.length, 1);
  assert.deepEqual([v[0]!.attempt, v[0]!.ok, v[0]!.verdict, v[0]!.turn], [1, false, 'failed', 4]);
  assert.deepEqual(v[0]!.tracks, tracks);
  assert.match(v[0]!.answer!, /task_failed\(\)/);
});

test("trajgen views: the loop's return to the start pose between attempts is not a pose the model wrote", () => {
  const b = new TrajgenViewBuilder();
  b.add(ev({ type: 'api_call', turn: 2, role: 'main', index: 0, fn: 'close_gripper', args: [] }));
  b.add(ev({ type: 'api_call', turn: 2, role: 'main', index: 1, fn: 'execute_trajectory', args: [[[0, 0, 1, 0], [0.1, 0, 0.9, 0]]] }));
  // After a failed verdict and the summary, the loop opens the gripper and moves back (origin 'loop').
  b.add(ev({ type: 'action', turn: 4, actionId: 'a1', joint: false, origin: 'loop', actions: [{ agent: 'robot', name: 'open_gripper', args: [] }] }));
  b.add(ev({ type: 'action', turn: 4, actionId: 'a2', joint: false, origin: 'loop', actions: [{ agent: 'robot', name: 'execute_trajectory', args: [[[0.1, 0, 1, 0], [0.3, 0, 1, 0], [0.3, 0, 1.1, 0]]] }] }));
  b.add(ev({ type: 'api_call', turn: 5, role: 'main', index: 0, fn: 'execute_trajectory', args: [[[0.2, 0, 1, 0]]] }));
  const s = b.poses();
  assert.deepEqual(s.x, [0, 0.1, 0.2], 'three poses the model wrote, not the loop\'s three');
  assert.deepEqual(s.segments.map((g) => [g.turn, g.call, g.count]), [[2, 1, 2], [5, 2, 1]]);
  assert.deepEqual(s.gripper, [0, 0, 1], "the loop's open_gripper still opens it for the next attempt");
});
