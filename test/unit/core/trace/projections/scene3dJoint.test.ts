// The 3D replay's waypoints from joint actions (RoCo): every robot's MOVE point and PATH, marked failed when the
// checks rejected the plan.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Scene3dBuilder } from '../../../../../src/core/trace/projections/scene3d.js';
import type { TraceEvent } from '../../../../../src/protocol/trace.js';

let seq = 0;
const ev = (o: Record<string, unknown>) => ({ seq: seq++, tMs: 0, ...o }) as unknown as TraceEvent;

test('scene3d: a joint action gives each robot\'s PATH waypoints and MOVE point; a rejected plan\'s are failed', () => {
  const b = new Scene3dBuilder();
  b.append([
    ev({ type: 'action', turn: 2, actionId: 'a1', joint: true, actions: [
      { agent: 'Alice', name: 'PICK', args: ['rope_front_end', [[-0.2, 0, 1], [-0.25, -0.1, 0.9]]] },
      { agent: 'Bob', name: 'MOVE', args: [[0.3, 0, 1]] },
    ] }),
    ev({ type: 'action_result', turn: 2, actionId: 'a1', durationMs: 1, results: [{ agent: 'Alice', name: 'PICK', ok: false, error: 'IK failed' }, { agent: 'Bob', name: 'MOVE', ok: false, error: 'IK failed' }] }),
    ev({ type: 'action', turn: 4, actionId: 'a2', joint: true, actions: [{ agent: 'Alice', name: 'WAIT', args: [] }, { agent: 'Bob', name: 'MOVE', args: [[0.2, 0, 1]] }] }),
    ev({ type: 'action_result', turn: 4, actionId: 'a2', durationMs: 1, results: [{ agent: 'Alice', name: 'WAIT', ok: true }, { agent: 'Bob', name: 'MOVE', ok: true }] }),
  ]);
  const w = b.waypoints();
  assert.deepEqual(w.map((x) => [x.turn, x.agent, x.fn, x.pos, x.ok]), [
    [2, 'Alice', 'PICK', [-0.2, 0, 1], false],
    [2, 'Alice', 'PICK', [-0.25, -0.1, 0.9], false],
    [2, 'Bob', 'MOVE', [0.3, 0, 1], false],
    [4, 'Bob', 'MOVE', [0.2, 0, 1], true],
  ]);
});
