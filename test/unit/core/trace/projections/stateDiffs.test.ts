import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WorldState } from '../../../../../src/protocol/trace.js';
import { diffStates, projectStateDiffs } from '../../../../../src/core/trace/projections/stateDiffs.js';
import { loadFixture } from './helpers.js';

const { events } = loadFixture('malmm-pick-place.jsonl');

test('state diff after each execution: the carried block is expected, the nudged blue block is flagged', () => {
  const diffs = projectStateDiffs(events);
  assert.equal(diffs.length, events.filter((e) => e.type === 'code_execution').length);
  const d = diffs.find((x) => x.turn === 18)!;
  assert.deepEqual(d.moved.map((m) => [m.name, m.expected]), [['red block', true], ['blue block', false]]);
  assert.deepEqual(d.unexpected, ['blue block']);
  const blue = d.moved.find((m) => m.name === 'blue block')!;
  assert.ok(Math.abs(blue.deltaM - Math.hypot(0.0041, 0.0022)) < 1e-9);
  assert.equal(d.graspedBefore, 'red block');
  assert.equal(d.graspedAfter, 'red block');
  const grasp = diffs.find((x) => x.turn === 10)!;
  assert.deepEqual([grasp.graspedBefore, grasp.graspedAfter, grasp.gripperOpenBefore, grasp.gripperOpenAfter], [null, 'red block', true, false]);
  assert.deepEqual(grasp.moved, []);
  // A 4.7 mm move disappears above a 5 mm threshold.
  assert.deepEqual(projectStateDiffs(events, 0.005).find((x) => x.turn === 18)!.unexpected, []);
});

test('a held object lost without open_gripper is reported as dropped', () => {
  const obj = (name: string, z: number) => ({ name, pos: [0.3, 0.1, z] as [number, number, number], euler: [0, 0, 0] as [number, number, number], size: [0.05, 0.05, 0.05] as [number, number, number], color: 'red' });
  const before: WorldState = { objects: [obj('cube', 0.9)], ee: { pos: [0.3, 0.1, 0.92], yawRad: 0 }, gripperOpen: false, grasped: 'cube' };
  const after: WorldState = { objects: [obj('cube', 0.777)], ee: { pos: [0.4, 0.1, 0.92], yawRad: 0 }, gripperOpen: false, grasped: null };
  const moveOnly = { turn: 3, seq: 9, ok: true, apiCalls: [{ fn: 'execute_trajectory', args: [[0.4, 0.1, 0.92], 0], ok: true }] };
  const d = diffStates(before, after, moveOnly, 10, 0.001);
  assert.equal(d.dropped, 'cube');
  assert.deepEqual(d.unexpected, [], 'it was held before, so its motion is expected');
  const released = diffStates(before, after, { ...moveOnly, apiCalls: [{ fn: 'open_gripper', args: [], ok: true }] }, 10, 0.001);
  assert.equal(released.dropped, undefined);
});
