import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatMalmmState, parseMalmmState } from '../../../../src/core/sim/observationText.js';
import type { WorldState } from '../../../../src/protocol/trace.js';

const EXAMPLE = `**red block** :
Center Position: [0.1000 0.2000 0.7750]
Orientation: [0.0000 0.0000 0.5236]
Height: 0.0500
Width: 0.0500
Length: 0.0500
Color: red
**End-effector** :
robot arm end-effector Position: [0.0000 0.0000 1.1000]
End-effector Orientation (yaw): 0.0000
Gripper: open
No object has been grasped`;

const STATE: WorldState = {
  objects: [{ name: 'red block', pos: [0.1, 0.2, 0.775], euler: [0, 0, Math.PI / 6], size: [0.05, 0.05, 0.05], color: 'red' }],
  ee: { pos: [0, 0, 1.1], yawRad: 0 },
  gripperOpen: true,
  grasped: null,
};

test('formatMalmmState matches the reference format exactly', () => {
  assert.equal(formatMalmmState(STATE), EXAMPLE);
});

test('formatMalmmState prints the grasped object, a closed gripper, scene order and no negative zero', () => {
  const text = formatMalmmState({
    ...STATE,
    objects: [
      { name: 'green block', pos: [-0.00001, -0.1234567, 0.775], euler: [-0.00001, 0, -1.5], size: [0.06, 0.05, 0.04], color: 'green' },
      STATE.objects[0]!,
    ],
    gripperOpen: false,
    grasped: 'red block',
  });
  const lines = text.split('\n');
  assert.equal(lines[0], '**green block** :');
  assert.equal(lines[1], 'Center Position: [0.0000 -0.1235 0.7750]');
  assert.equal(lines[2], 'Orientation: [0.0000 0.0000 -1.5000]');
  assert.deepEqual(lines.slice(3, 6), ['Height: 0.0400', 'Width: 0.0500', 'Length: 0.0600']);
  assert.equal(lines[7], '**red block** :');
  assert.equal(lines.at(-2), 'Gripper: closed');
  assert.equal(lines.at(-1), 'Grasped Object: red block');
});

test('parseMalmmState inverts formatMalmmState up to 4 decimals', () => {
  const state: WorldState = {
    objects: [
      { name: 'green block', pos: [-0.12151, 0.00987, 0.77482], euler: [0.001, -0.002, 0.7], size: [0.05, 0.06, 0.07], color: 'green' },
      { name: 'item 1', pos: [0.3, -0.2, 0.8], euler: [0, 0, -3.1], size: [0.1, 0.02, 0.03], color: 'unknown' },
    ],
    ee: { pos: [0.01, -0.02, 0.9], yawRad: -0.25 },
    gripperOpen: false,
    grasped: 'item 1',
  };
  const parsed = parseMalmmState(formatMalmmState(state));
  assert.equal(parsed.objects.length, 2);
  parsed.objects.forEach((o, i) => {
    const e = state.objects[i]!;
    assert.equal(o.name, e.name);
    assert.equal(o.color, e.color);
    for (const k of ['pos', 'euler', 'size'] as const) o[k].forEach((v, j) => assert.ok(Math.abs(v - e[k][j]!) <= 5e-5, `${o.name}.${k}[${j}]`));
  });
  assert.deepEqual(parsed.ee, { pos: [0.01, -0.02, 0.9], yawRad: -0.25 });
  assert.equal(parsed.gripperOpen, false);
  assert.equal(parsed.grasped, 'item 1');
  // Formatting the parsed state reproduces the text byte for byte.
  assert.equal(formatMalmmState(parsed), formatMalmmState(state));
  assert.deepEqual(parseMalmmState(EXAMPLE), { ...STATE, objects: [{ ...STATE.objects[0]!, euler: [0, 0, 0.5236] }] });
});

test('parseMalmmState names the line at fault', () => {
  assert.throws(() => parseMalmmState(EXAMPLE.replace('Center Position: [0.1000 0.2000 0.7750]', 'Center Position: [0.1 0.2]')), /expected \[x y z\] in Center Position of red block/);
  assert.throws(() => parseMalmmState(EXAMPLE.replace('Color: red\n', '')), /expected 'Color:' in the block of red block, got '\*\*End-effector\*\* :'/);
  assert.throws(() => parseMalmmState(EXAMPLE.split('\n').slice(0, 7).join('\n')), /no \*\*End-effector\*\* block/);
});
