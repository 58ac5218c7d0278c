// The warm pool: leases, reuse, the size bound, resets on return; and on the product path, that a warm episode is
// the same episode as a cold one (same trace apart from timings) and that an episode's leftovers never reach the
// next one. The real part needs `npm run build` (the sandbox worker runs from dist/; refused when older than its
// sources).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { architectures } from '../../../../src/architectures/registry.js';
import { nodeClock, nodeIO } from '../../../../src/core/node/nodeHost.js';
import { launchRun, type LaunchOptions } from '../../../../src/core/runs/launch.js';
import { WarmPool } from '../../../../src/core/runs/warmPool.js';
import { createPyodideSandbox } from '../../../../src/core/sandbox/index.js';
import type { EpisodeResetReport, ReusableSandbox, RunCodeRequest, RunCodeResult } from '../../../../src/core/sandbox/sandbox.js';
import { createTabletopSimulator } from '../../../../src/core/sim/mujoco/index.js';
import type { Simulator } from '../../../../src/core/sim/simulator.js';
import { readTrace } from '../../../../src/core/trace/reader.js';
import { FakeRobot, request } from '../sandbox/fakeRobot.js';
import { assertDistFresh } from '../../../helpers/dist.js';

assertDistFresh('dist/sandboxWorker.mjs');

class FakeSandbox implements ReusableSandbox {
  static made = 0;
  readonly id = ++FakeSandbox.made;
  warmUps = 0;
  resets = 0;
  closed = false;
  failReset = false;
  async warmUp() {
    this.warmUps++;
  }
  async run(_r: RunCodeRequest): Promise<RunCodeResult> {
    return { ok: true, exitCode: 0, stdout: String(this.id), durationMs: 0, apiCalls: [] };
  }
  async resetNamespace() {}
  async resetEpisode(): Promise<EpisodeResetReport> {
    this.resets++;
    if (this.failReset) throw new Error('reset broke');
    return { restored: [], replaced: false };
  }
  async close() {
    this.closed = true;
  }
}

const fakeSim = (log: string[]) => async (): Promise<Simulator> => {
  const id = log.length + 1;
  log.push(`sim${id}`);
  return { name: `sim${id}`, close: async () => void log.push(`close sim${id}`), simTimeSecs: () => id } as unknown as Simulator;
};

const host = { io: nodeIO, clock: nodeClock, architectures };
const tick = () => new Promise((r) => setTimeout(r, 5));

describe('WarmPool (fake sandboxes and simulators)', () => {
  it('hands the same sandbox and simulator to the next episode, resetting the sandbox in between', async () => {
    const made: FakeSandbox[] = [];
    const sims: string[] = [];
    const pool = new WarmPool({ createSandbox: () => (made.push(new FakeSandbox()), made.at(-1)!), createSimulator: fakeSim(sims) });
    const deps = pool.deps(host);
    for (let episode = 0; episode < 3; episode++) {
      const sb = deps.createSandbox();
      const sim = await deps.createSimulator();
      await sb.warmUp();
      assert.equal((await sb.run({} as RunCodeRequest)).stdout, '1');
      assert.equal(sim.name, 'sim1');
      assert.equal(sim.simTimeSecs(), 1, 'other members are the simulator\'s own');
      await Promise.all([sb.close(), sim.close()]);
      await assert.rejects(sb.run({} as RunCodeRequest), /already returned to the warm pool/);
      assert.throws(() => sim.name, /already returned to the warm pool/);
    }
    await tick();
    assert.equal(made.length, 1);
    assert.equal(made[0]!.resets, 3);
    assert.deepEqual(sims, ['sim1']);
    assert.deepEqual(pool.stats(), { ...pool.stats(), sandboxesStarted: 1, sandboxReuses: 2, simulatorsStarted: 1, simulatorReuses: 2 });
    await pool.close();
    assert.equal(made[0]!.closed, true);
    assert.deepEqual(sims, ['sim1', 'close sim1']);
  });

  it('never lends more than `size` at once: a third episode waits for one to come back', async () => {
    const pool = new WarmPool({ createSandbox: () => new FakeSandbox(), createSimulator: fakeSim([]), size: 2 });
    const deps = pool.deps(host);
    const a = deps.createSandbox();
    const b = deps.createSandbox();
    await Promise.all([a.warmUp(), b.warmUp()]);
    const c = deps.createSandbox();
    let cReady = false;
    const cWarm = c.warmUp().then(() => (cReady = true));
    await tick();
    assert.equal(cReady, false, 'the third lease waits while two are out');
    await a.close();
    await cWarm;
    assert.equal(pool.stats().sandboxesStarted, 2);
    assert.equal(pool.stats().sandboxReuses, 1);
    await Promise.all([b.close(), c.close()]);
    await pool.close();
  });

  it('drops a sandbox whose reset failed and starts a new one', async () => {
    const made: FakeSandbox[] = [];
    const pool = new WarmPool({ createSandbox: () => (made.push(new FakeSandbox()), made.at(-1)!), createSimulator: fakeSim([]) });
    const deps = pool.deps(host);
    const first = deps.createSandbox();
    await first.warmUp();
    made[0]!.failReset = true;
    await first.close();
    const second = deps.createSandbox();
    await second.warmUp();
    assert.equal(made.length, 2);
    await tick();
    assert.equal(made[0]!.closed, true);
    await second.close();
    await pool.close();
  });

  it('warmUp starts one of each ahead of the first episode, which then counts as fresh', async () => {
    const made: FakeSandbox[] = [];
    const sims: string[] = [];
    const pool = new WarmPool({ createSandbox: () => (made.push(new FakeSandbox()), made.at(-1)!), createSimulator: fakeSim(sims) });
    await pool.warmUp();
    assert.deepEqual(pool.idle, { sandboxes: 1, simulators: 1 });
    assert.equal(made[0]!.warmUps, 1);
    const deps = pool.deps(host);
    const sb = deps.createSandbox();
    await sb.warmUp();
    await (await deps.createSimulator()).close();
    await sb.close();
    assert.equal(made.length, 1);
    assert.deepEqual(sims, ['sim1']);
    assert.equal(pool.stats().sandboxReuses, 0);
    await pool.close();
  });
});

describe('WarmPool on the product path (Pyodide, MuJoCo, the reference model)', () => {
  const workspace = mkdtempSync(join(tmpdir(), 'waypoint-warm-'));
  const pool = new WarmPool({ createSandbox: () => createPyodideSandbox(), createSimulator: () => createTabletopSimulator() });
  after(async () => {
    await pool.close();
    rmSync(workspace, { recursive: true, force: true });
  });
  const options = (seed: number): LaunchOptions => ({ workspace, arch: 'malmm', task: 'stack_blocks', seed, builtInPromptRoot: join(process.cwd(), 'src', 'architectures'), model: { kind: 'reference' } });
  // What differs between two runs of the same episode by nature: times, ids, the reference server's port.
  const VOLATILE = new Set(['tMs', 'durationMs', 'latencyMs', 'startedAt', 'runId', 'baseUrl', 'loadMs']);
  const comparable = (path: string): unknown =>
    JSON.parse(JSON.stringify(readTrace(readFileSync(path, 'utf8')).events, (k, v: unknown) => (VOLATILE.has(k) ? undefined : v)));

  it('a warm episode after another one is the same episode as on fresh resources (trace equal but for timings)', async () => {
    const deps = pool.deps(host);
    const cold = await launchRun(options(0), deps);
    assert.equal(cold.success, true, `${cold.reason}: ${cold.message}`);
    const other = await launchRun(options(2), deps);
    assert.equal(other.reason, 'task_completed');
    const warm = await launchRun(options(0), deps);
    assert.equal(warm.success, true, `${warm.reason}: ${warm.message}`);
    const [w, c] = [comparable(warm.tracePath) as unknown[], comparable(cold.tracePath) as unknown[]];
    assert.ok(c.length > 100, `a whole episode (${c.length} events)`);
    assert.deepEqual(w, c);
    const s = pool.stats();
    assert.equal(s.sandboxesStarted, 1);
    assert.equal(s.sandboxReuses, 2);
    assert.equal(s.simulatorsStarted, 1);
    assert.equal(s.sandboxesReplaced, 0);
  });

  it('an episode that sets globals and monkey-patches the robot API leaves nothing for the next one', async () => {
    const deps = pool.deps(host);
    const robot = new FakeRobot();
    const dirty = deps.createSandbox();
    await dirty.warmUp();
    const code = [
      'import builtins, sys, json',
      'plan = ["pick red", "place red"]',
      'builtins.plan = plan',
      '_real_open = open_gripper',
      'def open_gripper():',
      '    print("patched: not moving")',
      'builtins.open_gripper = open_gripper',
      'builtins.close_gripper = lambda *a: print("patched close")',
      'json.loads = lambda *a, **k: {"ok": True}',
      'import statistics',
      "open('/tmp/plan.txt', 'w').write(repr(plan))",
    ].join('\n');
    const r1 = await dirty.run(request(code, robot, { persistNamespace: true }));
    assert.equal(r1.ok, true, JSON.stringify(r1.error));
    await dirty.close();

    const next = deps.createSandbox();
    await next.warmUp();
    // The same worker, reset: what it put back is in its report.
    assert.equal(pool.stats().sandboxesStarted, 1);
    assert.match(pool.stats().lastReset?.restored.join('\n') ?? '', /builtins restored[^]*sys\.modules[^]*json/);
    const check = [
      'import builtins, sys, os, json',
      "print('plan' in globals(), hasattr(builtins, 'plan'), hasattr(builtins, 'open_gripper'), 'statistics' in sys.modules, os.path.exists('/tmp/plan.txt'), json.loads('[1]'))",
      'open_gripper()',
      'close_gripper("red_block")',
      'report_state()',
    ].join('\n');
    const r2 = await next.run(request(check, robot, { persistNamespace: true }));
    assert.equal(r2.ok, true, JSON.stringify(r2.error));
    assert.equal(r2.stdout, 'False False False False False [1]\ngripper closed, holding red_block\n');
    assert.deepEqual(robot.calls.map((c) => c.fn), ['open_gripper', 'close_gripper', 'report_state'], 'the calls reached the robot, not a patched stand-in');
    await next.close();
  });
});
