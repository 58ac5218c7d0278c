// The embedded household simulator served over the simulator protocol (serveSimulator, in-process and WebSocket):
// the conformance suite, plus what LLaMAR needs from a remote household: a team size on reset, per-agent views,
// joint actions with one result per agent, and a whole LLaMAR episode run through the protocol.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { architectures } from '../../src/architectures/registry.js';
import { DEFAULT_EPISODE_OPTIONS, runEpisode } from '../../src/core/engine/episode.js';
import { nodeIO } from '../../src/core/node/nodeHost.js';
import { resolveVariant } from '../../src/core/prompt/variants.js';
import { createHouseholdSimulator } from '../../src/core/sim/household/index.js';
import { createInProcessTransportPair, RemoteSimulator } from '../../src/core/sim/remote/index.js';
import { listenWebSocket, serveSimulator, type WebSocketSimServer } from '../../src/core/sim/serve/index.js';
import { MemoryTraceSink } from '../../src/core/trace/writer.js';
import { HouseholdExtra } from '../../src/protocol/household.js';
import { SimErrorCode } from '../../src/protocol/simulator.js';
import { noSandbox, policyClient, runLlamar } from '../unit/architectures/llamar/helpers.js';
import { FakeTabletop } from './fakeSimulator.js';
import { conformanceSuite, rejectsWithCode } from './suite.js';
import { skipWithout } from '../helpers/prereqs.js';

async function inProcess(): Promise<RemoteSimulator> {
  const [client, server] = createInProcessTransportPair();
  serveSimulator(createHouseholdSimulator(), server, { snapshots: 'id' });
  return RemoteSimulator.over(client);
}

conformanceSuite({ label: 'embedded household, in-process', connect: inProcess });

let ws: WebSocketSimServer | undefined;
before(async () => {
  ws = await listenWebSocket(async () => createHouseholdSimulator());
});
after(async () => {
  await ws?.close();
});
conformanceSuite({ label: 'embedded household, WebSocket', connect: () => RemoteSimulator.connect(ws!.url) });

// The AI2-THOR adapter over stdio, on the stand-in controller (ai2thor's shapes, not AI2-THOR: it cannot run here).
const THOR = 'stdio:python3 bridges/python/examples/ai2thor_llamar.py --stand-in';
const noPython = skipWithout('python3');
conformanceSuite({ label: 'AI2-THOR adapter (stand-in controller), stdio', connect: () => RemoteSimulator.connect(THOR), skip: noPython });

describe('household over the protocol: team size, per-agent views, joint actions', () => {
  it('announces agent views and joint actions; reset takes a team size; observe(agent) is that agent\'s view', async () => {
    const sim = await inProcess();
    try {
      assert.equal(sim.capabilities.agentViews, true);
      assert.equal(sim.capabilities.jointActions, true);
      const r = await sim.reset('put_all_groceries_fridge@studio', 2, { api: 'llamar', agents: 3 });
      assert.deepEqual(r.agents, ['Alice', 'Bob', 'Charlie']);
      assert.equal(r.task.arms, 3);
      const tooMany = await rejectsWithCode(sim.reset('put_all_groceries_fridge@studio', 2, { api: 'llamar', agents: 6 }), SimErrorCode.INVALID_PARAMS);
      assert.deepEqual(tooMany.data, { param: 'agents' });
      assert.match(tooMany.message, /agents must be an integer from 1 to 5, got 6/);
      await sim.reset('put_all_groceries_fridge@studio', 2, { api: 'llamar', agents: 3 });
      const bob = await sim.observe('Bob');
      const h = HouseholdExtra.parse(bob.state.extra!.household);
      assert.equal(h.agent, 'Bob');
      assert.match(bob.text, /^Bob's observation: \[/);
      const out = await sim.act!([
        { agent: 'Charlie', name: 'Rotate', args: ['Left'] },
        { agent: 'Alice', name: 'Explore', args: [] },
        { agent: 'Bob', name: 'Pickup', args: ['Unicorn_1'] },
      ]);
      assert.deepEqual(out.results.map((x) => [x.agent, x.name, x.ok]), [['Charlie', 'Rotate', true], ['Alice', 'Explore', true], ['Bob', 'Pickup', false]]);
      assert.equal(out.results[2]!.error, 'I tried to pick up Unicorn_1 in the previous step but was unsuccessful.');
      await rejectsWithCode(sim.request('reset', { task: 'open_all_drawers', seed: 0, agents: 0 }), SimErrorCode.INVALID_PARAMS);
      await assert.rejects(sim.reset('open_all_drawers', 0, { agents: 6 }), /agents must be an integer from 1 to 5, got 6/);
    } finally {
      await sim.close();
    }
  });

  it('a whole LLaMAR episode runs through the protocol, with the same result as in-process', async () => {
    const go = async (sim: Awaited<ReturnType<typeof inProcess>> | ReturnType<typeof createHouseholdSimulator>) => {
      const { result, events } = await runLlamar({ task: 'put_bread_lettuce_tomato_fridge', agents: 2, sim });
      return { result, actions: events.filter((e) => e.type === 'action_result').map((e) => JSON.stringify(e.type === 'action_result' ? e.results : [])) };
    };
    const remote = await inProcess();
    const viaProtocol = await go(remote);
    await remote.close();
    const local = await go(createHouseholdSimulator());
    assert.equal(viaProtocol.result.success, true, viaProtocol.result.message);
    assert.deepEqual(viaProtocol.actions, local.actions);
  });

  it('LLaMAR with the reference model solves a task through the AI2-THOR adapter (stand-in controller)', { skip: noPython }, async () => {
    const sim = await RemoteSimulator.connect(THOR);
    try {
      const { result, events } = await runLlamar({ task: 'put_bread_lettuce_tomato_fridge@FloorPlan1', agents: 2, sim });
      assert.equal(result.success, true, `${result.reason}: ${result.message}`);
      assert.equal(result.end.archMetrics!.transportRate, 1);
      const navs = events.flatMap((e) => (e.type === 'action_result' ? e.results.filter((r) => r.name === 'NavigateTo') : []));
      assert.ok(navs.length >= 3 && navs.every((r) => /^I navigated to \w+_\d+ in the previous step and was successful\.$/.test(r.output ?? r.error ?? '')));
    } finally {
      await sim.close();
    }
  });

  it('a simulator whose tasks fix the team keeps its robots, and the engine refuses the run as invalid input', async () => {
    const [client, server] = createInProcessTransportPair();
    serveSimulator(new FakeTabletop(), server);
    const sim = await RemoteSimulator.over(client);
    try {
      const arch = architectures.get('malmm');
      const result = await runEpisode(
        {
          runId: 'fixed-team',
          arch,
          task: 'pick_place',
          seed: 0,
          agents: 3,
          variant: resolveVariant('default', { active: 'default', variants: {} }, arch.builtInVariants),
          promptPaths: Object.fromEntries(arch.roles.map((r) => [r.id, `src/architectures/malmm/prompts/${r.promptFile}`])),
          options: { ...DEFAULT_EPISODE_OPTIONS, limits: {} },
          model: { provider: 'reference', model: 'reference', label: 'reference (scripted, not an LLM)' },
        },
        { io: nodeIO, clock: { nowMs: () => 0, isoNow: () => 'x' }, sim, sandbox: noSandbox, model: policyClient(), sink: new MemoryTraceSink() },
      );
      assert.equal(result.reason, 'invalid_input');
      assert.match(result.message!, /3 agents were asked for, but task 'pick_place' of .+ has 1 \(robot\)/);
    } finally {
      await sim.close();
    }
  });
});
