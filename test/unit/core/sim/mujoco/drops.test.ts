// Friction grasps are the default for every robot API (issue 25), so a poor grasp can drop the object whichever
// architecture drives the arm; under `grasp: 'weld'` the same calls carry it. One drop per API besides MALMM's
// (frictionGrasp.test.ts: a rim grasp through the engine):
//   lmtg    close_gripper() 3 cm above the apple's centre (near its top) and a fast lift: it slips out;
//   actctx  the paper's side grasp of the low half-eaten apple (the Panda's hand stays 6 cm over the table, so the
//           pads hold it above its centre): it slips out when the pick backs away, and holding() says False;
//   roco    both robots carry the rope over the wall by its 1 cm ends: the ends slip out of the fingers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTabletopSimulator } from '../../../../../src/core/sim/mujoco/index.js';
import type { GraspMode } from '../../../../../src/core/sim/mujoco/simState.js';
import type { ApiCallResult, Simulator } from '../../../../../src/core/sim/simulator.js';
import { act, value } from './scripted/actctxSolutions.js';
import { detect, eePose, lcall, line, through } from './scripted/lmtgScript.js';
import { ROCO_SOLUTIONS } from './scripted/rocoSolutions.js';

async function withSim<T>(grasp: GraspMode, body: (sim: Simulator) => Promise<T>): Promise<T> {
  const sim = await createTabletopSimulator({ grasp });
  try {
    return await body(sim);
  } finally {
    await sim.close();
  }
}

const SLIPPED = /^grasp: (.+) slipped out of the gripper at t=\d+\.\d\d s$/m;
const outputOf = (r: ApiCallResult) => (r.ok ? (r.output ?? '') : r.error);

/** Every output line of the simulator's calls while `body` runs. */
async function recording(sim: Simulator, body: () => Promise<void>): Promise<string> {
  const lines: string[] = [];
  const call = sim.call.bind(sim);
  sim.call = async (fn, args) => {
    const r = await call(fn, args);
    lines.push(outputOf(r));
    return r;
  };
  try {
    await body();
  } finally {
    sim.call = call;
  }
  return lines.join('\n');
}

async function lmtgTopGrasp(grasp: GraspMode) {
  return withSim(grasp, async (sim) => {
    await sim.reset('apple_in_bowl', 0);
    const a = await detect(sim, 'apple');
    const at: [number, number, number] = [a.pos[0], a.pos[1], a.pos[2] + 0.03];
    await through(sim, [
      [at[0], at[1], at[2] + 0.1, 0],
      [at[0], at[1], at[2], 0],
    ]);
    assert.match(outputOf(await lcall(sim, 'close_gripper', [])), /^close_gripper: grasped apple$/);
    // Ten poses up 25 cm: 0.2 s.
    const lift = await lcall(sim, 'execute_trajectory', [line(await eePose(sim), [at[0], at[1], at[2] + 0.25, 0], 10)]);
    const end = (await sim.observe()).state;
    return { lift: outputOf(lift), grasped: end.grasped, appleZ: end.objects.find((o) => o.name === 'apple')!.pos[2], tableZ: 0.75 };
  });
}

test('lmtg: a grasp near the top of the apple and a fast lift drop it under friction; the weld carries it', async () => {
  const f = await lmtgTopGrasp('friction');
  assert.equal(SLIPPED.exec(f.lift)?.[1], 'apple', f.lift);
  assert.equal(f.grasped, null);
  assert.ok(f.appleZ < f.tableZ + 0.1, `the apple fell back (z ${f.appleZ.toFixed(3)})`);
  const w = await lmtgTopGrasp('weld');
  assert.doesNotMatch(w.lift, SLIPPED);
  assert.equal(w.grasped, 'apple');
  assert.ok(w.appleZ > w.tableZ + 0.2, `carried up (z ${w.appleZ.toFixed(3)})`);
});

async function actctxSideGrasp(grasp: GraspMode) {
  return withSim(grasp, async (sim) => {
    await sim.reset('clear_table_shelf', 0);
    await act(sim, 'approach', 'half-eaten apple', 0.5, 0.01, 'side');
    const pick = outputOf(await act(sim, 'pick', 'half-eaten apple', 0.5, 0.01, 'side'));
    return { pick, holding: await value(sim, 'holding') };
  });
}

test('actctx: the side grasp of the low half-eaten apple slips out when the pick backs away under friction (holding() False); the weld keeps it', async () => {
  const f = await actctxSideGrasp('friction');
  assert.match(f.pick, /^pick\('half-eaten apple', 0\.5, 0\.01, 'side'\): grasped half-eaten apple$/m);
  assert.equal(SLIPPED.exec(f.pick)?.[1], 'half-eaten apple', f.pick);
  assert.equal(f.holding, false);
  const w = await actctxSideGrasp('weld');
  assert.doesNotMatch(w.pick, SLIPPED);
  assert.equal(w.holding, true);
});

test('roco: carried over the wall by their 1 cm ends, the rope slips out of both robots\' fingers under friction and misses the groove', async () => {
  await withSim('friction', async (sim) => {
    const { task } = await sim.reset('move_rope', 0);
    const out = await recording(sim, () => ROCO_SOLUTIONS['move_rope']!(sim, task.instruction));
    const slipped = [...out.matchAll(new RegExp(SLIPPED, 'gm'))].map((m) => m[1]).sort();
    assert.deepEqual(slipped, ['rope_back_end', 'rope_front_end'], out);
    assert.equal((await sim.check()).success, false);
  });
  // Under weld the same rounds succeed: multiArmTasks.test.ts runs move_rope's scripted solution with weld grasps.
});
