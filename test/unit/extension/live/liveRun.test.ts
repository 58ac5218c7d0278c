// Live runs through the product path: the run child (src/extension/main.ts with the worker flag, under tsx),
// launchRun with MuJoCo, Pyodide and the reference model, events streamed back over IPC.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { readTrace } from '../../../../src/core/trace/reader.js';
import type { ModelClient } from '../../../../src/core/llm/client.js';
import { LiveRun, type LiveRunOptions } from '../../../../src/extension/live/liveRun.js';
import { startModelProxy } from '../../../../src/extension/lm/modelProxy.js';
import type { TraceEvent } from '../../../../src/protocol/trace.js';

const ws = mkdtempSync(join(tmpdir(), 'waypoint-live-'));
after(() => rmSync(ws, { recursive: true, force: true }));
const base = (o: Partial<LiveRunOptions['launch']> = {}): LiveRunOptions => ({
  modulePath: join(process.cwd(), 'src/extension/live/workerEntry.ts'),
  execArgv: ['--import', 'tsx'],
  launch: { workspace: ws, arch: 'malmm', task: 'stack_blocks', seed: 0, builtInPromptRoot: join(process.cwd(), 'prompts'), model: { kind: 'reference' }, options: {}, cache: false, ...o },
  simulator: { kind: 'embedded' },
});

test('a run streams every trace event, in order, and reports the trace end', async () => {
  const run = LiveRun.start(base());
  const streamed: TraceEvent[] = [];
  let started: string | undefined;
  run.onStarted((s) => (started = s.tracePath));
  run.onEvents((events) => streamed.push(...events));
  const result = await run.done;
  assert.ok(started && result.tracePath === started);
  const onDisk = readTrace(readFileSync(started, 'utf8'));
  assert.deepEqual(onDisk.warnings, []);
  assert.deepEqual(streamed.map((e) => e.seq), onDisk.events.map((e) => e.seq), 'every event once, in order');
  const end = onDisk.events.at(-1);
  assert.equal(end?.type, 'episode_end');
  assert.equal(result.reason, end?.type === 'episode_end' ? end.reason : undefined);
  assert.equal(result.killed, false);
});

test('cancel ends the run and the trace with episode_end cancelled', async () => {
  const run = LiveRun.start({ ...base(), cancelGraceMs: 700 });
  run.onEvents((events) => {
    if (events.some((e) => e.type === 'role_call' && e.turn >= 2)) run.cancel();
  });
  const result = await run.done;
  assert.equal(result.reason, 'cancelled');
  const { events, warnings } = readTrace(readFileSync(result.tracePath!, 'utf8'));
  const end = events.at(-1);
  assert.equal(end?.type === 'episode_end' && end.reason, 'cancelled');
  assert.ok(warnings.every((w) => w.kind === 'corrupt_line'), 'at most a line cut by the kill');
  assert.equal(run.events.at(-1)?.seq, end?.seq, 'the host saw the end event too');
});

test('an API key handed to a run never reaches the trace', async () => {
  // A model that answers nonsense: the run ends quickly on format errors, after real calls with the key.
  const nonsense: ModelClient = { id: 'nonsense', complete: async () => ({ ok: true, text: 'no idea', latencyMs: 1, cached: false, attempts: 1 }) };
  const proxy = await startModelProxy(nonsense);
  try {
    const run = LiveRun.start(base({ model: { kind: 'openai', model: 'scripted', baseUrl: proxy.baseUrl, apiKey: proxy.token }, options: {}, limits: { maxTurns: 6, maxConsecutiveErrors: 2 } }));
    const result = await run.done;
    const text = readFileSync(result.tracePath!, 'utf8');
    assert.ok(readTrace(text).events.some((e) => e.type === 'model_response'), 'the model was called');
    assert.ok(!text.includes(proxy.token), 'the key is not in the trace');
  } finally {
    await proxy.close();
  }
});
