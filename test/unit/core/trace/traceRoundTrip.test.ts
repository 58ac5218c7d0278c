import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TRACE_SCHEMA_VERSION, type PendingEvent } from '../../../../src/protocol/trace.js';
import { readTrace } from '../../../../src/core/trace/reader.js';
import { JsonlTraceWriter } from '../../../../src/core/trace/writer.js';
import { MemoryHost } from '../llm/helpers/memoryHost.js';

const clock = { t: 0, nowMs() { return (this.t += 5); }, isoNow: () => '2026-11-21T00:00:00.000Z' };

const start: PendingEvent = {
  type: 'episode_start', schemaVersion: TRACE_SCHEMA_VERSION, runId: 'r1', arch: 'malmm', agentVariant: 'malmm', task: 'stack_blocks',
  taskDescription: 'Stack', seed: 3, variant: 'default', ablations: { 'coder.step_by_step': false },
  model: { provider: 'reference', model: 'reference', label: 'reference (scripted, not an LLM)' }, prompts: [{ role: 'coder', path: 'p/coder.prompt', sha256: 'ab' }],
  simulator: { name: 'tabletop' }, options: { maxTurns: 10, maxConsecutiveErrors: 5, persistNamespace: false, codeTimeoutSecs: 10 }, startedAt: '2026-11-21T00:00:00.000Z',
};
const chat: PendingEvent = { type: 'chat_message', turn: 1, speaker: 'Planner', content: 'Step 1: go' };
const code: PendingEvent = {
  type: 'code_execution', turn: 2, role: 'coder', language: 'python', code: 'x = 1\n', ok: false, exitCode: 1, stdout: '',
  error: { type: 'NameError', message: "name 'y' is not defined", line: 2 }, durationMs: 3, apiCalls: [{ fn: 'open_gripper', args: [], ok: true }], namespacePersisted: false,
};

test('trace round trip: events written as JSONL read back identical, with seq and time stamped', async () => {
  const io = new MemoryHost();
  const w = new JsonlTraceWriter(io, '/ws/t.jsonl', clock);
  const written = [await w.write(start), await w.write(chat), await w.write(code)];
  const text = io.files.get('/ws/t.jsonl')!;
  assert.equal(text.split('\n').length, 4, 'one line per event plus the final newline');
  const { events, warnings } = readTrace(text);
  assert.deepEqual(warnings, []);
  assert.deepEqual(events, written);
  assert.deepEqual(events.map((e) => e.seq), [0, 1, 2]);
  assert.ok(events[2].tMs > events[0].tMs);
});

test('writer refuses an event that does not match the schema (nothing half-valid reaches the file)', async () => {
  const io = new MemoryHost();
  const w = new JsonlTraceWriter(io, '/t.jsonl', clock);
  await assert.rejects(() => w.write({ ...chat, turn: 'one' } as unknown as PendingEvent));
  assert.equal(io.files.get('/t.jsonl'), undefined);
});

test('a truncated last line (process killed mid-write) is a warning; every earlier event is read', async () => {
  const io = new MemoryHost();
  const w = new JsonlTraceWriter(io, '/t.jsonl', clock);
  await w.write(start);
  await w.write(chat);
  const full = io.files.get('/t.jsonl')! + JSON.stringify({ ...code, seq: 2, tMs: 1 });
  const cut = full.slice(0, full.length - 17);
  const { events, warnings } = readTrace(cut);
  assert.equal(events.length, 2);
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0].kind, 'truncated_last_line');
  assert.equal(warnings[0].line, 3);
});

test('a corrupt middle line and an unknown event type are skipped with warnings naming their lines', () => {
  const good = (seq: number) => JSON.stringify({ ...chat, seq, tMs: seq });
  const text = [good(0), '{not json', JSON.stringify({ type: 'teleport', seq: 2, tMs: 2 }), JSON.stringify({ ...chat, seq: 3, tMs: 3, turn: 'x' }), good(4), ''].join('\n');
  const { events, warnings } = readTrace(text);
  assert.deepEqual(events.map((e) => e.seq), [0, 4]);
  assert.deepEqual(warnings.map((w) => [w.line, w.kind]), [[2, 'corrupt_line'], [3, 'unknown_event'], [4, 'invalid_event']]);
});

test('a newer schema version is read with a warning', () => {
  const text = JSON.stringify({ ...start, seq: 0, tMs: 0, schemaVersion: TRACE_SCHEMA_VERSION + 1 }) + '\n';
  const { events, warnings } = readTrace(text);
  assert.equal(events.length, 1);
  assert.equal(warnings[0].kind, 'newer_schema');
});
