// The simulator-protocol conformance suite: one set of behaviour checks run against every server (the TS server
// around a fake or the embedded MuJoCo simulator, in-process / stdio / WebSocket, and the Python SDK's example).
// It knows only the protocol: tasks, API and workspace come from the server's own answers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SIM_PROTOCOL_VERSION, SimErrorCode } from '../../src/protocol/simulator.js';
import { WorldState } from '../../src/protocol/trace.js';
import { RemoteSimulator, SimulatorRpcError } from '../../src/core/sim/remote/index.js';

export interface ConformanceTarget {
  label: string;
  connect: () => Promise<RemoteSimulator>;
  /** The node:test `skip` option (a server that needs a missing program: test/helpers/prereqs.ts). */
  skip?: string | false;
}

async function withSim(target: ConformanceTarget, fn: (sim: RemoteSimulator) => Promise<void>): Promise<void> {
  const sim = await target.connect();
  try {
    await fn(sim);
  } finally {
    await sim.close();
  }
}

/** Rejects with a SimulatorRpcError of `code`; returns it for further checks. */
export async function rejectsWithCode(p: Promise<unknown>, code: number): Promise<SimulatorRpcError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof SimulatorRpcError, `expected a SimulatorRpcError, got: ${(e as Error).message}`);
    assert.equal(e.code, code, `expected code ${code}, got ${e.code}: ${e.message}`);
    return e;
  }
  assert.fail(`expected rejection with code ${code}, but the call resolved`);
}

export function conformanceSuite(target: ConformanceTarget): void {
  describe(`simulator protocol conformance: ${target.label}`, { skip: target.skip ?? false }, () => {
    it('initialize announces version, name, tasks and capabilities', () =>
      withSim(target, async (sim) => {
        const c = sim.capabilities;
        assert.equal(c.protocolVersion, SIM_PROTOCOL_VERSION);
        assert.ok(c.simulator.name.length > 0);
        assert.ok(c.tasks.length > 0, 'at least one task');
        assert.equal(new Set(c.tasks.map((t) => t.id)).size, c.tasks.length, 'task ids are unique');
        assert.ok(c.observationKinds.includes('text') && c.observationKinds.includes('state'));
        assert.deepEqual(sim.tasks(), c.tasks);
        for (const set of c.apis) for (const f of set.functions) assert.ok(f.signature.startsWith(`${f.name}(`), f.signature);
      }));

    it('calls before reset answer NO_EPISODE', () =>
      withSim(target, async (sim) => {
        await rejectsWithCode(sim.observe(), SimErrorCode.NO_EPISODE);
        await rejectsWithCode(sim.call('open_gripper', []), SimErrorCode.NO_EPISODE);
      }));

    it('reset returns the task, a valid observation, the API and the workspace; same seed, same scene', () =>
      withSim(target, async (sim) => {
        const task = sim.tasks()[0]!;
        const a = await sim.reset(task.id, 7);
        assert.equal(a.task.id, task.id);
        assert.ok(WorldState.safeParse(a.observation.state).success);
        assert.ok(a.observation.text.length > 0);
        assert.ok(a.api.length > 0, 'reset lists the robot API');
        for (const f of a.api) assert.ok(f.signature.startsWith(`${f.name}(`), f.signature);
        assert.ok(a.workspace.xRange[0] < a.workspace.xRange[1] && a.workspace.yRange[0] < a.workspace.yRange[1]);
        assert.ok(sim.simTimeSecs() >= 0);
        const b = await sim.reset(task.id, 7);
        assert.deepEqual(b.observation.state, a.observation.state);
        assert.deepEqual(await sim.observe(), b.observation);
      }));

    it('reset of an unknown task answers UNKNOWN_TASK naming it and the known ids', () =>
      withSim(target, async (sim) => {
        const e = await rejectsWithCode(sim.reset('no_such_task', 0), SimErrorCode.UNKNOWN_TASK);
        assert.match(e.message, /no_such_task/);
        assert.deepEqual(e.data?.known, sim.tasks().map((t) => t.id));
      }));

    it('invalid params answer INVALID_PARAMS naming the parameter', () =>
      withSim(target, async (sim) => {
        const task = sim.tasks()[0]!.id;
        const seed = await rejectsWithCode(sim.request('reset', { task, seed: 'x' as unknown as number }), SimErrorCode.INVALID_PARAMS);
        assert.equal(seed.data?.param, 'seed');
        assert.match(seed.message, /seed/);
        const missing = await rejectsWithCode(sim.request('reset', { seed: 1 } as never), SimErrorCode.INVALID_PARAMS);
        assert.equal(missing.data?.param, 'task');
        await sim.reset(task, 0);
        const args = await rejectsWithCode(sim.request('act', { fn: 'open_gripper', args: 'none' as unknown as unknown[] }), SimErrorCode.INVALID_PARAMS);
        assert.equal(args.data?.param, 'args');
      }));

    it('an unknown method answers METHOD_NOT_FOUND', () =>
      withSim(target, async (sim) => {
        await rejectsWithCode(sim.request('teleport' as 'observe', {}), SimErrorCode.METHOD_NOT_FOUND);
      }));

    it('act with an unknown function or bad arguments is a failed call, not a protocol error', () =>
      withSim(target, async (sim) => {
        await sim.reset(sim.tasks()[0]!.id, 0);
        const r = await sim.call('fly_to_the_moon', []);
        assert.equal(r.ok, false);
        assert.match(r.ok ? '' : r.error, /fly_to_the_moon/);
      }));

    it('a motion moves the end effector, advances sim time and records a trajectory that drains once', (t) =>
      withSim(target, async (sim) => {
        const { api, workspace, observation } = await sim.reset(sim.tasks()[0]!.id, 0);
        if (!api.some((f) => f.name === 'execute_trajectory')) return t.skip('no execute_trajectory in this API');
        await sim.drainTrajectory();
        const target: [number, number, number] = [
          (workspace.xRange[0] + workspace.xRange[1]) / 2,
          (workspace.yRange[0] + workspace.yRange[1]) / 2,
          workspace.tableTopZ + 0.25,
        ];
        const t0 = sim.simTimeSecs();
        const r = await sim.call('execute_trajectory', [target, observation.state.ee.yawRad]);
        assert.equal(r.ok, true, r.ok ? '' : r.error);
        const ee = (await sim.observe()).state.ee.pos;
        assert.ok(Math.hypot(ee[0] - target[0], ee[1] - target[1], ee[2] - target[2]) < 0.02, `ee ${ee} reached ${target}`);
        assert.ok(sim.simTimeSecs() > t0, 'sim time advanced');
        const drained = await sim.drainTrajectory();
        assert.ok(drained.rateHz > 0);
        assert.ok(drained.samples.length > 0, 'samples were recorded');
        for (let i = 1; i < drained.samples.length; i++) assert.ok(drained.samples[i]!.tSecs >= drained.samples[i - 1]!.tSecs);
        assert.equal((await sim.drainTrajectory()).samples.length, 0, 'a drain clears the buffer');
      }));

    it('check answers success with a one-line detail; geometry names its bodies', () =>
      withSim(target, async (sim) => {
        await sim.reset(sim.tasks()[0]!.id, 0);
        const c = await sim.check();
        assert.equal(typeof c.success, 'boolean');
        assert.ok(c.detail.length > 0 && !c.detail.includes('\n'));
        const g = await sim.geometry();
        assert.ok(g.bodies.length > 0);
        for (const geom of g.geoms) assert.ok(g.bodies.includes(geom.body), `geom body ${geom.body} is listed`);
      }));

    it('snapshot and restore return to the saved state, or answer SNAPSHOT_UNSUPPORTED', () =>
      withSim(target, async (sim) => {
        const { api, workspace } = await sim.reset(sim.tasks()[0]!.id, 3);
        if (sim.capabilities.snapshots === 'none') {
          await rejectsWithCode(sim.snapshot(), SimErrorCode.SNAPSHOT_UNSUPPORTED);
          return;
        }
        const before = await sim.observe();
        const t0 = sim.simTimeSecs();
        const snap = await sim.snapshot();
        if (api.some((f) => f.name === 'execute_trajectory')) {
          await sim.call('execute_trajectory', [[workspace.xRange[0] + 0.05, workspace.yRange[0] + 0.05, workspace.tableTopZ + 0.2], 0.3]);
        } else {
          await sim.call(api[0]!.name, []);
        }
        await sim.restore(snap);
        assert.deepEqual((await sim.observe()).state, before.state);
        assert.equal(sim.simTimeSecs(), t0);
        // A snapshot taken before a reset is gone after it (ids) or still restorable (blobs): both are allowed.
      }));

    it('execute runs code when announced, and answers UNSUPPORTED otherwise', () =>
      withSim(target, async (sim) => {
        const { api } = await sim.reset(sim.tasks()[0]!.id, 0);
        if (!sim.capabilities.codeLanguages.includes('python')) {
          await rejectsWithCode(sim.execute('print(1)', 'python'), SimErrorCode.UNSUPPORTED);
          return;
        }
        const ok = await sim.execute('print("hello")', 'python');
        assert.equal(ok.ok, true);
        assert.equal(ok.stdout, 'hello\n');
        const bad = await sim.execute('x = 1\nraise ValueError("boom")', 'python');
        assert.equal(bad.ok, false);
        assert.equal(bad.error?.type, 'ValueError');
        assert.equal(bad.error?.line, 2);
        const zeroArg = api.find((f) => f.params.length === 0);
        if (zeroArg) {
          const r = await sim.execute(`${zeroArg.name}()`, 'python');
          assert.deepEqual(r.apiCalls.map((c) => c.fn), [zeroArg.name]);
        }
        await rejectsWithCode(sim.execute('1', 'cobol'), SimErrorCode.UNSUPPORTED);
      }));

    it('close ends the session; later calls reject with a clear message', async () => {
      const sim = await target.connect();
      await sim.reset(sim.tasks()[0]!.id, 0);
      await sim.close();
      assert.equal(sim.disconnected, true);
      await assert.rejects(sim.observe(), /simulator '.+' is disconnected .*cannot observe/);
    });
  });
}

/** The toy worlds' scripted pick-and-place (fake TS and Python example share the world): must succeed. */
export async function scriptedPickAndPlace(sim: RemoteSimulator, seed: number): Promise<{ success: boolean; detail: string; acts: number }> {
  const { observation } = await sim.reset('pick_place', seed);
  const obj = (n: string) => observation.state.objects.find((o) => o.name === n)!;
  const red = obj('red_block').pos;
  const zone = obj('green_zone').pos;
  const steps: [string, unknown[]][] = [
    ['open_gripper', []],
    ['execute_trajectory', [[red[0], red[1], red[2] + 0.1], 0]],
    ['execute_trajectory', [[red[0], red[1], red[2]], 0]],
    ['close_gripper', ['red_block']],
    ['execute_trajectory', [[red[0], red[1], red[2] + 0.1], 0]],
    ['execute_trajectory', [[zone[0], zone[1], red[2] + 0.1], 0]],
    ['execute_trajectory', [[zone[0], zone[1], red[2] + 0.005], 0]],
    ['open_gripper', []],
    ['execute_trajectory', [[zone[0], zone[1], red[2] + 0.1], 0]],
  ];
  for (const [fn, args] of steps) {
    const r = await sim.call(fn, args);
    assert.equal(r.ok, true, `${fn}: ${r.ok ? '' : r.error}`);
  }
  return { ...(await sim.check()), acts: steps.length };
}
