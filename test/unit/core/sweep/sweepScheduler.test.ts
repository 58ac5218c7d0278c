// The sweep scheduler with an injected launch (no simulator): resume after an interruption, budget, shards merged,
// endpoint outages. The launch writes a real trace file and makes one metered model call, so records, labels and
// the meter go through the product code.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createHash } from 'node:crypto';
import { architectures } from '../../../../src/architectures/registry.js';
import { nodeClock, nodeIO } from '../../../../src/core/node/nodeHost.js';
import type { LaunchDeps, LaunchOptions, LaunchResult } from '../../../../src/core/runs/launch.js';
import { tracePath } from '../../../../src/core/runs/runStore.js';
import { preflightRun } from '../../../../src/core/runs/preflight.js';
import { promptIdentityOf } from '../../../../src/core/sweep/promptVersion.js';
import { isInfrastructureFailure, runSweep, WORKER_EXIT_ATTEMPTS, type SweepProgressInfo } from '../../../../src/core/sweep/scheduler.js';
import { parseSweepSpec, planSweep, type PlannedSweep } from '../../../../src/core/sweep/spec.js';
import { InProcessWorker, readRecords, sweepDirOf, WorkerExitedError, type EpisodeWorker } from '../../../../src/core/sweep/workers.js';
import type { ModelClient } from '../../../../src/core/llm/client.js';
import { mergeCommand, progressLine } from '../../../../src/cli/sweep.js';

const roots: string[] = [];
after(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));
const newWs = () => {
  const d = mkdtempSync(join(tmpdir(), 'waypoint-sweep-sched-'));
  roots.push(d);
  return d;
};
const builtInPromptRoot = join(process.cwd(), 'src', 'architectures');

const YAML = `
arch: malmm
tasks: [stack_blocks]
variants:
  - malmm
  - {name: no_define, variant: malmm, ablations: {coder.define_in_same_block: false}}
  - sa
seeds: 6
model: {name: reference-flawed}
`;

async function plan(ws: string, extra = ''): Promise<PlannedSweep> {
  return planSweep(parseSweepSpec(YAML + extra, 'test.yaml'), { io: nodeIO, architectures, workspace: ws, builtInPromptRoot, file: 'test.yaml' });
}

/** Deterministic outcome per (seed, variant, ablations): what a real sweep's determinism gives. */
const outcome = (o: LaunchOptions) => createHash('sha256').update(JSON.stringify([o.seed, o.variant, o.ablations, o.repeatIndex])).digest()[0]! % 3 !== 0;

/** episode_start's prompt fields as a real run writes them: the files the topology uses, with the ablations in effect. */
async function promptFields(o: LaunchOptions, deps: LaunchDeps, edit?: (sha: string) => string) {
  const pre = await preflightRun(deps.io, { ...o, architectures: deps.architectures });
  const id = await promptIdentityOf(deps.io, pre);
  return { agentVariant: id.agent, ablations: id.ablations, prompts: Object.entries(id.prompts).map(([role, sha]) => ({ role, path: pre.promptPaths[role], sha256: edit ? edit(sha) : sha })) };
}

function fakeLaunch(calls: LaunchOptions[], failFirst: Map<string, number> = new Map(), o2: { reason?: (o: LaunchOptions) => string | undefined; editedPrompts?: (o: LaunchOptions) => boolean } = {}) {
  return async (o: LaunchOptions, deps: LaunchDeps): Promise<LaunchResult> => {
    calls.push(o);
    const prompts = await promptFields(o, deps, o2.editedPrompts?.(o) ? (sha) => sha.replace(/^./, (c) => (c === '0' ? '1' : '0')) : undefined);
    const fake: ModelClient = { id: 'fake', complete: async () => ({ ok: true, text: 'ok', usage: { promptTokens: 60, completionTokens: 40 }, latencyMs: 3, cached: false, attempts: 1 }) };
    const client = deps.wrapModel ? deps.wrapModel(fake) : fake;
    await client.complete({ model: 'm', messages: [{ role: 'user', content: 'hello' }] });
    const left = failFirst.get(o.runId!) ?? 0;
    if (left > 0) failFirst.set(o.runId!, left - 1);
    const forced = o2.reason?.(o);
    const success = left > 0 || forced ? false : outcome(o);
    const reason = left > 0 ? 'model_error' : forced ?? (success ? 'task_completed' : 'turn_cap');
    const path = tracePath(o.workspace, o.runId!);
    mkdirSync(join(path, '..'), { recursive: true });
    const start = { seq: 0, tMs: 0, type: 'episode_start', schemaVersion: 2, runId: o.runId, arch: 'malmm', task: o.task, taskDescription: 't', seed: o.seed, variant: o.variant, ...prompts, model: { provider: 'reference', model: 'reference-flawed', label: 'reference-flawed' }, simulator: { name: 'fake', version: '0' }, options: { maxTurns: 10, maxConsecutiveErrors: 5, persistNamespace: false, codeTimeoutSecs: 5 }, startedAt: '2026-01-01T00:00:00Z' };
    const exec = { seq: 1, tMs: 1, type: 'code_execution', turn: 1, role: 'coder', language: 'python', code: 'x', ok: false, exitCode: 1, stdout: '', error: { type: 'NameError', message: "name 'yaw' is not defined" }, durationMs: 1, apiCalls: [], namespacePersisted: false };
    const end = { seq: 2, tMs: 2, type: 'episode_end', success, reason, agentClaimedDone: false, metrics: { turns: 4, modelCalls: 1, cachedCalls: 0, promptTokens: 60, completionTokens: 40, codeBlocks: 1, codeErrors: 1, formatErrors: 0, durationMs: 5, simTimeSecs: 1 } };
    writeFileSync(path, [start, exec, end].map((e) => JSON.stringify(e)).join('\n') + '\n');
    return { success, reason, events: 3, end: end as never, runId: o.runId!, tracePath: path, agentClaimedDone: false } as LaunchResult;
  };
}

const workers = (n: number, launch: ReturnType<typeof fakeLaunch>) => Array.from({ length: n }, () => new InProcessWorker(() => ({ io: nodeIO, clock: nodeClock, architectures, createSimulator: () => Promise.reject(new Error('no sim')), createSandbox: () => ({}) as never }), launch));
const base = (ws: string, p: PlannedSweep) => ({ plan: p, io: nodeIO, clock: nodeClock, workspace: ws, builtInPromptRoot, sim: 'embedded' });
const sorted = <T extends { key: string }>(rs: T[]) => [...rs].sort((a, b) => (a.key < b.key ? -1 : 1));

test('keys are deterministic, name run folders, and include the repeat index', async () => {
  const ws = newWs();
  const a = await plan(ws);
  const b = await plan(ws);
  assert.equal(a.episodes.length, 18);
  assert.deepEqual(a.episodes.map((e) => e.key), b.episodes.map((e) => e.key));
  assert.equal(new Set(a.episodes.map((e) => e.key)).size, 18);
  const rep = await plan(ws, 'repeats: 2\n');
  const k0 = rep.episodes.filter((e) => e.seed === 0 && e.cell === 'malmm');
  assert.equal(k0.length, 2);
  assert.notEqual(k0[0]!.key, k0[1]!.key);
  const calls: LaunchOptions[] = [];
  await runSweep({ ...base(ws, rep), workers: workers(1, fakeLaunch(calls)) });
  assert.deepEqual(new Set(calls.map((c) => c.repeatIndex)), new Set([0, 1]));
  for (const c of calls) assert.ok(existsSync(tracePath(ws, c.runId!)), 'the key names the run folder');
});

test('one worker with 3 slots runs 3 episodes at once; an episode whose launch throws is its own engine_error record', async () => {
  const ws = newWs();
  const p = await plan(ws);
  const bad = p.episodes[1]!.key;
  let now = 0;
  let most = 0;
  const inner = fakeLaunch([]);
  const launch: typeof inner = async (o, deps) => {
    most = Math.max(most, ++now);
    try {
      // Long enough for the scheduler to hand this worker its other slots before any episode ends.
      await new Promise((r) => setTimeout(r, 30));
      if (o.runId === bad) throw new Error('the engine broke on this one');
      return await inner(o, deps);
    } finally {
      now--;
    }
  };
  const worker = new InProcessWorker(() => ({ io: nodeIO, clock: nodeClock, architectures, createSimulator: () => Promise.reject(new Error('no sim')), createSandbox: () => ({}) as never }), launch, 3);
  const r = await runSweep({ ...base(ws, p), workers: [worker], concurrency: 3 });
  assert.equal(r.status, 'complete');
  assert.equal(most, 3, 'three episodes in flight in the one worker');
  assert.equal(r.records.length, p.episodes.length);
  const failed = r.records.filter((x) => x.reason === 'engine_error');
  assert.deepEqual(failed.map((x) => [x.key, x.message]), [[bad, 'the engine broke on this one']]);
  // Asking for more than the worker's slots keeps it at its slots.
  most = 0;
  const ws2 = newWs();
  await runSweep({ ...base(ws2, await plan(ws2)), workers: [worker], concurrency: 8 });
  assert.equal(most, 3);
});

test('a worker process that dies takes its episodes with it: they run again in a new process; one that keeps killing it is an engine_error after 3 tries, and the sweep goes on', async () => {
  const ws = newWs();
  const p = await plan(ws);
  const flaky = p.episodes[0]!.key;
  const deadly = p.episodes[2]!.key;
  const tries = new Map<string, number>();
  const inner = new InProcessWorker(() => ({ io: nodeIO, clock: nodeClock, architectures, createSimulator: () => Promise.reject(new Error('no sim')), createSandbox: () => ({}) as never }), fakeLaunch([]), 2);
  // What ChildProcessWorker rejects with when its process exits under a job.
  const dying: EpisodeWorker = {
    slots: 2,
    run: async (job, meter, signal) => {
      const k = job.episode.key;
      tries.set(k, (tries.get(k) ?? 0) + 1);
      if (k === deadly || (k === flaky && tries.get(k) === 1)) throw new WorkerExitedError(k, null, 'SIGKILL');
      return inner.run(job, meter, signal);
    },
    close: () => inner.close(),
  };
  const r = await runSweep({ ...base(ws, p), workers: [dying], concurrency: 2 });
  assert.equal(r.status, 'complete', 'a dead process does not end the sweep');
  assert.equal(r.records.length, p.episodes.length);
  assert.equal(tries.get(flaky), 2);
  assert.notEqual(r.records.find((x) => x.key === flaky)!.reason, 'engine_error', 'the second try in a new process ran it');
  assert.equal(tries.get(deadly), WORKER_EXIT_ATTEMPTS);
  const dead = r.records.find((x) => x.key === deadly)!;
  assert.equal(dead.reason, 'engine_error');
  assert.match(dead.message!, /signal SIGKILL.*3 times/);
  assert.ok(!isInfrastructureFailure(dead), 'counted as a finished episode, so a resume does not run it a fourth time');
  const again = await runSweep({ ...base(ws, p), workers: [dying], concurrency: 2 });
  assert.equal(again.ran, 0);
});

test('a sweep interrupted midway and resumed gives the same records as an uninterrupted one, rerunning nothing finished', async () => {
  const wsA = newWs();
  const full = await runSweep({ ...base(wsA, await plan(wsA)), workers: workers(2, fakeLaunch([])) });
  assert.equal(full.status, 'complete');
  assert.equal(full.records.length, 18);

  const wsB = newWs();
  const p = await plan(wsB);
  const ac = new AbortController();
  const first: LaunchOptions[] = [];
  const r1 = await runSweep({ ...base(wsB, p), workers: workers(2, fakeLaunch(first)), signal: ac.signal, onProgress: (x: SweepProgressInfo) => x.done >= 7 && ac.abort() });
  assert.equal(r1.status, 'cancelled');
  assert.ok(r1.records.length >= 7 && r1.records.length < 18, `${r1.records.length} finished before the stop`);
  // A kill can also leave a half-written record and a run folder without one: both must run again.
  const pending = p.episodes.find((e) => !r1.records.some((r) => r.key === e.key))!;
  writeFileSync(join(sweepDirOf(wsB, p.name), 'episodes', `${pending.key}.json`), '{"key": "' + pending.key);
  const second: LaunchOptions[] = [];
  const r2 = await runSweep({ ...base(wsB, await plan(wsB)), workers: workers(2, fakeLaunch(second)) });
  assert.equal(r2.status, 'complete');
  assert.equal(r2.skipped, r1.records.length);
  assert.equal(second.length, 18 - r1.records.length, 'only unfinished episodes ran again');
  assert.ok(second.some((c) => c.runId === pending.key));
  assert.deepEqual(sorted(r2.records), sorted(full.records));
  const onDisk = await readRecords(nodeIO, sweepDirOf(wsB, p.name));
  assert.equal(onDisk.length, 18);
});

test('the budget stops scheduling; episodes already finished count on resume', async () => {
  const ws = newWs();
  const calls: LaunchOptions[] = [];
  // Every fake episode spends 100 tokens through the meter; 450 allows 5 to start with one worker.
  const r = await runSweep({ ...base(ws, await plan(ws, 'budget: {tokens: 450}\n')), workers: workers(1, fakeLaunch(calls)) });
  assert.equal(r.status, 'budget_exhausted');
  assert.equal(calls.length, 5);
  assert.equal(r.spentTokens, 500);
  const again: LaunchOptions[] = [];
  const r2 = await runSweep({ ...base(ws, await plan(ws, 'budget: {tokens: 450}\n')), workers: workers(1, fakeLaunch(again)) });
  assert.equal(r2.status, 'budget_exhausted');
  assert.equal(again.length, 0, 'a resumed sweep does not get a fresh budget');
});

test('an endpoint failing pauses every worker and retries; no finished episode is lost', async () => {
  const ws = newWs();
  const p = await plan(ws);
  const fail = new Map([[p.episodes[3]!.key, 3]]);
  const slept: number[] = [];
  const calls: LaunchOptions[] = [];
  const r = await runSweep({ ...base(ws, p), workers: workers(2, fakeLaunch(calls, fail)), endpointRetry: { firstDelayMs: 10, maxDelayMs: 40, patienceMs: 60_000 }, sleep: async (ms) => void slept.push(ms) });
  assert.equal(r.status, 'complete');
  assert.equal(r.endpointPauses, 3);
  for (const d of [10, 20, 40]) assert.ok(slept.includes(d), `backs off ${d} ms (slept ${slept.join(', ')})`);
  assert.equal(r.records.length, 18);
  assert.ok(r.records.every((x) => x.reason !== 'model_error'));
  assert.equal(calls.filter((c) => c.runId === p.episodes[3]!.key).length, 4);
  // Past its patience the failure is recorded as the episode's outcome.
  const ws2 = newWs();
  const p2 = await plan(ws2);
  const r2 = await runSweep({ ...base(ws2, p2), workers: workers(1, fakeLaunch([], new Map([[p2.episodes[0]!.key, 99]]))), endpointRetry: { firstDelayMs: 1, maxDelayMs: 1, patienceMs: 0 }, sleep: async () => {} });
  assert.equal(r2.records.find((x) => x.key === p2.episodes[0]!.key)?.reason, 'model_error');
});

test('a sandbox or simulator that cannot start is the machinery failing, not the variant: retried, never counted', () => {
  assert.equal(isInfrastructureFailure({ reason: 'engine_error', message: 'code sandbox failed to start: sandbox worker failed to start: start-up took longer than 60 s' }), true);
  assert.equal(isInfrastructureFailure({ reason: 'simulator_error', message: 'cannot start the simulator: x' }), true);
  assert.equal(isInfrastructureFailure({ reason: 'sandbox_error', message: 'code sandbox failed to start: cannot start python3: spawn python3 ENOENT' }), true);
  assert.equal(isInfrastructureFailure({ reason: 'model_error' }), true);
  assert.equal(isInfrastructureFailure({ reason: 'engine_error', message: 'TypeError in the loop' }), false);
  assert.equal(isInfrastructureFailure({ reason: 'turn_cap' }), false);
});

test('shards 0/2 and 1/2 merged equal the unsharded sweep', async () => {
  const wsAll = newWs();
  const all = await runSweep({ ...base(wsAll, await plan(wsAll)), workers: workers(1, fakeLaunch([])) });
  const ws0 = newWs();
  const ws1 = newWs();
  const s0 = await runSweep({ ...base(ws0, await plan(ws0)), shard: { index: 0, count: 2 }, workers: workers(1, fakeLaunch([])) });
  const s1 = await runSweep({ ...base(ws1, await plan(ws1)), shard: { index: 1, count: 2 }, workers: workers(1, fakeLaunch([])) });
  assert.equal(s0.records.length + s1.records.length, 18);
  assert.equal(new Set([...s0.records, ...s1.records].map((r) => r.key)).size, 18, 'the shards do not overlap');
  const wsOut = newWs();
  const out = join(sweepDirOf(wsOut, 'test'));
  let printed = '';
  const code = await mergeCommand([s0.dir, s1.dir], { out }, { write: (s: string) => void (printed += s) } as never);
  assert.equal(code, 0, printed);
  const merged = await readRecords(nodeIO, out);
  assert.deepEqual(sorted(merged), sorted(all.records));
  assert.match(printed, /merged 2 folders: 18\/18 episodes/);
  // Traces came along, so the merged sweep's episodes open in the run viewer.
  for (const r of merged) assert.ok(existsSync(join(wsOut, r.tracePath)), r.tracePath);
});

test('progress: the bar, the ETA from the pace so far, and each cell\'s running success rate, as the line shows them', async () => {
  const ws = newWs();
  const p = await plan(ws);
  // A clock that moves 1 s per episode: the ETA is then exact.
  let now = 0;
  const clock = { nowMs: () => now, isoNow: () => new Date(now).toISOString() };
  const inner = fakeLaunch([]);
  const launch = async (o: LaunchOptions, d: LaunchDeps) => ((now += 1000), inner(o, d));
  const seen: SweepProgressInfo[] = [];
  const r = await runSweep({ ...base(ws, p), clock, workers: workers(1, launch), onProgress: (x) => x.last && seen.push(structuredClone(x)) });
  assert.equal(seen.length, 18);
  assert.deepEqual(seen.map((x) => x.done), Array.from({ length: 18 }, (_, i) => i + 1));
  assert.equal(seen[0]!.etaMs, 17_000, 'one episode a second, 17 left');
  assert.equal(seen[8]!.etaMs, 9_000);
  assert.equal(seen.at(-1)!.etaMs, 0);
  // Running rates: per cell, the successes among the episodes finished so far.
  for (const x of seen) {
    const soFar = r.records.filter((rec) => p.episodes.findIndex((e) => e.key === rec.key) < x.done);
    for (const cell of Object.keys(x.rates)) {
      const mine = soFar.filter((rec) => rec.cell === cell);
      assert.deepEqual(x.rates[cell], { successes: mine.filter((rec) => rec.success).length, n: mine.length }, `after ${x.done}, ${cell}`);
    }
  }
  const first = progressLine(seen[0]!);
  assert.match(first, /^\[#\.{19}\] 1\/18 · \d running · ETA 17s · malmm [01]\/1$/);
  const last = progressLine({ ...seen.at(-1)!, running: 0 });
  const cells = p.cells.map((c) => `${c.name} ${r.records.filter((x) => x.cell === c.name && x.success).length}/6`).join(' · ');
  assert.equal(last, `[####################] 18/18 · 0 running · ETA 0s · ${cells}`);
  assert.match(progressLine({ ...seen[3]!, skipped: 2, paused: 'model endpoint failing; retry in 4s' }), /4\/18 \(2 resumed\) .* PAUSED: model endpoint failing; retry in 4s$/);
});

// The episode key names what the episode is: an edited prompt is another episode, an unchanged one is not.
test('a prompt edit re-runs exactly the episodes whose prompts changed, and only those; another folder with the same text re-runs nothing', async () => {
  const ws = newWs();
  const own = join(ws, 'prompts', 'malmm');
  mkdirSync(own, { recursive: true });
  for (const f of ['sa.prompt', 'coder.prompt']) writeFileSync(join(own, f), readFileSync(join(builtInPromptRoot, 'malmm', 'prompts', f), 'utf8'));
  const first = await runSweep({ ...base(ws, await plan(ws)), workers: workers(1, fakeLaunch([])) });
  assert.equal(first.status, 'complete');
  // Edit the single agent's prompt: only the sa column (6 episodes) runs again; MALMM's columns never read it.
  writeFileSync(join(own, 'sa.prompt'), readFileSync(join(own, 'sa.prompt'), 'utf8') + '\nCheck the gripper before each grasp.\n');
  const p2 = await plan(ws);
  const calls: LaunchOptions[] = [];
  const second = await runSweep({ ...base(ws, p2), workers: workers(1, fakeLaunch(calls)) });
  assert.equal(second.status, 'complete');
  assert.deepEqual(new Set(calls.map((c) => c.variant)), new Set(['sa']));
  assert.equal(calls.length, 6);
  assert.equal(second.skipped, 12);
  assert.notEqual(p2.cells.find((c) => c.name === 'sa')!.promptVersion, (await plan(newWs())).cells.find((c) => c.name === 'sa')!.promptVersion, 'the column names its new prompt version');
  // The coder's prompt is read by both MALMM columns (malmm, no_define), not by sa.
  writeFileSync(join(own, 'coder.prompt'), readFileSync(join(own, 'coder.prompt'), 'utf8').replace('\n', '\n\n'));
  const calls3: LaunchOptions[] = [];
  const third = await runSweep({ ...base(ws, await plan(ws)), workers: workers(1, fakeLaunch(calls3)) });
  assert.equal(third.skipped, 6);
  assert.deepEqual(calls3.map((c) => `${c.variant}/${Object.keys(c.ablations ?? {}).length}`).sort(), [...Array(6).fill('malmm/0'), ...Array(6).fill('malmm/1')].sort());
  // The same text from another folder (--prompts) is the same episode: nothing runs.
  const copy = join(ws, 'copy');
  mkdirSync(copy);
  for (const f of ['sa.prompt', 'coder.prompt', 'planner.prompt', 'supervisor.prompt']) writeFileSync(join(copy, f), readFileSync(existsSync(join(own, f)) ? join(own, f) : join(builtInPromptRoot, 'malmm', 'prompts', f), 'utf8'));
  const viaFolder = await planSweep(parseSweepSpec(YAML, 'test.yaml'), { io: nodeIO, architectures, workspace: ws, builtInPromptRoot, promptDir: copy, file: 'test.yaml' });
  const calls4: LaunchOptions[] = [];
  const fourth = await runSweep({ ...base(ws, viaFolder), promptDir: copy, workers: workers(1, fakeLaunch(calls4)) });
  assert.equal(calls4.length, 0);
  assert.equal(fourth.skipped, 18);
});

test('two sweeps with different names and the same settings never share run folders or records', async () => {
  const ws = newWs();
  const a = await plan(ws, 'name: first\n');
  const b = await plan(ws, 'name: second\n');
  assert.equal(a.episodes.filter((e) => b.episodes.some((x) => x.key === e.key)).length, 0);
  await runSweep({ ...base(ws, a), workers: workers(1, fakeLaunch([])) });
  const calls: LaunchOptions[] = [];
  const rb = await runSweep({ ...base(ws, b), workers: workers(1, fakeLaunch(calls)) });
  assert.equal(calls.length, 18, 'the second sweep runs its own episodes');
  assert.equal(rb.skipped, 0);
  assert.equal(readdirSync(join(ws, '.waypoint', 'runs')).length, 36);
  assert.ok(readdirSync(join(ws, '.waypoint', 'runs')).every((d) => d.startsWith('first-') || d.startsWith('second-')));
});

test('an episode refused for its configuration stops the sweep without a record; old refusals and records of other prompts are not kept on resume', async () => {
  const ws = newWs();
  const p = await plan(ws);
  const bad = p.episodes[4]!;
  const calls: LaunchOptions[] = [];
  const r = await runSweep({ ...base(ws, p), workers: workers(1, fakeLaunch(calls, new Map(), { reason: (o) => (o.runId === bad.key ? 'invalid_input' : undefined) })) });
  assert.equal(r.status, 'refused');
  assert.equal(r.refusal?.key, bad.key);
  assert.equal(calls.length, 5, 'nothing after the refusal is scheduled');
  const dir = sweepDirOf(ws, p.name);
  assert.ok(!existsSync(join(dir, 'episodes', `${bad.key}.json`)));
  // Records kept before this rule: a refusal (invalid_input, as a misspelt limit gave), and one whose trace ran
  // other prompts than the plan's.
  const onDisk = await readRecords(nodeIO, dir);
  writeFileSync(join(dir, 'episodes', `${bad.key}.json`), JSON.stringify({ ...onDisk[0]!, key: bad.key, reason: 'invalid_input', success: false }));
  const old = onDisk[1]!;
  writeFileSync(join(dir, 'episodes', `${old.key}.json`), JSON.stringify({ ...old, promptVersion: '000000000000' }));
  const again: LaunchOptions[] = [];
  const r2 = await runSweep({ ...base(ws, p), workers: workers(1, fakeLaunch(again)) });
  assert.equal(r2.status, 'complete');
  assert.deepEqual(new Set(again.map((c) => c.runId)), new Set([...p.episodes.slice(4).map((e) => e.key), old.key]));
});

test('a prompt edited while the sweep runs: the episode that ran other prompts is not counted, the sweep stops and a resume runs it', async () => {
  const ws = newWs();
  const p = await plan(ws);
  const edited = p.episodes[2]!;
  const r = await runSweep({ ...base(ws, p), workers: workers(1, fakeLaunch([], new Map(), { editedPrompts: (o) => o.runId === edited.key })) });
  assert.equal(r.status, 'prompts_changed');
  assert.equal(r.promptsChanged?.key, edited.key);
  assert.equal(r.promptsChanged?.planned, edited.promptVersion);
  assert.equal(r.records.length, 2);
  const calls: LaunchOptions[] = [];
  const r2 = await runSweep({ ...base(ws, p), workers: workers(1, fakeLaunch(calls)) });
  assert.equal(r2.status, 'complete');
  assert.equal(calls[0]!.runId, edited.key);
  assert.equal(calls.length, 16);
});
