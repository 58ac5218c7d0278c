// The detector model behind detect_object in perception mode `estimated`: seeded and repeatable, noise of the
// documented size, part segmentation that fails more the thinner the part, whole objects never segmented wrong;
// and the embedded simulator printing the estimate while recording the truth beside it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DetectorModel, DETECTOR_NOISE, partFailureChance, type DetectionTruth } from '../../../../src/core/perception/detector.js';
import { createTabletopSimulator } from '../../../../src/core/sim/mujoco/index.js';
import { parseDetections } from '../../../../src/architectures/trajgen/reference/solutions/readout.js';

const bowl = { name: 'bowl', pos: [0.1, 0.15, 0.775] as [number, number, number], size: [0.14, 0.14, 0.05] as [number, number, number], yawRad: 0 };
const rim: DetectionTruth = { label: 'bowl rim', pos: [0.1, 0.15, 0.795], size: [0.14, 0.14, 0.01], yawRad: 0, object: bowl };
const pan = { name: 'pan', pos: [0, 0.15, 0.77] as [number, number, number], size: [0.28, 0.16, 0.04] as [number, number, number], yawRad: 0.3 };
const handle: DetectionTruth = { label: 'pan handle', pos: [0.08 * Math.cos(0.3), 0.15 + 0.08 * Math.sin(0.3), 0.778], size: [0.12, 0.024, 0.016], yawRad: 0.3, object: pan };
const slot: DetectionTruth = { label: 'toaster slot', pos: [0.12, 0.2, 0.84], size: [0.13, 0.032, 0.06], yawRad: -0.2, object: { name: 'toaster', pos: [0.12, 0.2, 0.81], size: [0.22, 0.14, 0.12], yawRad: -0.2 } };
const apple: DetectionTruth = { label: 'apple', pos: [-0.1, 0.1, 0.784], size: [0.068, 0.068, 0.068], yawRad: 0 };

test('the same seed and call give the same estimate; another call redraws the jitter; seeds differ', () => {
  const a = new DetectorModel(7).detect([apple, rim], 0);
  assert.deepEqual(new DetectorModel(7).detect([apple, rim], 0), a);
  assert.notDeepEqual(new DetectorModel(7).detect([apple], 1)[0]!.estimate.pos, a[0]!.estimate.pos);
  assert.notDeepEqual(new DetectorModel(8).detect([apple], 0)[0]!.estimate.pos, a[0]!.estimate.pos);
  assert.deepEqual(a[0]!.truth, { pos: apple.pos, size: apple.size, yawRad: apple.yawRad });
});

test('part segmentation fails more the thinner the part, at the documented rates; whole objects never', () => {
  assert.equal(partFailureChance(rim.size), 0.425);
  assert.equal(partFailureChance(handle.size), 0.35);
  assert.ok(Math.abs(partFailureChance(slot.size) - 0.15) < 1e-9);
  const rate = (t: DetectionTruth) => {
    let n = 0;
    const kinds = new Set<string>();
    for (let seed = 0; seed < 100; seed++) {
      const m = new DetectorModel(seed);
      for (let call = 0; call < 20; call++) {
        const r = m.detect([t], call)[0]!;
        if (r.failure) {
          n++;
          kinds.add(r.failure);
        }
      }
    }
    return { rate: n / 2000, kinds };
  };
  const r = rate(rim);
  const h = rate(handle);
  const s = rate(slot);
  assert.ok(Math.abs(r.rate - 0.425) < 0.04, `rim ${r.rate}`);
  assert.ok(Math.abs(h.rate - 0.35) < 0.04, `handle ${h.rate}`);
  assert.ok(Math.abs(s.rate - 0.15) < 0.03, `slot ${s.rate}`);
  assert.deepEqual([...r.kinds].sort(), ['neighbour_region', 'whole_object', 'wrong_extent']);
  assert.equal(rate(apple).rate, 0);
});

test('noise and calibration: whole-object centres are off by millimetres, never centimetres; sizes and yaw too', () => {
  const errs: number[] = [];
  for (let seed = 0; seed < 200; seed++) {
    const e = new DetectorModel(seed).detect([apple], 0)[0]!.estimate;
    errs.push(Math.hypot(e.pos[0] - apple.pos[0], e.pos[1] - apple.pos[1], e.pos[2] - apple.pos[2]));
    assert.ok(Math.abs(e.size[0] - apple.size[0]) < 6 * DETECTOR_NOISE.sizeSigmaM);
    assert.ok(Math.abs(e.yawRad) < 6 * (DETECTOR_NOISE.yawSigmaRad + DETECTOR_NOISE.yawJitterRad));
  }
  const mean = errs.reduce((a, b) => a + b, 0) / errs.length;
  assert.ok(mean > 0.003 && mean < 0.012, `mean centre error ${mean}`);
  assert.ok(Math.max(...errs) < 0.03);
});

test('a failed handle segmentation moves the box towards the pan; a failed rim as the whole bowl reads the bowl', () => {
  let sawNeighbour = false;
  let sawWhole = false;
  for (let call = 0; call < 200 && !(sawNeighbour && sawWhole); call++) {
    const h = new DetectorModel(3).detect([handle], call)[0]!;
    if (h.failure === 'neighbour_region') {
      sawNeighbour = true;
      const toPan = (p: number[]) => Math.hypot(p[0]! - pan.pos[0], p[1]! - pan.pos[1]);
      assert.ok(toPan(h.estimate.pos) < toPan(handle.pos) - 0.04);
    }
    const r = new DetectorModel(3).detect([rim], call)[0]!;
    if (r.failure === 'whole_object') {
      sawWhole = true;
      assert.ok(Math.abs(r.estimate.size[2] - bowl.size[2]) < 0.02, 'the whole bowl is 5 cm tall, the rim 1 cm');
    }
  }
  assert.ok(sawNeighbour && sawWhole);
});

test('the embedded simulator prints the estimate and records it beside the truth; ground truth stays exact', async () => {
  const est = await createTabletopSimulator({ perception: 'estimated' });
  const gt = await createTabletopSimulator();
  try {
    assert.match(est.version ?? '', /estimated detections/);
    await est.reset('move_pan_left', 0);
    await gt.reset('move_pan_left', 0);
    const e = await est.call('detect_object', ['pan handle']);
    const g = await gt.call('detect_object', ['pan handle']);
    assert.ok(e.ok && g.ok);
    const rec = e.detections![0]!;
    assert.deepEqual(rec.truth, g.detections![0]!.truth);
    assert.deepEqual(g.detections![0]!.estimate, g.detections![0]!.truth);
    const printed = parseDetections(e.output!)[0]!;
    assert.deepEqual(printed.pos, rec.estimate.pos.map((v) => Math.round(v * 1000) / 1000));
    assert.notDeepEqual(printed.pos, parseDetections(g.output!)[0]!.pos);
    // The same episode again (reset) answers its first call the same way.
    await est.reset('move_pan_left', 0);
    const again = await est.call('detect_object', ['pan handle']);
    assert.equal(again.ok && again.output, e.output);
    await assert.rejects(createTabletopSimulator({ perception: 'fuzzy' as never }), /unknown perception mode 'fuzzy'; choices: ground-truth, estimated/);
  } finally {
    await est.close();
    await gt.close();
  }
});
