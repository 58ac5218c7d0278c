// The trajectory policies read detect_object's print-out back: the parser must agree with the simulator's format.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatDetection } from '../../../../../src/core/sim/mujoco/apis/objectLookup.js';
import { parseDetections, Readout } from '../../../../../src/architectures/trajgen/reference/solutions/readout.js';

test('parseDetections reads back what formatDetection prints, sides swapped when y is longer', () => {
  const text = [
    formatDetection({ label: 'red cup', object: 0, pos: [0.1, -0.2, 0.8], size: [0.08, 0.08, 0.1], yawRad: 0.3 }),
    'some other line',
    formatDetection({ label: 'rim of the bowl', object: 1, pos: [0.3, 0.05, 0.79], size: [0.02, 0.16, 0.01], yawRad: 0 }),
  ].join('\n');
  const d = parseDetections(text);
  assert.equal(d.length, 2);
  assert.deepEqual(d[0]!.pos, [0.1, -0.2, 0.8]);
  assert.equal(d[0]!.height, 0.1);
  assert.ok(Math.abs(d[0]!.yawWidth - 0.3) < 1e-3);
  assert.equal(d[1]!.width, 0.16);
  assert.equal(d[1]!.length, 0.02);
  assert.ok(Math.abs(d[1]!.yawWidth - Math.PI / 2) < 1e-3);
  const r = new Readout(d);
  assert.equal(r.one('bowl').label, 'rim of the bowl');
  assert.throws(() => r.one('plate'), /no detection of "plate" \(seen: red cup, rim of the bowl\)/);
});
