// Each trajectory solution of the reference model (a scripted policy, not an LLM), run as the loop runs it: its
// detect_object calls, then the Python it writes from what they printed, both through the real Pyodide sandbox
// against the embedded simulator. Seed 0: the task succeeds; with each of its flaws: the task fails or the code errors.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { pyPose, START_POSE } from '../../../../../src/architectures/trajgen/reference/solutions/pyTrajectory.js';
import { createPyodideSandbox } from '../../../../../src/core/sandbox/index.js';
import type { CodeSandbox, RunCodeResult } from '../../../../../src/core/sandbox/sandbox.js';
import { createTabletopSimulator } from '../../../../../src/core/sim/mujoco/index.js';
import type { ApiFunctionSpec, Simulator } from '../../../../../src/core/sim/simulator.js';
import { solutionFor, TRAJGEN_SOLUTIONS } from '../../../../../src/architectures/trajgen/reference/solutions/index.js';
import { Readout } from '../../../../../src/architectures/trajgen/reference/solutions/readout.js';
import type { TrajgenFlaw, TrajgenSolution } from '../../../../../src/architectures/trajgen/reference/solutions/types.js';

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

async function python(code: string, api: ApiFunctionSpec[]): Promise<RunCodeResult> {
  return sandbox.run({ code, api, persistNamespace: true, limits: { timeoutSecs: 60, memoryMiB: 512 }, onApiCall: (fn, args) => sim.call(fn, args) });
}

/** One attempt: reset, the detection reply's calls, then the code reply built from their print-out. */
async function attempt(s: TrajgenSolution, flaw?: TrajgenFlaw): Promise<{ ok: boolean; detail: string; code: string; run: RunCodeResult }> {
  await sandbox.resetNamespace();
  const { task, api } = await sim.reset(s.task, 0);
  assert.equal(solutionFor(task.instruction), s, `the instruction "${task.instruction}" picks the ${s.task} solution`);
  const names = s.detect(task.instruction);
  const detected = await python(names.map((n) => `detect_object(${JSON.stringify(n)})`).join('\n'), api);
  assert.equal(detected.ok, true, JSON.stringify(detected.error));
  // The main policy puts the prompt's start pose before every solution's code (the arm's home, START_POSE).
  const code = `start_pose = ${pyPose(START_POSE)}\n${s.code(task.instruction, Readout.fromText(detected.stdout), flaw)}`;
  assert.doesNotMatch(code, /^\s*(import|from)\s+(?!math\b)/m, 'only math is imported');
  const run = await python(code, api);
  const check = await sim.check();
  return { ok: run.ok && check.success, detail: run.ok ? check.detail : `${run.error?.type}: ${run.error?.message}`, code, run };
}

test('every solution names a task, matches its own instruction only, and lists its flaws', () => {
  const tasks = TRAJGEN_SOLUTIONS.map((s) => s.task);
  assert.equal(new Set(tasks).size, tasks.length);
  for (const s of TRAJGEN_SOLUTIONS) assert.ok(s.flaws.length > 0, `${s.task} has a flaw for the flawed profile`);
});

// Flaws that do not make their task fail in the simulator: draw_shape's closed fingers, lowered onto the marker's top since
// issue 25 grips it higher, grasp nothing yet carry the standing marker round the outline (98% of the trace on it
// at seed 0). Known gaps, listed exactly so that any change shows here.
const FLAWS_NOT_FAILING: Record<string, string[]> = { draw_shape: ['close_before_lower'] };

for (const s of TRAJGEN_SOLUTIONS) {
  test(`${s.task}: the reference solution's Python succeeds at seed 0; each flaw (${s.flaws.join(', ')}) fails`, async () => {
    const good = await attempt(s);
    assert.equal(good.ok, true, `${s.task}: ${good.detail}\n${good.code}`);
    // Dense trajectories: tens of poses per call (the paper asks for about 100 per step).
    const sizes = good.run.apiCalls.filter((c) => c.fn === 'execute_trajectory').map((c) => (Array.isArray(c.args[0]) ? (c.args[0] as unknown[]).length : 0));
    assert.ok(sizes.length > 0 && sizes.every((n) => n >= 30), `poses per call: ${sizes.join(', ')}`);
    const notFailing: string[] = [];
    for (const flaw of s.flaws) {
      const bad = await attempt(s, flaw);
      if (bad.ok) notFailing.push(flaw);
    }
    assert.deepEqual(notFailing, FLAWS_NOT_FAILING[s.task] ?? [], `${s.task}: flaws whose run still succeeds`);
  });
}
