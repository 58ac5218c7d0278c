// The tabletop's robot choice (--robot): each task's own Franka-class arm by default, the KUKA iiwa 7 R800 with an
// Allegro-class hand on the table-clearing tasks that offer it, refused by name elsewhere; the simulator line (the
// trace's and the run header's) names the embodiment.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatEvent } from '../../../../../src/cli/transcript.js';
import { createTabletopSimulator } from '../../../../../src/core/sim/mujoco/index.js';
import { SimParamError } from '../../../../../src/core/sim/simulator.js';

const sceneKey = (sim: unknown) => (sim as { runtime: { scene: { built: { spec: { key: string } } } } }).runtime.scene.built.spec.key;
const gripperKind = (sim: unknown) => (sim as { runtime: { scene: { arms: { gripper: { kind: string } }[] } } }).runtime.scene.arms[0]!.gripper.kind;

test('default: the task keeps its own arm (the Panda-class scene), and the simulator line says so', async () => {
  const sim = await createTabletopSimulator();
  try {
    await sim.reset('ac_single_paper_ball_1', 0, { api: 'actctx' });
    assert.doesNotMatch(sceneKey(sim), /\+iiwa$/);
    assert.notEqual(gripperKind(sim), 'hand');
    assert.match(sim.version!, /robot: each task's own arm \(Franka-class/);
  } finally {
    await sim.close();
  }
});

test('robot iiwa: the clearing task runs in its iiwa scene with a multi-finger hand; the simulator line names it', async () => {
  const sim = await createTabletopSimulator({ robot: 'iiwa' });
  try {
    await sim.reset('ac_single_paper_ball_1', 0, { api: 'actctx' });
    assert.match(sceneKey(sim), /\+iiwa$/);
    assert.equal(gripperKind(sim), 'hand');
    assert.match(sim.version!, /robot: KUKA iiwa 7 R800 with an Allegro-class hand/);
    // The hand holds by friction by default, as every robot does; the trace's line says which.
    assert.match(sim.version!, /, friction grasps,/);
    // A task without an iiwa scene refuses it as the caller's parameter, naming what it offers.
    await assert.rejects(sim.reset('stack_blocks', 0), (e: unknown) => e instanceof SimParamError && e.param === 'robot' && /has no iiwa robot.*--robot panda/.test(e.message));
  } finally {
    await sim.close();
  }
});

test('weld asked for wins over the iiwa hand\'s friction default', async () => {
  const sim = await createTabletopSimulator({ robot: 'iiwa', grasp: 'weld' });
  try {
    assert.match(sim.version!, /, weld grasps,.*robot: KUKA iiwa/);
  } finally {
    await sim.close();
  }
});

test('an unknown robot is refused when the simulator is made', async () => {
  await assert.rejects(createTabletopSimulator({ robot: 'ur5' as never }), /unknown robot 'ur5'; choices: panda, iiwa/);
});

test("the run header prints the simulator line once (so the embodiment), and only the name when the simulator gives no version", () => {
  const start = {
    seq: 0, tMs: 0, type: 'episode_start' as const, runId: 'r', arch: 'actctx', agentVariant: 'actctx', variant: 'actctx', task: 't', seed: 0,
    model: { label: 'reference' }, prompts: [], options: {}, simulator: { name: 'mujoco-tabletop', version: 'MuJoCo 3 (mujoco-js), robot: KUKA iiwa 7 R800 with an Allegro-class hand' },
  };
  const text = formatEvent(start as never, { color: false, verbose: false }) ?? '';
  assert.match(text, /\n  simulator mujoco-tabletop · MuJoCo 3 \(mujoco-js\), robot: KUKA iiwa 7 R800 with an Allegro-class hand/);
  assert.equal(text.match(/simulator/g)?.length, 1, text);
  const bare = formatEvent({ ...start, simulator: { name: 'x' } } as never, { color: false, verbose: false }) ?? '';
  assert.deepEqual(bare.split('\n').filter((l) => /simulator/.test(l)), ['  simulator x']);
});
