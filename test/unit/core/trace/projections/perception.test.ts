// The Perception view model: estimate against truth per observation and per object, from the trace alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { projectPerception } from '../../../../../src/core/trace/projections/perception.js';
import { projectRun } from '../../../../../src/core/trace/projections/runProjection.js';
import { estimatedFixture } from '../../perception/estimatedTrace.js';
import { loadFixture } from './helpers.js';

test('perception: one row per observation with an estimate; errors are the distance from the truth; drop-outs and keeps counted', () => {
  const events = estimatedFixture();
  const v = projectPerception(events);
  const observations = events.filter((e) => e.type === 'observation');
  assert.equal(v.mode, 'estimated');
  assert.equal(v.observations.length, observations.length);
  for (const [i, row] of v.observations.entries()) {
    const e = observations[i]!;
    if (e.type !== 'observation') continue;
    assert.equal(row.turn, e.turn);
    for (const o of row.objects) {
      const t = e.state.objects.find((x) => x.name === o.name)!;
      const est = e.estimate!.objects.find((x) => x.name === o.name);
      assert.deepEqual(o.truth.pos, t.pos);
      if (!est) {
        assert.ok(o.dropped, `${o.name} missing from the estimate is a drop-out`);
        assert.equal(o.centreErrM, undefined);
        continue;
      }
      assert.ok(Math.abs(o.centreErrM! - Math.hypot(est.pos[0] - t.pos[0], est.pos[1] - t.pos[1], est.pos[2] - t.pos[2])) < 1e-12);
    }
  }
  // The forced drop-out of the first observation.
  assert.equal(v.observations[0]!.objects.find((o) => o.name === 'blue block')!.dropped, 'occluded');
  const blue = v.objects.find((o) => o.name === 'blue block')!;
  assert.ok(blue.droppedOccluded >= 1);
  assert.equal(blue.seen + blue.droppedOccluded + blue.droppedMissed, blue.observations);
  // The noise model's per-object bias (sd 6 mm per axis) plus jitter: errors of millimetres to a few centimetres.
  assert.ok(v.overall.meanCentreErrM! > 0.001 && v.overall.meanCentreErrM! < 0.05, String(v.overall.meanCentreErrM));
  assert.ok(v.overall.maxCentreErrM! >= v.overall.meanCentreErrM!);
  // Observations after the first within 1 cm of the last estimate are kept by the jitter filter: the arm moved,
  // the blocks mostly did not.
  assert.ok(v.overall.kept > 0, 'the jitter filter kept some estimates');
  assert.equal(v.overall.kept, v.objects.reduce((a, o) => a + o.kept, 0));
});

test('perception: a ground-truth run has nothing to show; the run projection feeds it incrementally', () => {
  const plain = projectRun(loadFixture('malmm-pick-place.jsonl').events);
  assert.equal(plain.perception.active, false);
  assert.equal(plain.perception.result().observations.length, 0);
  const events = estimatedFixture();
  const p = projectRun(events.slice(0, 5));
  const before = p.perception.result().observations.length;
  p.append(events.slice(5));
  assert.equal(p.perception.active, true);
  assert.ok(p.perception.result().observations.length > before);
  assert.deepEqual(p.perception.result(), projectPerception(events));
});
