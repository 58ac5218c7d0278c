// RoCo's built-in variants change what the agents are given (or what the planner is given) the way the paper's
// baselines and ablations do: Central Plan (one agent, the whole scene), w/o History (no past rounds in the
// prompt), w/o Feedback (a failed plan is dropped without its reasons, one attempt per round, twice the rounds),
// and the waypoint sources of Fig. 4 (the agents' PATH, linear, top-down, none). Scripted answers on the real
// MuJoCo tabletop (handover: Alice sees the wrench, Bob the toolbox).
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
import type { TraceEvent } from '../../../../src/protocol/trace.js';
import { projectReachZones } from '../../../../src/core/trace/projections/reachZones.js';
import { replacePaths } from '../../../../src/architectures/roco/waypoints.js';

const clock = { nowMs: () => performance.now(), isoNow: () => '2026-11-25T00:00:00.000Z' };
const arch = architectures.get('roco');
const promptPaths = Object.fromEntries(arch.roles.map((r) => [r.id, join(process.cwd(), 'src', 'architectures', 'roco', 'prompts', r.promptFile)]));
const noSandbox: CodeSandbox = { warmUp: async () => {}, resetNamespace: async () => {}, close: async () => {}, run: async () => assert.fail('RoCo runs no code') };
let sim: Simulator;
before(async () => {
  sim = await createTabletopSimulator();
});
after(async () => {
  await sim.close();
});

class Recording implements ModelClient {
  readonly id = 'recording';
  readonly requests: ModelRequest[] = [];
  readonly #inner: ReplayClient;
  constructor(answers: Record<string, string[]>) {
    this.#inner = new ReplayClient(answers);
  }
  complete(request: ModelRequest, options?: { signal?: AbortSignal }) {
    this.requests.push(request);
    return this.#inner.complete(request, options);
  }
}

async function episode(variant: string, model: ModelClient, limits: Record<string, unknown>, simulator: Simulator = sim): Promise<{ result: EpisodeResult; events: TraceEvent[] }> {
  const sink = new MemoryTraceSink();
  const result = await runEpisode(
    {
      runId: `roco-${variant}`,
      arch,
      task: 'handover',
      seed: 0,
      variant: resolveVariant(variant, { active: variant, variants: {} }, arch.builtInVariants),
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
const WAIT_BOTH = plan('NAME Alice ACTION WAIT', 'NAME Bob ACTION WAIT');

test('Central Plan: one central call per attempt that sees the whole scene; dialog agents see only their own side', async () => {
  const central = new Recording({ 'roco/central': [WAIT_BOTH] });
  const c = await episode('central_plan', central, { maxRounds: 1 });
  assert.equal(c.result.end.archMetrics?.['dialogTurns'], 1);
  assert.deepEqual(central.requests.map((r) => r.meta?.role), ['central']);
  const whole = promptOf(central.requests[0]!);
  assert.match(whole, /wrench/);
  assert.match(whole, /toolbox/);
  assert.match(whole, /Alice/);
  assert.match(whole, /Bob/);

  const dialog = new Recording({ 'roco/dialog': ['I am Alice. PROCEED', WAIT_BOTH] });
  await episode('dialog', dialog, { maxRounds: 1 });
  assert.deepEqual(dialog.requests.map((r) => [r.meta?.role, r.meta?.agent]), [['dialog', 'Alice'], ['dialog', 'Bob']]);
  const obs = (r: ModelRequest) => /\[Current Observation\]\n([\s\S]*?)\n\n/.exec(promptOf(r))?.[1] ?? '';
  assert.match(obs(dialog.requests[0]!), /wrench/);
  assert.doesNotMatch(obs(dialog.requests[0]!), /toolbox/, 'Alice does not see the toolbox on Bob\'s side');
  assert.match(obs(dialog.requests[1]!), /toolbox/);
  assert.doesNotMatch(obs(dialog.requests[1]!), /wrench/, 'Bob does not see the wrench on Alice\'s side');
});

test('w/o History: the second round\'s prompts carry no dialog or executed action of the first; with history they do', async () => {
  const answers = () => ({ 'roco/dialog': ['I am Alice. Round one: the wrench waits. PROCEED', WAIT_BOTH, 'I am Alice. PROCEED', WAIT_BOTH] });
  const full = new Recording(answers());
  await episode('dialog', full, { maxRounds: 2 });
  const bare = new Recording(answers());
  await episode('no_history', bare, { maxRounds: 2 });
  assert.equal(full.requests.length, 4);
  assert.equal(bare.requests.length, 4);
  for (const r of full.requests.slice(2)) {
    assert.match(promptOf(r), /\[History\]/);
    assert.match(promptOf(r), /Round one: the wrench waits/);
    assert.match(promptOf(r), /NAME Bob ACTION WAIT/);
  }
  for (const r of bare.requests.slice(2)) {
    assert.doesNotMatch(promptOf(r), /\[History\]/);
    assert.doesNotMatch(promptOf(r), /Round one: the wrench waits/);
  }
  // The first round is the same in both: the ablation removes history only.
  assert.equal(promptOf(full.requests[0]!), promptOf(bare.requests[0]!));
});

test('w/o Feedback: a failed plan ends its round without its reasons, one attempt per round, twice the rounds', async () => {
  const tooHigh = plan('NAME Alice ACTION MOVE (-0.30, 0.00, 2.20)', 'NAME Bob ACTION WAIT');
  const model = new Recording({ 'roco/dialog': ['I am Alice. PROCEED', tooHigh, 'I am Alice. PROCEED', WAIT_BOTH] });
  const { result, events } = await episode('no_feedback', model, { maxRounds: 1, maxReplans: 5 });
  // maxRounds 1 doubled; one attempt per round (no re-plan after the IK failure).
  assert.equal(result.end.archMetrics?.['rounds'], 2);
  assert.equal(result.end.archMetrics?.['replans'], 0);
  assert.equal(result.end.archMetrics?.['checkFailures'], 1);
  assert.ok(of(events, 'check').some((c) => c.ok === false && /IK failed/.test(c.message ?? '')), 'the check itself still reports why');
  assert.equal(model.requests.length, 4);
  for (const r of model.requests.slice(2)) {
    // The round's dialog stays in the history (as in the paper); the check's reasons do not reach the agents.
    assert.doesNotMatch(promptOf(r), /IK failed: on|This proposed plan failed|Previous Plan:/);
    assert.match(promptOf(r), /The last plan could not be carried out/);
  }
  // With feedback (the default), the same failure is re-planned in the same round with its reasons.
  const withFb = new Recording({ 'roco/dialog': ['I am Alice. PROCEED', tooHigh, 'I am Alice. PROCEED', WAIT_BOTH] });
  const d = await episode('dialog', withFb, { maxRounds: 1, maxReplans: 5 });
  assert.equal(d.result.end.archMetrics?.['rounds'], 1);
  assert.equal(d.result.end.archMetrics?.['replans'], 1);
  assert.match(promptOf(withFb.requests[2]!), /IK failed: on Alice/);
});

test("a plan that passed the checks but could not be executed: the next round shows it with the planner's reason, w/o Feedback without", async () => {
  // The simulator's first joint step fails in the motion planner after every check passed (RoCo's "failed to execute").
  const failingOnce = (): Simulator => {
    let first = true;
    // Every other member is the real simulator's, bound to it (its private fields need the real `this`).
    const wrapped = new Proxy(sim, {
      get: (t, k) => (k === 'act' ? act : typeof Reflect.get(t, k) === 'function' ? (Reflect.get(t, k) as (...a: unknown[]) => unknown).bind(t) : Reflect.get(t, k)),
    });
    const act: NonNullable<Simulator['act']> = async (actions) => {
      if (!first) return sim.act!(actions);
      first = false;
      return {
        results: actions.map((a) => ({ agent: a.agent, name: a.name, ok: false, error: 'no collision-free path within 800 iterations' })),
        checks: [{ name: 'collision', ok: true }],
        info: { executed: false },
      } as Awaited<ReturnType<NonNullable<Simulator['act']>>>;
    };
    return wrapped;
  };
  const answers = () => new Recording({ 'roco/dialog': ['I am Alice. PROCEED', WAIT_BOTH, 'I am Alice. PROCEED', WAIT_BOTH] });
  const withFb = answers();
  const e1 = await episode('dialog', withFb, { maxRounds: 2 }, failingOnce());
  assert.ok(withFb.requests.length > 2, `${e1.result.reason}: ${e1.result.message}`);
  const shown = promptOf(withFb.requests[2]!);
  assert.match(shown, /passed the checks but could not be executed/);
  assert.match(shown, /NAME Alice ACTION WAIT[\s\S]*\(no collision-free path within 800 iterations\)/);
  const noFb = answers();
  await episode('no_feedback', noFb, { maxRounds: 1 }, failingOnce());
  const bare = promptOf(noFb.requests[2]!);
  assert.match(bare, /NAME Alice ACTION WAIT/);
  assert.doesNotMatch(bare, /collision-free path/);
});

test('w/o Feedback: a plan that does not parse ends only its round; maxReplans unparseable plans in a row end the episode', async () => {
  const noBlock = 'I am Bob. We should both wait, I think.';
  // Round 1's plan has no EXECUTE block (Bob's turn is the last of the dialog: maxDialogTurns 2); round 2's parses.
  const once = new Recording({ 'roco/dialog': ['I am Alice. PROCEED', noBlock, 'I am Alice. PROCEED', WAIT_BOTH] });
  const r1 = await episode('no_feedback', once, { maxRounds: 1, maxReplans: 2, maxDialogTurns: 2 });
  assert.equal(r1.result.reason, 'round_cap', r1.result.message);
  assert.equal(r1.result.end.archMetrics?.['rounds'], 2);
  assert.equal(r1.result.end.archMetrics?.['formatFailures'], 1);
  assert.equal(r1.result.end.archMetrics?.['envSteps'], 1);
  // Two in a row (maxReplans 2): format failure after round 2, although four rounds were allowed.
  const twice = new Recording({ 'roco/dialog': ['I am Alice. PROCEED', noBlock, 'I am Alice. PROCEED', noBlock] });
  const r2 = await episode('no_feedback', twice, { maxRounds: 2, maxReplans: 2, maxDialogTurns: 2 });
  assert.equal(r2.result.reason, 'format_failure');
  assert.equal(r2.result.end.archMetrics?.['rounds'], 2);
  assert.match(r2.result.message ?? '', /the last 2 plans in a row failed to parse/);
});

test('waypoint sources: the planner gets the agents\' PATH, a linear path, a top-down path or none (Fig. 4)', async () => {
  type V3 = [number, number, number];
  const target: V3 = [-0.3, 0.05, 1.0];
  const agentsPath: V3[] = [[-0.45, 0.0, 1.2], [-0.4, 0.02, 1.15], [-0.35, 0.04, 1.05], target];
  const line = `NAME Alice ACTION MOVE (${target.join(', ')}) PATH [${agentsPath.map((p) => `(${p.join(', ')})`).join(', ')}]`;
  const pathOf = async (variant: string): Promise<V3[] | undefined> => {
    const model = new Recording({ 'roco/dialog': ['I am Alice. PROCEED', plan(line, 'NAME Bob ACTION WAIT')] });
    const { events } = await episode(variant, model, { maxRounds: 1 });
    const acted = of(events, 'action').find((e) => e.joint)!;
    const alice = acted.actions.find((a) => a.agent === 'Alice')!;
    assert.deepEqual(alice.args[0], target);
    return alice.args.find((x) => Array.isArray(x) && Array.isArray(x[0])) as V3[] | undefined;
  };
  const start: V3 = [-0.4, 0.0, 1.1];
  const near = (a: readonly number[], b: readonly number[], tol = 0.006) => a.every((v, i) => Math.abs(v - b[i]!) <= tol);

  assert.deepEqual(await pathOf('dialog'), agentsPath);

  const linear = (await pathOf('linear_waypoints'))!;
  assert.equal(linear.length, 4);
  // Evenly spaced on the straight line from the gripper (at its home pose) to the target.
  linear.forEach((p, k) => assert.ok(near(p, start.map((s, i) => s + ((k + 1) / 4) * (target[i]! - s))), `linear point ${k}: ${p.join(', ')}`));

  const topdown = (await pathOf('topdown_waypoints'))!;
  assert.equal(topdown.length, 4);
  assert.ok(near(topdown[3]!, target));
  assert.notDeepEqual(topdown, linear);
  // Up (or level) to the safe height first, across, then down onto the target: never below the target's height.
  assert.ok(topdown.every((p) => p[2] >= target[2] - 1e-9));
  // From the home pose (already at the safe height 1.1 m): across at that height, then straight down.
  assert.ok(topdown.slice(0, 2).every((p) => Math.abs(p[2] - 1.1) < 0.006), `travel at the safe height: ${JSON.stringify(topdown)}`);
  assert.ok(topdown.every((p, k) => k === 0 || p[2] <= topdown[k - 1]![2] + 1e-9), 'never up again once descending');
  assert.ok(near(topdown[2]!.slice(0, 2), target.slice(0, 2)), 'down only once over the target');

  assert.equal(await pathOf('no_waypoints'), undefined);
});

test('replaced waypoints keep the agents\' goal (where their PATH ends) and point count; actions without a PATH get none; a combined PICK … PLACE\'s path starts above the object', () => {
  type V3 = [number, number, number];
  const obj = (name: string, pos: V3, size: V3) => ({ name, pos, size, euler: [0, 0, 0] as V3, color: 'grey' });
  const whole = {
    text: '',
    state: {
      objects: [obj('bin', [0, 0.3, 0.78], [0.4, 0.3, 0.06]), obj('apple', [0.2, 0, 0.78], [0.06, 0.06, 0.06]), obj('panel2', [-0.34, 0.15, 0.75], [0.12, 0.12, 0.002])],
      ee: { pos: [0, 0, 1.1] as V3, yawRad: 0 },
      gripperOpen: true,
      grasped: null,
      robots: [{ name: 'Alice', pos: [-0.2, 0, 1.0] as V3, yawRad: 0, holding: 'apple' }],
    },
  };
  // The agents chose a spot in the bin's corner, not its centre.
  const spot: V3 = [0.12, 0.38, 1.0];
  const place = { agent: 'Alice', name: 'PLACE', args: ['apple', 'bin', [[-0.1, 0.1, 1.0], [0.0, 0.2, 1.0], [0.05, 0.3, 1.0], spot]] };
  for (const source of ['linear', 'topdown'] as const) {
    const path = replacePaths([place], whole, source)[0]!.args[2] as V3[];
    assert.equal(path.length, 4, source);
    assert.deepEqual(path[3], spot, `${source}: ends at the agents' spot`);
  }
  const bare = { agent: 'Alice', name: 'PICK', args: ['apple'] };
  assert.deepEqual(replacePaths([bare], whole, 'topdown'), [bare]);
  const near = (a: readonly number[], b: readonly number[]) => a.every((v, i) => Math.abs(v - b[i]!) < 1e-6);
  const above2: V3 = [-0.34, 0.15, 0.951];
  const combined = { agent: 'Alice', name: 'PICK', args: ['apple', 'PLACE', 'panel2', [[0, 0, 1], [-0.1, 0.1, 1], [-0.2, 0.1, 1], above2]] };
  const line = replacePaths([combined], whole, 'linear')[0]!.args[3] as V3[];
  // From 12 cm above the apple (where the pick leaves the gripper) to the PATH's end, in four even steps.
  assert.ok(near(line[3]!, above2) && near(line[0]!, [0.065, 0.038, 0.935]), JSON.stringify(line));
});

test('reach zones (top-down view): every robot\'s zone and base from the observation, and every robot\'s executed path from the recorded samples', async () => {
  const model = new Recording({ 'roco/dialog': ['I am Alice. PROCEED', plan('NAME Alice ACTION MOVE (-0.30, 0.10, 1.00)', 'NAME Bob ACTION MOVE (0.30, 0.10, 1.00)')] });
  const { events } = await episode('dialog', model, { maxRounds: 1 });
  const v = projectReachZones(events);
  assert.deepEqual(v.robots.map((r) => [r.name, r.reachX]), [['Alice', [-0.6, 0.05]], ['Bob', [-0.05, 0.6]]]);
  assert.ok(v.robots.every((r) => r.base && Math.abs(r.base[1] + 0.35) < 1e-6), 'bases on the near edge');
  assert.ok(v.objects.some((o) => o.name === 'wrench') && v.objects.some((o) => o.name === 'toolbox'));
  assert.deepEqual(v.paths.map((p) => p.robot), ['Alice', 'Bob']);
  for (const [k, goal] of [[0, [-0.3, 0.1]], [1, [0.3, 0.1]]] as const) {
    const pts = v.paths[k]!.points;
    assert.ok(pts.length >= 10, `${v.paths[k]!.robot}: ${pts.length} points`);
    const [sx, sy] = pts[0]!;
    const [ex, ey] = pts.at(-1)!;
    // Each hand moved toward its own goal (the hand sits over the tool centre point of a top-down tool).
    assert.ok(Math.hypot(ex - goal[0], ey - goal[1]) < Math.hypot(sx - goal[0], sy - goal[1]) - 0.05, `${v.paths[k]!.robot} moved from (${sx}, ${sy}) to (${ex}, ${ey})`);
    assert.ok(Math.hypot(ex - goal[0], ey - goal[1]) < 0.03, `${v.paths[k]!.robot} ends at its goal`);
  }
});
