// Paired on/off sweeps: the real product path (MuJoCo, Pyodide, reference model over HTTP) on a small task, and
// an injected launch function for the statistics, cancellation and failure handling.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { architectures } from '../../../../src/architectures/registry.js';
import { nodeClock, nodeIO } from '../../../../src/core/node/nodeHost.js';
import type { LaunchOptions, LaunchResult } from '../../../../src/core/runs/launch.js';
import { createPyodideSandbox } from '../../../../src/core/sandbox/index.js';
import { createTabletopSimulator } from '../../../../src/core/sim/mujoco/index.js';
import { runPairedSweep, type PairedSweepOptions, type SweepProgress } from '../../../../src/core/sweep/pairedSweep.js';
import { wilson95 } from '../../../../src/core/sweep/stats.js';
import { clopperPearson } from '../../../../src/core/metrics/clopperPearson.js';
import { readTrace } from '../../../../src/core/trace/reader.js';
import { SweepFile } from '../../../../src/protocol/sweep.js';

const workspace = mkdtempSync(join(tmpdir(), 'waypoint-sweep-'));
after(() => rmSync(workspace, { recursive: true, force: true }));
const ABL = 'planner.replan_check';
const deps = { io: nodeIO, clock: nodeClock, architectures, createSimulator: () => createTabletopSimulator(), createSandbox: () => createPyodideSandbox() };
const opts = (o: Partial<PairedSweepOptions> = {}): PairedSweepOptions => ({
  workspace,
  arch: 'malmm',
  task: 'stack_blocks_2',
  ablation: ABL,
  seeds: 2,
  builtInPromptRoot: join(process.cwd(), 'src', 'architectures'),
  model: { kind: 'reference' },
  ...o,
});

/** A launch that never touches a simulator: the outcome is chosen per (seed, side). */
function fakeLaunch(decide: (seed: number, on: boolean) => { success: boolean; turns: number; calls: number } | 'throw', seen: LaunchOptions[] = []) {
  return async (o: LaunchOptions): Promise<LaunchResult> => {
    seen.push(o);
    const on = o.ablations?.[ABL];
    assert.equal(typeof on, 'boolean', 'every sweep episode sets the ablation explicitly');
    const d = decide(o.seed, on!);
    if (d === 'throw') throw new Error('boom in launch');
    const end = { seq: 9, tMs: 0, type: 'episode_end' as const, success: d.success, reason: d.success ? ('task_completed' as const) : ('turn_cap' as const), agentClaimedDone: d.success, metrics: { turns: d.turns, modelCalls: d.calls, cachedCalls: 0, promptTokens: 0, completionTokens: 0, codeBlocks: 0, codeErrors: 0, formatErrors: 0, durationMs: 0, simTimeSecs: 0 } };
    return { success: d.success, reason: end.reason, events: 10, end, runId: `r-${o.seed}-${on ? 'on' : 'off'}`, tracePath: `/t/${o.seed}-${on}.jsonl` };
  };
}

test('wilson95 matches textbook values and stays inside [0, 1]', () => {
  const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 5e-4, `${a} vs ${b}`);
  const half = wilson95(5, 10);
  close(half.low, 0.2366);
  close(half.high, 0.7634);
  const none = wilson95(0, 2);
  assert.equal(none.low, 0);
  close(none.high, 0.6576);
  const all = wilson95(2, 2);
  close(all.low, 0.3424);
  assert.equal(all.high, 1);
  assert.deepEqual(wilson95(0, 0), { low: 0, high: 1 });
  assert.throws(() => wilson95(3, 2), /outside 0\.\.2/);
});

test('reference model on stack_blocks_2, 2 seeds: four real episodes, paired by seed, sweep.json on disk', async () => {
  const progress: SweepProgress[] = [];
  const { file, path } = await runPairedSweep(opts({ onProgress: (p) => progress.push(p) }), deps);
  assert.equal(path, join(workspace, '.waypoint', 'sweeps', file.id, 'sweep.json'));
  assert.deepEqual(SweepFile.parse(JSON.parse(readFileSync(path, 'utf8'))), file);
  assert.equal(file.status, 'complete');
  assert.equal(file.variant, 'default');
  assert.deepEqual(file.seeds, [0, 1]);
  const c = file.comparison;
  assert.equal(c.pairs.length, 2);
  assert.equal(c.on.n, 2);
  assert.equal(c.off.n, 2);
  // The reference policy is deterministic and solves this task with or without the re-plan check.
  assert.equal(c.on.successes, 2);
  assert.equal(c.off.successes, 2);
  assert.equal(c.differing, 0);
  assert.ok(c.on.meanTurns! > 0 && c.on.meanModelCalls! > 0);
  for (const p of c.pairs) {
    for (const side of ['on', 'off'] as const) {
      const o = p[side]!;
      assert.equal(o.seed, p.seed);
      const { events } = readTrace(readFileSync(o.tracePath, 'utf8'));
      const start = events[0];
      assert.ok(start.type === 'episode_start' && start.runId === o.runId && start.seed === p.seed);
      // The trace records the side's switch, so the run viewer shows which side a run was.
      assert.equal(start.type === 'episode_start' && start.ablations[ABL], side === 'on');
    }
  }
  assert.deepEqual(progress.filter((p) => p.phase === 'end').map((p) => [p.done, p.seed, p.side]), [[1, 0, 'on'], [2, 0, 'off'], [3, 1, 'on'], [4, 1, 'off']]);
});

test('statistics from an injected launch: one side fails, a throwing launch is a recorded failure', async () => {
  const seen: LaunchOptions[] = [];
  // on: always succeeds in 4 turns / 8 calls; off: fails seeds 0 and 2 (10 turns), throws on seed 3, succeeds seed 1.
  const launch = fakeLaunch((seed, on) => (on ? { success: true, turns: 4, calls: 8 } : seed === 3 ? 'throw' : { success: seed === 1, turns: 10, calls: 20 }), seen);
  const { file } = await runPairedSweep(opts({ seeds: 4, variant: 'ma' }), { ...deps, launch });
  const c = file.comparison;
  assert.equal(c.on.successes, 4);
  assert.equal(c.on.rate, 1);
  assert.equal(c.off.successes, 1);
  assert.equal(c.off.rate, 0.25);
  assert.deepEqual(c.off.ci95, wilson95(1, 4));
  assert.deepEqual(c.off.exact95, clopperPearson(1, 4));
  assert.equal(c.on.meanTurns, 4);
  assert.equal(c.on.meanModelCalls, 8);
  // The thrown episode counts as a failure with zero turns: (10 + 10 + 10 + 0) / 4.
  assert.equal(c.off.meanTurns, 7.5);
  assert.equal(c.differing, 3);
  assert.equal(c.pairs[3].off?.reason, 'engine_error');
  assert.match(c.pairs[3].off?.message ?? '', /boom in launch/);
  assert.equal(c.pairs[1].on?.runId, 'r-1-on');
  assert.ok(seen.every((o) => o.variant === 'ma'), 'both sides start from the base variant');
  assert.deepEqual(c.on.ablations, { [ABL]: true });
  assert.deepEqual(c.off.ablations, { [ABL]: false });
  assert.equal(file.model.label, 'reference (scripted, not an LLM)');
  const flawed = await runPairedSweep(opts({ seeds: 1, model: { kind: 'reference', profile: 'reference-flawed' } }), { ...deps, launch });
  assert.equal(flawed.file.model.label, 'reference-flawed (scripted, not an LLM; seeded mistakes)', 'the sweep names the profile it ran');
});

test('aborting stops the sweep after the episode in flight and records it as cancelled', async () => {
  const ac = new AbortController();
  let calls = 0;
  const launch = async (o: LaunchOptions): Promise<LaunchResult> => {
    calls++;
    if (calls === 3) ac.abort();
    return fakeLaunch(() => ({ success: true, turns: 1, calls: 1 }))(o);
  };
  const { file } = await runPairedSweep(opts({ seeds: 5, signal: ac.signal }), { ...deps, launch });
  assert.equal(calls, 3);
  assert.equal(file.status, 'cancelled');
  assert.equal(file.comparison.on.n, 2);
  assert.equal(file.comparison.off.n, 1);
  assert.equal(file.comparison.pairs[1].off, null);
});

test('bad input throws before any episode: unknown ablation, variant, architecture, seed count', async () => {
  const launch = async (): Promise<LaunchResult> => assert.fail('no episode may start');
  const d = { ...deps, launch };
  await assert.rejects(runPairedSweep(opts({ ablation: 'planner.nope' }), d), /ablation 'planner\.nope' is not in the prompts malmm\/malmm runs \(supervisor\.prompt, planner\.prompt, coder\.prompt\); ids there: supervisor\.routing_hints, .*planner\.replan_check/);
  // An id that exists, but not in the prompts the variant runs: SA has one prompt, without the Planner's blocks.
  await assert.rejects(runPairedSweep(opts({ ablation: 'planner.replan_check', variant: 'sa' }), d), /ablation 'planner\.replan_check' is not in the prompts malmm\/sa runs \(sa\.prompt\); ids there: sa\./);
  await assert.rejects(runPairedSweep(opts({ variant: 'zzz' }), d), /unknown variant 'zzz'/);
  await assert.rejects(runPairedSweep(opts({ arch: 'voxposer' }), d), /unknown architecture 'voxposer'/);
  await assert.rejects(runPairedSweep(opts({ seeds: 0 }), d), /seeds must be an integer in 1\.\.100/);
  await assert.rejects(runPairedSweep(opts({ ablation: 'Bad Id' }), d), /invalid ablation id/);
});
