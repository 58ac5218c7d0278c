// The joint-space DS's obstacle modulation (robot/jointDs.ts) with two obstacles on opposite sides of the arm:
// the authors' normalised weights let them cancel, so the modulated velocity still closes in on both; the guard
// after it (holdOff) leaves no approaching component for an obstacle nearer than the clearance.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { holdOff, modulate } from '../../../../../src/core/sim/mujoco/robot/jointDs.js';

const dot = (a: Float64Array, b: Float64Array) => a.reduce((s, v, i) => s + v * b[i]!, 0);
const vec = (...v: number[]) => Float64Array.from(v);

test('two obstacles on opposite sides cancel in the modulation; the guard stops the approach to both', () => {
  const c = 0.02;
  // Distances grow along +x for the shade above (grad +x+y) and along -x for the shelf beside (grad -x+y):
  // a motion along -y closes in on both.
  const shade = { distanceM: 0.009, grad: vec(0.7, 0.7, 0) };
  const shelf = { distanceM: 0.009, grad: vec(-0.7, 0.7, 0) };
  const qd = vec(0.1, -1, 0.3);
  const m = modulate(qd, [shade, shelf], c);
  assert.ok(m.r < 1, `opposed obstacles leave |r| = ${m.r.toFixed(2)} < 1`);
  assert.ok(dot(shade.grad, qd) < 0 && dot(shelf.grad, qd) < 0, 'after the modulation alone the arm still closes in on both');
  const removed = holdOff(qd, [shade, shelf], c);
  assert.ok(removed > 0);
  assert.ok(dot(shade.grad, qd) >= -1e-9, 'not toward the shade');
  assert.ok(dot(shelf.grad, qd) >= -1e-9, 'not toward the shelf');
  assert.ok(Math.abs(qd[2]!) > 0.3, 'the free direction keeps moving (lambda_e scales it up)');
});

test('the guard leaves alone what is beyond the clearance and motions away from an obstacle', () => {
  const far = { distanceM: 0.03, grad: vec(1, 0) };
  const qd = vec(-1, 0.5);
  assert.equal(holdOff(qd, [far], 0.02), 0);
  assert.deepEqual([...qd], [-1, 0.5]);
  const near = { distanceM: 0.01, grad: vec(1, 0) };
  const away = vec(0.4, 0.5);
  assert.equal(holdOff(away, [near], 0.02), 0);
  assert.deepEqual([...away], [0.4, 0.5]);
  const toward = vec(-0.4, 0.5);
  holdOff(toward, [near], 0.02);
  assert.deepEqual([...toward], [0, 0.5]);
});
