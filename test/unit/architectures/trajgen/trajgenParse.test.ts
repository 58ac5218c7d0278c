// Readers of LM Trajectory Generators' answers and the detector's input: code blocks, the numeric mode's tags
// and trajectories, verdicts, quarter-turn yaw unwrapping and the authors' track format.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { detectTags, parseNumericTrajectory, parseVerdict, pythonBlocks, withoutExecutionFeedback } from '../../../../src/architectures/trajgen/parse.js';
import { TRAJGEN_MANIFEST } from '../../../../src/architectures/trajgen/manifest.js';
import { formatDetectorTracks, objectOfLabel, subsample, unwrapQuarterTurns } from '../../../../src/architectures/trajgen/tracks.js';

test('trajgen parse: python blocks in order, numeric tags, verdicts', () => {
  assert.deepEqual(pythonBlocks('a\n```python\nx = 1\n```\nb\n```py\ny = 2\n```'), ['x = 1\n', 'y = 2\n']);
  assert.deepEqual(detectTags('<detect_object>red can</detect_object> and <detect_object> plate </detect_object>'), ['red can', 'plate']);
  assert.deepEqual(parseVerdict('It moved.\n```python\ntask_completed()\n```'), { ok: true, value: 'completed' });
  assert.deepEqual(parseVerdict('```python\ntask_failed()\n```'), { ok: true, value: 'failed' });
  assert.equal(parseVerdict('I think it worked.').ok, false);
  assert.equal(parseVerdict('```python\ntask_completed()\ntask_failed()\n```').ok, false);
});

test('trajgen parse: numeric trajectories must be lists of five finite numbers with a 0/1 gripper', () => {
  assert.deepEqual(parseNumericTrajectory('[[0.1, 0.2, 0.9, 0, 1], [0.1, 0.2, 0.8, 0.0, 0],]'), { ok: true, value: [[0.1, 0.2, 0.9, 0, 1], [0.1, 0.2, 0.8, 0, 0]] });
  const err = (s: string) => {
    const r = parseNumericTrajectory(s);
    assert.equal(r.ok, false, s);
    return r.ok ? '' : r.error;
  };
  assert.match(err('{"x": 1}'), /must be a list of poses/);
  assert.match(err('[[0.1, 0.2, 0.9, 0]]'), /pose 0 .* \(5 numbers\)/);
  // Exactly five: a sixth number is not silently dropped or accepted.
  assert.match(err('[[0.1, 0.2, 0.9, 0, 1], [0.1, 0.2, 0.8, 0, 1, 0.5]]'), /pose 1 .* \(5 numbers\), got \[0.1,0.2,0.8,0,1,0.5\]/);
  assert.match(err('[[0.1, 0.2, NaN, 0, 1]]'), /not a list of numbers \(found "NaN/);
  assert.match(err('[[0.1, 0.2, 0.9, 0, 0.5]]'), /gripper state must be 1 \(open\) or 0 \(closed\)/);
  assert.match(err('[p for p in poses]'), /not a list of numbers/);
  assert.match(err('[]'), /empty list/);
});

test('trajgen tracks: yaw unwrapped by quarter turns, subsampled with the last sample, printed in the authors\' format', () => {
  const u = unwrapQuarterTurns([1.5, -1.6, 0.01]);
  assert.ok(Math.abs(u[1]! - (-1.6 + Math.PI)) < 1e-9 && Math.abs(u[2]! - (0.01 + Math.PI / 2)) < 1e-9);
  const q = [1, 0, 0, 0] as [number, number, number, number];
  const t = subsample({ name: 'red can', tSecs: [0, 0.02, 0.04, 0.06, 0.08], pos: [[0, 0, 0.8], [0, 0, 0.8], [0.1, 0, 0.8], [0.2, 0, 0.8], [0.3, 0, -0.0001]], quat: [q, q, q, q, q] }, 2, 'red can');
  assert.deepEqual(t.tSecs, [0, 0.04, 0.08]);
  assert.equal(formatDetectorTracks([t]), 'red can trajectory positions and orientations:\nPositions:\n[[0.000 0.000 0.800] [0.100 0.000 0.800] [0.300 0.000 0.000]]\nOrientations:\n[0.000 0.000 0.000]');
  assert.equal(objectOfLabel('red cup rim', ['cup', 'red cup']), 'red cup');
  assert.equal(objectOfLabel('plate', ['plate', 'sponge']), 'plate');
  assert.equal(objectOfLabel('unicorn', ['plate']), undefined);
});

test("trajgen: the robot API's execution notes are dropped from what the model reads, its own prints and detect_object's report kept", () => {
  const notes = [
    'close_gripper: nothing grasped',
    'close_gripper: grasped bottle',
    'close_gripper: already holding bottle',
    'collision: panda hand <-> can at t=2.34 s, depth 1.5 mm',
    'grasp: bottle slipped out of the gripper at t=3.10 s',
    'execute_trajectory: 2 pose(s) were executed a half turn away in yaw (the same grasp for the symmetric gripper; the wrist cannot turn further)',
    'execute_trajectory: pose 7 [0.0000, 0.9000, 0.8000, 0.0000] unreachable (IK residual 0.1234 m, 0.001 rad); the arm went as close as it could',
    'execute_trajectory: stopped 0.1200 m from the last pose [0.0000, 0.9000, 0.8000], at [0.0000, 0.7800, 0.8000]',
  ];
  const kept = ['Position of can: [0.100, 0.200, 0.810]', 'Dimensions:', 'grasp height 0.05', 'collision avoided: yes', 'execute_trajectory: done (my own print)'];
  assert.equal(withoutExecutionFeedback([kept[0], ...notes, ...kept.slice(1)].join('\n')), kept.join('\n'));
  // The ablation is ours, off by default, named in the manifest and turned on by the waypoint variant only.
  assert.ok(TRAJGEN_MANIFEST.codeAblations?.['api.execution_feedback']);
  const turnsOn = Object.entries(TRAJGEN_MANIFEST.builtInVariants).filter(([, v]) => v.on?.includes('api.execution_feedback')).map(([id]) => id);
  assert.deepEqual(turnsOn, ['waypoint']);
});
