// A LLaMAR run (the symbolic household: no trajectory samples) exported to MCAP and to an Inspect log. MCAP read
// back with @mcap/core: the step clock spreads the run over steps x HOUSEHOLD_STEP_SECS, each agent is a frame
// posed at every step's end (and along the cells it walked), drawn in /scene, and /transcript holds every role's
// prompt and answer and every action with its result. Inspect: the sample's messages are the role calls and its
// output the last answer. Input: a run made here with the reference-flawed policy (two robots, kitchen).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { McapIndexedReader } from '@mcap/core';
import { decompress as lz4Decompress } from 'lz4js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { exportMcap } from '../../../../src/core/export/mcap/mcapExport.js';
import { toInspectLog } from '../../../../src/core/export/inspect/inspectLog.js';
import { HOUSEHOLD_STEP_SECS, householdOf } from '../../../../src/protocol/household.js';
import type { EventOf, TraceEvent } from '../../../../src/protocol/trace.js';
import { policyClient, runLlamar } from '../../architectures/llamar/helpers.js';

let events: TraceEvent[];
let steps: number;

before(async () => {
  const run = await runLlamar({ task: 'open_all_drawers', agents: 2, seed: 0, model: policyClient('reference-flawed') });
  events = run.events;
  steps = run.result.end.metrics.steps!;
});

async function read(bytes: Uint8Array) {
  const reader = await McapIndexedReader.Initialize({
    decompressHandlers: { lz4: (buf: Uint8Array, size: bigint) => lz4Decompress(buf, Number(size)) },
    readable: { size: async () => BigInt(bytes.byteLength), read: async (offset: bigint, length: bigint) => bytes.subarray(Number(offset), Number(offset + length)) },
  });
  const messages: { topic: string; logTime: bigint; msg: Record<string, unknown> }[] = [];
  for await (const m of reader.readMessages()) messages.push({ topic: reader.channelsById.get(m.channelId)!.topic, logTime: m.logTime, msg: JSON.parse(new TextDecoder().decode(m.data)) as Record<string, unknown> });
  return { reader, messages };
}

type Tf = { transforms: { child_frame_id: string; translation: { x: number; y: number; z: number }; rotation: { z: number; w: number } }[] };

test('MCAP of a LLaMAR run: the step clock, a frame per agent at every step, the agents in /scene, valid messages', async () => {
  assert.ok(steps >= 3, `a run of several steps (${steps})`);
  const start = events.find((e): e is EventOf<'episode_start'> => e.type === 'episode_start')!;
  const origin = BigInt(Date.parse(start.startedAt)) * 1_000_000n;
  const r = await exportMcap(events);
  const { reader, messages } = await read(r.bytes);
  assert.equal(r.startNs, origin);
  assert.equal(r.endNs - r.startNs, BigInt(steps * HOUSEHOLD_STEP_SECS * 1e9), 'the run spans its steps on the step clock');
  for (let i = 1; i < messages.length; i++) assert.ok(messages[i]!.logTime >= messages[i - 1]!.logTime);
  // Each step's actions sit at the step's start: step k's results at (k - 1) s.
  const acts = messages.filter((m) => m.topic === '/actions');
  const results = events.filter((e): e is EventOf<'action_result'> => e.type === 'action_result');
  assert.deepEqual(acts.map((m) => m.logTime), results.flatMap((e) => e.results.map(() => origin + BigInt((e.step! - 1) * HOUSEHOLD_STEP_SECS * 1e9))));

  // Every agent's frame at every step's end, where the whole-scene observation of that step puts it.
  const tf = messages.filter((m) => m.topic === '/tf');
  const scenes = events.filter((e): e is EventOf<'observation'> => e.type === 'observation' && !e.agent && householdOf(e.state.extra) !== undefined);
  for (const obs of scenes) {
    const step = householdOf(obs.state.extra)!.step;
    const at = origin + BigInt(step * HOUSEHOLD_STEP_SECS * 1e9);
    for (const robot of obs.state.robots!) {
      const hit = tf.filter((m) => m.logTime === at).flatMap((m) => (m.msg as Tf).transforms).find((t) => t.child_frame_id === robot.name);
      assert.ok(hit, `${robot.name}'s frame at step ${step}`);
      assert.deepEqual([hit.translation.x, hit.translation.y, hit.translation.z], [robot.pos[0], robot.pos[1], 0]);
      assert.ok(Math.abs(Math.atan2(hit.rotation.z, hit.rotation.w) * 2 - robot.yawRad) < 1e-9 || Math.abs(Math.abs(Math.atan2(hit.rotation.z, hit.rotation.w) * 2 - robot.yawRad) - 2 * Math.PI) < 1e-9, 'heading as yaw');
    }
  }
  // A walk: the walked cells between the step's start and end, one cell (0.25 m) apart.
  const walk = scenes.find((o) => Object.values(householdOf(o.state.extra)!.paths ?? {}).some((p) => p.length > 2))!;
  const walkStep = householdOf(walk.state.extra)!.step;
  const [who, path] = Object.entries(householdOf(walk.state.extra)!.paths!).find(([, p]) => p.length > 2)!;
  const inside = tf.filter((m) => m.logTime > origin + BigInt((walkStep - 1) * 1e9) && m.logTime < origin + BigInt(walkStep * 1e9)).flatMap((m) => (m.msg as Tf).transforms).filter((t) => t.child_frame_id === who);
  assert.equal(inside.length, path.length - 2, 'each walked cell between the start and the end');
  for (let i = 1; i < inside.length; i++) assert.ok(Math.abs(Math.hypot(inside[i]!.translation.x - inside[i - 1]!.translation.x, inside[i]!.translation.y - inside[i - 1]!.translation.y) - 0.25) < 1e-9);

  // Walls and furniture get static frames (their geometry is in world coordinates); each agent an entity.
  const scene = messages.find((m) => m.topic === '/scene')!.msg as { entities: { frame_id: string; id: string; texts: { text: string }[] }[] };
  const framed = new Set(tf.flatMap((m) => (m.msg as Tf).transforms.map((t) => t.child_frame_id)));
  for (const e of scene.entities) assert.ok(framed.has(e.frame_id), `${e.id} is drawn in a frame that /tf publishes`);
  assert.deepEqual(scene.entities.filter((e) => e.id.startsWith('agent/')).map((e) => e.texts[0]!.text), ['Alice', 'Bob']);

  const ajv = new Ajv2020({ strict: false, allErrors: true });
  for (const c of reader.channelsById.values()) {
    const v = ajv.compile(JSON.parse(new TextDecoder().decode(reader.schemasById.get(c.schemaId)!.data)));
    for (const m of messages.filter((x) => x.topic === c.topic)) assert.ok(v(m.msg), `${c.topic}: ${JSON.stringify(v.errors?.[0])}`);
  }
  const meta = [];
  for await (const md of reader.readMetadata({ name: 'waypoint.run' })) meta.push(md);
  assert.match(meta[0]!.metadata.get('time')!, /step clock, 1 s per high-level step/);
});

test('MCAP of a LLaMAR run: /transcript holds every role prompt and answer and every action with its result', async () => {
  const { messages } = await read((await exportMcap(events)).bytes);
  const lines = messages.filter((m) => m.topic === '/transcript').map((m) => ({ name: m.msg.name as string, text: m.msg.message as string }));
  const calls = events.filter((e): e is EventOf<'role_call'> => e.type === 'role_call');
  const answers = events.filter((e): e is EventOf<'model_response'> => e.type === 'model_response');
  assert.ok(calls.length > 10);
  for (const c of calls) {
    const prompt = [...c.messages].reverse().find((m) => m.role === 'user')!.content;
    assert.ok(lines.some((l) => l.name === c.role && l.text === `prompt (turn ${c.turn}):\n${prompt}`), `the ${c.role}'s prompt of turn ${c.turn}`);
  }
  for (const a of answers) assert.ok(lines.some((l) => l.name === a.role && l.text === `answer (turn ${a.turn}):\n${a.text}`), `the ${a.role}'s answer of turn ${a.turn}`);
  const results = events.flatMap((e) => (e.type === 'action_result' ? e.results : []));
  for (const r of results) assert.ok(lines.some((l) => l.name === r.agent && l.text.startsWith(`${r.name}(`) && l.text.includes(r.ok ? `✓ ${r.output}` : '✗')), `${r.agent}'s ${r.name}`);
  assert.equal(lines.length, calls.length + answers.length + results.length + 1, 'plus the episode end');
});

test('Inspect log of a LLaMAR run: the role calls are the sample messages, the output is the last answer', () => {
  const log = toInspectLog([{ events }], { waypointVersion: '0.1.0' }) as { samples: { messages: { role: string; content: string }[]; output: { completion: string; choices: unknown[] }; events: { event: string; input?: unknown[] }[] }[] };
  const s = log.samples[0]!;
  const calls = events.filter((e): e is EventOf<'role_call'> => e.type === 'role_call');
  const answers = events.filter((e): e is EventOf<'model_response'> => e.type === 'model_response' && e.ok);
  const user = s.messages.filter((m) => m.role === 'user').map((m) => m.content);
  for (const c of calls) assert.ok(user.includes([...c.messages].reverse().find((m) => m.role === 'user')!.content), `turn ${c.turn}'s prompt`);
  assert.deepEqual(s.messages.filter((m) => m.role === 'assistant').map((m) => m.content), answers.map((a) => a.text));
  assert.equal(s.output.completion, answers[answers.length - 1]!.text);
  assert.equal(s.output.choices.length, 1);
  // The model events keep the full input; the actions are tool events.
  assert.equal(s.events.filter((e) => e.event === 'model' && (e.input?.length ?? 0) >= 2).length, answers.length);
  assert.equal(s.events.filter((e) => e.event === 'tool').length, events.flatMap((e) => (e.type === 'action_result' ? e.results : [])).length);
  // And the log is still a valid Inspect log.
  const fixtures = join(process.cwd(), 'test', 'fixtures', 'inspect');
  const schemaDoc = JSON.parse(readFileSync(join(fixtures, 'inspect-openapi.json'), 'utf8')) as { components: unknown };
  const validate = new Ajv2020({ strict: false, allErrors: true, validateFormats: false }).compile({ $ref: '#/components/schemas/EvalLog', components: schemaDoc.components });
  assert.ok(validate(log), JSON.stringify(validate.errors?.slice(0, 3)));
});
