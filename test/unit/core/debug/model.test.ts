// Threads, frames, scopes and breakpoint verdicts from trace events alone: a synthetic multi-agent trace of an
// architecture this build does not register gets threads and frames from its counters (rocoRecording.test.ts
// checks the same on a real RoCo recording).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ArmedBreakpoint } from '../../../../src/core/debug/breakpoints.js';
import { EventLog } from '../../../../src/core/debug/eventLog.js';
import { stackAt, threadsOf } from '../../../../src/core/debug/frames.js';
import { verifyPromptLines, type PromptSession } from '../../../../src/core/debug/promptBreakpoints.js';
import { scopeAt } from '../../../../src/core/debug/scope.js';
import { scopesOf } from '../../../../src/core/debug/variables.js';
import type { PendingEvent, TraceEvent, WorldState } from '../../../../src/protocol/trace.js';

const world = (z: number): WorldState => ({
  objects: [{ name: 'cup', pos: [0.1, 0.2, z], euler: [0, 0, 0.3], size: [0.05, 0.05, 0.1], color: 'red' }],
  ee: { pos: [0, 0, 1], yawRad: 0 },
  gripperOpen: true,
  grasped: null,
  robots: [
    { name: 'Alice', pos: [0, -0.5, 1], yawRad: 0, holding: null },
    { name: 'Bob', pos: [0, 0.5, 1], yawRad: 0, holding: null },
  ],
});

function multiAgentLog(): EventLog {
  const log = new EventLog();
  let seq = 0;
  const add = (e: PendingEvent) => log.append({ ...e, seq: seq++, tMs: seq } as TraceEvent);
  add({
    type: 'episode_start', schemaVersion: 2, runId: 'r1', arch: 'dialogs', agentVariant: 'default', task: 'handover', taskDescription: 'Hand the cup over', seed: 3,
    variant: 'default', ablations: {}, model: { provider: 'reference', model: 'reference', label: 'reference' }, prompts: [], simulator: { name: 'sim' },
    options: { persistNamespace: false, codeTimeoutSecs: 10 }, agents: ['Alice', 'Bob'], startedAt: 'now',
  });
  add({ type: 'observation', turn: 0, text: 'cup on the table', state: world(0.8) });
  add({ type: 'role_call', turn: 1, round: 1, agent: 'Alice', callId: 'c1', role: 'dialog', messages: [{ role: 'system', content: 'You are Alice' }], model: 'm', params: {}, promptPath: '/p/alice.prompt', variables: { task: 'x' } });
  add({ type: 'model_response', turn: 1, round: 1, agent: 'Alice', callId: 'c1', role: 'dialog', ok: true, text: 'PROCEED', latencyMs: 1, cached: false, attempts: 1 });
  add({ type: 'role_call', turn: 2, round: 1, agent: 'Bob', callId: 'c2', role: 'dialog', messages: [{ role: 'system', content: 'You are Bob' }], model: 'm', params: {}, promptPath: '/p/bob.prompt', variables: {} });
  add({ type: 'model_response', turn: 2, round: 1, agent: 'Bob', callId: 'c2', role: 'dialog', ok: true, text: 'EXECUTE', latencyMs: 1, cached: false, attempts: 1 });
  add({ type: 'role_call', turn: 3, round: 2, agent: 'Alice', callId: 'c3', role: 'dialog', messages: [{ role: 'system', content: 'You are Alice' }], model: 'm', params: {}, promptPath: '/p/alice.prompt', variables: {} });
  add({ type: 'action', turn: 3, round: 2, agent: 'Alice', actionId: 'a1', actions: [{ agent: 'Alice', name: 'PICK', args: ['cup'] }, { agent: 'Bob', name: 'WAIT', args: [] }], joint: true });
  add({ type: 'action_result', turn: 3, round: 2, agent: 'Alice', actionId: 'a1', results: [{ agent: 'Alice', name: 'PICK', ok: false, error: 'IK failed' }, { agent: 'Bob', name: 'WAIT', ok: true }], durationMs: 3 });
  add({ type: 'observation', turn: 3, round: 2, text: 'cup lifted', state: world(0.9) });
  return log;
}

test('threads: the episode plus one per agent seen; frames: round > role turn > action, from counters only', () => {
  const log = multiAgentLog();
  assert.deepEqual(threadsOf(log).map((t) => t.name), ['episode · dialogs · handover · seed 3', 'Alice', 'Bob']);
  const at = log.head - 1; // the action_result
  const alice = stackAt(log, 2, at);
  assert.deepEqual(alice.map((f) => [f.kind, f.name]), [
    ['action', 'Alice: PICK("cup") → failed'],
    ['turn', 'Dialog · turn 3'],
    ['round', 'round 2'],
    ['episode', 'episode dialogs · handover · seed 3'],
  ]);
  assert.equal(alice[1]!.source?.kind === 'prompt' && alice[1]!.source.path, '/p/alice.prompt');
  assert.equal(alice[1]!.canRestart, true);
  // Bob's thread stands at his own latest event.
  const bob = stackAt(log, 3, at);
  assert.equal(bob[0]!.kind, 'action');
  assert.match(bob[0]!.name, /^Bob: WAIT\(\)/);
  assert.equal(bob[1]!.name, 'Dialog (Alice) · turn 3');
});

test('scopes and conditions see the state, the messages and the failure counters at a position', () => {
  const log = multiAgentLog();
  const scope = scopeAt(log, log.head);
  assert.equal((scope.state as { objects: Record<string, { z: number }> }).objects.cup!.z, 0.9);
  assert.equal(scope.consecutiveErrors, 1, 'the failed joint action counts');
  assert.equal(scope.round, 2);
  const frame = stackAt(log, 2, 6)[0]!;
  const names = scopesOf(log, frame).map((s) => s.name);
  assert.deepEqual(names, ['Context', 'Messages', 'Parsed output', 'Simulator state', 'Metrics']);
  const ctx = scopesOf(log, frame)[0]!.value;
  assert.equal(ctx.agent, 'Alice');
  assert.equal(ctx.observation, 'cup on the table');
});

test('hit counts are the same walking forward or back', () => {
  const log = multiAgentLog();
  const bp = new ArmedBreakpoint(1, 'function', 'dialog', (e) => e.type === 'role_call' && e.role === 'dialog', { hitCondition: '== 2' });
  const report: string[] = [];
  const fwd = log.events.map((_, i) => bp.fires(log, i, (m) => report.push(m)).stop);
  const bp2 = new ArmedBreakpoint(2, 'function', 'dialog', (e) => e.type === 'role_call' && e.role === 'dialog', { hitCondition: '== 2' });
  const back = log.events.map((_, i) => i).reverse().map((i) => bp2.fires(log, i, (m) => report.push(m)).stop).reverse();
  assert.deepEqual(fwd, back);
  assert.deepEqual(fwd.flatMap((s, i) => (s ? [i] : [])), [4]);
  assert.deepEqual(report, []);
  const bad = new ArmedBreakpoint(3, 'line', 'p:1', () => true, { condition: 'state.objects.mug.z > 0' });
  const problems: string[] = [];
  assert.equal(bad.fires(log, 1, (m) => problems.push(m)).stop, false);
  assert.match(problems[0] ?? '', /no field 'mug'/);
});

test('prompt line breakpoints: verified for the run’s prompts; unsent ablation text, other architectures and unused roles are not', () => {
  const path = join(process.cwd(), 'src', 'architectures', 'malmm', 'prompts', 'coder.prompt');
  const text = readFileSync(path, 'utf8');
  const line = (needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
  const session: PromptSession = { arch: 'malmm', topology: 'malmm', roles: ['supervisor', 'planner', 'coder'], promptPaths: { coder: path }, variant: 'v', ablations: { 'coder.center_grasp_reminder': false } };
  const [plain, offPart, elsePart, front] = verifyPromptLines(path, text, [line('CODE GENERATION:'), line('grasped at its CENTER'), line('for all the steps of the plan in one block'), 2], session);
  assert.deepEqual(plain, { line: line('CODE GENERATION:'), verified: true, role: 'coder' });
  assert.match(offPart!.message ?? '', /ablation 'coder.center_grasp_reminder' is off in variant 'v'/);
  assert.match(elsePart!.message ?? '', /\{\{else\}\} part of ablation 'coder.step_by_step'/);
  assert.equal(front!.verified, true, 'any line of the file, front matter included, stops before the role is called');
  const sa = verifyPromptLines(path, text, [30], { ...session, promptPaths: { coder: '/elsewhere/coder.prompt' } });
  assert.match(sa[0]!.message ?? '', /reads the coder prompt from \/elsewhere\/coder.prompt/);
  const roco = verifyPromptLines('/x/alice.prompt', '---\nwaypoint.arch: roco\nwaypoint.role: dialog\n---\nhi\n', [5], session);
  assert.match(roco[0]!.message ?? '', /architecture 'roco'/);
});

test('exception filters name each kind of failure, and nothing else', async () => {
  const { exceptionOf } = await import('../../../../src/core/debug/breakpoints.js');
  const base = { seq: 0, tMs: 0 };
  const cases: [TraceEvent, string | undefined][] = [
    [{ ...base, type: 'code_execution', turn: 1, role: 'coder', language: 'python', code: 'x', ok: false, exitCode: 1, stdout: '', error: { type: 'NameError', message: "name 'x' is not defined", line: 1 }, durationMs: 1, apiCalls: [], namespacePersisted: false }, 'code_error'],
    [{ ...base, type: 'parsed_output', turn: 1, callId: 'c1', role: 'supervisor', ok: false, kind: 'route', error: 'no speaker' }, 'format_error'],
    [{ ...base, type: 'check', turn: 1, name: 'collision', ok: false, message: 'collision: a <-> b at t=1.00 s' }, 'collision'],
    [{ ...base, type: 'check', turn: 1, name: 'ik', ok: false, message: 'unreachable' }, 'check_failed'],
    [{ ...base, type: 'check', turn: 1, name: 'task_success', ok: false, message: 'not stacked', phase: 'final' }, 'task_failure'],
    [{ ...base, type: 'check', turn: 1, name: 'task_success', ok: false, message: 'not yet', phase: 'mid' }, undefined],
    [{ ...base, type: 'action_result', turn: 1, actionId: 'a1', results: [{ agent: 'Bob', name: 'PLACE', ok: false, error: 'not holding' }], durationMs: 1 }, 'check_failed'],
    [{ ...base, type: 'error', kind: 'model_error', message: 'endpoint down' }, 'engine_error'],
    [{ ...base, type: 'error', kind: 'cancelled', message: 'cancelled' }, undefined],
    [{ ...base, type: 'check', turn: 1, name: 'collision', ok: true, message: 'none' }, undefined],
  ];
  for (const [e, want] of cases) assert.equal(exceptionOf(e)?.filter, want, `${e.type} ${'name' in e ? e.name : ''}`);
});

test('a robot call’s scope shows the arm before the call acts and after it, once the trace holds it', () => {
  const log = new EventLog();
  let seq = 0;
  const add = (e: PendingEvent) => log.append({ ...e, seq: seq++, tMs: seq } as TraceEvent);
  const sample = (t: number, z: number, grasped: string | null) => ({ tSecs: t, qpos: [0], ee: [0.1, 0.2, z, 0] as [number, number, number, number], gripperWidth: grasped ? 0.02 : 0.08, grasped });
  const s0 = { ...world(0.8), robots: undefined };
  add({
    type: 'episode_start', schemaVersion: 2, runId: 'r2', arch: 'malmm', agentVariant: 'malmm', task: 'pick', taskDescription: 'Pick the cup', seed: 0,
    variant: 'default', ablations: {}, model: { provider: 'reference', model: 'reference', label: 'reference' }, prompts: [], simulator: { name: 'sim' },
    options: { persistNamespace: false, codeTimeoutSecs: 10 }, startedAt: 'now',
  });
  add({ type: 'observation', turn: 0, text: 'cup', state: s0 });
  add({ type: 'role_call', turn: 1, callId: 'c1', role: 'coder', messages: [{ role: 'system', content: 'You are the Coder' }], model: 'm', params: {}, promptPath: '/p/coder.prompt', variables: {} });
  add({ type: 'model_response', turn: 1, callId: 'c1', role: 'coder', ok: true, text: 'code', latencyMs: 1, cached: false, attempts: 1 });
  const code = 'move_to_position([0.1, 0.2, 0.9])\nclose_gripper()';
  add({ type: 'api_call', turn: 1, role: 'coder', index: 0, fn: 'move_to_position', args: [[0.1, 0.2, 0.9]], line: 1, code });
  const firstCall = log.head;
  add({ type: 'trajectory', turn: 1, rateHz: 50, samples: [sample(0.5, 0.95, null), sample(1, 0.9, null)] });
  add({ type: 'api_call', turn: 1, role: 'coder', index: 1, fn: 'close_gripper', args: [], line: 2 });
  const secondCall = log.head;
  const armOf = (i: number) => scopesOf(log, stackAt(log, 1, i)[0]!).find((s) => s.name === 'Call')!.value.arm as { before: { ee: number[]; grasped: string | null } | string; after: { ee: number[]; grasped: string | null } | string };
  // The first call: before is the observation's arm, after is the motion drained before the next call.
  assert.deepEqual((armOf(firstCall).before as { ee: number[] }).ee, [0, 0, 1]);
  assert.deepEqual((armOf(firstCall).after as { ee: number[] }).ee, [0.1, 0.2, 0.9]);
  // The last call has not run: no after yet.
  assert.match(armOf(secondCall).after as string, /not run yet/);
  add({ type: 'code_execution', turn: 1, role: 'coder', language: 'python', code, ok: true, exitCode: 0, stdout: '', durationMs: 5, apiCalls: [{ fn: 'move_to_position', args: [[0.1, 0.2, 0.9]], ok: true }, { fn: 'close_gripper', args: [], ok: true }], namespacePersisted: false });
  add({ type: 'trajectory', turn: 1, rateHz: 50, samples: [sample(1.5, 0.9, 'cup')] });
  const last = armOf(secondCall);
  assert.equal((last.before as { grasped: string | null }).grasped, null);
  assert.equal((last.after as { grasped: string | null }).grasped, 'cup', 'the motion drained after the block is the last call’s');
});
