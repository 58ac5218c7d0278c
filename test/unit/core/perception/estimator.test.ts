// Perception mode's estimator: seeded, noisy by the documented amounts, drops what the front camera cannot see,
// and keeps the previous estimate when the new one moved less than 1 cm and turned less than 30 degrees.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { occluded, PERCEPTION_NOISE, PerceptionModel, perceptionErrors } from '../../../../src/core/perception/estimator.js';
import type { ObjectState, WorldState } from '../../../../src/protocol/trace.js';

const box = (name: string, pos: [number, number, number], size: [number, number, number] = [0.05, 0.05, 0.05], yaw = 0): ObjectState => ({ name, pos, euler: [0, 0, yaw], size, color: 'red' });
const world = (objects: ObjectState[]): WorldState => ({ objects, ee: { pos: [0, 0, 1.1], yawRad: 0 }, gripperOpen: true, grasped: null });

test('the same seed gives the same estimates, another seed others; the end effector stays exact', () => {
  const w = world([box('red block', [0.1, 0.1, 0.775]), box('blue block', [-0.1, 0.2, 0.775])]);
  const a = new PerceptionModel(3).estimate(w).state;
  const b = new PerceptionModel(3).estimate(w).state;
  const c = new PerceptionModel(4).estimate(w).state;
  assert.deepEqual(a, b);
  assert.notDeepEqual(a, c);
  assert.deepEqual(a.ee, w.ee);
});

test('noise on centres, sizes and yaw has the documented spread (1000 fresh estimates)', () => {
  const w = world([box('red block', [0.1, 0.1, 0.775], [0.05, 0.05, 0.05], 0.3)]);
  const errs = { x: [] as number[], size: [] as number[], yaw: [] as number[] };
  for (let seed = 0; seed < 1000; seed++) {
    const e = new PerceptionModel(seed).estimate(w).state.objects[0];
    if (!e) continue; // a rare drop-out of a visible object
    errs.x.push(e.pos[0] - 0.1);
    errs.size.push(e.size[0] - 0.05);
    errs.yaw.push(e.euler[2] - 0.3);
  }
  const sd = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0) / v.length);
  // Bias and jitter add up (independent Gaussians).
  const n = PERCEPTION_NOISE;
  const centre = Math.hypot(n.centreSigmaM, n.centreJitterM);
  const yaw = Math.hypot(n.yawSigmaRad, n.yawJitterRad);
  assert.ok(Math.abs(sd(errs.x) - centre) < 0.1 * centre, `centre sd ${sd(errs.x)} vs ${centre}`);
  assert.ok(Math.abs(sd(errs.size) - n.sizeSigmaM) < 0.1 * n.sizeSigmaM, `size sd ${sd(errs.size)}`);
  assert.ok(Math.abs(sd(errs.yaw) - yaw) < 0.1 * yaw, `yaw sd ${sd(errs.yaw)} vs ${yaw}`);
  const missed = 1000 - errs.x.length;
  assert.ok(missed > 10 && missed < 60, `visible drop-outs ${missed}/1000 (rate ${PERCEPTION_NOISE.dropVisible})`);
});

test('a block behind a taller one, seen from the front camera, is mostly missed', () => {
  // The camera is at large y looking back toward the robot: the tall box at y 0.3 hides the block at y 0.1 behind it.
  const hidden = box('red block', [0, 0.1, 0.775]);
  const wall = box('cereal box', [0, 0.3, 0.85], [0.2, 0.06, 0.2]);
  const w = world([hidden, wall]);
  assert.equal(occluded(hidden, w.objects), true);
  assert.equal(occluded(wall, w.objects), false);
  let dropped = 0;
  for (let seed = 0; seed < 200; seed++) {
    const r = new PerceptionModel(seed).estimate(w);
    if (r.notes.find((n) => n.name === 'red block')?.dropped === 'occluded') dropped++;
  }
  assert.ok(dropped > 110 && dropped < 170, `occluded drop-outs ${dropped}/200 (rate ${PERCEPTION_NOISE.dropOccluded})`);
});

test('jitter filter: a still object keeps its previous estimate; one that moved 5 cm gets a new one', () => {
  const m = new PerceptionModel(11);
  const w = world([box('red block', [0.1, 0.1, 0.775])]);
  let last = m.estimate(w).state.objects[0]!;
  let kept = 0;
  for (let i = 0; i < 20; i++) {
    const r = m.estimate(w);
    const o = r.state.objects[0];
    if (!o) continue;
    if (r.notes[0]!.kept) {
      kept++;
      assert.deepEqual(o, last, 'kept means exactly the previous estimate');
    } else {
      assert.ok(Math.hypot(o.pos[0] - last.pos[0], o.pos[1] - last.pos[1], o.pos[2] - last.pos[2]) >= 0.01 || Math.abs(o.euler[2] - last.euler[2]) >= Math.PI / 6);
      last = o;
    }
  }
  assert.ok(kept >= 8, `kept ${kept}/20 (the filter holds a still object most of the time)`);
  const moved = m.estimate(world([box('red block', [0.15, 0.1, 0.775])]));
  assert.equal(moved.notes[0]!.kept, undefined);
  assert.ok(Math.abs(moved.state.objects[0]!.pos[0] - 0.15) < 0.03);
  const errs = perceptionErrors(world([box('red block', [0.15, 0.1, 0.775])]), moved.state);
  assert.ok(errs[0]!.centreErrM! < 0.03);
});
