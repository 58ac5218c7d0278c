// The debugger on a real multi-agent recording: a RoCo episode (reference model, scripted, not an LLM; sort_cubes,
// seed 0) recorded through the product path (launchRun: MuJoCo tabletop, the model's local endpoint, the trace on
// disk), then walked by EngineRuntime the way the DAP adapter drives it. model.test.ts covers the same threads and
// frames on a synthetic trace; this checks them on what the RoCo loop really writes.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { architectures } from '../../../../src/architectures/registry.js';
import { EPISODE_THREAD, type FrameInfo } from '../../../../src/core/debug/frames.js';
import { EngineRuntime, type EngineRuntimeEvent } from '../../../../src/core/debug/runtime.js';
import { nodeClock, nodeIO } from '../../../../src/core/node/nodeHost.js';
import { launchRun, type LaunchResult } from '../../../../src/core/runs/launch.js';
import { createPyodideSandbox } from '../../../../src/core/sandbox/index.js';
import { createTabletopSimulator } from '../../../../src/core/sim/mujoco/index.js';
import { readTrace } from '../../../../src/core/trace/reader.js';
import type { EventOf } from '../../../../src/protocol/trace.js';

const workspace = mkdtempSync(join(tmpdir(), 'waypoint-roco-debug-'));
const builtInPromptRoot = join(process.cwd(), 'src', 'architectures');
let run: LaunchResult;
let calls: EventOf<'role_call'>[];

before(async () => {
  run = await launchRun(
    { workspace, arch: 'roco', task: 'sort_cubes', seed: 0, builtInPromptRoot, model: { kind: 'reference', profile: 'reference' } },
    { io: nodeIO, clock: nodeClock, architectures, createSimulator: () => createTabletopSimulator(), createSandbox: () => createPyodideSandbox() },
  );
  calls = readTrace(readFileSync(run.tracePath, 'utf8')).events.filter((e): e is EventOf<'role_call'> => e.type === 'role_call');
});
after(() => rmSync(workspace, { recursive: true, force: true }));

type Stopped = Extract<EngineRuntimeEvent, { type: 'stopped' }>;

/** A runtime replaying the recording; it must need neither a simulator nor a sandbox (nor any model call). */
async function replay(): Promise<{ rt: EngineRuntime; act: (f: () => void | Promise<void>) => Promise<Stopped>; events: EngineRuntimeEvent[] }> {
  const rt = new EngineRuntime({
    io: nodeIO,
    clock: nodeClock,
    architectures,
    builtInPromptRoot,
    createSimulator: () => assert.fail('replaying a recording builds no simulator'),
    createSandbox: () => assert.fail('replaying a recording needs no sandbox'),
  });
  const events: EngineRuntimeEvent[] = [];
  rt.on((e) => events.push(e));
  await rt.prepareReplay({ workspace, tracePath: run.tracePath, simulator: 'embedded', cache: false });
  // Runtime events are emitted after the call that caused them (setImmediate), as DAP clients expect.
  const act = async (f: () => void | Promise<void>) => {
    const n = events.length;
    await f();
    await new Promise((r) => setImmediate(r));
    const stop = events.slice(n).find((e): e is Stopped => e.type === 'stopped');
    assert.ok(stop, 'the call stopped somewhere');
    return stop;
  };
  return { rt, act, events };
}

const shape = (frames: FrameInfo[]) => frames.map((f) => `${f.kind}: ${f.name}`);

test('RoCo recording: one thread per robot beside the episode; Step Over visits every dialog turn on its robot\'s thread, round-robin within each round', async () => {
  assert.equal(run.success, true, `${run.reason} ${run.message ?? ''}`);
  const { rt, act, events } = await replay();
  const entry = await act(() => rt.start());
  assert.equal(entry.reason, 'entry');
  assert.deepEqual(
    rt.threads().map((t) => [t.id, t.name]),
    [[EPISODE_THREAD, 'episode · roco · sort_cubes · seed 0'], [2, 'Alice'], [3, 'Bob'], [4, 'Chad']],
  );
  assert.deepEqual(events.filter((e) => e.type === 'thread').map((e) => (e.type === 'thread' ? e.thread.name : '')), ['Alice', 'Bob', 'Chad']);

  const visited: { thread: string; turn: number; round: number }[] = [];
  for (;;) {
    const stop = await act(() => rt.next());
    if (stop.description === 'end of the recorded run') break;
    const top = rt.stack(stop.threadId)[0]!;
    visited.push({ thread: rt.threads().find((t) => t.id === stop.threadId)!.name, turn: top.turn!, round: Number(await rt.evaluate('round', top, 'watch').then((r) => r.value)) });
  }
  // Every turn the trace recorded, in order, each on the thread of the robot that spoke.
  assert.deepEqual(visited.map((v) => [v.thread, v.turn]), calls.map((c) => [c.agent, c.turn]));
  assert.equal(visited.length, run.end.archMetrics?.['dialogTurns']);
  const rounds = [...new Set(visited.map((v) => v.round))];
  assert.ok(rounds.length >= 2, `rounds visited: ${rounds.join(', ')}`);
  // Round 1: each robot knows only its own reach and goal, so Alice and Bob propose on a second turn once Chad has
  // spoken; from round 2 on the history holds what each said, and every robot speaks once, in the simulator's order.
  assert.deepEqual(visited.filter((v) => v.round === rounds[0]).map((v) => v.thread), ['Alice', 'Bob', 'Chad', 'Alice', 'Bob'], 'round 1: round-robin until everyone has heard everyone');
  for (const r of rounds.slice(1)) assert.deepEqual(visited.filter((v) => v.round === r).map((v) => v.thread), ['Alice', 'Bob', 'Chad'], `round ${r}: every robot speaks once, in the simulator's order`);
  assert.equal(rt.status().modelCalls, 0);
  await rt.terminate();
});

test('RoCo recording: a dialog turn\'s frames (turn > step > round > episode), each robot\'s thread at its own latest turn, the joint action split by robot, Step Back', async () => {
  const { rt, act } = await replay();
  await act(() => rt.start());
  // To Bob's turn in round 2 (the seventh turn: Alice, Bob, Chad, Alice, Bob in round 1, then Alice).
  let stop = await act(() => rt.next());
  for (let k = 0; k < 6; k++) stop = await act(() => rt.next());
  const bob = rt.stack(stop.threadId);
  assert.equal(rt.threads().find((t) => t.id === stop.threadId)?.name, 'Bob');
  // RoCo stamps `step` once a plan has run, so in round 2 the turns sit under step 1 (one plan executed so far).
  assert.deepEqual(shape(bob), ['turn: Robot dialog agent · turn 7', 'step: step 1', 'round: round 2', 'episode: episode roco · sort_cubes · seed 0']);
  const turn = bob[0]!;
  assert.equal(turn.canRestart, true, 'a dialog turn is a Restart Frame target');
  assert.ok(turn.source?.kind === 'prompt' && turn.source.path.endsWith(join('roco', 'prompts', 'dialog.prompt')), JSON.stringify(turn.source));
  // The turn's scopes are Bob's call: his prompt, his agent name.
  const messages = rt.scopes(turn).find((s) => s.name === 'Messages')!.value;
  assert.match(Object.values(messages).join('\n'), /^You are robot Bob, and you work together with Alice and Chad/);
  assert.equal((await rt.evaluate('agent', turn, 'watch')).value, 'Bob');
  // The other robots' threads stand at their own latest turn; the episode thread names the speaker.
  assert.deepEqual(shape(rt.stack(2)).slice(0, 1), ['turn: Robot dialog agent · turn 6']);
  // Chad's latest event is his part of round 1's plan, run under Bob's EXECUTE of turn 5 (his own call was turn 3).
  assert.deepEqual(shape(rt.stack(4)).slice(0, 1), ['turn: turn 5']);
  assert.deepEqual(shape(rt.stack(EPISODE_THREAD)).slice(0, 1), ['turn: Robot dialog agent (Bob) · turn 7']);

  // Step In from Chad's turn 8 (the round's EXECUTE) stops at the joint action: the episode thread shows every
  // robot's part, each robot's thread only its own.
  await act(() => rt.next());
  stop = await act(() => rt.stepIn());
  assert.equal(stop.threadId, EPISODE_THREAD);
  const joint = rt.stack(EPISODE_THREAD)[0]!;
  assert.equal(joint.kind, 'action');
  assert.match(joint.name, /^Alice: \w+\(.*\); Bob: \w+\(.*\); Chad: \w+\(.*\)$/);
  for (const [id, name] of [[2, 'Alice'], [3, 'Bob'], [4, 'Chad']] as const) {
    const own = rt.stack(id);
    assert.equal(own[0]!.kind, 'action');
    assert.match(own[0]!.name, new RegExp(`^${name}: \\w+\\(`));
    assert.doesNotMatch(own[0]!.name, /;/, `${name}'s thread shows only its own action`);
    // Under the turn whose EXECUTE it runs (Chad's; another robot's thread names the speaker).
    assert.equal(own[1]!.name, `Robot dialog agent${name === 'Chad' ? '' : ' (Chad)'} · turn 8`);
  }
  // Step Back walks the recording backwards: Chad's turn, then Bob's.
  stop = await act(() => rt.stepBack());
  assert.deepEqual([rt.threads().find((t) => t.id === stop.threadId)?.name, rt.stack(stop.threadId)[0]!.turn], ['Chad', 8]);
  stop = await act(() => rt.stepBack());
  assert.deepEqual([rt.threads().find((t) => t.id === stop.threadId)?.name, rt.stack(stop.threadId)[0]!.turn], ['Bob', 7]);
  await rt.terminate();
});

test('RoCo recording: Step Over stands at each role call (before its answer); Step Out of a round-1 turn stops at the first event of round 2', async () => {
  const { rt, act } = await replay();
  await act(() => rt.start());
  for (let k = 1; k <= 5; k++) {
    const stop = await act(() => rt.next());
    const top = rt.stack(stop.threadId)[0]!;
    assert.equal(top.turn, k);
    assert.equal(top.index, top.roleCallIndex, `turn ${k}: stopped at event ${top.index}, the role call is ${top.roleCallIndex}`);
  }
  // From Bob's turn 5 in round 1 (the round's last speaker): Step Out runs to the end of the round.
  const before = rt.stack(rt.currentThread);
  assert.ok(shape(before).includes('round: round 1'), shape(before).join(' | '));
  const out = await act(() => rt.stepOut());
  const after = shape(rt.stack(out.threadId));
  assert.ok(after.includes('round: round 2'), after.join(' | '));
  await rt.terminate();
});
