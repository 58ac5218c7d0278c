// MCAP export read back with @mcap/core's indexed reader: channels, schemas, message counts, timestamps, and each
// JSON message checked against its channel's JSON Schema (Foxglove's own for transforms, scene and logs); the ROS 2
// variant decoded with @foxglove/rosmsg2-serialization. Input: the MALMM fixture trace with body poses added.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { McapIndexedReader } from '@mcap/core';
import { decompress as lz4Decompress } from 'lz4js';
import { parse } from '@foxglove/rosmsg';
import { MessageReader } from '@foxglove/rosmsg2-serialization';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { exportMcap } from '../../../../src/core/export/mcap/mcapExport.js';
import type { EventOf, TraceEvent } from '../../../../src/protocol/trace.js';
import { buildMalmmTrace } from '../../../fixtures/traces/malmmTrace.js';
import { withMotionMetrics } from '../../../fixtures/traces/withMotionMetrics.js';

/** The fixture with 7 pose numbers per scene body in every sample: the table stays, the red block follows the hand. */
function withBodies(events: readonly TraceEvent[]): TraceEvent[] {
  const scene = events.find((e): e is EventOf<'scene'> => e.type === 'scene')!;
  return events.map((e) => {
    if (e.type !== 'trajectory') return e;
    return { ...e, samples: e.samples.map((s) => ({ ...s, bodies: scene.bodies.flatMap((b, i) => (b === 'red block' ? [s.ee[0], s.ee[1], s.ee[2] - 0.05, 1, 0, 0, 0] : [0.1 * i, 0, 0.7, 1, 0, 0, 0])) })) };
  });
}

async function read(bytes: Uint8Array) {
  const reader = await McapIndexedReader.Initialize({
    decompressHandlers: { lz4: (buf: Uint8Array, size: bigint) => lz4Decompress(buf, Number(size)) },
    readable: { size: async () => BigInt(bytes.byteLength), read: async (offset: bigint, length: bigint) => bytes.subarray(Number(offset), Number(offset + length)) },
  });
  const messages: { topic: string; logTime: bigint; data: Uint8Array }[] = [];
  for await (const m of reader.readMessages()) messages.push({ topic: reader.channelsById.get(m.channelId)!.topic, logTime: m.logTime, data: m.data });
  return { reader, messages };
}

const events = withBodies(withMotionMetrics(buildMalmmTrace()));
const start = events.find((e): e is EventOf<'episode_start'> => e.type === 'episode_start')!;
const originNs = BigInt(Date.parse(start.startedAt)) * 1_000_000n;
const samples = events.flatMap((e) => (e.type === 'trajectory' ? e.samples : []));
const count = (t: TraceEvent['type']) => events.filter((e) => e.type === t).length;

test('MCAP (JSON): channels, Foxglove schemas, message counts and sim-time timestamps read back', async () => {
  const r = await exportMcap(events);
  const { reader, messages } = await read(r.bytes);
  const channels = new Map([...reader.channelsById.values()].map((c) => [c.topic, { enc: c.messageEncoding, schema: reader.schemasById.get(c.schemaId)! }]));
  assert.deepEqual([...channels.keys()].sort(), ['/api_calls', '/checks', '/code', '/metrics/motion', '/robot/state', '/role/coder', '/role/planner', '/role/supervisor', '/scene', '/tf', '/transcript']);
  assert.equal(channels.get('/tf')!.schema.name, 'foxglove.FrameTransforms');
  assert.equal(channels.get('/scene')!.schema.name, 'foxglove.SceneUpdate');
  assert.equal(channels.get('/transcript')!.schema.name, 'foxglove.Log');
  for (const c of channels.values()) {
    assert.equal(c.enc, 'json');
    assert.equal(c.schema.encoding, 'jsonschema');
  }
  const n = (topic: string) => messages.filter((m) => m.topic === topic).length;
  // Static bodies once, then one FrameTransforms per sample.
  assert.equal(n('/tf'), samples.length + 1);
  assert.equal(n('/robot/state'), samples.length);
  assert.equal(n('/scene'), 1);
  assert.equal(n('/transcript'), count('chat_message') + 1, 'the conversation plus the episode end');
  const roles = events.filter((e): e is EventOf<'model_response'> => e.type === 'model_response');
  for (const role of ['coder', 'planner', 'supervisor']) assert.equal(n(`/role/${role}`), roles.filter((e) => e.role === role).length);
  const calls = events.flatMap((e) => (e.type === 'code_execution' ? e.apiCalls : []));
  assert.equal(n('/api_calls'), calls.length);
  assert.equal(n('/metrics/motion'), calls.filter((c) => c.metrics).length);
  assert.equal(n('/checks'), count('check'));
  assert.equal(n('/code'), count('code_execution'));
  assert.equal(reader.statistics?.messageCount, BigInt(messages.length));
  assert.ok(reader.chunkIndexes.length > 0 && reader.chunkIndexes.every((c) => c.compression === 'lz4' && c.compressedSize < c.uncompressedSize), 'chunks are LZ4-compressed');
  // Timestamps: the episode start plus sim time; in order; each state sample at its own sample time.
  const state = messages.filter((m) => m.topic === '/robot/state');
  assert.deepEqual(state.map((m) => m.logTime), samples.map((s) => originNs + BigInt(Math.round(s.tSecs * 1e9))));
  for (let i = 1; i < messages.length; i++) assert.ok(messages[i]!.logTime >= messages[i - 1]!.logTime, 'messages are written in time order');
  assert.equal(r.startNs, originNs, 'the first message is at the episode start');
  // Every message matches its channel's schema (Foxglove's JSON Schemas and ours).
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const validators = new Map<string, ReturnType<typeof ajv.compile>>();
  for (const [topic, c] of channels) validators.set(topic, ajv.compile(JSON.parse(new TextDecoder().decode(c.schema.data))));
  for (const m of messages) {
    const v = validators.get(m.topic)!;
    const msg = JSON.parse(new TextDecoder().decode(m.data));
    assert.ok(v(msg), `${m.topic}: ${JSON.stringify(v.errors?.[0])}`);
  }
  // Content: the held block's frame follows the hand; static frames are not repeated.
  const tf = messages.filter((m) => m.topic === '/tf').map((m) => JSON.parse(new TextDecoder().decode(m.data)) as { transforms: { child_frame_id: string; translation: { x: number; z: number } }[] });
  assert.deepEqual(tf[0]!.transforms.map((t) => t.child_frame_id).sort(), ['blue_block', 'table', 'yellow_container']);
  const last = tf[tf.length - 1]!.transforms;
  assert.deepEqual(last.map((t) => t.child_frame_id), ['red_block']);
  assert.equal(last[0]!.translation.x, samples[samples.length - 1]!.ee[0]);
  const scene = JSON.parse(new TextDecoder().decode(messages.find((m) => m.topic === '/scene')!.data)) as { entities: { frame_id: string; cubes: { size: { x: number } }[] }[] };
  const sceneEvent = events.find((e): e is EventOf<'scene'> => e.type === 'scene')!;
  const tableBox = sceneEvent.geoms.find((g) => g.body === 'table')!;
  assert.equal(scene.entities.find((e) => e.frame_id === 'table')!.cubes[0]!.size.x, 2 * tableBox.size[0]!, 'MuJoCo half extents become full sizes');
  const meta = [];
  for await (const md of reader.readMetadata({ name: 'waypoint.run' })) meta.push(md);
  assert.equal(meta[0]?.metadata.get('runId'), start.runId);
  assert.match(meta[0]?.metadata.get('result') ?? '', /^success/);
});

test('MCAP (ROS 2): transforms are CDR tf2_msgs/msg/TFMessage on /tf and /tf_static, decodable with the schema in the file', async () => {
  const r = await exportMcap(events, { ros2Transforms: true });
  const { reader, messages } = await read(r.bytes);
  assert.equal(reader.header.profile, 'ros2');
  const tf = [...reader.channelsById.values()].filter((c) => c.topic.startsWith('/tf'));
  assert.deepEqual(tf.map((c) => c.topic).sort(), ['/tf', '/tf_static']);
  const schema = reader.schemasById.get(tf[0]!.schemaId)!;
  assert.equal(schema.name, 'tf2_msgs/msg/TFMessage');
  assert.equal(schema.encoding, 'ros2msg');
  assert.equal(tf[0]!.messageEncoding, 'cdr');
  const decoder = new MessageReader(parse(new TextDecoder().decode(schema.data), { ros2: true }));
  const dyn = messages.filter((m) => m.topic === '/tf');
  assert.equal(dyn.length, samples.length);
  const msg = decoder.readMessage<{ transforms: { header: { stamp: { sec: number; nanosec: number }; frame_id: string }; child_frame_id: string; transform: { translation: { x: number }; rotation: { w: number } } }[] }>(dyn[3]!.data);
  const s = samples[3]!;
  assert.equal(msg.transforms[0]!.child_frame_id, 'red_block');
  assert.equal(msg.transforms[0]!.header.frame_id, 'world');
  assert.equal(msg.transforms[0]!.transform.translation.x, s.ee[0]);
  assert.equal(msg.transforms[0]!.transform.rotation.w, 1);
  const ns = originNs + BigInt(Math.round(s.tSecs * 1e9));
  assert.equal(BigInt(msg.transforms[0]!.header.stamp.sec) * 1_000_000_000n + BigInt(msg.transforms[0]!.header.stamp.nanosec), ns, 'header stamp = message log time');
  assert.equal(dyn[3]!.logTime, ns);
  assert.equal(messages.filter((m) => m.topic === '/tf_static').length, 1);
});

test('MCAP: a trace without body poses gets an end-effector frame; event types it does not know are skipped, not fatal', async () => {
  const plain = withMotionMetrics(buildMalmmTrace());
  const future = { seq: 9999, tMs: 1, type: 'hologram', turn: 3 } as unknown as TraceEvent;
  const r = await exportMcap([...plain, future]);
  assert.equal(r.skippedEvents, 1);
  const { messages } = await read(r.bytes);
  const tf = messages.filter((m) => m.topic === '/tf').map((m) => JSON.parse(new TextDecoder().decode(m.data)) as { transforms: { child_frame_id: string }[] });
  assert.equal(tf.length, samples.length);
  assert.ok(tf.every((t) => t.transforms.length === 1 && t.transforms[0]!.child_frame_id === 'end_effector'));
});

test("MCAP: schema v2 events: each agent's part of a structured action on /actions (metrics on /metrics/motion), snapshots on /engine, api_call not repeated", async () => {
  const metrics = { action: 'PICK', startSecs: 0.5, durationSecs: 1, samples: 50, mI: 0.3, mE: 0.5, mT: 0.8, pathLengthM: 0.4, peakJerkMps3: 2, minClearanceM: 0.1, closestPair: null, collisionCount: 0, maxHeldTiltRad: null };
  const extra = [
    { seq: 1000, tMs: 900, type: 'api_call', turn: 6, role: 'coder', index: 0, fn: 'execute_trajectory', args: [[0.3, 0.1, 0.9], 0] },
    { seq: 1001, tMs: 901, type: 'action', turn: 9, actionId: 'a1', joint: true, actions: [{ agent: 'Alice', name: 'PICK', args: ['red block'] }, { agent: 'Bob', name: 'WAIT', args: [] }] },
    { seq: 1002, tMs: 950, type: 'action_result', turn: 9, actionId: 'a1', durationMs: 40, results: [{ agent: 'Alice', name: 'PICK', ok: true, metrics }, { agent: 'Bob', name: 'WAIT', ok: false, error: 'Bob cannot wait here' }] },
    { seq: 1003, tMs: 960, type: 'snapshot', turn: 9, id: 's1', label: 'before turn 10', simTimeSecs: 1.5 },
  ] as unknown as TraceEvent[];
  const r = await exportMcap([...events, ...extra]);
  assert.equal(r.skippedEvents, 0);
  const { messages } = await read(r.bytes);
  const dec = (topic: string) => messages.filter((m) => m.topic === topic).map((m) => JSON.parse(new TextDecoder().decode(m.data)) as Record<string, unknown>);
  const acts = dec('/actions');
  assert.deepEqual(acts.map((a) => [a.fn, a.args_json, a.ok, a.error]), [['Alice: PICK', '["red block"]', true, ''], ['Bob: WAIT', '[]', false, 'Bob cannot wait here']]);
  assert.ok(dec('/metrics/motion').some((m) => m.action === 'Alice: PICK' && m.m_t === 0.8));
  assert.match(String(dec('/engine')[0]?.message), /snapshot s1 \(before turn 10\) at sim t=1.5 s/);
  const calls = events.flatMap((e) => (e.type === 'code_execution' ? e.apiCalls : []));
  assert.equal(dec('/api_calls').length, calls.length, 'the api_call event is not a second copy of the call');
});
