import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { EpisodeRuntime } from '../../../../../src/core/sim/mujoco/episodeRuntime.js';
import { getTask } from '../../../../../src/core/sim/mujoco/tasks/registry.js';
import { SINGLE_ARM_WORKSPACE } from '../../../../../src/core/sim/mujoco/tasks/tabletopCommon.js';
import { PANDA } from '../../../../../src/core/sim/mujoco/scene/pandaArm.js';
import { loadMujocoModule } from '../../../../../src/core/sim/mujoco/wasm.js';
import { createTabletopSimulator } from '../../../../../src/core/sim/mujoco/index.js';
import type { Simulator } from '../../../../../src/core/sim/simulator.js';

let runtime: EpisodeRuntime;
let sim: Simulator;
before(async () => {
  runtime = EpisodeRuntime.create(await loadMujocoModule(), getTask('stack_blocks').scene);
  sim = await createTabletopSimulator();
});
after(async () => {
  runtime.dispose();
  await sim.close();
});

test('forward kinematics of the ready pose matches the public Panda numbers', () => {
  // Ready pose: flange 0.59 m above the base, 0.307 m in front of it; TCP 0.1034 m below the flange.
  const tcp = runtime.arms[0]!.ik.forward([...PANDA.readyQ]);
  assert.ok(Math.abs(tcp.pos[0]) < 1e-6);
  assert.ok(Math.abs(tcp.pos[1] - (-0.35 + 0.307)) < 1e-3, `y ${tcp.pos[1]}`);
  assert.ok(Math.abs(tcp.pos[2] - (0.75 + 0.4869)) < 1e-3, `z ${tcp.pos[2]}`);
  assert.ok(Math.abs(tcp.R[8]! + 1) < 1e-9, 'tool points straight down');
});

test('IK converges top-down over the whole advertised workspace, table height to +0.35 m, yaw -pi/2..pi/2', () => {
  const ws = SINGLE_ARM_WORKSPACE;
  const failures: string[] = [];
  for (const x of [ws.xRange[0], 0, ws.xRange[1]])
    for (const y of [ws.yRange[0], (ws.yRange[0] + ws.yRange[1]) / 2, ws.yRange[1]])
      for (const z of [ws.tableTopZ + 0.025, ws.tableTopZ + 0.35])
        for (const yaw of [-Math.PI / 2, -Math.PI / 4, 0, Math.PI / 4, Math.PI / 2]) {
          const { sol } = runtime.arms[0]!.solveTarget({ pos: [x, y, z], yawRad: yaw });
          if (!sol.converged) failures.push(`[${x}, ${y}, ${z}] yaw ${yaw}: residual ${sol.posErrM.toFixed(4)} m`);
        }
  assert.deepEqual(failures, []);
});

test('execute_trajectory brings the end-effector within 5 mm of a reachable target, with the commanded yaw', async () => {
  await sim.reset('stack_blocks', 0);
  for (const [target, yaw] of [
    [[0.2, 0.25, 0.9], 0.6],
    [[-0.25, 0.0, 0.8], -1.2],
    [[0.0, 0.3, 1.05], 0],
  ] as [[number, number, number], number][]) {
    const r = await sim.call('execute_trajectory', [target, yaw]);
    assert.equal(r.ok, true, JSON.stringify(r));
    const ee = (await sim.observe()).state.ee;
    const err = Math.hypot(ee.pos[0] - target[0], ee.pos[1] - target[1], ee.pos[2] - target[2]);
    assert.ok(err < 0.005, `reached ${ee.pos} for ${target}: ${err} m`);
    assert.ok(Math.abs(ee.yawRad - yaw) < 0.02, `yaw ${ee.yawRad} for ${yaw}`);
  }
});

test('an unreachable target is reported with the target and residual, and the arm does not move', async () => {
  await sim.reset('stack_blocks', 1);
  const before = await sim.observe();
  const t0 = sim.simTimeSecs();
  const r = await sim.call('execute_trajectory', [[0, 0.95, 0.8], 0]);
  assert.equal(r.ok, false);
  assert.match(r.ok ? '' : r.error, /^execute_trajectory: target \[0\.0000, 0\.9500, 0\.8000\] with yaw 0\.0000 is unreachable .*IK residual 0\.\d{4} m.*the arm did not move$/);
  assert.equal(sim.simTimeSecs(), t0, 'no physics was stepped');
  assert.deepEqual((await sim.observe()).state, before.state);
  // Below the joint limits' reach: straight down under the base.
  const r2 = await sim.call('execute_trajectory', [[0, -0.35, 0.6], 0]);
  assert.equal(r2.ok, false);
});

test('a yaw beyond the wrist range is executed a half turn away and says so', async () => {
  await sim.reset('stack_blocks', 2);
  const r = await sim.call('execute_trajectory', [[0.1, 0.2, 0.9], -2.8]);
  assert.equal(r.ok, true);
  assert.match(r.ok ? (r.output ?? '') : '', /orientation -2\.8000 was executed as 0\.34\d\d \(a half turn apart/);
  const ee = (await sim.observe()).state.ee;
  assert.ok(Math.abs(ee.yawRad - (-2.8 + Math.PI)) < 0.02);
});
