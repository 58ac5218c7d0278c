// The debugger over the Debug Adapter Protocol, end to end: `waypoint debug-adapter` driven by DebugClient
// (@vscode/debugadapter-testsupport), with the real engine, the embedded MuJoCo simulator, the Pyodide sandbox
// and the reference model (a scripted policy, not an LLM) served over HTTP. One live session walks the
// acceptance list in order; a second replays that session's recording; a third covers bad launch input.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { endSession, evaluate, launchWith, ROOT, scopeVars, scratchWorkspace, startAdapter, stopped, topFrames, traceEvents, type Session } from './dapClient.js';
import type { TraceEvent } from '../../src/protocol/trace.js';

const ws = scratchWorkspace();
after(() => ws.dispose());

const coder = ws.prompt('coder');
const coderText = readFileSync(coder, 'utf8');
const lineOf = (needle: string) => coderText.split('\n').findIndex((l) => l.includes(needle)) + 1;
const CODE_RULES = lineOf('CODE GENERATION:');
/** A line of the {{else}} part of coder.step_by_step, which the default variant keeps on. */
const ELSE_LINE = lineOf('Write the code for all the steps of the plan in one block.');

const turnOf = async (s: Session, frameId?: number) => Number(await evaluate(s.dc, 'turn', frameId));
const ofType = <T extends TraceEvent['type']>(events: TraceEvent[], type: T) => events.filter((e) => e.type === type) as Extract<TraceEvent, { type: T }>[];

let parentTrace: string | undefined;

describe('live session: breakpoints, stepping, variables, evaluate, send, exceptions, Restart Frame, disconnect', () => {
  let s: Session;
  let status: () => Promise<{ runId: string; tracePath: string; modelCalls: number; replayedCalls: number; forks: number }>;
  before(async () => {
    s = await startAdapter(ws.dir);
    status = async () => (await s.dc.customRequest('waypoint/status')).body;
  });
  after(async () => {
    await endSession(s);
  });

  let bpResponse: DebugProtocol.SetBreakpointsResponse;
  let otherArch: DebugProtocol.SetBreakpointsResponse;
  let first: DebugProtocol.StoppedEvent;

  test('launch; a line breakpoint in the Coder prompt stops before the Coder’s first turn', async () => {
    first = await stopped(s.dc, () =>
      launchWith(s.dc, { architecture: 'malmm', task: 'stack_blocks', seed: 0, model: 'reference' }, async () => {
        bpResponse = await s.dc.setBreakpointsRequest({
          source: { path: coder },
          breakpoints: [{ line: CODE_RULES }, { line: CODE_RULES + 1, condition: 'turn >' }, { line: ELSE_LINE }, { line: CODE_RULES + 2, logMessage: 'Coder at turn {turn} sees {len(messages)} messages' }],
        });
        otherArch = await s.dc.setBreakpointsRequest({ source: { path: join(ws.dir, 'prompts', 'roco', 'alice.prompt') }, breakpoints: [{ line: 10 }] });
      }),
    );
    assert.equal(first.body.reason, 'breakpoint');
    const [top] = await topFrames(s.dc);
    assert.match(top!.name, /^Coder · turn \d+$/);
    assert.equal(top!.source?.path, coder);
    assert.equal(top!.line, CODE_RULES);
    assert.ok(s.output.some((o) => /^Coder at turn \d+ sees \d+ messages\n$/.test(o)), `the logpoint printed: ${s.output.join('')}`);
    const { tracePath } = await status();
    const events = traceEvents(tracePath);
    const coderCalls = ofType(events, 'role_call').filter((c) => c.role === 'coder');
    assert.equal(coderCalls.length, 1, 'stopped at the Coder’s first call');
    assert.equal(ofType(events, 'model_response').filter((r) => r.callId === coderCalls[0]!.callId).length, 0, 'before the model is called');
    parentTrace = tracePath;
  });

  test('bad input: a condition with a syntax error is reported once and never stops; other architectures’ prompts and unsent ablation text are unverified with a reason', async () => {
    const [plain, broken, elseLine] = bpResponse.body.breakpoints;
    assert.equal(plain!.verified, true);
    assert.equal(broken!.verified, false);
    assert.match(broken!.message ?? '', /syntax error at column 7/);
    assert.equal(elseLine!.verified, false);
    assert.match(elseLine!.message ?? '', /\{\{else\}\} part of ablation 'coder\.step_by_step'/);
    assert.equal(otherArch.body.breakpoints[0]!.verified, false);
    assert.match(otherArch.body.breakpoints[0]!.message ?? '', /architecture 'roco'.*debugs 'malmm'/);
    // Setting the same breakpoints again does not repeat the report.
    await s.dc.setBreakpointsRequest({ source: { path: coder }, breakpoints: [{ line: CODE_RULES }, { line: CODE_RULES + 1, condition: 'turn >' }] });
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(s.output.filter((o) => o.includes('`turn >`')).length, 1, s.output.join(''));
  });

  test('variables hold the observation and the messages; evaluate works in watch and console', async () => {
    const [top] = await topFrames(s.dc);
    const ctx = await scopeVars(s.dc, top!.id, 'Context');
    assert.match(ctx.observation ?? '', /Center Position/);
    const msgs = await scopeVars(s.dc, top!.id, 'Messages');
    assert.match(msgs['0 · system'] ?? '', /You are an AI that writes Python code/);
    assert.ok(Object.keys(msgs).length >= 3);
    const parsed = await scopeVars(s.dc, top!.id, 'Parsed output');
    assert.match(parsed.response ?? '', /not sent yet/);
    assert.equal(await evaluate(s.dc, 'role', top!.id), '"coder"');
    assert.equal(await evaluate(s.dc, 'len(messages) == ' + Object.keys(msgs).length, top!.id), 'true');
    assert.equal(await evaluate(s.dc, 'len(keys(state.objects)) >= 3', top!.id), 'true');
    const observe = await evaluate(s.dc, 'observe', top!.id, 'repl');
    assert.match(observe, /^observation of turn \d+:\n[\s\S]*Center Position/);
    const state = await evaluate(s.dc, 'state', top!.id, 'repl');
    assert.match(state, /^end effector \[[-\d.]+, [-\d.]+, [-\d.]+\] yaw [-\d.]+ · gripper (open|closed) · holding /);
    const unchanged = await evaluate(s.dc, 'render prompt', top!.id, 'repl');
    assert.match(unchanged, /^coder · turn \d+: the file renders exactly what this turn sent/);
    const err = await s.dc.evaluateRequest({ expression: 'state.objects.no_such_thing.z', context: 'watch', frameId: top!.id }).then(
      () => undefined,
      (e: Error) => e.message,
    );
    assert.match(err ?? '', /no field 'no_such_thing'/);
  });

  test('step over lands on the next role turn, step into on a robot call in the generated code, step out at the end of the block', async () => {
    const before = await turnOf(s);
    await stopped(s.dc, () => s.dc.nextRequest({ threadId: 1 }));
    let [top] = await topFrames(s.dc);
    assert.match(top!.name, /· turn \d+$/);
    const landed = await turnOf(s);
    assert.ok(landed > before);
    // The scopes follow the frame: the Messages are this turn's role call's, not the previous turn's.
    const turnCall = ofType(traceEvents((await status()).tracePath), 'role_call').find((c) => c.turn === landed)!;
    const shown = await scopeVars(s.dc, top!.id, 'Messages');
    // (A long value is shown up to 2000 characters, then an ellipsis.)
    const system = (JSON.parse(shown['0 · system']!) as string).replace(/…$/, '');
    assert.ok(system.length > 20 && turnCall.messages[0]!.content.startsWith(system), `the system message of ${turnCall.role} at turn ${landed}: ${system.slice(0, 80)}`);
    // Step into until a robot call (a turn without code steps to the next role turn).
    for (let k = 0; k < 6 && !top!.source?.sourceReference; k++) {
      await stopped(s.dc, () => s.dc.stepInRequest({ threadId: 1 }));
      [top] = await topFrames(s.dc);
    }
    assert.ok(top!.source?.sourceReference, `a robot call frame with generated code: ${top!.name}`);
    const fn = JSON.parse(await evaluate(s.dc, 'fn', top!.id)) as string;
    assert.ok(top!.name.startsWith(`${fn}(`));
    const code = (await s.dc.sourceRequest({ source: top!.source!, sourceReference: top!.source!.sourceReference! })).body.content;
    assert.equal(code.split('\n')[top!.line - 1]!.includes(fn), true, `line ${top!.line} of the block calls ${fn}`);
    const call = await scopeVars(s.dc, top!.id, 'Call');
    assert.match(call.result ?? '', /not run yet/);
    const arm = await scopeVars(s.dc, top!.id, 'Call', 'arm');
    assert.match(arm.before ?? '', /ee/, 'the arm before the call acts');
    assert.match(arm.after ?? '', /not run yet/);
    await stopped(s.dc, () => s.dc.stepOutRequest({ threadId: 1 }));
    [top] = await topFrames(s.dc);
    assert.match(top!.name, /^code block/);
    assert.equal(JSON.parse(await evaluate(s.dc, 'type', top!.id)), 'code_execution');
  });

  test('function breakpoints stop at a robot function (and name what they cannot find)', async () => {
    await s.dc.setBreakpointsRequest({ source: { path: coder }, breakpoints: [] });
    const r = await s.dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'close_gripper' }, { name: 'frobnicate' }] });
    assert.equal(r.body.breakpoints[0]!.verified, true);
    assert.equal(r.body.breakpoints[1]!.verified, false);
    assert.match(r.body.breakpoints[1]!.message ?? '', /no role or robot function 'frobnicate' in malmm/);
    const e = await stopped(s.dc, () => s.dc.continueRequest({ threadId: 1 }));
    assert.equal(e.body.reason, 'function breakpoint');
    const [top] = await topFrames(s.dc);
    assert.match(top!.name, /^close_gripper\(/);
    const call = await scopeVars(s.dc, top!.id, 'Call');
    assert.equal(call.function, '"close_gripper"');
    await s.dc.setFunctionBreakpointsRequest({ breakpoints: [] });
  });

  let conditionalTurn = 0;
  test('a conditional breakpoint stops on the first turn where its condition holds', async () => {
    const threshold = (await turnOf(s)) + 3;
    await s.dc.setBreakpointsRequest({ source: { path: coder }, breakpoints: [{ line: CODE_RULES, condition: `turn >= ${threshold}` }] });
    const e = await stopped(s.dc, () => s.dc.continueRequest({ threadId: 1 }));
    assert.equal(e.body.reason, 'breakpoint');
    conditionalTurn = await turnOf(s);
    assert.ok(conditionalTurn >= threshold);
    const events = traceEvents((await status()).tracePath);
    const earlier = ofType(events, 'role_call').filter((c) => c.role === 'coder' && c.turn >= threshold && c.turn < conditionalTurn);
    assert.deepEqual(earlier, [], 'no earlier Coder turn satisfied the condition');
  });

  test('Restart Frame without an edit: the fork restores the saved simulator state and runs exactly as the original', async () => {
    // Go on to the next Coder turn, note what it saw, come back, restart, and compare.
    await stopped(s.dc, () => s.dc.continueRequest({ threadId: 1 }));
    const laterTurn = await turnOf(s);
    const laterObservation = await evaluate(s.dc, 'observation');
    const laterEe = await evaluate(s.dc, 'state.ee.pos');
    const back = await stopped(s.dc, () => s.dc.reverseContinueRequest({ threadId: 1 }));
    assert.equal(back.body.reason, 'breakpoint');
    assert.equal(await turnOf(s), conditionalTurn);
    const frame = (await topFrames(s.dc)).find((f) => f.canRestart && f.name.startsWith('Coder'))!;
    const restarted = await stopped(s.dc, () => s.dc.restartFrameRequest({ frameId: frame.id }));
    assert.equal(restarted.body.reason, 'restart');
    assert.equal(await turnOf(s), conditionalTurn);
    const fork = await status();
    const start = traceEvents(fork.tracePath)[0]!;
    assert.equal(start.type === 'episode_start' && start.fork?.via, 'snapshot');
    assert.equal(fork.modelCalls, 0);
    await stopped(s.dc, () => s.dc.continueRequest({ threadId: 1 }));
    assert.equal(await turnOf(s), laterTurn);
    assert.equal(await evaluate(s.dc, 'observation'), laterObservation);
    assert.equal(await evaluate(s.dc, 'state.ee.pos'), laterEe);
  });

  test('Restart Frame after editing the prompt: a fork whose restarted turn sends the edit, with no model call before it', async () => {
    await stopped(s.dc, () => s.dc.reverseContinueRequest({ threadId: 1 }));
    assert.equal(await turnOf(s), conditionalTurn);
    const parent = await status();
    writeFileSync(coder, coderText.replace('CODE GENERATION:', 'CODE GENERATION (edited while paused):'));
    const frame = (await topFrames(s.dc)).find((f) => f.canRestart && f.name.startsWith('Coder'))!;
    const rendered = await evaluate(s.dc, 'render prompt', frame.id, 'repl');
    assert.match(rendered, /message 0 differ[\s\S]*--- 0 · system \(changed\) ---\n[\s\S]*CODE GENERATION \(edited while paused\):/);
    const e = await stopped(s.dc, () => s.dc.restartFrameRequest({ frameId: frame.id }));
    assert.equal(e.body.reason, 'restart');
    const [top] = await topFrames(s.dc);
    const msgs = await scopeVars(s.dc, top!.id, 'Messages');
    assert.match(msgs['0 · system'] ?? '', /CODE GENERATION \(edited while paused\):/);
    const fork = await status();
    assert.notEqual(fork.runId, parent.runId);
    assert.equal(fork.modelCalls, 0, 'no model call before the fork point');
    const events = traceEvents(fork.tracePath);
    const start = events[0]!;
    assert.ok(start.type === 'episode_start' && start.fork);
    assert.equal(start.fork.parentRunId, parent.runId);
    assert.equal(start.fork.turn, conditionalTurn);
    assert.deepEqual(start.fork.changedFiles.map((c) => c.role), ['coder']);
    const calls = ofType(events, 'role_call');
    const forkCall = calls[calls.length - 1]!;
    assert.equal(forkCall.turn, conditionalTurn);
    const earlier = ofType(events, 'model_response').filter((r) => r.seq < forkCall.seq);
    assert.equal(earlier.length, start.fork.replayedCalls);
    assert.ok(earlier.length > 0 && earlier.every((r) => r.cached && r.attempts === 0), 'every earlier answer came without a model call');
    assert.ok(calls.slice(0, -1).every((c) => !c.messages.some((m) => m.content.includes('edited while paused'))), 'earlier turns rendered the text they had');
    writeFileSync(coder, coderText);
  });

  test('send answers the next call; an exception breakpoint stops on the code error it causes', async () => {
    await s.dc.setExceptionBreakpointsRequest({ filters: ['code_error'] });
    const reply = await evaluate(s.dc, 'send ```python\nnot_a_robot_function()\n```', undefined, 'repl');
    assert.match(reply, /next model call \(coder at turn \d+/);
    const e = await stopped(s.dc, () => s.dc.continueRequest({ threadId: 1 }));
    assert.equal(e.body.reason, 'exception');
    const info = await s.dc.exceptionInfoRequest({ threadId: 1 });
    assert.match(info.body.description ?? '', /NameError/);
    const [top] = await topFrames(s.dc);
    assert.match(top!.name, /^code block \(NameError\)/);
    const events = traceEvents((await status()).tracePath);
    const typed = ofType(events, 'model_response').filter((r) => r.human);
    assert.equal(typed.length, 1);
    assert.match(typed[0]!.text ?? '', /not_a_robot_function/);
  });

  test('pause stops a running episode at its next event', async () => {
    await s.dc.setExceptionBreakpointsRequest({ filters: [] });
    await s.dc.setBreakpointsRequest({ source: { path: coder }, breakpoints: [] });
    const before = traceEvents((await status()).tracePath).length;
    // Pause as soon as the episode runs (the adapter answers continue once the engine is going). An episode that
    // ended first sends `terminated` instead of a stop: that fails here rather than waiting.
    let onTerminated: () => void = () => undefined;
    const terminated = new Promise<never>((_, reject) => {
      onTerminated = () => reject(new Error('the episode ended before the pause arrived'));
      s.dc.once('terminated', onTerminated);
    });
    const e = await Promise.race([
      stopped(s.dc, async () => {
        await s.dc.continueRequest({ threadId: 1 });
        await s.dc.pauseRequest({ threadId: 1 });
      }),
      terminated,
    ]).finally(() => s.dc.off('terminated', onTerminated));
    assert.equal(e.body.reason, 'pause');
    const events = traceEvents((await status()).tracePath);
    assert.ok(events.length > before, 'the episode ran on before the pause');
    assert.notEqual(events[events.length - 1]!.type, 'episode_end', 'paused inside the episode');
  });

  test('disconnecting ends the episode cleanly and marks the trace cancelled', async () => {
    const { tracePath } = await status();
    await s.dc.disconnectRequest({});
    const events = traceEvents(tracePath);
    const end = events[events.length - 1]!;
    assert.equal(end.type, 'episode_end');
    assert.equal(end.type === 'episode_end' && end.reason, 'cancelled');
  });
});

describe('replay debugging of a recorded run (no model calls)', () => {
  let s: Session;
  before(async () => {
    s = await startAdapter(ws.dir);
  });
  after(async () => {
    await endSession(s);
  });

  test('breakpoints, continue, step back and reverse continue walk the recording', async (t) => {
    if (!parentTrace) return t.skip('needs the live session’s trace');
    const entry = await stopped(s.dc, () =>
      launchWith(s.dc, { trace: parentTrace }, async () => {
        await s.dc.setBreakpointsRequest({ source: { path: coder }, breakpoints: [{ line: CODE_RULES }] });
      }),
    );
    assert.equal(entry.body.reason, 'entry');
    await stopped(s.dc, () => s.dc.continueRequest({ threadId: 1 }));
    const t1 = await turnOf(s);
    await stopped(s.dc, () => s.dc.continueRequest({ threadId: 1 }));
    const t2 = await turnOf(s);
    assert.ok(t2 > t1);
    await stopped(s.dc, () => s.dc.stepBackRequest({ threadId: 1 }));
    const [top] = await topFrames(s.dc);
    const tb = await turnOf(s);
    assert.ok(tb < t2 && tb > t1, `step back to the role turn before ${t2}: ${top!.name}`);
    await stopped(s.dc, () => s.dc.reverseContinueRequest({ threadId: 1 }));
    assert.equal(await turnOf(s), t1);
    const st = (await s.dc.customRequest('waypoint/status')).body as { modelCalls: number; live: boolean };
    assert.equal(st.live, false);
    assert.equal(st.modelCalls, 0);
  });

  test('Restart Frame on a recording: the simulator is reset and the earlier turns re-run with the recorded answers', async (t) => {
    if (!parentTrace) return t.skip('needs the live session’s trace');
    const turn = await turnOf(s);
    const frame = (await topFrames(s.dc)).find((f) => f.canRestart && f.name.startsWith('Coder'))!;
    const e = await stopped(s.dc, () => s.dc.restartFrameRequest({ frameId: frame.id }));
    assert.equal(e.body.reason, 'restart');
    assert.equal(await turnOf(s), turn);
    const st = (await s.dc.customRequest('waypoint/status')).body as { modelCalls: number; live: boolean; tracePath: string };
    assert.equal(st.live, true);
    assert.equal(st.modelCalls, 0);
    const fork = traceEvents(st.tracePath);
    const start = fork[0]!;
    assert.equal(start.type === 'episode_start' && start.fork?.via, 'replay');
    // The re-run reached the turn through the same states as the recording.
    const original = traceEvents(parentTrace);
    const obs = (events: TraceEvent[]) => ofType(events, 'observation').filter((o) => o.turn < turn).map((o) => o.text);
    assert.deepEqual(obs(fork), obs(original));
    await s.dc.disconnectRequest({});
  });
});

describe('a recorded v1 trace and bad launch input', () => {
  test('exception breakpoints stop on the recorded executor error of a v1 trace', async () => {
    const s = await startAdapter(ws.dir);
    try {
      await stopped(s.dc, () => launchWith(s.dc, { trace: join(ROOT, 'test', 'fixtures', 'traces', 'malmm-pick-place.jsonl') }, async () => {
        await s.dc.setExceptionBreakpointsRequest({ filters: ['code_error'] });
      }));
      const e = await stopped(s.dc, () => s.dc.continueRequest({ threadId: 1 }));
      assert.equal(e.body.reason, 'exception');
      assert.equal(await turnOf(s), 14);
      const [top] = await topFrames(s.dc);
      assert.ok(top!.source?.sourceReference, 'the failed block is shown as generated code');
      await s.dc.disconnectRequest({});
    } finally {
      await endSession(s);
    }
  });

  test('invalid launch attributes are refused with the field and the cause', async () => {
    const s = await startAdapter(ws.dir);
    try {
      await s.dc.initializeRequest();
      await assert.rejects(s.dc.launchRequest({ architecture: 'malmm', seed: -1 } as DebugProtocol.LaunchRequestArguments), /seed: Too small|seed:.*>=0/i);
    } finally {
      await endSession(s);
    }
    const s2 = await startAdapter(ws.dir);
    try {
      await s2.dc.initializeRequest();
      await assert.rejects(s2.dc.launchRequest({ architecture: 'no_such_arch' } as DebugProtocol.LaunchRequestArguments), /unknown architecture|no_such_arch/);
    } finally {
      await endSession(s2);
    }
  });
});
