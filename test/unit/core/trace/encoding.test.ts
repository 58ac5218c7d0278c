// The compact trace encoding (src/core/trace/encoding/, docs/trace.md "Encoding"): messages stored once by hash,
// images once per sha256, trajectories as columns; the reader rebuilds exactly the events the writer returned.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { formatEvent } from '../../../../src/cli/transcript.js';
import { decodeGroup, encodeColumn, encodeGroup } from '../../../../src/core/trace/encoding/columns.js';
import { ColumnDecodeError, decodeTrajectoryColumns, TRAJECTORY_DIGITS } from '../../../../src/core/trace/encoding/index.js';
import { projectTimeline } from '../../../../src/core/trace/projections/turns.js';
import { readTrace } from '../../../../src/core/trace/reader.js';
import { JsonlTraceWriter } from '../../../../src/core/trace/writer.js';
import { TRACE_SCHEMA_VERSION, type ChatMessage, type PendingEvent, type TraceEvent, type TrajectorySample } from '../../../../src/protocol/trace.js';
import { buildMalmmTrace } from '../../../fixtures/traces/malmmTrace.js';
import { MemoryHost } from '../llm/helpers/memoryHost.js';

const clock = { t: 0, nowMs() { return (this.t += 5); }, isoNow: () => '2026-11-21T00:00:00.000Z' };
const FIXTURE = join(process.cwd(), 'test/fixtures/traces/malmm-pick-place.jsonl');

function pending(e: TraceEvent): PendingEvent {
  const { seq: _s, tMs: _t, ...rest } = e;
  return rest as PendingEvent;
}

async function writeAll(events: readonly PendingEvent[], path = '/ws/.waypoint/runs/r1/trace.jsonl') {
  const io = new MemoryHost();
  const w = new JsonlTraceWriter(io, path, clock);
  const shown: TraceEvent[] = [];
  for (const e of events) shown.push(await w.write(e));
  return { io, text: io.files.get(path)!, shown };
}

const start: PendingEvent = {
  type: 'episode_start', schemaVersion: TRACE_SCHEMA_VERSION, runId: 'r1', arch: 'malmm', agentVariant: 'malmm', task: 'stack_blocks',
  taskDescription: 'Stack', seed: 3, variant: 'default', ablations: {}, model: { provider: 'reference', model: 'reference', label: 'reference (scripted, not an LLM)' },
  prompts: [], simulator: { name: 'tabletop' }, options: { maxTurns: 10, maxConsecutiveErrors: 5, persistNamespace: false, codeTimeoutSecs: 10 }, startedAt: '2026-11-21T00:00:00.000Z',
};
const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64');
const pngSha = createHash('sha256').update(Buffer.from(png, 'base64')).digest('hex');
const system: ChatMessage = { role: 'system', content: 'You are the Coder.' };
const withImage: ChatMessage = { role: 'user', content: 'Camera view [image: top camera]', parts: [{ type: 'text', text: 'Camera view' }, { type: 'image', mediaType: 'image/png', sha256: pngSha, dataBase64: png, alt: 'top camera' }] };
const call = (turn: number, messages: ChatMessage[]): PendingEvent => ({ type: 'role_call', turn, callId: `c${turn}`, role: 'coder', messages, model: 'm', params: {}, promptPath: 'p/coder.prompt', variables: { n: turn } });

function samples(n: number, opts: { bodies?: boolean; contactsFrom?: number } = {}): TrajectorySample[] {
  return Array.from({ length: n }, (_, i) => {
    const t = i / 50;
    const s: TrajectorySample = {
      tSecs: t + 1e-12 * (i % 3),
      qpos: [Math.sin(t), Math.cos(t), -0.0000012, 0.7853981633974483],
      ee: [0.3 + 0.1 * Math.sin(t), -0.2 + 0.05 * t, 1.1 - 0.01 * t * t, 0.5236],
      gripperWidth: i < n / 2 ? 0.08 : 0.05,
      grasped: i < n / 2 ? null : 'red block',
    };
    if (opts.bodies) s.bodies = [0, 0, 0, 1, 0, 0, 0, 0.3 + 0.1 * Math.sin(t), -0.2, 1.1, Math.cos(t / 2), 0, 0, Math.sin(t / 2)];
    if (opts.contactsFrom !== undefined && i >= opts.contactsFrom) s.contacts = i % 7 === 0 ? [] : [['left finger', 'red block'], ['red block', 'table']];
    return s;
  });
}

test('a column is constant, first- or second-order varints, or exact float64 when too large to round', () => {
  const smooth = Float64Array.from({ length: 200 }, (_, i) => Math.sin(i / 30));
  const c1 = encodeColumn(smooth.slice(), 5);
  assert.ok(typeof c1 === 'string' && c1[0] === '2', 'a smooth signal uses second-order differences');
  assert.equal(encodeColumn(new Float64Array(50).fill(0.75), 5), 0.75);
  const neg = Float64Array.of(-0.000001, -0.000001);
  assert.ok(Object.is(encodeColumn(neg, 5), 0), '-0 after rounding is stored (and returned) as 0');
  const huge = Float64Array.of(1e300, -3, 2.5);
  const raw = encodeColumn(huge.slice(), 5);
  assert.ok(typeof raw === 'string' && raw[0] === 'f');
  const out = new Float64Array(3);
  decodeGroup({ e: 5, v: [raw] }, 3, 1, out);
  assert.deepEqual([...out], [1e300, -3, 2.5]);
});

test('a column group round-trips to its rounded values, also decoding only picked samples', () => {
  const n = 300, w = 3;
  const values = Float64Array.from({ length: n * w }, (_, k) => (k % w === 1 ? 0.42 : Math.cos(k / 17) * (k % w === 0 ? 1 : 1000)));
  const original = values.slice();
  const g = encodeGroup(values, n, w, 5);
  for (let k = 0; k < values.length; k++) assert.ok(Math.abs(values[k] - original[k]) <= 0.5e-5 + 1e-12, 'rounded to 5 digits');
  const out = new Float64Array(n * w);
  decodeGroup(JSON.parse(JSON.stringify(g)), n, w, out);
  assert.deepEqual(out, values);
  const pick = Int32Array.of(0, 7, 150, 299);
  const some = new Float64Array(pick.length * w);
  decodeGroup(g, n, w, some, pick);
  for (let j = 0; j < pick.length; j++) for (let c = 0; c < w; c++) assert.equal(some[j * w + c], values[pick[j] * w + c]);
  assert.throws(() => decodeGroup(g, n + 1, w, new Float64Array((n + 1) * w)), ColumnDecodeError);
  assert.throws(() => decodeGroup({ e: 5, v: ['1!!!'] }, 2, 1, new Float64Array(2)), ColumnDecodeError);
  // A run of continuation bytes must not decode to Infinity.
  assert.throws(() => decodeGroup({ e: 5, v: ['1' + Buffer.alloc(200, 0xff).toString('base64')] }, 1, 1, new Float64Array(1)), /too large/);
});

test('round trip: the reader returns exactly the events the writer returned (messages, images, columns)', async () => {
  const traj = samples(120, { bodies: true, contactsFrom: 60 });
  const events: PendingEvent[] = [
    start,
    call(1, [system, { role: 'user', content: 'Stack the blocks.' }]),
    { type: 'model_response', turn: 1, callId: 'c1', role: 'coder', ok: true, text: '```python\nopen_gripper()\n```', latencyMs: 3, cached: false, attempts: 1 },
    call(2, [system, { role: 'user', content: 'Stack the blocks.' }, { role: 'assistant', content: 'ok', name: 'Coder' }, withImage]),
    call(3, [system, withImage, { role: 'user', content: 'again' }]),
    { type: 'trajectory', turn: 2, rateHz: 50, samples: traj },
    { type: 'trajectory', turn: 3, rateHz: 50, samples: [] },
    { type: 'trajectory', turn: 3, rateHz: 50, samples: [{ ...traj[0], qpos: [1] }, traj[1]] },
    { type: 'episode_end', success: true, reason: 'task_completed', agentClaimedDone: true, metrics: { turns: 3, modelCalls: 1, cachedCalls: 0, promptTokens: 0, completionTokens: 0, codeBlocks: 0, codeErrors: 0, formatErrors: 0, durationMs: 1, simTimeSecs: 2 } },
  ];
  const { text, shown, io } = await writeAll(events);
  const { events: read, warnings } = readTrace(text);
  assert.deepEqual(warnings, []);
  assert.deepEqual(read, shown);

  const lines = text.trimEnd().split('\n').map((l) => JSON.parse(l));
  const records = lines.filter((l) => 'record' in l);
  assert.equal(records.filter((r) => r.record === 'message').length, 5, 'five distinct messages, each stored once');
  assert.equal(records.filter((r) => r.record === 'blob').length, 1, 'the image is stored once');
  assert.equal(text.split(png).length - 1, 1, 'the image bytes appear once in the file');
  // Each record comes before the first line that refers to it.
  const seen = new Set<string>();
  for (const l of lines) {
    if (l.record === 'message') seen.add(l.hash);
    if (l.type === 'role_call') for (const h of l.messages) assert.ok(seen.has(h), `message ${h} is written before line of ${l.callId}`);
  }
  const trajLines = lines.filter((l) => l.type === 'trajectory');
  assert.ok(trajLines[0].columns && !('samples' in trajLines[0]), 'samples as columns');
  assert.ok('samples' in trajLines[1] && 'samples' in trajLines[2], 'empty and ragged trajectories are stored as they are');

  // What the writer returned: values rounded to the documented digits, nothing else changed.
  const t = shown[5] as Extract<TraceEvent, { type: 'trajectory' }>;
  for (let i = 0; i < traj.length; i++) {
    assert.ok(Math.abs(t.samples[i].tSecs - traj[i].tSecs) <= 0.5 * 10 ** -TRAJECTORY_DIGITS.tSecs);
    traj[i].ee.forEach((v, k) => assert.ok(Math.abs(t.samples[i].ee[k] - v) <= 0.5 * 10 ** -TRAJECTORY_DIGITS.ee + 1e-15));
    traj[i].bodies!.forEach((v, k) => assert.ok(Math.abs(t.samples[i].bodies![k] - v) <= 0.5 * 10 ** -TRAJECTORY_DIGITS.bodies + 1e-15));
    assert.deepEqual(t.samples[i].contacts, traj[i].contacts);
    assert.equal(t.samples[i].grasped, traj[i].grasped);
  }
  assert.deepEqual(shown[3], { ...events[3], seq: 3, tMs: shown[3].tMs }, 'role_call messages are returned unchanged, image bytes included');

  // The run summary beside the trace.
  const summary = JSON.parse(io.files.get('/ws/.waypoint/runs/r1/summary.json')!);
  assert.deepEqual({ ...summary, startedAt: undefined }, { summaryVersion: 1, runId: 'r1', arch: 'malmm', agentVariant: 'malmm', variant: 'default', task: 'stack_blocks', seed: 3, model: 'reference (scripted, not an LLM)', startedAt: undefined, success: true, reason: 'task_completed', notStarted: false, turns: 3, events: 9, schemaVersion: TRACE_SCHEMA_VERSION });
});

test('a message hash with no record is a warning naming the hash and the line; the call shows a placeholder', async () => {
  const { text } = await writeAll([start, call(1, [system, { role: 'user', content: 'Stack the blocks.' }])]);
  const lines = text.trimEnd().split('\n');
  const dropped = JSON.parse(lines[2]);
  assert.equal(dropped.record, 'message');
  const cut = [lines[0], lines[1], lines[3]].join('\n') + '\n';
  const { events, warnings } = readTrace(cut);
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0].kind, 'missing_content');
  assert.equal(warnings[0].line, 3);
  assert.match(warnings[0].message, new RegExp(`line 3: role_call c1 refers to message ${dropped.hash}, which is not in the trace`));
  const rc = events.find((e) => e.type === 'role_call');
  assert.equal(rc?.type === 'role_call' && rc.messages[0].content, 'You are the Coder.');
  assert.equal(rc?.type === 'role_call' && rc.messages[1].content, `[message ${dropped.hash} is missing from this trace]`);
});

test('an image whose blob record is missing keeps its part without bytes, with a warning naming its sha256', async () => {
  const { text } = await writeAll([start, call(1, [withImage])]);
  const cut = text.split('\n').filter((l) => !l.includes('"record":"blob"')).join('\n');
  const { events, warnings } = readTrace(cut);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0].message, new RegExp(`image ${pngSha}`));
  const rc = events[1];
  assert.ok(rc.type === 'role_call');
  assert.deepEqual(rc.messages[0].parts?.[1], { type: 'image', mediaType: 'image/png', sha256: pngSha, alt: 'top camera' });
});

test('the writer refuses an image whose sha256 does not match its bytes, and writes nothing for that event', async () => {
  const io = new MemoryHost();
  const w = new JsonlTraceWriter(io, '/t.jsonl', clock);
  await w.write(start);
  const before = io.files.get('/t.jsonl');
  const bad: ChatMessage = { ...withImage, parts: [{ type: 'image', mediaType: 'image/png', sha256: 'a'.repeat(64), dataBase64: png }] };
  await assert.rejects(() => w.write(call(1, [bad])), /sha256 a{64} does not match its data/);
  assert.equal(io.files.get('/t.jsonl'), before);
  await w.write(call(2, [system]));
  assert.equal(readTrace(io.files.get('/t.jsonl')!).events.length, 2, 'the writer goes on after a refused event');
});

test('a process killed mid-append leaves records and events before it readable; orphan records are harmless', async () => {
  const { text } = await writeAll([start, call(1, [system]), call(2, [system, { role: 'user', content: 'x'.repeat(500) }])]);
  // Cut inside the last role_call's new message record: that call is lost, everything before it reads.
  const cut = text.slice(0, text.lastIndexOf('x'.repeat(100)));
  const r = readTrace(cut);
  assert.deepEqual(r.events.map((e) => e.type), ['episode_start', 'role_call']);
  assert.equal(r.warnings.length, 1);
  assert.equal(r.warnings[0].kind, 'truncated_last_line');
  // Cut after the record but before the role_call line: an orphan record, no warning.
  const lines = text.trimEnd().split('\n');
  const r2 = readTrace(lines.slice(0, -1).join('\n') + '\n');
  assert.deepEqual(r2.warnings, []);
  assert.equal(r2.events.length, 2);
});

test('bad columns are a warning naming the line; the other events read', async () => {
  const { text } = await writeAll([start, { type: 'trajectory', turn: 1, rateHz: 50, samples: samples(10) }]);
  const lines = text.trimEnd().split('\n');
  const t = JSON.parse(lines[1]);
  t.columns.ee.v[0] = '1AAAA';
  const { events, warnings } = readTrace([lines[0], JSON.stringify(t)].join('\n') + '\n');
  assert.equal(events.length, 1);
  assert.equal(warnings[0].line, 2);
  assert.match(warnings[0].message, /line 2: trajectory columns are invalid/);
});

test('columns decode straight into typed arrays (the viewer path), qpos skipped and samples picked', async () => {
  const s = samples(100, { bodies: true, contactsFrom: 90 });
  const { text, shown } = await writeAll([start, { type: 'trajectory', turn: 1, rateHz: 50, samples: s }]);
  const cols = JSON.parse(text.trimEnd().split('\n')[1]).columns;
  const full = (shown[1] as Extract<TraceEvent, { type: 'trajectory' }>).samples;
  const pick = Int32Array.of(0, 49, 50, 91, 98, 99);
  const d = decodeTrajectoryColumns(cols, { qpos: false, pick });
  assert.equal(d.n, pick.length);
  assert.equal(d.qposWidth, 0);
  assert.equal(d.qpos.length, 0);
  pick.forEach((i, j) => {
    assert.equal(d.tSecs[j], full[i].tSecs);
    assert.deepEqual([...d.ee.subarray(4 * j, 4 * j + 4)], full[i].ee);
    assert.deepEqual([...d.bodies!.subarray(14 * j, 14 * j + 14)], full[i].bodies);
  });
  assert.deepEqual(d.grasped, [{ from: 0, value: null }, { from: 2, value: 'red block' }]);
  assert.deepEqual(d.contacts?.map((c) => c.index), [3, 4, 5], 'contacts of the picked samples, re-indexed');
  assert.deepEqual(d.contacts?.[0].pairs, full[91].contacts);
});

test("several arms: every arm's tool point and fingers round-trip as a column group, also picked for the viewer", async () => {
  const s = samples(80).map((x, i) => ({ ...x, arms: [x.ee[0], x.ee[1], x.ee[2], x.ee[3], x.gripperWidth, 0.5 - 0.001 * i, 0.2, 0.9 + 0.002 * i, -1.5707963, 0] }));
  const { text, shown } = await writeAll([start, { type: 'trajectory', turn: 1, rateHz: 50, samples: s }]);
  const line = JSON.parse(text.trimEnd().split('\n')[1]);
  assert.ok(line.columns.arms && !line.samples, 'written as columns, arms a group of 10');
  assert.equal(line.columns.arms.v.length, 10);
  const back = readTrace(text).events[1] as Extract<TraceEvent, { type: 'trajectory' }>;
  const full = (shown[1] as Extract<TraceEvent, { type: 'trajectory' }>).samples;
  assert.deepEqual(back.samples.map((x) => x.arms), full.map((x) => x.arms), 'the reader returns what the writer returned');
  s.forEach((x, i) => x.arms.forEach((v, k) => assert.ok(Math.abs(full[i]!.arms![k]! - v) <= 0.5 * 10 ** -TRAJECTORY_DIGITS.arms + 1e-15)));
  const pick = Int32Array.of(0, 40, 79);
  const d = decodeTrajectoryColumns(line.columns, { qpos: false, bodies: false, pick });
  assert.equal(d.armsWidth, 10);
  pick.forEach((i, j) => assert.deepEqual([...d.arms!.subarray(10 * j, 10 * j + 10)], full[i]!.arms));
});

test('the committed v1 fixture opens as before and shows the same transcript, also after re-encoding', async () => {
  const v1 = readFileSync(FIXTURE, 'utf8');
  const snapshot = readFileSync(join(process.cwd(), 'test/fixtures/traces/snapshots/malmm-pick-place.transcript.txt'), 'utf8');
  const transcript = (events: readonly TraceEvent[]) => events.map((e) => formatEvent(e, { color: false, verbose: true })).filter((x) => x !== undefined).join('\n') + '\n';
  const old = readTrace(v1);
  assert.deepEqual(old.warnings, []);
  assert.equal(old.events[0].type === 'episode_start' && old.events[0].schemaVersion, 1);
  assert.deepEqual(old.events, JSON.parse(JSON.stringify(buildMalmmTrace())), 'every v1 event reads exactly as written');
  assert.equal(transcript(old.events), snapshot);

  const { text } = await writeAll(old.events.map(pending), '/ws/v2.jsonl');
  assert.ok(text.length * 3 < v1.length, `re-encoded ${text.length} bytes vs ${v1.length}`);
  const again = readTrace(text);
  assert.deepEqual(again.warnings, []);
  assert.equal(transcript(again.events), snapshot);
  const calls = (evs: readonly TraceEvent[]) => evs.flatMap((e) => (e.type === 'role_call' ? [e.messages] : []));
  assert.deepEqual(calls(again.events), calls(old.events), 'every role call sees exactly the same messages');
  // The writer stamps its own times; everything else in the timeline is the same.
  const rows = (evs: readonly TraceEvent[]) => projectTimeline(evs).map((r) => ({ ...r, tMs: 0 }));
  assert.deepEqual(rows(again.events), rows(old.events), 'the run viewer timeline is the same');
});

test('waypoint show prints a missing message hash as a warning and the rest of the transcript', async () => {
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { Writable } = await import('node:stream');
  const { showCommand } = await import('../../../../src/cli/show.js');
  const { text } = await writeAll([start, call(1, [system, { role: 'user', content: 'Stack the blocks.' }]), { type: 'chat_message', turn: 1, speaker: 'Planner', content: 'Step 1: look' }]);
  const lines = text.split('\n');
  const hash = JSON.parse(lines[2]).hash as string;
  const dir = mkdtempSync(join(tmpdir(), 'waypoint-show-'));
  try {
    const file = join(dir, 'cut.jsonl');
    writeFileSync(file, lines.filter((_, i) => i !== 2).join('\n'));
    let out = '';
    const sink = new Writable({ write(chunk, _enc, done) { out += String(chunk); done(); } });
    assert.equal(await showCommand(file, { workspace: dir }, sink), 0);
    assert.match(out, new RegExp(`warning: line 3: role_call c1 refers to message ${hash}, which is not in the trace`));
    assert.match(out, /Planner\n\s+Step 1: look/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
