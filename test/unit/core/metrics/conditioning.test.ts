import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inverseConditionNumber, singularValues, symmetricEigenvalues } from '../../../../src/core/metrics/conditioning.js';

const close = (a: number, b: number, tol = 1e-9) => assert.ok(Math.abs(a - b) <= tol, `${a} vs ${b}`);

test('symmetric eigenvalues of a hand-checked 2x2 and a diagonal 6x6', () => {
  // [[2, -1], [-1, 1]]: (3 +- sqrt 5) / 2
  const e = symmetricEigenvalues([2, -1, -1, 1], 2);
  close(e[0]!, (3 - Math.sqrt(5)) / 2);
  close(e[1]!, (3 + Math.sqrt(5)) / 2);
  const d = new Array<number>(36).fill(0);
  [5, 1, 3, 2, 6, 4].forEach((v, i) => (d[i * 7] = v));
  assert.deepEqual(symmetricEigenvalues(d, 6).map((v) => Math.round(v * 1e9) / 1e9), [1, 2, 3, 4, 5, 6]);
});

test('singular values of a wide matrix ignore its null space', () => {
  // 2 x 3 with orthogonal rows of length 3 and 4: singular values 4, 3.
  const s = singularValues([3, 0, 0, 0, 0, 4], 2, 3);
  close(s[0]!, 4);
  close(s[1]!, 3);
  const tall = singularValues([3, 0, 4, 0, 0, 0], 3, 2);
  close(tall[0]!, 5);
  close(tall[1]!, 0, 1e-7);
});

test('a two-link planar arm: isotropy drops to 0 as the elbow straightens (hand-checked)', () => {
  // Links of 1 m at q1 = 0: J = [[-s2, -s2], [1 + c2, c2]].
  const jac = (q2: number) => [-Math.sin(q2), -Math.sin(q2), 1 + Math.cos(q2), Math.cos(q2)];
  // q2 = pi/2: J J^T = [[2, -1], [-1, 1]] -> sigma = 1.618, 0.618 -> delta = 0.382
  close(inverseConditionNumber(jac(Math.PI / 2), 2, 2), (Math.sqrt(5) - 1) / (Math.sqrt(5) + 1), 1e-9);
  const deltas = [1.2, 0.6, 0.2, 0.05, 0.01].map((q2) => inverseConditionNumber(jac(q2), 2, 2));
  for (let i = 1; i < deltas.length; i++) assert.ok(deltas[i]! < deltas[i - 1]!, deltas.join(', '));
  assert.ok(deltas.at(-1)! < 0.01);
  assert.equal(inverseConditionNumber(jac(0), 2, 2), 0);
  assert.equal(inverseConditionNumber([0, 0, 0, 0], 2, 2), 0);
});

test('delta is the smallest over the largest singular value of a 6 x 7 Jacobian, not any other pair', () => {
  // Rows scaled 4, 2, 1, 3, 2.5, 0.5 in the first six joints; the 7th column is 0 (a redundant joint's null space).
  const scale = [4, 2, 1, 3, 2.5, 0.5];
  const J = new Array<number>(42).fill(0);
  scale.forEach((v, i) => (J[i * 7 + i] = v));
  close(inverseConditionNumber(J, 6, 7), 0.5 / 4);
});
