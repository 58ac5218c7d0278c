// The webview message contract (no browser): two-step validation accepts exactly what HostToView accepts, and
// packed trajectories round-trip and validate.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HostToView, packEvents, packTrajectory, PackedTrajectory, parseHostToView, shareMessages, unpackTrajectory, ViewToHost } from '../../src/protocol/webview.js';
import { projectRun } from '../../src/core/trace/projections/runProjection.js';
import { loadFixture } from '../unit/core/trace/projections/helpers.js';

const { events } = loadFixture('malmm-pick-place.jsonl');
const traj = events.filter((e) => e.type === 'trajectory');

test('packTrajectory/unpackTrajectory round-trip exactly, contacts and bodies included', () => {
  for (const e of traj) assert.deepEqual(unpackTrajectory(packTrajectory(e)!), e);
  const withExtras = { ...traj[0], samples: traj[0].samples.map((s, i) => ({ ...s, bodies: [i, 1, 2, 3, 4, 5, 6], ...(i === 3 ? { contacts: [['a', 'b']] as [string, string][] } : {}) })) };
  const p = packTrajectory(withExtras)!;
  assert.equal(p.bodiesWidth, 7);
  assert.deepEqual(p.contacts, [{ index: 3, pairs: [['a', 'b']] }]);
  assert.deepEqual(unpackTrajectory(p), withExtras);
  assert.ok(PackedTrajectory.safeParse(p).success);
  // Samples with different qpos lengths stay unpacked.
  const ragged = { ...traj[0], samples: traj[0].samples.map((s, i) => ({ ...s, qpos: i ? s.qpos : [1] })) };
  assert.equal(packTrajectory(ragged), undefined);
  assert.equal(packEvents([ragged])[0], ragged);
});

test('packed trajectories are checked: lengths, finite numbers, grasp runs', () => {
  const p = packTrajectory(traj[0])!;
  const bad = (patch: Partial<PackedTrajectory>) => PackedTrajectory.safeParse({ ...p, ...patch }).success;
  assert.equal(bad({}), true);
  assert.equal(bad({ ee: p.ee.slice(1) }), false);
  assert.equal(bad({ tSecs: Float64Array.from(p.tSecs, (v, i) => (i === 5 ? NaN : v)) }), false);
  assert.equal(bad({ gripperWidth: [...p.gripperWidth] as unknown as PackedTrajectory['gripperWidth'] }), false, 'plain arrays are not columns');
  assert.equal(bad({ grasped: [{ from: 1, value: null }] }), false);
  assert.equal(bad({ contacts: [{ index: p.n, pairs: [] }] }), false);
});

test('projections of packed events equal those of the trace events', () => {
  const a = projectRun(events);
  const b = projectRun(packEvents(events));
  assert.deepEqual(b.timeline.rows(), a.timeline.rows());
  assert.deepEqual([...b.series.t], [...a.series.t]);
  assert.deepEqual([...b.series.z], [...a.series.z]);
  assert.deepEqual([...b.series.turn], [...a.series.turn]);
  assert.deepEqual(b.series.spans, a.series.spans);
  assert.deepEqual(b.series.graspChanges, a.series.graspChanges);
  assert.deepEqual(b.summary.summary(), a.summary.summary());
});

const win = {
  requestId: 'r2', ok: true, tFrom: 1, tTo: 3, count: 3, full: true,
  t: Float64Array.of(1, 2, 3), x: Float64Array.of(0.1, 0.2, 0.3), y: Float64Array.of(0, 0, 0), z: Float64Array.of(1, 1, 1),
  yawRad: Float64Array.of(0, 0, 0), gripperWidth: Float64Array.of(0.08, 0.08, 0.05), turn: Int32Array.of(1, 1, 2),
};

test('packing keeps the counters of schema v2 (round, step, agent)', () => {
  const e = { ...traj[0], round: 2, step: 5, agent: 'Alice' };
  const p = packTrajectory(e)!;
  assert.deepEqual([p.round, p.step, p.agent], [2, 5, 'Alice']);
  assert.ok(PackedTrajectory.safeParse(p).success);
  assert.deepEqual(unpackTrajectory(p), e);
});

test('parseHostToView accepts exactly what HostToView accepts', () => {
  const packed = packEvents(events);
  const cases: unknown[] = [
    { type: 'init', runId: 'r', events, warnings: [] },
    { type: 'init', runId: 'r', events: packed, warnings: [{ line: 3, kind: 'corrupt_line', message: 'x' }], live: true, selectTurn: 4 },
    { type: 'append', runId: 'r', events: packed.slice(3, 9) },
    { type: 'selectTurn', turn: 3 },
    { type: 'response', requestId: 'r1', ok: false, error: 'nope' },
    { type: 'init', runId: 'r', events: packed.map((e) => (e.type === 'trajectory_packed' ? { ...e, total: e.n + 100 } : e)), warnings: [], overview: { total: 9999, sent: 10 } },
    { type: 'init', runId: 'r', events: packed.map((e) => (e.type === 'trajectory_packed' ? { ...e, total: e.n - 1 } : e)), warnings: [] },
    { type: 'trajectoryWindow', ...win },
    { type: 'trajectoryWindow', ...win, x: win.x.slice(1) },
    { type: 'trajectoryWindow', ...win, t: Float64Array.of(2, 1, 3) },
    { type: 'trajectoryWindow', ...win, z: Float64Array.of(0, Infinity, 0) },
    { type: 'trajectoryWindow', ...win, turn: [1, 1, 2] },
    { type: 'init', runId: 'r', events: [{ ...events[0], seq: -1 }], warnings: [] },
    { type: 'init', runId: '', events: [], warnings: [] },
    { type: 'append', runId: 'r', events: 'x' },
    { type: 'append', runId: 'r', events: [{ type: 'trajectory_packed' }] },
    { type: 'append', runId: 'r', events: [{ type: 'mystery', seq: 1, tMs: 0 }] },
    { type: 'selectTurn', turn: -1 },
    { type: 'nope' },
    '<img src=x>',
    null,
  ];
  for (const c of cases) {
    const ours = parseHostToView(c);
    const full = HostToView.safeParse(c);
    assert.equal(ours.success, full.success, JSON.stringify(c).slice(0, 120));
    if (ours.success && full.success) assert.deepEqual(ours.data, full.data);
  }
  const r = parseHostToView({ type: 'append', runId: 'r', events: [events[0], { ...events[1], seq: 'x' }] });
  assert.equal(r.success, false);
  assert.match(!r.success ? r.error : '', /^events\.1\.seq: /);
});

test('ViewToHost: requests carry a requestId, reports are bounded', () => {
  assert.ok(ViewToHost.safeParse({ type: 'openPrompt', requestId: 'r1', path: 'prompts/malmm/coder.prompt', line: 12 }).success);
  assert.equal(ViewToHost.safeParse({ type: 'openPrompt', path: 'x' }).success, false);
  assert.equal(ViewToHost.safeParse({ type: 'openPrompt', requestId: 'r1', path: 'x', line: 0 }).success, false);
  assert.ok(ViewToHost.safeParse({ type: 'ready' }).success);
  assert.ok(ViewToHost.safeParse({ type: 'ready', runId: 'r' }).success);
  assert.equal(ViewToHost.safeParse({ type: 'invalidMessage', message: 'x'.repeat(3000) }).success, false);
  assert.ok(ViewToHost.safeParse({ type: 'trajectoryWindow', requestId: 'r3', tFrom: 1.5, tTo: 9, buckets: 1200 }).success);
  assert.equal(ViewToHost.safeParse({ type: 'trajectoryWindow', requestId: 'r3', tFrom: 1.5, tTo: 9, buckets: 0 }).success, false);
  assert.equal(ViewToHost.safeParse({ type: 'trajectoryWindow', tFrom: 1.5, tTo: 9, buckets: 10 }).success, false);
});

test('a trajectory window must be sorted, finite, equally long, with Int32 turns; an overview total is at least n', () => {
  assert.ok(parseHostToView({ type: 'trajectoryWindow', ...win }).success);
  for (const patch of [{ x: win.x.slice(1) }, { t: Float64Array.of(2, 1, 3) }, { z: Float64Array.of(0, Infinity, 0) }, { turn: [1, 1, 2] }]) {
    assert.equal(parseHostToView({ type: 'trajectoryWindow', ...win, ...patch }).success, false, JSON.stringify(Object.keys(patch)));
  }
  const p = packTrajectory(traj[0])!;
  assert.ok(PackedTrajectory.safeParse({ ...p, total: p.n + 5 }).success);
  assert.equal(PackedTrajectory.safeParse({ ...p, total: p.n - 1 }).success, false);
});

test('an init with shared messages parses into the same events as one with every message inline', () => {
  const packed = packEvents(events);
  const shared = shareMessages(packed);
  const calls = events.filter((e) => e.type === 'role_call');
  const refs = calls.reduce((n, e) => n + (e.type === 'role_call' ? e.messages.length : 0), 0);
  assert.ok(shared.messages.length * 5 < refs, `${shared.messages.length} distinct messages for ${refs} references`);
  const size = (evs: readonly object[]) => JSON.stringify(evs.filter((e) => (e as { type: string }).type !== 'trajectory_packed')).length;
  const sharedSize = size(shared.events) + JSON.stringify(shared.messages).length;
  assert.ok(sharedSize * 2 < size(packed), `${sharedSize} vs ${size(packed)} characters`);
  const a = parseHostToView({ type: 'init', runId: 'r', events: shared.events, messages: shared.messages, warnings: [] });
  const b = parseHostToView({ type: 'init', runId: 'r', events: packed, warnings: [] });
  assert.ok(a.success && b.success);
  assert.deepEqual(a.success && a.data, b.success && b.data);
  assert.ok(HostToView.safeParse({ type: 'init', runId: 'r', events: shared.events, messages: shared.messages, warnings: [] }).success);
  // An index outside the table, a table missing, or indices in an append are refused with a clear path.
  const i = shared.events.findIndex((e) => e.type === 'role_call');
  const broken = shared.events.map((e, k) => (k === i ? { ...e, messages: [0, shared.messages.length] } : e));
  const r1 = parseHostToView({ type: 'init', runId: 'r', events: broken, messages: shared.messages, warnings: [] });
  assert.equal(r1.success, false);
  assert.match(!r1.success ? r1.error : '', new RegExp(`^events\\.${i}\\.messages\\.1: message index ${shared.messages.length} is not in the init's ${shared.messages.length} messages`));
  assert.equal(parseHostToView({ type: 'init', runId: 'r', events: shared.events, warnings: [] }).success, false);
  assert.equal(parseHostToView({ type: 'append', runId: 'r', events: shared.events.slice(i, i + 1) }).success, false);
});
