// `waypoint scene` and `waypoint export` as a user runs them (dist/cli.mjs): one real episode (reference model,
// embedded MuJoCo), exported as MCAP, MCAP with ROS 2 transforms and an Inspect log, read back; and the bad inputs
// (unknown task, truncated trace, missing output folder, a sweep given to --mcap): one line, non-zero exit.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { McapIndexedReader } from '@mcap/core';
import { decompress as lz4Decompress } from 'lz4js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readTrace } from '../../../src/core/trace/reader.js';
import { freshCli } from '../../helpers/dist.js';

const cli = freshCli();
const fixtures = join(process.cwd(), 'test', 'fixtures');
const ws = mkdtempSync(join(tmpdir(), 'waypoint-export-'));
after(() => rmSync(ws, { recursive: true, force: true }));
const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { cwd: ws, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
let runId = '';

before(() => {
  const r = run('run', '--task', 'stack_blocks_2', '--seed', '1', '--model', 'reference');
  assert.equal(r.status, 0, r.stderr);
  runId = /runs\/([^/]+)\/trace\.jsonl$/m.exec(r.stdout)![1]!;
});

async function mcap(file: string) {
  const bytes = readFileSync(file);
  const reader = await McapIndexedReader.Initialize({ decompressHandlers: { lz4: (buf: Uint8Array, size: bigint) => lz4Decompress(buf, Number(size)) }, readable: { size: async () => BigInt(bytes.byteLength), read: async (o: bigint, l: bigint) => bytes.subarray(Number(o), Number(o + l)) } });
  const counts = new Map<string, number>();
  const first = new Map<string, Uint8Array>();
  for await (const m of reader.readMessages()) {
    const topic = reader.channelsById.get(m.channelId)!.topic;
    counts.set(topic, (counts.get(topic) ?? 0) + 1);
    if (!first.has(topic)) first.set(topic, m.data);
  }
  return { reader, counts, first };
}

test('export --mcap of a real run: every body of the arm and the blocks has a frame, one /tf message per sample', async () => {
  const r = run('export', runId, '--mcap', 'run.mcap');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^export: .*run\.mcap \(MCAP, [\d.]+ s of sim time: .*\/tf \d+/);
  const { events } = readTrace(readFileSync(join(ws, '.waypoint', 'runs', runId, 'trace.jsonl'), 'utf8'));
  const samples = events.flatMap((e) => (e.type === 'trajectory' ? e.samples : []));
  const { counts, first } = await mcap(join(ws, 'run.mcap'));
  assert.equal(counts.get('/tf'), samples.length + 1, 'static frames once, then each sample');
  assert.equal(counts.get('/robot/state'), samples.length);
  assert.equal(counts.get('/role/coder'), events.filter((e) => e.type === 'model_response' && e.role === 'coder').length);
  const scene = JSON.parse(new TextDecoder().decode(first.get('/scene'))) as { entities: { frame_id: string }[] };
  const frames = new Set(scene.entities.map((e) => e.frame_id));
  for (const f of ['world', 'table', 'hand', 'left_finger', 'red_block_1', 'blue_block_1', 'target_area']) assert.ok(frames.has(f), `scene entity for ${f}: ${[...frames]}`);
  const staticTf = JSON.parse(new TextDecoder().decode(first.get('/tf'))) as { transforms: { child_frame_id: string }[] };
  assert.ok(staticTf.transforms.some((t) => t.child_frame_id === 'table'));
});

test('export --mcap --ros2: ROS 2 transforms for Rerun; --inspect: a valid Inspect eval log', async () => {
  const r = run('export', runId, '--mcap', 'ros.mcap', '--ros2');
  assert.equal(r.status, 0, r.stderr);
  const { reader, counts } = await mcap(join(ws, 'ros.mcap'));
  const tf = [...reader.channelsById.values()].find((c) => c.topic === '/tf')!;
  assert.equal(reader.schemasById.get(tf.schemaId)!.name, 'tf2_msgs/msg/TFMessage');
  assert.equal(counts.get('/tf_static'), 1);
  const i = run('export', runId, '--inspect', 'run.json');
  assert.equal(i.status, 0, i.stderr);
  const doc = JSON.parse(readFileSync(join(fixtures, 'inspect', 'inspect-openapi.json'), 'utf8')) as { components: unknown };
  const validate = new Ajv2020({ strict: false, validateFormats: false }).compile({ $ref: '#/components/schemas/EvalLog', components: doc.components });
  const log = JSON.parse(readFileSync(join(ws, 'run.json'), 'utf8')) as { samples: { scores: { success: { value: string } } }[] };
  assert.ok(validate(log), JSON.stringify(validate.errors?.[0]));
  assert.equal(log.samples[0]!.scores.success.value, 'C');
});

test('scene --mjcf writes a file MuJoCo loads (keyframe 0 = reset state)', () => {
  const r = run('scene', 'stack_blocks', '--seed', '2', '--mjcf', 'scene.xml');
  assert.equal(r.status, 0, r.stderr);
  const xml = readFileSync(join(ws, 'scene.xml'), 'utf8');
  assert.match(xml, /<key name="reset" time="0"\s+qpos="/);
  assert.match(xml, /task stack_blocks, seed 2/);
  const toStdout = run('scene', 'stack_blocks', '--seed', '2');
  assert.equal(toStdout.stdout, xml, 'without --mjcf the same XML goes to stdout');
});

test('bad input: one line naming the cause, exit 2', () => {
  const oneLine = (r: ReturnType<typeof run>, re: RegExp) => {
    assert.equal(r.status, 2, r.stdout + r.stderr);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, re);
  };
  oneLine(run('scene', 'juggle', '--mjcf', 'x.xml'), /^waypoint scene: unknown task 'juggle'; known tasks: stack_blocks, /);
  oneLine(run('scene', 'stack_blocks', '--mjcf', 'nowhere/x.xml'), /^waypoint scene: cannot write nowhere\/x\.xml: the folder .*nowhere does not exist$/);
  oneLine(run('export', runId, '--mcap', 'nowhere/x.mcap'), /^waypoint export: cannot write nowhere\/x\.mcap: the folder .*nowhere does not exist$/);
  oneLine(run('export', runId, '--inspect', 'nowhere/x.json'), /cannot write nowhere\/x\.json: the folder/);
  assert.ok(!existsSync(join(ws, 'nowhere')), 'no folder was created');
  oneLine(run('export', 'no-such-run', '--mcap', 'x.mcap'), /^waypoint export: no run or sweep 'no-such-run'/);
  // A truncated trace: exported as far as it was read, and the command says what is missing.
  const truncated = join(fixtures, 'traces', 'malmm-pick-place.truncated.jsonl');
  for (const flag of ['--mcap', '--inspect']) {
    const out = `cut.${flag === '--mcap' ? 'mcap' : 'json'}`;
    const r = run('export', truncated, flag, out);
    oneLine(r, /^waypoint export: exported what was read to cut\.\w+, but not everything: .*truncated\.jsonl: line \d+ is incomplete \(the run was probably interrupted while writing it\); \d+ events before it were read$/);
    assert.ok(readFileSync(join(ws, out)).byteLength > 1000, `${out} was written`);
  }
  // MCAP holds one run: a sweep is refused with the reason.
  mkdirSync(join(ws, 'sw'));
  writeFileSync(join(ws, 'sw', 'sweep.json'), '{}');
  oneLine(run('export', join(ws, 'sw'), '--mcap', 'sw.mcap'), /is a sweep; MCAP holds one run/);
  oneLine(run('export', join(ws, 'sw'), '--inspect', 'sw.json'), /is not a sweep file: /);
});
