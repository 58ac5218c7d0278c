// Live runs through the product path: the run child (src/extension/main.ts with the worker flag, under tsx),
// launchRun with MuJoCo, Pyodide and the reference model, events streamed back over IPC.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { FLAWED_DEMO } from '../../../../src/cli/demo.js';
import { readTrace } from '../../../../src/core/trace/reader.js';
import type { ModelClient } from '../../../../src/core/llm/client.js';
import { LiveRun, type LiveRunOptions } from '../../../../src/extension/live/liveRun.js';
import { RunProcesses } from '../../../../src/extension/live/runProcess.js';
import { startModelProxy } from '../../../../src/extension/lm/modelProxy.js';
import type { TraceEvent } from '../../../../src/protocol/trace.js';

const ws = mkdtempSync(join(tmpdir(), 'waypoint-live-'));
after(() => rmSync(ws, { recursive: true, force: true }));
const base = (o: Partial<LiveRunOptions['launch']> = {}): LiveRunOptions => ({
  modulePath: join(process.cwd(), 'src/extension/live/workerEntry.ts'),
  execArgv: ['--import', 'tsx'],
  launch: { workspace: ws, arch: 'malmm', task: 'stack_blocks', seed: 0, builtInPromptRoot: join(process.cwd(), 'src', 'architectures'), model: { kind: 'reference' }, options: {}, cache: false, ...o },
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

test('provider reference-flawed: the run child serves the seeded-mistake profile, labelled as such', async () => {
  // The flawed demo's episode (stack_blocks seed 4 in MALMM's paper default): the Coder reuses a name from an earlier
  // block, the Executor reports a NameError, and a later block fixes it (docs/reference-model.md).
  const run = LiveRun.start(base({ task: FLAWED_DEMO.task, seed: FLAWED_DEMO.seed, model: { kind: 'reference', profile: FLAWED_DEMO.model } }));
  const result = await run.done;
  const { events } = readTrace(readFileSync(result.tracePath!, 'utf8'));
  const start = events[0];
  assert.equal(start?.type, 'episode_start');
  if (start?.type === 'episode_start') assert.match(start.model.label, /reference-flawed \(scripted, not an LLM/);
  const errors = events.filter((e) => e.type === 'code_execution' && !e.ok);
  assert.ok(errors.some((e) => e.type === 'code_execution' && e.error?.type === 'NameError'), `a NameError among ${errors.length} failed blocks`);
  assert.equal(result.reason, 'task_completed');
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

test('ablations in the launch (a sweep cell run from the Testing view) are laid over the variant', async () => {
  const run = LiveRun.start({ ...base({ variant: 'ma', ablations: { 'coder.step_by_step': false } }), cancelGraceMs: 700 });
  run.onEvents((events) => {
    if (events.some((e) => e.type === 'episode_start')) run.cancel();
  });
  const result = await run.done;
  const start = readTrace(readFileSync(result.tracePath!, 'utf8')).events[0];
  assert.equal(start?.type, 'episode_start');
  if (start?.type === 'episode_start') {
    assert.equal(start.variant, 'ma');
    assert.equal(start.ablations['coder.step_by_step'], false);
  }
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

test('warm start: a run arriving while the process loads takes it; later runs are warm; each run is complete', async () => {
  const processes = new RunProcesses({ modulePath: base().modulePath, execArgv: base().execArgv, keepWarm: () => true });
  try {
    // Loading (and possibly its warm-up episode) is under way when the first run arrives: that run takes the
    // process, the warm-up episode gives way, and the run is complete.
    const warming = processes.prewarm({ kind: 'embedded' }, 'stack_blocks', { arch: 'malmm', builtInPromptRoot: join(process.cwd(), 'src', 'architectures') });
    for (const seed of [0, 1]) {
      const run = LiveRun.start({ ...base({ seed }), processes });
      if (seed > 0) assert.equal(run.warm, true, `run ${seed} went to the warm process`);
      assert.equal(processes.hasWarm, false, 'the process is busy with the run');
      const result = await run.done;
      assert.equal(result.reason, 'task_completed', `${result.reason}: ${result.message}`);
      const onDisk = readTrace(readFileSync(result.tracePath!, 'utf8')).events;
      assert.deepEqual(run.events.map((e) => e.seq), onDisk.map((e) => e.seq), 'every event once, in order');
      assert.equal(onDisk[0]?.type === 'episode_start' && onDisk[0].seed, seed, 'the run\'s own trace, not the warm-up\'s');
      assert.ok(processes.hasWarm, 'back to warm after the run');
    }
    assert.equal((await warming).error, undefined);
    // A cancelled run that is killed takes its process with it; the next run starts a new one.
    const run = LiveRun.start({ ...base(), processes, cancelGraceMs: 1 });
    run.onEvents((events) => {
      if (events.some((e) => e.type === 'role_call')) run.cancel();
    });
    const cancelled = await run.done;
    assert.equal(cancelled.reason, 'cancelled');
    if (cancelled.killed) assert.equal(processes.hasWarm, false, 'a killed process is not kept');
  } finally {
    processes.dispose();
  }
});

test('a person in a robot\'s seat: the run child asks the host for that robot\'s turns; the others stay model-driven; the trace marks the human turns', async () => {
  // RoCo on handover: Alice is the reference model, Bob's seat is the person's (answered here as the extension's
  // input box would). Bob speaks second, so he sees Alice's message, and closes the dialog with the plan.
  const asked: { agent: string; round?: number; view: string }[] = [];
  const plan = 'I am Bob, typed by a person. We both wait.\nEXECUTE\nNAME Alice ACTION WAIT\nNAME Bob ACTION WAIT';
  const run = LiveRun.start({
    ...base({ arch: 'roco', task: 'handover', human: ['Bob'], limits: { maxRounds: 1 } }),
    askHuman: async (turn) => {
      asked.push(turn);
      return plan;
    },
  });
  const result = await run.done;
  assert.equal(result.reason, 'round_cap', `${result.reason}: ${result.message}`);
  assert.equal(asked.length, 1);
  assert.equal(asked[0]!.agent, 'Bob');
  assert.equal(asked[0]!.round, 1);
  assert.match(asked[0]!.view, /You are in Bob's seat/);
  assert.match(asked[0]!.view, /\[Current Chat\]\n\[Alice\]:\nI am Alice/, 'the person sees what the model in Alice\'s seat said');
  const { events } = readTrace(readFileSync(result.tracePath!, 'utf8'));
  const start = events[0];
  assert.deepEqual(start?.type === 'episode_start' ? start.humans : undefined, ['Bob']);
  const calls = events.filter((e) => e.type === 'role_call');
  assert.deepEqual(calls.map((c) => [c.type === 'role_call' && c.agent, c.type === 'role_call' && c.human === true]), [['Alice', false], ['Bob', true]]);
  const answers = events.filter((e) => e.type === 'model_response');
  assert.equal(answers.length, 2);
  const bob = answers[1]!;
  assert.ok(bob.type === 'model_response' && bob.human === true && bob.ok && bob.text === plan);
  const acted = events.find((e) => e.type === 'action' && e.joint);
  assert.deepEqual(acted?.type === 'action' ? acted.actions.map((a) => [a.agent, a.name]) : [], [['Alice', 'WAIT'], ['Bob', 'WAIT']]);
  const end = events.at(-1);
  assert.equal(end?.type === 'episode_end' && end.archMetrics?.['humanTurns'], 1);
});

