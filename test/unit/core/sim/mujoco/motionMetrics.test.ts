import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { EpisodeRuntime } from '../../../../../src/core/sim/mujoco/episodeRuntime.js';
import { createTabletopSimulator, TabletopSimulator } from '../../../../../src/core/sim/mujoco/index.js';
import { getTask } from '../../../../../src/core/sim/mujoco/tasks/registry.js';
import { PANDA } from '../../../../../src/core/sim/mujoco/scene/pandaArm.js';
import { loadMujocoModule } from '../../../../../src/core/sim/mujoco/wasm.js';
import type { ActionMetrics } from '../../../../../src/core/metrics/motionMetrics.js';
import type { ApiCallResult } from '../../../../../src/core/sim/simulator.js';

let sim: TabletopSimulator;
let runtime: EpisodeRuntime;
before(async () => {
  sim = (await createTabletopSimulator()) as TabletopSimulator;
  runtime = EpisodeRuntime.create(await loadMujocoModule(), getTask('stack_blocks').scene);
});
after(async () => {
  runtime.dispose();
  await sim.close();
});

const metricsOf = (r: ApiCallResult): ActionMetrics => {
  assert.equal(r.ok, true, JSON.stringify(r));
  const m = (r as { metrics?: ActionMetrics }).metrics;
  assert.ok(m, 'the result carries metrics');
  return m;
};

test('dexterity: the ready pose is well conditioned, a straight elbow is near-singular', () => {
  const at = (q: number[]) => {
    const qpos = runtime.state.data.qpos as Float64Array;
    runtime.scene.arms[0]!.qposAdr.forEach((a, j) => (qpos[a] = q[j]!));
    runtime.runner.forward();
    return runtime.probe.dexterity(runtime.state, 0);
  };
  const ready = at([...PANDA.readyQ]);
  // Arm pointing straight up: shoulder, elbow and wrist axes line up.
  const straight = at([0, 0, 0, -0.0698, 0, 0.0, 0]);
  // Elbow almost straight, reaching forward.
  const stretched = at([0, 1.2, 0, -0.12, 0, 1.3, Math.PI / 4]);
  assert.ok(ready > 0.08, `ready ${ready}`);
  assert.ok(straight < 0.03 && straight < ready / 3, `straight ${straight} vs ready ${ready}`);
  assert.ok(stretched < ready / 2, `stretched ${stretched} vs ready ${ready}`);
});

test('a motion to the edge of the reach has a lower M_I than one in the middle of the workspace', async () => {
  await sim.reset('stack_blocks', 0);
  const middle = metricsOf(await sim.call('execute_trajectory', [[0, 0.1, 1.0], 0]));
  const edge = metricsOf(await sim.call('execute_trajectory', [[0, 0.42, 0.9], 0]));
  assert.ok(middle.mI > 0.09, `middle M_I ${middle.mI}`);
  assert.ok(edge.mI < 0.06, `edge M_I ${edge.mI}`);
  assert.ok(edge.mT === edge.mI + edge.mE);
});

test('clearance: the finger pads end 1 cm above the table (hand-checked), and M_E, path length and duration follow', async () => {
  await sim.reset('stack_blocks_2', 3);
  const t0 = sim.simTimeSecs();
  const start = (await sim.observe()).state.ee.pos;
  // Pads reach 0.014 m below the tool centre point: TCP at table + 0.024 -> 0.010 m of clearance.
  const state = (await sim.observe()).state;
  const spots: [number, number][] = [[-0.25, 0.3], [0.25, 0.3], [-0.25, 0.0], [0.25, 0.0], [0, 0.15]];
  const gap = (p: [number, number]) => Math.min(...state.objects.map((o) => Math.hypot(o.pos[0] - p[0], o.pos[1] - p[1])));
  const spot = spots.reduce((best, p) => (gap(p) > gap(best) ? p : best));
  assert.ok(gap(spot) > 0.15, 'nothing near the target');
  const target: [number, number, number] = [spot[0], spot[1], 0.75 + 0.024];
  const m = metricsOf(await sim.call('execute_trajectory', [target, 0]));
  assert.ok(Math.abs(m.minClearanceM - 0.01) < 0.0015, `clearance ${m.minClearanceM}`);
  assert.ok(m.closestPair![0].endsWith('finger') && m.closestPair![1] === 'table', String(m.closestPair));
  // M_E = d_min / d_bar, d_bar the largest link-environment distance seen (a link near the far table corner or
  // fixture: over a metre on this table).
  assert.ok(m.dBarM! > 0.8 && m.dBarM! < 2.5, `d_bar ${m.dBarM}`);
  assert.ok(Math.abs(m.mE - m.minClearanceM / m.dBarM!) < 1e-12);
  assert.ok(Math.abs(m.durationSecs - (sim.simTimeSecs() - t0)) < 1e-6);
  const straight = Math.hypot(target[0] - start[0], target[1] - start[1], target[2] - start[2]);
  assert.ok(m.pathLengthM >= straight - 0.005 && m.pathLengthM < straight * 1.15, `path ${m.pathLengthM} vs straight ${straight}`);
  assert.ok(m.peakJerkMps3 > 1 && m.peakJerkMps3 < 500, `jerk ${m.peakJerkMps3}`);
  assert.equal(m.collisionCount, 0);
  assert.equal(m.maxHeldTiltRad, null);
});

test('pressing into the table: collisions counted, clearance negative; the episode summary has Q = mean M_T with -2 for an unreachable target', async () => {
  // A planned motion refuses a target inside the table (plannedMotion.test.ts); a straight one presses into it.
  const sim = (await createTabletopSimulator({ motion: 'straight' })) as TabletopSimulator;
  after(() => sim.close());
  await sim.reset('stack_blocks', 0);
  const press = metricsOf(await sim.call('execute_trajectory', [[0.0, 0.3, 0.75], 0]));
  assert.ok(press.collisionCount >= 1);
  assert.ok(press.minClearanceM <= 0, `clearance ${press.minClearanceM}`);
  const bad = await sim.call('execute_trajectory', [[0, 0.95, 0.8], 0]);
  assert.equal(bad.ok, false);
  // Argument errors are not actions.
  await sim.call('execute_trajectory', [[0, 0.95], 0]);
  const ep = sim.motionMetrics();
  assert.equal(ep.actions.length, 2);
  assert.equal(ep.actions[1]!.mT, -2);
  assert.ok(Math.abs(ep.planQuality! - (press.mT - 2) / 2) < 1e-12);
  assert.equal(ep.collisionCount, press.collisionCount);
});

test('a held block stays upright (tilt tracked) and the metrics travel with snapshots', async () => {
  await sim.reset('stack_blocks', 3);
  const b = (await sim.observe()).state.objects.find((o) => o.name === 'blue block 1')!;
  let yaw = b.euler[2];
  while (yaw > Math.PI / 4) yaw -= Math.PI / 2;
  while (yaw < -Math.PI / 4) yaw += Math.PI / 2;
  await sim.call('execute_trajectory', [[b.pos[0], b.pos[1], b.pos[2] + 0.1], yaw]);
  await sim.call('execute_trajectory', [[b.pos[0], b.pos[1], b.pos[2]], yaw]);
  const close = metricsOf(await sim.call('close_gripper', ['blue block 1']));
  assert.ok(close.maxHeldTiltRad !== null && close.maxHeldTiltRad < 0.05);
  const lift = metricsOf(await sim.call('execute_trajectory', [[0.2, 0.1, 1.0], 0]));
  assert.ok(lift.maxHeldTiltRad !== null && lift.maxHeldTiltRad < 0.05, `tilt ${lift.maxHeldTiltRad}`);
  const snap = await sim.snapshot();
  const before = sim.motionMetrics();
  await sim.call('open_gripper', []);
  assert.equal(sim.motionMetrics().actions.length, before.actions.length + 1);
  await sim.restore(JSON.parse(JSON.stringify(snap)));
  assert.deepEqual(sim.motionMetrics(), before);
});

test('M_E at a pick: the grasp target counts while the hand closes in, and touching it reads 0, not the contact\'s penetration', async () => {
  // The authors' controller stops the fine approach when the hand comes within 0.5 mm of the target and starts
  // grasping, after which the target is the grasped object and left out: their M_E at a touch is 0. Here the top
  // grasp of the full glass brings the hand onto its rim (the contact read -0.002 m, M_E -0.0014, before).
  await sim.reset('ac_single_full_glass', 0);
  const glass = 'glass with yellowish liquid';
  const approach = metricsOf(await sim.call('approach', [glass, 0.4, 0.02, 'top']));
  assert.ok(approach.mE > 0 && approach.minClearanceM > 0.02, `approach keeps its distance: ${approach.minClearanceM}`);
  const pick = metricsOf(await sim.call('pick', [glass, 0.4, 0.02, 'top']));
  assert.equal(((await sim.call('holding', [])) as { value?: unknown }).value, true, 'the glass is held');
  assert.deepEqual(pick.closestPair?.[1], glass, 'the target is measured while the hand approaches it');
  assert.equal(pick.minClearanceM, 0);
  assert.equal(pick.mE, 0);
  assert.equal(pick.mT, pick.mI);
});
