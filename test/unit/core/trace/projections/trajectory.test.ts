import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decimateMinMax, decimatePath } from '../../../../../src/core/trace/projections/decimate.js';
import { projectTrajectory, TrajectorySeriesBuilder } from '../../../../../src/core/trace/projections/trajectorySeries.js';
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
