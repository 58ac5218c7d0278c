// The reference model (scripted, not an LLM) through the trajgen loop, the sandbox and MuJoCo: every trajectory task
// with a solution at seed 0 (success by the simulator's check, the detector agreeing on the first attempt; about
// 0.1-0.5 s each once Pyodide is up), and the flawed profile over seeds 0-3 of every task, whose corrections and
// re-plans the trace must count (about 20 s).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { architectures } from '../../../../src/architectures/registry.js';
import { DEFAULT_EPISODE_OPTIONS, runEpisode } from '../../../../src/core/engine/episode.js';
import { TRAJGEN_SOLUTIONS } from '../../../../src/architectures/trajgen/reference/solutions/index.js';
import { nodeIO } from '../../../../src/core/node/nodeHost.js';
import { resolveVariant } from '../../../../src/core/prompt/variants.js';
import { createPyodideSandbox } from '../../../../src/core/sandbox/index.js';
import type { CodeSandbox } from '../../../../src/core/sandbox/sandbox.js';
import { createTabletopSimulator } from '../../../../src/core/sim/mujoco/index.js';
import type { Simulator } from '../../../../src/core/sim/simulator.js';
import { MemoryTraceSink } from '../../../../src/core/trace/writer.js';
import { policyClient } from '../llamar/helpers.js';

const clock = { nowMs: () => performance.now(), isoNow: () => '2026-11-25T00:00:00.000Z' };
const arch = architectures.get('trajgen');
const promptPaths = Object.fromEntries(arch.roles.map((r) => [r.id, join(process.cwd(), 'src', 'architectures', 'trajgen', 'prompts', r.promptFile)]));
let sim: Simulator;
let sandbox: CodeSandbox;
before(async () => {
  sim = await createTabletopSimulator();
  sandbox = createPyodideSandbox();
  await sandbox.warmUp();
});
after(async () => {
  await sandbox.close();
  await sim.close();
});

async function run(task: string, profile: 'reference' | 'reference-flawed', seed: number, sink = new MemoryTraceSink()) {
  return runEpisode(
    {
      runId: `trajgen-${task}`,
      arch,
      task,
      seed,
      variant: resolveVariant('default', { active: 'default', variants: {} }, arch.builtInVariants),
      promptPaths,
      options: { ...DEFAULT_EPISODE_OPTIONS, limits: {} },
      model: { provider: 'reference', model: profile, label: `${profile} (scripted, not an LLM)` },
    },
    { io: nodeIO, clock, sim, sandbox, model: policyClient(profile), sink },
  );
}

const tasks = TRAJGEN_SOLUTIONS.map((s) => s.task);
test('at least eight trajectory tasks have a reference solution', () => assert.ok(tasks.length >= 8, tasks.join(', ')));
for (const task of tasks) {
  test(`trajgen reference: ${task} succeeds at seed 0 on the first attempt, the detector agreeing`, async () => {
    const r = await run(task, 'reference', 0);
    assert.equal(r.success, true, `${r.reason}: ${r.message}`);
    assert.equal(r.reason, 'detector_completed');
    assert.equal(r.end.archMetrics?.['attempts'], 1);
    assert.equal(r.end.archMetrics?.['errorCorrections'], 0);
  });
}

test('trajgen reference-flawed: every task at seeds 0-3 ends with a verdict, a correction or a re-plan the trace counts', async () => {
  let corrections = 0;
  let replans = 0;
  for (const s of TRAJGEN_SOLUTIONS) {
    for (let seed = 0; seed < 4; seed++) {
      const r = await run(s.task, 'reference-flawed', seed);
      corrections += Number(r.end.archMetrics?.['errorCorrections'] ?? 0);
      replans += Number(r.end.archMetrics?.['replans'] ?? 0);
      console.log(`${s.task} s${seed}: ${r.success ? 'success' : 'failure'} ${r.reason} attempts ${r.end.archMetrics?.['attempts']} corrections ${r.end.archMetrics?.['errorCorrections']}`);
    }
  }
  assert.ok(corrections > 0 && replans > 0, `corrections ${corrections}, replans ${replans}`);
});

test('trajgen reference-flawed draw_circle: the detector judges the gripper\'s track, so an episode it calls completed is one the simulator scores a success', async () => {
  let failedVerdicts = 0;
  for (let seed = 0; seed < 3; seed++) {
    const sink = new MemoryTraceSink();
    const r = await run('draw_circle', 'reference-flawed', seed, sink);
    const verdicts = sink.events.filter((e) => e.type === 'check' && e.name === 'success_detection') as unknown as { verdict: string; tracks: { query: string }[] }[];
    assert.ok(verdicts.length > 0, `seed ${seed}: ${r.reason}`);
    for (const v of verdicts) assert.deepEqual(v.tracks.map((t) => t.query), ['gripper'], 'the scene has no object: the detector reads the gripper');
    failedVerdicts += verdicts.filter((v) => v.verdict === 'failed').length;
    if (r.reason === 'detector_completed') assert.equal(r.success, true, `seed ${seed}: the detector said completed but ${r.message ?? r.reason}`);
  }
  // The flaw (a circle at a hard-coded 0.9 m) is drawn in the air; the detector must catch it at least once.
  assert.ok(failedVerdicts > 0, 'no failed verdict over seeds 0-2');
});
