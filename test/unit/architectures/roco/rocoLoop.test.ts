// The RoCo loop (Algorithm 1) through the engine and the real MuJoCo tabletop, with scripted dialog answers:
// a plan that fails the IK check and its re-plan, the bad inputs RoCo's parser and checks turn into feedback, and
// two arms on crossing paths in one plan.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { architectures } from '../../../../src/architectures/registry.js';
import { DEFAULT_EPISODE_OPTIONS, runEpisode, type EpisodeResult } from '../../../../src/core/engine/episode.js';
import type { ModelClient, ModelRequest } from '../../../../src/core/llm/client.js';
import { ReplayClient } from '../../../../src/core/llm/replay.js';
import { nodeIO } from '../../../../src/core/node/nodeHost.js';
import { resolveVariant } from '../../../../src/core/prompt/variants.js';
import type { CodeSandbox } from '../../../../src/core/sandbox/sandbox.js';
import { createTabletopSimulator } from '../../../../src/core/sim/mujoco/index.js';
import type { Simulator } from '../../../../src/core/sim/simulator.js';
import { MemoryTraceSink } from '../../../../src/core/trace/writer.js';
import type { AgentAction, TraceEvent } from '../../../../src/protocol/trace.js';

const clock = { nowMs: () => performance.now(), isoNow: () => '2026-11-25T00:00:00.000Z' };
const arch = architectures.get('roco');
const promptPaths = Object.fromEntries(arch.roles.map((r) => [r.id, join(process.cwd(), 'src', 'architectures', 'roco', 'prompts', r.promptFile)]));
// RoCo runs no code, so the engine must not even start a sandbox (the manifest's runsCode: false).
const noSandbox: CodeSandbox = {
  warmUp: async () => assert.fail('RoCo must not start a code sandbox'),
  resetNamespace: async () => assert.fail('RoCo must not start a code sandbox'),
  close: async () => {},
  run: async () => assert.fail('RoCo runs no code'),
};
let sim: Simulator;
before(async () => {
  sim = await createTabletopSimulator();
});
after(async () => {
  await sim.close();
});

/** Replayed answers, keeping each request (the prompt every agent saw). */
class Recording implements ModelClient {
  readonly id = 'recording';
  readonly requests: ModelRequest[] = [];
  readonly #inner: ReplayClient;
  constructor(dialog: string[]) {
    this.#inner = new ReplayClient({ 'roco/dialog': dialog });
  }
  complete(request: ModelRequest, options?: { signal?: AbortSignal }) {
    this.requests.push(request);
    return this.#inner.complete(request, options);
  }
}

async function episode(task: string, model: ModelClient, limits: Record<string, unknown>, simulator: Simulator = sim): Promise<{ result: EpisodeResult; events: TraceEvent[] }> {
  const sink = new MemoryTraceSink();
  const result = await runEpisode(
    {
      runId: 'roco-loop',
      arch,
      task,
      seed: 0,
      variant: resolveVariant('default', { active: 'default', variants: {} }, arch.builtInVariants),
      promptPaths,
      options: { ...DEFAULT_EPISODE_OPTIONS, limits },
      model: { provider: 'replay', model: 'replay', label: 'replay' },
    },
    { io: nodeIO, clock, sim: simulator, sandbox: noSandbox, model, sink },
  );
  return { result, events: sink.events };
}

const of = <T extends TraceEvent['type']>(events: TraceEvent[], type: T) => events.filter((e): e is Extract<TraceEvent, { type: T }> => e.type === type);
const promptOf = (r: ModelRequest) => r.messages.map((m) => m.content).join('\n');
const plan = (...lines: string[]) => `Here is our plan.\nEXECUTE\n${lines.join('\n')}`;

test('RoCo: the first plan fails the IK check, its text reaches every agent, the re-plan passes (re-plans 1)', async () => {
  const model = new Recording([
    // attempt 1: Alice hands on, Bob writes a plan with a point far above the arms' reach
    'I am Alice. I will lift my gripper high. PROCEED',
    plan('NAME Alice ACTION MOVE (-0.30, 0.00, 2.20)', 'NAME Bob ACTION WAIT'),
    // attempt 2: both speak again with the feedback in their prompts
    'I am Alice. The last plan failed IK; I stay lower. PROCEED',
    plan('NAME Alice ACTION MOVE (-0.30, 0.05, 1.00)', 'NAME Bob ACTION WAIT'),
  ]);
  const { result, events } = await episode('handover', model, { maxRounds: 1 });
  assert.equal(result.reason, 'round_cap', result.message);
  assert.equal(result.end.archMetrics?.['replans'], 1);
  assert.equal(result.end.archMetrics?.['envSteps'], 1);
  assert.equal(result.end.archMetrics?.['checkFailures'], 1);
  const checks = of(events, 'check').filter((c) => c.ok === false);
  const ik = checks.find((c) => /IK/i.test(c.name));
  assert.ok(ik, `an IK check failed: ${checks.map((c) => c.name).join(', ')}`);
  assert.match(ik.message ?? '', /IK failed: on Alice/);
  // The four calls: Alice and Bob before the failure, then Alice and Bob with the IK text in their prompts.
  assert.equal(model.requests.length, 4);
  assert.deepEqual(model.requests.map((r) => r.meta?.agent), ['Alice', 'Bob', 'Alice', 'Bob']);
  for (const r of model.requests.slice(0, 2)) assert.doesNotMatch(promptOf(r), /IK failed: on/);
  for (const r of model.requests.slice(2)) {
    assert.match(promptOf(r), /IK failed: on Alice/);
    assert.match(promptOf(r), /NAME Alice ACTION MOVE \(-0\.30, 0\.00, 2\.20\)/, 'the failed plan is quoted');
  }
  // The re-plan's agents also see the first dialog as the previous chat.
  assert.match(promptOf(model.requests[2]!), /I will lift my gripper high/);
  const calls = of(events, 'role_call');
  assert.deepEqual(calls.map((c) => c.agent), ['Alice', 'Bob', 'Alice', 'Bob']);
});

test('RoCo: bad plans (no EXECUTE, a robot that does not exist, a non-numeric PATH point, an object not in the scene) get feedback, are counted, and end the episode as a format failure', async () => {
  const bad = [
    'I think we should each do something sensible.',
    plan('NAME Alice ACTION WAIT', 'NAME Zed ACTION WAIT'),
    plan('NAME Alice ACTION MOVE (-0.3, 0.0, 1.0) PATH [(-0.3, 0.0, 1.1), (-0.3, zero, 1.0)]', 'NAME Bob ACTION WAIT'),
    plan('NAME Alice ACTION PICK golden_hammer', 'NAME Bob ACTION WAIT'),
  ];
  // Every dialog: Alice hands on, Bob closes with the bad plan (a re-plan ends at Bob's EXECUTE too).
  const model = new Recording(bad.flatMap((b) => ['I am Alice. PROCEED', b]));
  const { result, events } = await episode('handover', model, { maxRounds: 3, maxReplans: 4, maxDialogTurns: 2 });
  assert.equal(result.reason, 'format_failure', result.message);
  assert.equal(result.end.archMetrics?.['formatFailures'], 4);
  assert.equal(result.end.archMetrics?.['envSteps'], 0);
  const parse = of(events, 'check').filter((c) => c.name === 'plan: parse');
  assert.equal(parse.length, 4);
  assert.ok(parse.every((c) => c.ok === false && /failed to parse/.test(c.message ?? '')));
  assert.match(parse[0]!.message ?? '', /EXECUTE/);
  assert.match(parse[1]!.message ?? '', /Zed/);
  assert.match(parse[2]!.message ?? '', /zero/);
  assert.match(parse[3]!.message ?? '', /golden_hammer/);
  // Each parse failure's text reaches both agents in the next attempt.
  const later = model.requests.slice(2);
  assert.ok(later.every((r) => /failed to parse/.test(promptOf(r))));
  assert.ok(of(events, 'model_response').length >= 6);
});

test('RoCo: an object that is not in the scene fails the parse check with its name (RoCo-style feedback); the re-plan goes on', async () => {
  const model = new Recording(['I am Alice. PROCEED', plan('NAME Alice ACTION PICK golden_hammer', 'NAME Bob ACTION WAIT'), 'I am Alice. PROCEED', plan('NAME Alice ACTION WAIT', 'NAME Bob ACTION WAIT')]);
  const { result, events } = await episode('handover', model, { maxRounds: 1 });
  assert.equal(result.reason, 'round_cap');
  assert.equal(result.end.archMetrics?.['formatFailures'], 1);
  assert.equal(result.end.archMetrics?.['checkFailures'], 0);
  assert.equal(result.end.archMetrics?.['envSteps'], 1);
  const failed = of(events, 'check').find((c) => c.ok === false)!;
  assert.equal(failed.name, 'plan: parse');
  assert.match(failed.message ?? '', /failed to parse.*golden_hammer|golden_hammer[\s\S]*Re-format/);
  assert.match(failed.message ?? '', /there is no object named 'golden_hammer' in the scene; objects: wrench, toolbox/);
  assert.match(promptOf(model.requests[2]!), /golden_hammer/);
});

test('RoCo: two arms on crossing paths in one plan never overlap silently: goals that meet are rejected with the collision text; paths that cross are planned around each other', async () => {
  // In the shared strip of the handover (Alice reaches x < 0.05, Bob x > -0.05). First each gripper goes where the
  // other's arm ends up; then the goals are apart but the straight lines cross.
  const model = new Recording([
    'I am Alice. PROCEED',
    plan('NAME Alice ACTION MOVE (0.04, 0.10, 0.95)', 'NAME Bob ACTION MOVE (-0.04, 0.10, 0.95)'),
    'I am Alice. PROCEED',
    plan('NAME Alice ACTION MOVE (0.03, 0.30, 1.00)', 'NAME Bob ACTION MOVE (-0.03, -0.10, 0.90)'),
  ]);
  const { result, events } = await episode('handover', model, { maxRounds: 1, maxReplans: 2 });
  const checks = of(events, 'check');
  const rejected = checks.filter((c) => c.ok === false && c.name !== 'task_success');
  assert.equal(rejected[0]?.name, 'plan: collision');
  assert.match(rejected[0]!.message ?? '', /Collision detected: collided object pairs: Alice link\d-Bob link\d/);
  // The second plan: executed with both arms moving in the same steps and no arm-arm contact on the way, or
  // rejected by a check that names the collision; never executed through each other.
  const executed = result.end.archMetrics?.['envSteps'] === 1;
  if (executed) {
    // Both arms moved in one joint action; the motion's own contact record has no collision and a positive gap.
    const moved = of(events, 'action_result').at(-1)!;
    assert.equal(moved.results.length, 2);
    const m = moved.results[0]!.metrics as { collisionCount: number; minClearanceM: number; closestPair: string[] };
    assert.equal(m.collisionCount, 0);
    assert.ok(m.minClearanceM > 0.01, `clearance ${m.minClearanceM} between ${m.closestPair.join(' and ')}`);
  } else {
    assert.equal(rejected.length, 2);
    assert.match(rejected[1]!.message ?? '', /Collision detected/);
  }
});

test('RoCo: an executed plan in which every robot failed its part ends the round (no re-plan in it); the next round goes on from there', async () => {
  // The tabletop runs the plan; this wrapper reports every robot's part as failed, as a simulator may (executed: true).
  const failing = new Proxy(sim, {
    get(target, prop) {
      if (prop === 'act') {
        return async (actions: AgentAction[]) => {
          const r = await target.act!(actions);
          return { ...r, results: r.results.map((x) => ({ ...x, ok: false, error: `${x.agent} lost its grip` })) };
        };
      }
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  const model = new Recording([
    'I am Alice. PROCEED',
    plan('NAME Alice ACTION MOVE (-0.30, 0.05, 1.00)', 'NAME Bob ACTION MOVE (0.30, 0.05, 1.00)'),
    'I am Alice. PROCEED',
    plan('NAME Alice ACTION MOVE (-0.30, 0.10, 1.00)', 'NAME Bob ACTION MOVE (0.30, 0.10, 1.00)'),
  ]);
  const { result, events } = await episode('handover', model, { maxRounds: 2 }, failing);
  assert.equal(result.reason, 'round_cap', result.message);
  const m = result.end.archMetrics ?? {};
  assert.deepEqual([m['rounds'], m['envSteps'], m['replans'], m['checkFailures']], [2, 2, 0, 0]);
  // One dialog per round, and each round's success check ran after its executed plan.
  assert.deepEqual(of(events, 'role_call').map((c) => c.round), [1, 1, 2, 2]);
  assert.equal(of(events, 'check').filter((c) => c.name === 'task_success' && c.phase === 'mid').length, 2);
});

test("RoCo: a first speaker's EXECUTE in the first attempt does not end the dialog (every robot speaks first); in a re-plan it does", async () => {
  const model = new Recording([
    // attempt 1: Alice proposes at once; Bob still speaks, and his (unreachable) plan is the one checked
    plan('NAME Alice ACTION WAIT', 'NAME Bob ACTION WAIT'),
    plan('NAME Alice ACTION MOVE (-0.30, 0.00, 2.20)', 'NAME Bob ACTION WAIT'),
    // attempt 2 (a re-plan): Alice's EXECUTE ends the dialog; Bob is not asked
    plan('NAME Alice ACTION MOVE (-0.30, 0.05, 1.00)', 'NAME Bob ACTION WAIT'),
  ]);
  const { result, events } = await episode('handover', model, { maxRounds: 1 });
  assert.equal(result.reason, 'round_cap', result.message);
  assert.deepEqual(model.requests.map((r) => r.meta?.agent), ['Alice', 'Bob', 'Alice']);
  const dialog = of(events, 'parsed_output').filter((p) => p.kind === 'dialog').map((p) => p.value as { decision: string; early?: string });
  assert.deepEqual(dialog.map((d) => [d.decision, d.early !== undefined]), [['EXECUTE', true], ['EXECUTE', false], ['EXECUTE', false]]);
  const plans = of(events, 'parsed_output').filter((p) => p.kind === 'plan').map((p) => p.value as { attempt: number; speaker: string });
  assert.deepEqual(plans.map((p) => [p.attempt, p.speaker]), [[1, 'Bob'], [2, 'Alice']]);
  assert.equal(result.end.archMetrics?.['replans'], 1);
  assert.equal(result.end.archMetrics?.['envSteps'], 1);
});

test("RoCo on sweep_floor: the agents' parser refuses PICK (a verb this task does not offer) with the task's own actions in the feedback", async () => {
  const model = new Recording(['I am Alice. PROCEED', plan('NAME Alice ACTION PICK red_cube', 'NAME Bob ACTION WAIT')]);
  const { result, events } = await episode('sweep_floor', model, { maxRounds: 1, maxReplans: 1, maxDialogTurns: 2 });
  assert.equal(result.reason, 'format_failure', result.message);
  const parse = of(events, 'check').filter((c) => c.name === 'plan: parse');
  assert.equal(parse.length, 1);
  assert.match(parse[0]!.message ?? '', /unknown action 'PICK'; actions: (?!.*PICK)(?=.*SWEEP)(?=.*DUMP).*$/m);
  assert.equal(result.end.archMetrics?.envSteps, 0);
});
