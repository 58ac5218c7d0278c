// The run summary's account of an outcome, on hand-made event lists for each rule and on recorded runs of RoCo
// (MuJoCo tabletop, the reference model over its endpoint) and Action Contextualization (the fake clearing world):
// the deciding error is the last error nothing recovered from, never one a retry or re-plan recovered from, and a
// success has none; the Summary's simulated time is the figure the CLI prints.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { formatEvent } from '../../../../../src/cli/transcript.js';
import { registerReferencePolicies } from '../../../../../src/core/llm/reference/policies.js';
import { architectures } from '../../../../../src/architectures/registry.js';
import { defaultReferenceModels } from '../../../../../src/core/llm/reference/policy.js';
import type { ModelClient, ModelRequest, ModelResult } from '../../../../../src/core/llm/client.js';
import { nodeClock, nodeIO } from '../../../../../src/core/node/nodeHost.js';
import { launchRun } from '../../../../../src/core/runs/launch.js';
import { createPyodideSandbox } from '../../../../../src/core/sandbox/index.js';
import { createTabletopSimulator } from '../../../../../src/core/sim/mujoco/index.js';
import { projectRunSummary } from '../../../../../src/core/trace/projections/runSummary.js';
import { readTrace } from '../../../../../src/core/trace/reader.js';
import type { PendingEvent, TraceEvent } from '../../../../../src/protocol/trace.js';
import { runWith, spec } from '../../../architectures/actctx/scripted.js';

registerReferencePolicies(architectures);

/** Events numbered as the writer numbers them. */
function trace(...events: PendingEvent[]): TraceEvent[] {
  return events.map((e, i) => ({ ...e, seq: i, tMs: i }) as TraceEvent);
}
const end = (success: boolean, reason: string): PendingEvent => ({
  type: 'episode_end', success, reason, agentClaimedDone: success,
  metrics: { turns: 5, modelCalls: 5, cachedCalls: 0, promptTokens: 0, completionTokens: 0, codeBlocks: 0, codeErrors: 0, formatErrors: 0, durationMs: 1, simTimeSecs: 2, simTotalSecs: 9 },
});
const code = (turn: number, ok: boolean): PendingEvent => ({
  type: 'code_execution', turn, role: 'coder', language: 'python', code: 'x', ok, exitCode: ok ? 0 : 1, stdout: '', durationMs: 1, apiCalls: [],
  ...(ok ? {} : { error: { type: 'NameError', message: `name 'a${turn}' is not defined` } }),
} as PendingEvent);
const check = (turn: number, name: string, ok: boolean, message = `${name} ${ok ? 'passed' : 'failed'} at turn ${turn}`): PendingEvent => ({ type: 'check', turn, name, ok, message } as PendingEvent);

test('a success has no deciding error: the error before the retry that worked is counted as recovered from', () => {
  const s = projectRunSummary(trace(code(2, false), code(3, true), check(3, 'task_success', true), end(true, 'task_completed')));
  assert.equal(s.decidingError, undefined);
  assert.equal(s.recovered.count, 1);
  assert.equal(s.recovered.first?.turn, 2);
  assert.equal(s.unrecovered.count, 0);
});

test('an engine error event without a turn points the deciding error at the turn whose event it reports', () => {
  const s = projectRunSummary(trace(
    { type: 'model_response', turn: 1, callId: 'c1', role: 'supervisor', ok: false, error: { kind: 'network', message: 'refused' }, latencyMs: 1, cached: false, attempts: 1 } as PendingEvent,
    { type: 'error', kind: 'model_error', message: 'model m failed for role supervisor (network)' } as PendingEvent,
    end(false, 'model_error'),
  ));
  assert.deepEqual([s.decidingError?.turn, s.decidingError?.kind], [1, 'model_error']);
  // With no turn anywhere (refused before the loop), the error itself is still named.
  const bare = projectRunSummary(trace({ type: 'error', kind: 'invalid_input', message: 'bad' } as PendingEvent, end(false, 'invalid_input')));
  assert.deepEqual([bare.decidingError?.turn, bare.decidingError?.kind], [undefined, 'engine_error']);
});

test('a failure: the last error nothing recovered from decides, the first of its turn; recovered ones and "not done yet" checks never do', () => {
  const s = projectRunSummary(trace(
    check(1, 'task_success', false, 'not done yet'),
    code(2, false),
    code(3, true),
    check(4, 'holding', false, 'holding() returned False'),
    check(5, 'holding', false, 'holding() returned False again'),
    check(5, 'plan_execution', false, 'action 1 (pick) failed'),
    end(false, 'budget_exhausted'),
  ));
  assert.equal(s.firstError?.turn, 2, 'the mid-episode success check is not an error');
  assert.deepEqual([s.decidingError?.turn, s.decidingError?.message], [5, 'holding() returned False again']);
  assert.equal(s.recovered.count, 1);
});

test('a failure whose errors were all recovered from has no deciding error (a cap ended it)', () => {
  const s = projectRunSummary(trace(check(2, 'plan: waypoints', false), check(3, 'plan: waypoints', true), end(false, 'round_cap')));
  assert.equal(s.decidingError, undefined);
  assert.equal(s.recovered.count, 1);
});

test("the simulated time in all, from the events of a run still going: the clock's last sample plus what restores wound back", () => {
  const samples = (ts: number[]) => ts.map((tSecs) => ({ tSecs, ee: [0, 0, 1, 0], gripperWidth: 0.08, grasped: null, qpos: [] }));
  const s = projectRunSummary(trace(
    { type: 'trajectory', turn: 1, rateHz: 50, samples: samples([0, 5, 10]) } as PendingEvent,
    { type: 'restore', turn: 1, id: 's1', simTimeSecs: 0 },
    { type: 'trajectory', turn: 2, rateHz: 50, samples: samples([0, 4]) } as PendingEvent,
  ));
  assert.equal(s.metrics.simTimeSecs, 4);
  assert.equal(s.metrics.simTotalSecs, 14);
});

// ---- recorded runs ----

const workspace = mkdtempSync(join(tmpdir(), 'waypoint-outcome-'));
after(() => rmSync(workspace, { recursive: true, force: true }));
const deps = { io: nodeIO, clock: nodeClock, architectures, createSimulator: () => createTabletopSimulator(), createSandbox: () => createPyodideSandbox() };

async function roco(limits: Record<string, number>) {
  const r = await launchRun({ workspace, arch: 'roco', task: 'sort_cubes', seed: 1, limits, builtInPromptRoot: join(process.cwd(), 'src', 'architectures'), model: { kind: 'reference', profile: 'reference-flawed' } }, deps);
  return { r, events: readTrace(readFileSync(r.tracePath, 'utf8')).events };
}

test('RoCo, recorded (sort_cubes seed 1, reference-flawed): the unparseable plans were re-planned, so the success has no deciding error', async () => {
  const { r, events } = await roco({});
  assert.equal(r.reason, 'reward_positive');
  const s = projectRunSummary(events);
  assert.equal(s.decidingError, undefined);
  assert.ok(s.recovered.count >= 2, JSON.stringify(s.recovered));
  assert.equal(s.recovered.first?.kind, 'format_error');
  // The round-1 "not done yet" of turn 3 (what the Summary used to call the first error) is not an error.
  assert.notEqual(s.firstError?.turn, 3);
});

test('RoCo, recorded: with one plan per round allowed, the unparseable plan of turn 5 (round 1\'s last, after Alice and Bob spoke again once they had heard Chad) decides the failure', async () => {
  const { r, events } = await roco({ maxReplans: 1 });
  assert.equal(r.reason, 'format_failure');
  const s = projectRunSummary(events);
  assert.deepEqual([s.decidingError?.turn, s.decidingError?.kind], [5, 'format_error']);
});

function inProcess(profile: 'reference' | 'reference-flawed'): ModelClient {
  const policy = defaultReferenceModels().get(profile)!;
  return {
    id: profile,
    async complete(q: ModelRequest): Promise<ModelResult> {
      return { ok: true, text: policy.answer(q.messages, { ...(q.meta ? { meta: q.meta } : {}) }), latencyMs: 0, cached: false, attempts: 1 };
    },
  };
}

test('Action Contextualization, recorded: the holding() failure the retune fixed does not decide; without retunes or replans it does', async () => {
  const fixed = await runWith(spec(), inProcess('reference-flawed'));
  assert.equal(fixed.result.reason, 'plan_validated');
  const ok = projectRunSummary(fixed.events);
  assert.equal(ok.decidingError, undefined);
  // Every error was followed by a repair or by another execution from the start: none is left over.
  assert.deepEqual(ok.unrecovered, { count: 0 });
  assert.ok(fixed.events.some((e) => e.type === 'check' && e.name === 'holding' && !e.ok));

  const stuck = await runWith(spec({ retunesPerAction: 0, maxReplans: 0 }), inProcess('reference-flawed'));
  assert.equal(stuck.result.reason, 'budget_exhausted');
  const failed = projectRunSummary(stuck.events);
  const execution = stuck.events.find((e) => e.type === 'check' && e.name === 'plan_execution')!;
  // The failed check of the execution, not the plan's verdict or the run's summary after it.
  assert.deepEqual([failed.decidingError?.turn, failed.decidingError?.kind], [(execution as { turn: number }).turn, 'check_failed']);
  assert.match(failed.decidingError!.message, /^holding: .*holding\(\) returned False, expected True/);
});

test('Action Contextualization, recorded over several executions: the Summary shows the simulated time the CLI prints', async () => {
  const { result, events } = await runWith(spec(), inProcess('reference-flawed'));
  const executions = events.filter((e) => e.type === 'check' && e.name === 'plan_execution').length;
  assert.ok(executions >= 2, `${executions} executions`);
  const m = result.end.metrics;
  // Each execution restored the start: the clock at the end covers the last one only.
  assert.ok((m.simTotalSecs ?? 0) > m.simTimeSecs + 1, JSON.stringify(m));
  const summary = projectRunSummary(events).metrics;
  const cli = /([\d.]+) s simulated/.exec(formatEvent(result.end, { color: false, verbose: false }) ?? '')?.[1];
  assert.equal(summary.simTotalSecs.toFixed(1), cli);
  assert.equal(summary.simTotalSecs, m.simTotalSecs);
});
