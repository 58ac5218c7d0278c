import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decimateMinMax, decimatePath } from '../../../../../src/core/trace/projections/decimate.js';
import { projectTrajectory, TrajectorySeriesBuilder } from '../../../../../src/core/trace/projections/trajectorySeries.js';
import { loadTraceForView } from '../../../../../src/core/trace/viewData.js';
import { packTrajectory } from '../../../../../src/protocol/webview.js';
import type { TraceEvent } from '../../../../../src/protocol/trace.js';
import { loadFixture } from './helpers.js';

const { events } = loadFixture('malmm-pick-place.jsonl');

test('trajectory series: columns per sample, turn spans at execution turns, grasp changes, object markers', () => {
  const s = projectTrajectory(events);
  const samples = events.flatMap((e) => (e.type === 'trajectory' ? e.samples : []));
  assert.equal(s.length, samples.length);
  assert.equal(s.x[10], samples[10].ee[0]);
  assert.equal(s.z[s.length - 1], samples[samples.length - 1].ee[2]);
  assert.equal(s.gripperWidth[0], 0.08);
  assert.deepEqual(s.spans.map((x) => x.turn), [6, 10, 18, 22]);
  assert.equal(s.spans[0].start, 0);
  assert.equal(s.spans[3].end, s.length);
  for (let i = 1; i < s.length; i++) assert.ok(s.t[i] > s.t[i - 1], 'time increases');
  assert.equal(s.turn[s.spans[1].start], 10);
  assert.deepEqual(s.graspChanges.map((g) => g.grasped), [null, 'red block', null]);
  const red = s.objectMarkers().find((o) => o.name === 'red block')!;
  assert.deepEqual(red.initial.map((v) => +v.toFixed(4)), [0.3012, 0.1047, 0.777]);
  assert.ok(Math.hypot(red.latest[0] - 0.1443, red.latest[1] + 0.1384) < 1e-6, 'the red block ends in the container');
  assert.equal(s.indexAt(s.t[42]), 42);
  assert.equal(s.indexAt(-5), 0);
  assert.equal(s.indexAt(1e9), s.length - 1);
});

test('trajectory series grows past its initial capacity without losing samples', () => {
  const b = new TrajectorySeriesBuilder();
  let seq = 0;
  for (let k = 0; k < 30; k++) {
    b.add({ seq: seq++, tMs: 0, type: 'trajectory', turn: k, rateHz: 100, samples: Array.from({ length: 100 }, (_, i) => ({ tSecs: (k * 100 + i) / 100, qpos: [], ee: [k, i, 0, 0] as [number, number, number, number], gripperWidth: 0.08, grasped: null })) });
  }
  assert.equal(b.length, 3000);
  assert.equal(b.x[2999], 29);
  assert.equal(b.y[2999], 99);
  assert.equal(b.spans.length, 30);
});

test('decimateMinMax keeps every spike and stays near 4 points per bucket', () => {
  const n = 100_000;
  const t = new Float64Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    t[i] = i / 1000;
    y[i] = Math.sin(i / 500);
  }
  y[31_337] = 50;
  y[77_001] = -50;
  y[500] = NaN;
  const idx = decimateMinMax(t, y, 800);
  assert.ok(idx.length <= 800 * 4 && idx.length >= 800 * 2, `${idx.length}`);
  assert.ok(idx.includes(31_337) && idx.includes(77_001));
  assert.equal(idx[0], 0);
  assert.equal(idx[idx.length - 1], n - 1);
  for (let i = 1; i < idx.length; i++) assert.ok(idx[i] > idx[i - 1], 'strictly increasing');
  // The min/max of the decimated series equal the full series' min/max (NaN ignored).
  let mx = -Infinity, mn = Infinity;
  for (const i of idx) if (Number.isFinite(y[i])) { mx = Math.max(mx, y[i]); mn = Math.min(mn, y[i]); }
  assert.deepEqual([mx, mn], [50, -50]);
});

test('decimateMinMax: small inputs and windows', () => {
  assert.deepEqual([...decimateMinMax([0, 1, 2], [5, 6, 7], 100)], [0, 1, 2]);
  assert.deepEqual([...decimateMinMax([], [], 100)], []);
  const t = Array.from({ length: 10_000 }, (_, i) => i);
  const win = decimateMinMax(t, t, 10, 5000, 5999);
  assert.equal(win[0], 4999, 'one sample before the window');
  assert.equal(win[win.length - 1], 6000, 'one sample after the window');
});

test('decimatePath keeps the path extent', () => {
  const n = 50_000;
  const x = Float64Array.from({ length: n }, (_, i) => Math.cos(i / 1000));
  const y = Float64Array.from({ length: n }, (_, i) => Math.sin(i / 700));
  x[12_345] = 9;
  const idx = decimatePath(x, y, 500);
  assert.ok(idx.length <= 3000);
  assert.ok(idx.includes(12_345));
  assert.equal(idx[idx.length - 1], n - 1);
});

/** A RoCo-like run: three robots, each moving along its own line; the first arm's values repeat in ee. */
function threeArmEvents(n = 40): TraceEvent[] {
  const robots = ['Alice', 'Bob', 'Chad'].map((name, k) => ({ name, pos: [0.5 * (k - 1), 0.2, 1] as [number, number, number], yawRad: 0, holding: null }));
  const obs = { seq: 1, tMs: 1, type: 'observation', turn: 0, text: '', state: { objects: [], ee: { pos: [0, 0, 1], yawRad: 0 }, gripperOpen: true, grasped: null, robots } };
  const samples = Array.from({ length: n }, (_, i) => {
    const arms = [0, 1, 2].flatMap((k) => [0.5 * (k - 1) + 0.001 * i * (k + 1), 0.2, 1 - 0.002 * i * k, 0, 0.08 - 0.001 * k]);
    return { tSecs: i / 50, qpos: [], ee: [arms[0]!, arms[1]!, arms[2]!, arms[3]!] as [number, number, number, number], gripperWidth: arms[4]!, grasped: null, arms };
  });
  return [obs, { seq: 2, tMs: 2, type: 'trajectory', turn: 3, rateHz: 50, samples }] as unknown as TraceEvent[];
}

test("several arms: each robot's columns, named after the observation's robots, from samples and from packed columns", () => {
  const events = threeArmEvents(1500); // past the columns' first capacity (1024): the arm columns grow too
  const samples = (events[1] as Extract<TraceEvent, { type: 'trajectory' }>).samples;
  for (const s of [projectTrajectory(events), projectTrajectory([events[0]!, packTrajectory(events[1] as Extract<TraceEvent, { type: 'trajectory' }>)!])]) {
    assert.equal(s.armCount, 3);
    assert.deepEqual([0, 1, 2].map((k) => s.arm(k).name), ['Alice', 'Bob', 'Chad']);
    const bob = s.arm(1);
    assert.deepEqual([...bob.x], samples.map((x) => x.arms![5]));
    assert.deepEqual([...s.arm(2).z], samples.map((x) => x.arms![12]));
    assert.deepEqual([...s.arm(2).gripperWidth], samples.map((x) => x.arms![14]));
    assert.deepEqual([...s.arm(0).x], [...s.x], "the first arm's columns are the end effector's");
  }
  // A single-arm run has no arm columns (its plots stay as they were).
  assert.equal(projectTrajectory(loadFixture('malmm-pick-place.jsonl').events).armCount, 0);
});

test("several arms: the viewer's zoom window carries every arm's samples", () => {
  const events = threeArmEvents(60);
  const text = events.map((e) => JSON.stringify(e)).join('\n') + '\n';
  const load = loadTraceForView(text);
  const w = load.window(0.2, 0.4, 1000);
  assert.equal(w.armsWidth, 15);
  const samples = (events[1] as Extract<TraceEvent, { type: 'trajectory' }>).samples;
  const first = samples.findIndex((x) => x.tSecs === w.t[0]);
  for (let j = 0; j < w.t.length; j++) assert.deepEqual([...w.arms!.subarray(15 * j, 15 * j + 15)], samples[first + j]!.arms);
});
