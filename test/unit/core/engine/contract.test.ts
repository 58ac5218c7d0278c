// The architecture contract through the real embedded MuJoCo simulator: joint actions of two arms, per-agent
// views, snapshots that continue identically, mid-episode success checks, object tracks, declared limits, and
// the bad requests (an agent that does not exist, an unknown snapshot, a mistyped limit) recorded, not crashed.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { architectureManifests } from '../../../../src/architectures/manifests.js';
import type { ArchitectureDefinition, EpisodeContext } from '../../../../src/core/architecture/types.js';
import { DEFAULT_EPISODE_OPTIONS, runEpisode, type EpisodeResult } from '../../../../src/core/engine/episode.js';
import type { ModelClient } from '../../../../src/core/llm/client.js';
import { nodeIO } from '../../../../src/core/node/nodeHost.js';
import type { CodeSandbox } from '../../../../src/core/sandbox/sandbox.js';
import { createTabletopSimulator } from '../../../../src/core/sim/mujoco/index.js';
import type { Simulator } from '../../../../src/core/sim/simulator.js';
import { MemoryTraceSink } from '../../../../src/core/trace/writer.js';
import type { EventOf, TraceEvent } from '../../../../src/protocol/trace.js';

const clock = { nowMs: () => performance.now(), isoNow: () => '2026-11-24T00:00:00.000Z' };
let sim: Simulator;
before(async () => {
  sim = await createTabletopSimulator();
});
after(async () => {
  await sim.close();
});

/** These architectures call no role and run no code: the sandbox and the model are never used. */
const noSandbox: CodeSandbox = { warmUp: async () => {}, resetNamespace: async () => {}, close: async () => {}, run: async () => assert.fail('no code in this test') };
const noModel: ModelClient = { id: 'none', complete: async () => assert.fail('no model call in this test') };

function archWith(run: (ctx: EpisodeContext) => Promise<{ reason: string; message?: string; metrics?: Record<string, number> }>, overrides: Partial<ArchitectureDefinition> = {}): ArchitectureDefinition {
  return {
    id: 'probe',
    label: 'Probe',
    description: 'an architecture written for this test',
    paper: 'none (a test of the engine contract)',
    api: 'roco',
    simulator: 'tabletop',
    roles: [],
    topologies: { only: { label: 'only', description: 'no roles', roles: [] } },
    defaultTopology: 'only',
    builtInVariants: {},
    limits: [{ id: 'maxRounds', label: 'Rounds', type: 'int', default: 10, min: 1, description: 'dialog rounds' }],
    endReasons: { probed: 'the probe ran to its end' },
    metrics: { joint_steps: 'joint steps taken' },
    async run(ctx) {
      const r = await run(ctx);
      return { agentClaimedDone: false, ...r };
    },
    ...overrides,
  };
}

async function episode(arch: ArchitectureDefinition, task: string, limits: Record<string, unknown> = {}): Promise<{ result: EpisodeResult; events: TraceEvent[] }> {
  const sink = new MemoryTraceSink();
  const result = await runEpisode(
    {
      runId: 'contract',
      arch,
      task,
      seed: 0,
      variant: { name: 'default', ablations: {} },
      promptPaths: {},
      options: { ...DEFAULT_EPISODE_OPTIONS, limits },
      model: { provider: 'none', model: 'none', label: 'none' },
    },
    { io: nodeIO, clock, sim, sandbox: noSandbox, model: noModel, sink },
  );
  return { result, events: sink.events };
}

const ofType = <T extends TraceEvent['type']>(events: TraceEvent[], type: T) => events.filter((e): e is EventOf<T> => e.type === type);

test('a joint step moves two arms in one action; each agent gets its result; counters and agents are on the events', async () => {
  const { result, events } = await episode(
    archWith(async (ctx) => {
      assert.deepEqual(ctx.agents, ['Alice', 'Bob']);
      ctx.nextRound();
      const s = (await ctx.observe()).state;
      const left = s.objects.filter((o) => o.pos[0] < -0.1 && o.name !== 'bin').map((o) => o.name)[0]!;
      const right = s.objects.filter((o) => o.pos[0] > 0.1 && o.name !== 'bin').map((o) => o.name)[0]!;
      ctx.nextStep();
      const out = await ctx.actJointly([
        { agent: 'Alice', name: 'PICK', args: [left] },
        { agent: 'Bob', name: 'PICK', args: [right] },
      ]);
      assert.deepEqual(out.results.map((r) => [r.agent, r.ok]), [['Alice', true], ['Bob', true]], JSON.stringify(out.results));
      const after = (await ctx.observe()).state;
      assert.deepEqual(after.robots?.map((r) => [r.name, r.holding]), [['Alice', left], ['Bob', right]]);
      return { reason: 'probed', metrics: { joint_steps: 1 } };
    }),
    'pack_grocery',
  );
  assert.equal(result.reason, 'probed', result.message);
  const action = ofType(events, 'action')[0]!;
  assert.equal(action.joint, true);
  assert.deepEqual(action.actions.map((a) => a.agent), ['Alice', 'Bob']);
  assert.equal(action.round, 1);
  assert.equal(action.step, 1);
  const res = ofType(events, 'action_result')[0]!;
  assert.equal(res.actionId, action.actionId);
  assert.ok(res.seq > action.seq, 'the action is written before its result');
  assert.ok(ofType(events, 'trajectory').length > 0, 'the motion is recorded');
  const start = ofType(events, 'episode_start')[0]!;
  assert.deepEqual(start.agents, ['Alice', 'Bob']);
  assert.deepEqual(start.limits, { maxRounds: 10, maxWallSecs: 3600, maxSimSecs: 3600 }, 'its own limits and the engine caps');
  const end = ofType(events, 'episode_end')[0]!;
  assert.deepEqual(end.archMetrics, { joint_steps: 1 });
  assert.equal(end.metrics.rounds, 1);
  assert.equal(end.metrics.steps, 1);
});

test('per-agent observations differ (partial views) and are traced with their agent', async () => {
  const { events, result } = await episode(
    archWith(async (ctx) => {
      const a = await ctx.observe('Alice');
      const b = await ctx.observe('Bob');
      assert.notEqual(a.text, b.text);
      assert.ok(a.state.objects.some((o) => o.name === 'wrench'), 'the wrench lies in Alice\'s zone');
      assert.ok(!b.state.objects.some((o) => o.name === 'wrench'), 'Bob cannot see the wrench');
      assert.ok(b.state.objects.some((o) => o.name === 'toolbox'));
      return { reason: 'probed' };
    }),
    'handover',
  );
  assert.equal(result.reason, 'probed', result.message);
  const views = ofType(events, 'observation').filter((o) => o.agent !== undefined);
  assert.deepEqual(views.map((o) => [o.agent, o.view]), [['Alice', 'agent'], ['Bob', 'agent']]);
});

test('a restore continues identically (1e-9), is traced, and tracks forget the abandoned branch', async () => {
  let first: number[] = [];
  let second: number[] = [];
  const { events, result } = await episode(
    archWith(async (ctx) => {
      const id = await ctx.snapshot('before the pick');
      const mark = ctx.markTracks();
      const pick = [{ agent: 'Alice', name: 'PICK', args: ['wrench'] }, { agent: 'Bob', name: 'WAIT', args: [] }];
      await ctx.actJointly(pick);
      const flat = async () => (await ctx.observe()).state.objects.flatMap((o) => [...o.pos, ...o.euler]).concat((await ctx.observe()).state.robots!.flatMap((r) => r.pos));
      first = await flat();
      const track = ctx.tracks(mark, ['wrench'])[0]!;
      assert.ok(track.tSecs.length > 10, 'the wrench has a 50 Hz track');
      assert.ok(track.pos.at(-1)![2] > track.pos[0]![2] + 0.05, 'the track shows the wrench lifted');
      await ctx.restore(id);
      const kept = ctx.tracks(mark, ['wrench'])[0]!.tSecs;
      assert.ok(kept.length < track.tSecs.length && kept.every((t) => t <= mark + 1e-9), `only points up to the snapshot remain: ${kept.join(', ')}`);
      await ctx.actJointly(pick);
      second = await flat();
      assert.throws(() => ctx.tracks(mark, ['hammer']), /no object 'hammer'; objects: wrench, toolbox/);
      return { reason: 'probed' };
    }),
    'handover',
  );
  assert.equal(result.reason, 'probed', result.message);
  assert.equal(first.length, second.length);
  first.forEach((v, i) => assert.ok(Math.abs(v - second[i]!) < 1e-9, `value ${i}: ${v} vs ${second[i]}`));
  assert.deepEqual(ofType(events, 'snapshot').map((e) => [e.id, e.label]), [['s1', 'before the pick']]);
  assert.deepEqual(ofType(events, 'restore').map((e) => e.id), ['s1']);
});

test('a mid-episode success check is traced as phase mid; the final one as phase final', async () => {
  const { events, result } = await episode(
    archWith(async (ctx) => {
      const r = await ctx.checkSuccess();
      assert.equal(r.success, false);
      return { reason: 'probed' };
    }),
    'handover',
  );
  assert.equal(result.reason, 'probed');
  const checks = ofType(events, 'check').filter((c) => c.name === 'task_success');
  assert.deepEqual(checks.map((c) => [c.phase, c.ok]), [['mid', false], ['final', false]]);
  assert.match(checks[0]!.message, /wrench is not in the toolbox/);
});

test('an action for an agent that does not exist fails that step with a message naming the agents; the episode goes on', async () => {
  const { events, result } = await episode(
    archWith(async (ctx) => {
      const out = await ctx.actJointly([{ agent: 'Dave', name: 'PICK', args: ['wrench'] }]);
      assert.equal(out.results[0]!.ok, false);
      const again = await ctx.act('Alice', { name: 'PICK', args: ['wrench'] });
      assert.equal(again.ok, true, again.error);
      return { reason: 'probed' };
    }),
    'handover',
  );
  assert.equal(result.reason, 'probed');
  const failed = ofType(events, 'action_result')[0]!;
  assert.deepEqual(failed.results, [{ agent: 'Dave', name: 'PICK', ok: false, error: "no agent 'Dave' in this episode; agents: Alice, Bob" }]);
});

test('a restore of an unknown snapshot ends the episode as an engine error naming it; the final check still runs', async () => {
  const { events, result } = await episode(
    archWith(async (ctx) => {
      await ctx.snapshot();
      await ctx.restore('s9');
      return { reason: 'probed' };
    }),
    'handover',
  );
  assert.equal(result.reason, 'engine_error');
  assert.equal(result.message, "restore: unknown snapshot 's9' (snapshots of this episode: s1)");
  assert.equal(ofType(events, 'error')[0]!.message, result.message);
  assert.equal(ofType(events, 'check').at(-1)!.phase, 'final');
});

test('limits: a mistyped declaration and a wrong value each stop the run before the simulator is used, named', async () => {
  const bad = archWith(async () => ({ reason: 'probed' }), { limits: [{ id: 'maxRounds', label: 'Rounds', type: 'int', default: 'ten' as unknown as number, description: 'rounds' }] });
  const r1 = await episode(bad, 'handover');
  assert.equal(r1.result.reason, 'engine_error');
  assert.match(r1.result.message ?? '', /architecture 'probe' declares limit 'maxRounds' with type int but its default "ten" is not a number/);
  const r2 = await episode(archWith(async () => ({ reason: 'probed' })), 'handover', { maxRounds: 'many' });
  assert.equal(r2.result.reason, 'invalid_input');
  assert.match(r2.result.message ?? '', /limit maxRounds of probe must be an integer >= 1; "many" is not a number/);
  const r3 = await episode(archWith(async () => ({ reason: 'probed' })), 'handover', { maxTurns: 3 });
  assert.match(r3.result.message ?? '', /unknown limit 'maxTurns' for probe; its limits: maxRounds/);
  for (const r of [r1, r2, r3]) assert.equal(ofType(r.events, 'action').length, 0);
});

test('an end reason the architecture did not declare is recorded as an engine error event, the run keeps its reason', async () => {
  const { events, result } = await episode(archWith(async () => ({ reason: 'gave_up' })), 'handover');
  assert.equal(result.reason, 'gave_up');
  assert.match(ofType(events, 'error')[0]!.message, /undeclared reason 'gave_up'/);
});

test('MALMM declares its limits in the manifest the CLI and the language server read', () => {
  assert.deepEqual(architectureManifests.find('malmm')!.limits.map((l) => l.id), ['maxTurns', 'maxConsecutiveErrors']);
});
