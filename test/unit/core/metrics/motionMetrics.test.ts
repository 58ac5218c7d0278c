import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  actionMetrics,
  CLEARANCE_RANGE_M,
  NO_MOTION_SCORE,
  pathLength,
  peakJerk,
  planQuality,
  summarizeEpisode,
  type MotionSample,
  type Vec3,
} from '../../../../src/core/metrics/motionMetrics.js';
import { pointToGeom } from '../../../../src/core/sim/mujoco/motionProbe.js';

// Every assert.ok here carries a message: without one, a failing assert makes Node rebuild the expression from the
// source, which under tsx took minutes (the mutation run saw the file hang instead of fail).

const DT = 0.02;

/** A minimum-jerk move of `dist` metres along x in `T` seconds, sampled on the 50 Hz grid. */
function minJerk(dist: number, T: number): MotionSample[] {
  const out: MotionSample[] = [];
  for (let k = 0; k * DT <= T + 1e-9; k++) {
    const tau = (k * DT) / T;
    const x = dist * tau ** 3 * (10 - 15 * tau + 6 * tau * tau);
    out.push({ tSecs: k * DT, dexterity: 0.1 - 0.05 * tau, clearanceM: 0.2 - 0.1 * tau, farthestM: 1.2 + 0.2 * tau, closest: ['hand', 'table'], ee: [[x, 0, 1]], heldTiltRad: null });
  }
  return out;
}

test('peak jerk of a minimum-jerk move matches 60 D / T^3 (1 - 6 tau + 6 tau^2) at the first difference; path length is D', () => {
  const s = minJerk(0.3, 1);
  const m = actionMetrics('execute_trajectory', s, 0, DT);
  // The first third difference is centred at t = 1.5 dt.
  const tau = (1.5 * DT) / 1;
  const expected = 60 * 0.3 * (1 - 6 * tau + 6 * tau * tau);
  assert.ok(Math.abs(m.peakJerkMps3 - expected) / expected < 0.02, `peak jerk ${m.peakJerkMps3} vs ${expected}`);
  assert.ok(Math.abs(m.pathLengthM - 0.3) < 1e-9, `path length ${m.pathLengthM}`);
  assert.equal(m.durationSecs, 1);
  // delta falls linearly to 0.05, clearance to 0.1 m, the farthest distance rises to 1.4 m: M_I = 0.05 and
  // M_E = 0.1 / 1.4 (d_bar = the largest farthest distance seen).
  assert.ok(Math.abs(m.mI - 0.05) < 1e-9, `M_I ${m.mI}`);
  assert.ok(Math.abs(m.minClearanceM - 0.1) < 1e-9, `clearance ${m.minClearanceM}`);
  assert.ok(Math.abs(m.dBarM! - 1.4) < 1e-9, `d_bar ${m.dBarM}`);
  assert.ok(Math.abs(m.mE - 0.1 / 1.4) < 1e-9, `M_E ${m.mE}`);
  assert.equal(m.mT, m.mI + m.mE);
  assert.deepEqual(m.closestPair, ['hand', 'table']);
  assert.equal(m.maxHeldTiltRad, null);
});

test('jerk skips samples off the grid; a constant-velocity path has none', () => {
  const pts: Vec3[] = [0, 1, 2, 3, 4, 5].map((k) => [0.01 * k, 0, 0]);
  const times = [0, 0.02, 0.04, 0.06, 0.08, 0.1];
  assert.ok(peakJerk(times, pts, DT) < 1e-6);
  // An off-grid first sample with a jump is ignored.
  const jump: Vec3[] = [[0.5, 0, 0], ...pts.slice(1)];
  assert.ok(peakJerk([0.013, ...times.slice(1)], jump, DT) < 1e-6);
  assert.ok(peakJerk(times, jump, DT) > 1000);
  assert.equal(pathLength([[0, 0, 0], [3, 4, 0], [3, 4, 12]]), 17);
});

test('d_bar is a running maximum across actions; penetration makes M_E negative; held tilt is the maximum', () => {
  const base: MotionSample = { tSecs: 0, dexterity: 0.08, clearanceM: CLEARANCE_RANGE_M, farthestM: 0.9, closest: null, ee: [[0, 0, 1]], heldTiltRad: 0.01 };
  // The plan's earlier actions saw a link 1.5 m from the far corner: that d_bar still holds.
  const m = actionMetrics('x', [base, { ...base, tSecs: 0.02, clearanceM: -0.004, closest: ['left finger', 'table'], heldTiltRad: 0.2 }, { ...base, tSecs: 0.04 }], 1, DT, 1.5);
  assert.equal(m.dBarM, 1.5);
  assert.ok(Math.abs(m.mE - -0.004 / 1.5) < 1e-12, 'Math.abs(m.mE - -0.004 / 1.5) < 1e-12');
  assert.deepEqual(m.closestPair, ['left finger', 'table']);
  assert.equal(m.maxHeldTiltRad, 0.2);
  assert.equal(m.collisionCount, 1);
  // A first action: d_bar is its own largest distance.
  const first = actionMetrics('x', [base, { ...base, tSecs: 0.02, clearanceM: 0.3, farthestM: 1.2 }], 0, DT);
  assert.equal(first.dBarM, 1.2);
  assert.ok(Math.abs(first.mE - 0.3 / 1.2) < 1e-12, 'Math.abs(first.mE - 0.3 / 1.2) < 1e-12');
  // A simulator that reports no farthest distance: the measuring range stands in for d_bar.
  const bare = actionMetrics('x', [{ ...base, farthestM: undefined, clearanceM: 0.25 }, { ...base, farthestM: undefined, tSecs: 0.02, clearanceM: 0.25 }], 0, DT);
  assert.ok(Math.abs(bare.mE - 0.25 / CLEARANCE_RANGE_M) < 1e-12, 'Math.abs(bare.mE - 0.25 / CLEARANCE_RANGE_M) < 1e-12');
});

test('an action that never moved scores the sentinel -2 and counts in Q', () => {
  const still = actionMetrics('approach', [], 0, DT);
  assert.deepEqual([still.mI, still.mE, still.mT, still.durationSecs], [-1, -1, NO_MOTION_SCORE, 0]);
  const moved = actionMetrics('pick', minJerk(0.2, 0.8), 0, DT);
  assert.ok(Math.abs(planQuality([moved, still])! - (moved.mT - 2) / 2) < 1e-12, 'Math.abs(planQuality([moved, still])! - (moved.mT - 2) / 2) < 1e-12');
  assert.equal(planQuality([]), null);
  const ep = summarizeEpisode([moved, still]);
  assert.equal(ep.actions.length, 2);
  assert.equal(ep.minMI, moved.mI);
  assert.equal(ep.collisionCount, 0);
  assert.ok(Math.abs(ep.pathLengthM - 0.2) < 1e-9, 'Math.abs(ep.pathLengthM - 0.2) < 1e-9');
  assert.equal(ep.durationSecs, 0.8);
  assert.equal(summarizeEpisode([]).planQuality, null);
});

test('M_E for a known configuration, worked out by hand from the definition', () => {
  // One link: a capsule of radius 0.05 m along z, centre (0, 0, 1.1), half-length 0.1 (segment z 1.0..1.2).
  // The environment's farthest point: the table corner (0.6, 0.8, 0.75). Closest point of the segment: z = 1.0;
  // distance = sqrt(0.6^2 + 0.8^2 + 0.25^2) - 0.05 = sqrt(1.0625) - 0.05 = 0.980776 m = d_bar.
  const I = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  const dBar = pointToGeom([0.6, 0.8, 0.75], 3, [0, 0, 1.1], I, [0.05, 0.1, 0]);
  assert.ok(Math.abs(dBar - 0.980776) < 1e-6, `d_bar ${dBar}`);
  // The same link 0.01 m from the nearest obstacle: M_E = 0.01 / 0.980776 = 0.0101960.
  const s: MotionSample = { tSecs: 0, dexterity: 0.1, clearanceM: 0.01, farthestM: dBar, closest: ['link4', 'glass'], ee: [[0, 0, 1]], heldTiltRad: null };
  const m = actionMetrics('pick', [s, { ...s, tSecs: 0.02 }], 0, DT);
  assert.ok(Math.abs(m.mE - 0.010196) < 1e-6, `M_E ${m.mE}`);
  assert.ok(Math.abs(m.mT - (0.1 + 0.010196)) < 1e-6, 'Math.abs(m.mT - (0.1 + 0.010196)) < 1e-6');
  // A box link (half-extents 0.1, 0.05, 0.02, turned 90 degrees about z) and a point 0.3 m beyond its end along
  // world y: distance = 0.3 (the box reaches y = 0.1 after the turn).
  const Rz = [0, -1, 0, 1, 0, 0, 0, 0, 1];
  assert.ok(Math.abs(pointToGeom([0, 0.4, 0], 6, [0, 0, 0], Rz, [0.1, 0.05, 0.02]) - 0.3) < 1e-12, 'Math.abs(pointToGeom([0, 0.4, 0], 6, [0, 0, 0], Rz, [0.1, 0.05, 0.02]) - 0.3) < 1e-12');
});
