// The normal-approximation interval LLaMAR's non-binomial metrics get (mean ± 1.96 s / sqrt n, s the sample
// standard deviation), clipped to the metric's range. The Clopper-Pearson interval itself is checked against
// scipy in test/unit/architectures/llamar/view/householdSteps.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { meanInterval } from '../../../../src/core/metrics/clopperPearson.js';

const close = (a: number, b: number, tol = 1e-9) => assert.ok(Math.abs(a - b) <= tol, `${a} vs ${b}`);

test('mean ± 1.96 s / sqrt(n) with the sample standard deviation (n - 1), worked out by hand', () => {
  // 1, 2, 3, 4: mean 2.5, s = sqrt(5 / 3) = 1.290994, half = 1.959964 * 1.290994 / 2 = 1.265151.
  const r = meanInterval([1, 2, 3, 4])!;
  assert.equal(r.mean, 2.5);
  assert.equal(r.n, 4);
  close(r.low, 2.5 - 1.2651514, 1e-6);
  close(r.high, 2.5 + 1.2651514, 1e-6);
});

test('the interval is clipped to the bounds; one value has a zero-width interval; none has none', () => {
  const rates = meanInterval([1, 1, 0.5], [0, 1])!;
  assert.equal(rates.high, 1);
  assert.ok(rates.low > 0 && rates.low < rates.mean, `${rates.low}`);
  assert.deepEqual(meanInterval([0.3]), { mean: 0.3, low: 0.3, high: 0.3, n: 1 });
  assert.equal(meanInterval([]), undefined);
});
