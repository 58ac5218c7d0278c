// Readable chart axes: a series flat up to float noise gets the range Chart.js gives an exactly flat one, and tick
// labels carry the decimals their step needs, never an exponent like "-2.000000000E-9".
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readableRange, tickLabel } from '../../../../webview/common/chartAxis.js';

test('a series flat up to noise gets a readable range; a varying one keeps its own', () => {
  // A yaw of 0 with a reset move's -6e-9: 0 ± 1, as Chart.js draws an exactly flat 0.
  assert.deepEqual(readableRange(-6e-9, 0), { min: -1, max: 1 });
  // A gripper width of 0.04 m up to 4e-7 of noise: 0.04 ± 5 %.
  const r = readableRange(0.04, 0.0400004);
  assert.ok(Math.abs(r.min - 0.038) < 1e-6 && Math.abs(r.max - 0.042) < 1e-6 && Math.abs(r.max - r.min - 0.1 * 0.0400002) < 1e-12, JSON.stringify(r));
  // Real variation, however small against the value, is kept: 1 mm on a 0.8 m height, 10 µm near 0.
  assert.deepEqual(readableRange(0.8, 0.801), { min: 0.8, max: 0.801 });
  assert.deepEqual(readableRange(0, 1e-5), { min: 0, max: 1e-5 });
});

test('tick labels: decimals from the step, no exponent, no negative zero', () => {
  assert.equal(tickLabel(-2e-9, 0.5), '0.0');
  assert.equal(tickLabel(0.025, 0.025), '0.025');
  assert.equal(tickLabel(0.05, 0.025), '0.050');
  assert.equal(tickLabel(1.2, 0.2), '1.2');
  assert.equal(tickLabel(15, 5), '15');
  assert.equal(tickLabel(-0.0000001, 0.5), '0.0');
  assert.equal(tickLabel(0.0402, 0.0002), '0.0402');
  assert.doesNotMatch(tickLabel(4e-7, 1e-7), /E/i);
});
