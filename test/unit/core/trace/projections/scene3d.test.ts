import assert from 'node:assert/strict';
import { test } from 'node:test';
import { projectScene3d, Scene3dBuilder, targetPositions } from '../../../../../src/core/trace/projections/scene3d.js';
import { projectTrajectory } from '../../../../../src/core/trace/projections/trajectorySeries.js';
import type { EventOf, TraceEvent, TrajectorySample } from '../../../../../src/protocol/trace.js';
import { packEvents } from '../../../../../src/protocol/webview.js';
import { loadFixture } from './helpers.js';

// A small scene in the embedded simulator's layout: a static table, a two-link "arm" whose hand moves, a block.
const BODIES = ['world', 'table', 'link1', 'hand', 'left finger', 'red block'];
const scene: EventOf<'scene'> = {
  seq: 1, tMs: 0, type: 'scene', bodies: BODIES,
  geoms: [
    { body: 'world', kind: 'plane', size: [0, 0, 0.1], pos: [0, 0, 0], quat: [1, 0, 0, 0], rgba: [0.8, 0.8, 0.8, 1] },
    { body: 'table', kind: 'box', size: [0.5, 0.5, 0.02], pos: [0, 0, -0.02], quat: [1, 0, 0, 0], rgba: [0.6, 0.5, 0.4, 1] },
    { body: 'link1', kind: 'capsule', size: [0.05, 0.2, 0], pos: [0, 0, 0.2], quat: [1, 0, 0, 0], rgba: [1, 1, 1, 1] },
    { body: 'hand', kind: 'box', size: [0.02, 0.05, 0.02], pos: [0.1, 0, 0], quat: [1, 0, 0, 0], rgba: [1, 1, 1, 1] },
    { body: 'left finger', kind: 'box', size: [0.01, 0.005, 0.02], pos: [0, 0.01, 0], quat: [1, 0, 0, 0], rgba: [0.2, 0.2, 0.2, 1] },
    { body: 'red block', kind: 'box', size: [0.025, 0.025, 0.025], pos: [0, 0, 0], quat: [1, 0, 0, 0], rgba: [1, 0, 0, 1] },
  ],
};

/** Sample k of a motion: the hand and finger move along x, the block is lifted from k = 5 on. */
function sample(tSecs: number, k: number, contacts: [string, string][] = []): TrajectorySample {
  const handX = 0.3 + 0.01 * k;
  const z90: [number, number, number, number] = [Math.SQRT1_2, 0, 0, Math.SQRT1_2];
  const bodies = [
    0, 0, 0, 1, 0, 0, 0,
    0, 0, 0.75, 1, 0, 0, 0,
    0, 0, 0.75, 1, 0, 0, 0,
    handX, 0, 0.9, ...z90,
    handX, 0.01, 0.88, ...z90,
    0.4, 0, k >= 5 ? 0.8 + 0.01 * k : 0.775, 1, 0, 0, 0,
  ];
  return { tSecs, qpos: [k], ee: [handX, 0, 0.9, 0], gripperWidth: 0.05, grasped: k >= 5 ? 'red block' : null, bodies, contacts };
}

function events(): TraceEvent[] {
  const ev: TraceEvent[] = [scene];
  let seq = 2;
  ev.push({ seq: seq++, tMs: 1, type: 'observation', turn: 0, text: '', state: { objects: [{ name: 'red block', pos: [0.4, 0, 0.775], euler: [0, 0, 0], size: [0.05, 0.05, 0.05], color: 'red' }], ee: { pos: [0.3, 0, 0.9], yawRad: 0 }, gripperOpen: true, grasped: null } });
  ev.push({ seq: seq++, tMs: 2, type: 'code_execution', turn: 3, role: 'Executor', language: 'python', code: '', ok: true, exitCode: 0, stdout: '', durationMs: 1, namespacePersisted: true,
    apiCalls: [
      { fn: 'execute_trajectory', args: [[0.4, 0, 0.875], 0.1], ok: true },
      { fn: 'close_gripper', args: ['red block'], ok: true },
      { fn: 'execute_trajectory', args: [[0.4, 0, 'high'], 0], ok: false, error: 'bad' },
    ] });
  ev.push({ seq: seq++, tMs: 3, type: 'trajectory', turn: 3, rateHz: 50, samples: Array.from({ length: 4 }, (_, k) => sample(k * 0.02, k)) });
  ev.push({ seq: seq++, tMs: 4, type: 'trajectory', turn: 4, rateHz: 50, samples: [] });
  ev.push({ seq: seq++, tMs: 5, type: 'code_execution', turn: 7, role: 'Executor', language: 'python', code: '', ok: false, exitCode: 1, stdout: '', durationMs: 1, namespacePersisted: true,
    apiCalls: [{ fn: 'move_along', args: [[[0.1, 0.2, 0.9], [0.2, 0.2, 0.95, 0]]], ok: true }] });
  // Turn 7: the hand touches the table from k = 6 to 7 (a robot-fixture contact), then again at k = 9 (same turn).
  const table = (k: number): [string, string][] => (k === 6 || k === 7 || k === 9 ? [['hand', 'table'], ['red block', 'table']] : [['red block', 'table']]);
  ev.push({ seq: seq++, tMs: 6, type: 'trajectory', turn: 7, rateHz: 50, samples: Array.from({ length: 6 }, (_, j) => sample(0.1 + j * 0.02, j + 4, table(j + 4))) });
  ev.push({ seq: seq++, tMs: 7, type: 'check', turn: 7, name: 'collision', ok: false, message: 'collision: left finger <-> red block at t=0.14 s' });
  ev.push({ seq: seq++, tMs: 8, type: 'check', turn: 7, name: 'task_success', ok: true, message: 'fine' });
  return ev;
}

test('scene3d: geometry, poses per sample across trajectories, packed and unpacked alike, indices as in the series', () => {
  const ev = events();
  const unpacked = projectScene3d(ev);
  const packed = projectScene3d(packEvents(ev));
  const series = projectTrajectory(ev);
  assert.equal(unpacked.length, 10);
  assert.equal(series.length, unpacked.length, 'same sample indices as the plots');
  assert.equal(unpacked.scene?.geoms.length, 6);
  assert.ok(unpacked.hasPoses());
  for (const b of [unpacked, packed]) {
    const out = new Array<number>(7);
    assert.equal(b.pose(6, b.body('red block'), out), true);
    assert.deepEqual(out, sample(0, 6).bodies!.slice(35, 42));
    assert.equal(b.pose(3, b.body('hand'), out), true);
    assert.deepEqual(out, sample(0, 3).bodies!.slice(21, 28));
    assert.equal(b.pose(10, 0, out), false, 'past the end');
    assert.equal(b.pose(0, b.body('nope'), out), false);
    assert.equal(b.rawTime(4), 0.1);
    assert.deepEqual(b.contactsAt(6), [['hand', 'table'], ['red block', 'table']]);
    assert.deepEqual(b.contactsAt(0), []);
  }
  // Sample i of the 3D model is sample i of the series (turn spans line up).
  assert.equal(series.turn[4], 7);
});

test('scene3d: waypoints from motion calls (a point, a list of points); other calls and bad args give none', () => {
  const w = projectScene3d(events()).waypoints();
  assert.deepEqual(w.map((x) => [x.turn, x.fn, x.pos, x.ok, x.call]), [
    [3, 'execute_trajectory', [0.4, 0, 0.875], true, 0],
    [7, 'move_along', [0.1, 0.2, 0.9], true, 0],
    [7, 'move_along', [0.2, 0.2, 0.95], true, 0],
  ]);
  assert.deepEqual(targetPositions({ position: [1, 2, 3] }), [[1, 2, 3]]);
  assert.deepEqual(targetPositions([{ pos: [1, 2, 3] }, 'x', [4, 5]]), [[1, 2, 3]]);
  assert.deepEqual(targetPositions([1, 2, Number.NaN]), []);
});

test('scene3d: collisions from checks (at the reported time) and from robot-fixture contact runs', () => {
  const b = projectScene3d(events());
  assert.deepEqual([...b.robotBodies()].sort(), ['hand', 'left finger'], 'moving, not an observed object');
  const c = b.collisions();
  assert.deepEqual(c.map((x) => [x.source, x.turn, x.a, x.b, x.sampleIndex]), [
    ['check', 7, 'left finger', 'red block', 6],
    ['contact', 7, 'hand', 'table', 6],
  ], 'a pair is reported once per turn (as the engine does), at its first contact');
  // A collision with a fixture is drawn on the moving side; between two moving bodies, half-way.
  const onHand = b.collisionPoint(c[1])!;
  const handX = 0.3 + 0.01 * 6;
  // The hand's geom sits 0.1 m along its local x, which the 90° yaw turns into +y.
  assert.deepEqual(onHand.map((v) => +v.toFixed(6)), [handX, 0.1, 0.9]);
  const mid = b.collisionPoint(c[0])!;
  const k = 6, fingerX = 0.3 + 0.01 * k;
  assert.deepEqual(mid.map((v) => +v.toFixed(6)), [+((fingerX - 0.01 + 0.4) / 2).toFixed(6), 0.005, +((0.88 + 0.8 + 0.01 * k) / 2).toFixed(6)]);
});

test('scene3d: repeated events (same seq) are ignored; a second scene is counted, not used', () => {
  const ev = events();
  const b = new Scene3dBuilder();
  b.append(ev);
  const v = b.version;
  b.append(ev);
  assert.equal(b.length, 10);
  assert.equal(b.version, v);
  b.add({ ...scene, seq: 100, bodies: ['other'] });
  assert.equal(b.extraScenes, 1);
  assert.deepEqual(b.bodies, BODIES);
});

test('scene3d: a trace without body poses (hand-made fixture) keeps its geometry and has no robot bodies', () => {
  const { events: ev } = loadFixture('malmm-pick-place.jsonl');
  const b = projectScene3d(ev);
  assert.equal(b.scene?.bodies.length, 4);
  assert.equal(b.hasPoses(), false);
  assert.equal(b.length, projectTrajectory(ev).length);
  assert.equal(b.robotBodies().size, 0);
  const c = b.collisions();
  assert.deepEqual(c.map((x) => [x.source, x.a, x.b]), [['check', 'red block', 'blue block']]);
  // Without poses the bodies are where the scene event put their geoms; the marker is between them.
  const p = b.collisionPoint(c[0])!;
  assert.ok(Math.abs(p[0] - (0.3012 + 0.2385) / 2) < 1e-9 && Math.abs(p[2] - 0.777) < 1e-9);
  assert.equal(b.waypoints().length, ev.flatMap((e) => (e.type === 'code_execution' ? e.apiCalls.filter((a) => a.fn === 'execute_trajectory') : [])).length);
});
