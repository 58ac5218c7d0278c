// Many episodes in flight in one worker process (issue 28): the scheduler spreads `concurrency` episodes over the
// workers' slots; one `waypoint sweep-worker` process with K slots keeps K episodes' model calls waiting at once on
// a slow endpoint (a proxy that holds every request, in front of the reference server: it counts the most requests
// in flight, so no wall-clock ratio is asserted); and an episode whose code loops forever fails only its own
// record while the other episodes sharing its Pyodide interpreter succeed; a cancel reaches all of a process's
// episodes. Real episodes: MuJoCo, Pyodide, the reference model over HTTP. Needs `npm run build` (the worker
// process and the sandbox run from dist/).
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { architectures } from '../../../../src/architectures/registry.js';
import type { ModelClient } from '../../../../src/core/llm/client.js';
import { registerReferencePolicies } from '../../../../src/core/llm/reference/policies.js';
import { startReferenceServer, type ReferenceServer } from '../../../../src/core/llm/reference/server.js';
import { nodeClock, nodeIO } from '../../../../src/core/node/nodeHost.js';
import { createPyodideSandbox } from '../../../../src/core/sandbox/index.js';
import { connectSimulator } from '../../../../src/core/sim/connect.js';
import { ChildProcessWorker } from '../../../../src/core/sweep/childWorker.js';
import { lanes, runSweep } from '../../../../src/core/sweep/scheduler.js';
import { defaultWorkers, parseSweepSpec, planSweep } from '../../../../src/core/sweep/spec.js';
import { WarmWorkerResources, type DepsSource } from '../../../../src/core/sweep/warmDeps.js';
import { InProcessWorker, type EpisodeWorker } from '../../../../src/core/sweep/workers.js';
import { readTrace } from '../../../../src/core/trace/reader.js';
import { freshCli } from '../../../helpers/dist.js';
import { startLatencyProxy } from '../../../helpers/latencyProxy.js';

const CLI = freshCli();
const root = join(process.cwd(), 'src', 'architectures');
const dirs: string[] = [];
const tmp = () => (dirs.push(mkdtempSync(join(tmpdir(), 'waypoint-inflight-'))), dirs.at(-1)!);
let server: ReferenceServer;
before(async () => {
  registerReferencePolicies(architectures);
  server = await startReferenceServer({ port: 0 });
});
after(async () => {
  await server.close();
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const plan = (ws: string, text: string) => planSweep(parseSweepSpec(text, 'inflight.yaml'), { io: nodeIO, architectures, workspace: ws, builtInPromptRoot: root, file: 'inflight.yaml' });

test('lanes: the episodes in flight are spread round-robin over the workers, each up to its slots', () => {
  const w = (slots: number): EpisodeWorker => ({ slots, run: () => Promise.reject(new Error('unused')), close: async () => {} });
  const [a, b] = [w(4), w(4)];
  const count = (ls: EpisodeWorker[], x: EpisodeWorker) => ls.filter((l) => l === x).length;
  const eight = lanes([a, b], 8);
  assert.deepEqual([count(eight, a), count(eight, b)], [4, 4]);
  const three = lanes([a, b], 3);
  assert.deepEqual([count(three, a), count(three, b)], [2, 1]);
  // Never more than the slots, whatever concurrency asks; without one, every slot.
  assert.equal(lanes([a, b], 50).length, 8);
  assert.equal(lanes([w(1), w(1), w(1)]).length, 3);
  assert.equal(lanes([a, w(1)], 5).filter((l) => l !== a).length, 1);
});

test('defaultWorkers: one per core up to 4, never more than the episodes in flight', () => {
  // At most 16 episodes per process by default (MuJoCo's WebAssembly module aborted with 32 RoCo scenes).
  assert.equal(defaultWorkers(64, 2), 4);
  assert.equal(defaultWorkers(32, 2), 2);
  assert.equal(defaultWorkers(33, 2), 3);
  assert.equal(defaultWorkers(64, 32), 4);
  assert.equal(defaultWorkers(3, 32), 3);
  assert.equal(defaultWorkers(1, 8), 1);
});

test('the sweep file takes workers, and refuses more workers than episodes in flight or a bad value, with the line', () => {
  const base = 'arch: malmm\ntasks: [stack_blocks_2]\nvariants: [sa]\nseeds: 2\n';
  assert.equal(parseSweepSpec(`${base}concurrency: 8\nworkers: 2\n`, 'ok.yaml').workers, 2);
  assert.equal(parseSweepSpec(base, 'ok.yaml').workers, undefined);
  assert.throws(() => parseSweepSpec(`${base}concurrency: 2\nworkers: 3\n`, 'w.yaml'), /^SweepSpecError: w\.yaml:6: workers 3 is more than concurrency 2 \(the episodes in flight, spread over the worker processes\): a process would have no episode to run; lower workers or raise concurrency$/);
  assert.throws(() => parseSweepSpec(`${base}workers: 0\n`, 'w.yaml'), /^SweepSpecError: w\.yaml:5: workers: /);
  assert.throws(() => parseSweepSpec(`${base}concurrency: 4\nworkers: 1.5\n`, 'w.yaml'), /^SweepSpecError: w\.yaml:6: workers: .*int/i);
});

test('one worker process with 4 slots keeps 4 episodes\' model calls in flight at once on a slow endpoint', { timeout: 300_000 }, async () => {
  const proxy = await startLatencyProxy(server.url, 800);
  const ws = tmp();
  // Without this test's TypeScript loader: the worker is the CLI bundle (the bench starts workers so too).
  const worker = new ChildProcessWorker(CLI, process.env, 4, []);
  try {
    const p = await plan(ws, `arch: malmm\ntasks: [stack_blocks_2]\nvariants: [sa]\nseeds: 4\nmodel: {name: reference, baseUrl: '${proxy.url}'}\ncache: false\nconcurrency: 4\nworkers: 1\n`);
    proxy.reset();
    const r = await runSweep({ plan: p, io: nodeIO, clock: nodeClock, workspace: ws, builtInPromptRoot: root, sim: 'embedded', workers: [worker], concurrency: p.spec.concurrency });
    assert.equal(r.status, 'complete');
    assert.deepEqual(r.records.map((x) => [x.seed, x.success, x.reason]), [0, 1, 2, 3].map((s) => [s, true, 'task_completed']));
    const calls = r.records.reduce((a, x) => a + x.modelCalls, 0);
    assert.equal(proxy.stats.chatCalls, calls, 'every model call went through the slow endpoint');
    // One episode at a time would never have more than one request waiting at the proxy.
    assert.equal(proxy.stats.maxInFlight, 4, `most requests in flight at the proxy: ${proxy.stats.maxInFlight}`);
    // The node flags given reached the process (this test runs under tsx; its flags did not).
    const lines = workerCommandLines();
    assert.equal(lines.length, 1, `sweep-worker processes of this test: ${lines.length}`);
    assert.deepEqual(lines[0]!.slice(1, lines[0]!.indexOf(CLI)), []);
  } finally {
    await worker.close();
    await proxy.close();
  }
});

/** Command lines (argv) of this process's `sweep-worker` children, read from /proc. */
function workerCommandLines(): string[][] {
  const out: string[][] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${d}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1]);
      const argv = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (ppid === process.pid && argv.includes('sweep-worker')) out.push(argv);
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

/** The model's every code block replaced by one that never ends. */
const loopingModel = (c: ModelClient): ModelClient => ({
  id: c.id,
  async complete(req, o) {
    const r = await c.complete(req, o);
    return r.ok ? { ...r, text: r.text.replace(/```python\n[\s\S]*?```/g, '```python\nwhile True:\n    pass\n```') } : r;
  },
});

test('an episode whose code loops forever fails only its own record; the others sharing its interpreter succeed', { timeout: 300_000 }, async () => {
  const ws = tmp();
  // The consecutive-error stop ends the looping episode after two timed-out blocks (instead of 150 turns).
  const p = await plan(ws, `arch: malmm\ntasks: [stack_blocks_2]\nvariants: [{name: sa_guard, variant: sa, ablations: {loop.consecutive_error_stop: true}}]\nseeds: 3\nmodel: {name: reference}\ncache: false\nlimits: {maxConsecutiveErrors: 2}\nconcurrency: 3\n`);
  const bad = p.episodes[1]!.key;
  const warm = new WarmWorkerResources({ io: nodeIO, clock: nodeClock, architectures }, { createSandbox: () => createPyodideSandbox(), connect: (spec, o) => connectSimulator(spec, o) }, 3);
  const source: DepsSource = {
    depsFor: (job) => {
      const d = warm.depsFor(job);
      return job.episode.key === bad ? { ...d, wrapModel: loopingModel } : d;
    },
    close: () => warm.close(),
  };
  const worker = new InProcessWorker(source, undefined, 3);
  try {
    const r = await runSweep({ plan: p, io: nodeIO, clock: nodeClock, workspace: ws, builtInPromptRoot: root, sim: 'embedded', workers: [worker], concurrency: 3, options: { codeTimeoutSecs: 1 } });
    assert.equal(r.status, 'complete');
    const stats = warm.stats();
    assert.equal(stats.sandboxesStarted, 1, 'the three episodes shared one sandbox');
    const looping = r.records.find((x) => x.key === bad)!;
    assert.equal(looping.success, false);
    const { events } = readTrace(readFileSync(join(ws, looping.tracePath), 'utf8'));
    const exits = events.flatMap((e) => (e.type === 'code_execution' ? [e.exitCode] : []));
    assert.ok(exits.length >= 1 && exits.every((x) => x === 124), `the looping episode's blocks hit the time limit: ${exits.join(', ')}`);
    const others = r.records.filter((x) => x.key !== bad);
    assert.deepEqual(others.map((x) => [x.success, x.reason]), [[true, 'task_completed'], [true, 'task_completed']]);
  } finally {
    await worker.close();
  }
});

test('a cancel reaches every episode in flight in a worker process: none is recorded, and the resume runs them', { timeout: 300_000 }, async () => {
  const proxy = await startLatencyProxy(server.url, 500);
  const ws = tmp();
  const text = `name: cancel-inflight\narch: malmm\ntasks: [stack_blocks_2]\nvariants: [sa]\nseeds: 4\nmodel: {name: reference, baseUrl: '${proxy.url}'}\ncache: false\nconcurrency: 3\nworkers: 1\n`;
  try {
    const p = await plan(ws, text);
    const first = new ChildProcessWorker(CLI, process.env, 3);
    const ac = new AbortController();
    // Stop once three episodes are waiting on the model at once (none can have finished: each needs 8 calls).
    const watch = setInterval(() => proxy.stats.inFlight >= 3 && ac.abort(), 20);
    const r1 = await runSweep({ plan: p, io: nodeIO, clock: nodeClock, workspace: ws, builtInPromptRoot: root, sim: 'embedded', workers: [first], concurrency: 3, signal: ac.signal }).finally(() => clearInterval(watch));
    await first.close();
    assert.equal(r1.status, 'cancelled');
    assert.equal(r1.records.length, 0, 'the three episodes in flight were cancelled, not recorded');
    const second = new ChildProcessWorker(CLI, process.env, 3);
    const r2 = await runSweep({ plan: await plan(ws, text), io: nodeIO, clock: nodeClock, workspace: ws, builtInPromptRoot: root, sim: 'embedded', workers: [second], concurrency: 3 });
    await second.close();
    assert.equal(r2.status, 'complete');
    assert.deepEqual([r2.ran, r2.skipped], [4, 0]);
    assert.ok(r2.records.every((x) => x.success));
  } finally {
    await proxy.close();
  }
});

test('a worker process killed mid-sweep: its episodes run again in a new process and the sweep completes', { timeout: 300_000 }, async () => {
  const proxy = await startLatencyProxy(server.url, 400);
  const ws = tmp();
  const worker = new ChildProcessWorker(CLI, process.env, 2);
  const pids: number[] = [];
  try {
    const p = await plan(ws, `name: killed-worker\narch: malmm\ntasks: [stack_blocks_2]\nvariants: [sa]\nseeds: 2\nmodel: {name: reference, baseUrl: '${proxy.url}'}\ncache: false\nconcurrency: 2\nworkers: 1\n`);
    // Kill the process once both episodes wait on the model (as the kernel's OOM killer would).
    const watch = setInterval(() => {
      if (pids.length === 0 && proxy.stats.inFlight >= 2 && worker.pid !== undefined) {
        pids.push(worker.pid);
        process.kill(worker.pid, 'SIGKILL');
      }
    }, 20);
    const r = await runSweep({ plan: p, io: nodeIO, clock: nodeClock, workspace: ws, builtInPromptRoot: root, sim: 'embedded', workers: [worker], concurrency: 2 }).finally(() => clearInterval(watch));
    assert.equal(pids.length, 1, 'the process was killed once');
    assert.equal(r.status, 'complete');
    assert.deepEqual(r.records.map((x) => [x.seed, x.success, x.reason]), [[0, true, 'task_completed'], [1, true, 'task_completed']]);
    assert.notEqual(worker.pid, pids[0], 'a new process ran them');
  } finally {
    await worker.close();
    await proxy.close();
  }
});
