// MALMM's execute_trajectory moves as RLBench's planner did (issue 25): the straight tool line when it is free,
// else a collision-free joint path around what is in the way (the held block carried in the checks); a target no
// collision-free path reaches fails the call with the reason and nothing moves. `motion: 'straight'` keeps the
// straight line, through the obstacle. Scene: stack_blocks seed 0, the red block 1 held 2 cm over the table and sent
// to a point 9 cm past the blue block 1, so the straight line drags it through the blue one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTabletopSimulator, type TabletopSimulatorOptions } from '../../../../../src/core/sim/mujoco/index.js';
import { MALMM_API } from '../../../../../src/core/apis/malmm.js';
import type { ApiCallResult, Simulator } from '../../../../../src/core/sim/simulator.js';
import { cubeYaw } from './scriptedStacker.js';

const near = (a: readonly number[], b: readonly number[], tol: number) => Math.hypot(...a.map((v, i) => v - b[i]!)) < tol;

/** Holds the red block 2 cm over the table; returns the blue block 1, the yaw and the target past the blue block 1. */
async function holdRedBlock(sim: Simulator) {
  await sim.reset('stack_blocks', 0);
  const objs = (await sim.observe()).state.objects;
  const red = objs.find((o) => o.name === 'red block 1')!;
  const blue = objs.find((o) => o.name === 'blue block 1')!;
  const yaw = cubeYaw(red.euler[2]);
  for (const [fn, args] of [
    ['execute_trajectory', [[red.pos[0], red.pos[1], red.pos[2] + 0.1], yaw]],
    ['execute_trajectory', [[red.pos[0], red.pos[1], red.pos[2]], yaw]],
    ['close_gripper', ['red block 1']],
    ['execute_trajectory', [[red.pos[0], red.pos[1], red.pos[2] + 0.02], yaw]],
  ] as const) {
    const r = await sim.call(fn, [...args]);
    assert.equal(r.ok, true, `${fn}: ${r.ok ? '' : r.error}`);
  }
  const L = Math.hypot(blue.pos[0] - red.pos[0], blue.pos[1] - red.pos[1]);
  const u = [(blue.pos[0] - red.pos[0]) / L, (blue.pos[1] - red.pos[1]) / L];
  const target = [blue.pos[0] + 0.09 * u[0]!, blue.pos[1] + 0.09 * u[1]!, red.pos[2] + 0.02];
  return { blue, yaw, target };
}

async function withSim<T>(options: TabletopSimulatorOptions, body: (sim: Simulator) => Promise<T>): Promise<T> {
  const sim = await createTabletopSimulator(options);
  try {
    return await body(sim);
  } finally {
    await sim.close();
  }
}

const output = (r: ApiCallResult) => (r.ok ? (r.output ?? '') : r.error);

test('planned (default): the held block goes around the blue block 1 the straight line would drag it through', async () => {
  await withSim({}, async (sim) => {
    const { blue, yaw, target } = await holdRedBlock(sim);
    const r = await sim.call('execute_trajectory', [target, yaw]);
    assert.equal(r.ok, true, output(r));
    assert.deepEqual(r.ok ? (r.collisions ?? []) : [], [], 'nothing was hit on the way');
    assert.match(output(r), /^execute_trajectory: the straight path to \[[^\]]+\] would hit [^;]*blue block 1[^;]*; the arm went around it \((RRT-Connect, \d+ iterations?|a straight line in joint space), \d+ configurations checked\)$/m);
    const end = (await sim.observe()).state;
    const b = end.objects.find((o) => o.name === 'blue block 1')!;
    assert.ok(near(b.pos, blue.pos, 0.002), `the blue block 1 stayed (moved ${Math.hypot(b.pos[0] - blue.pos[0], b.pos[1] - blue.pos[1]).toFixed(4)} m)`);
    assert.ok(near(end.ee.pos, target, 0.005), `the gripper reached the target: ${end.ee.pos.map((v) => v.toFixed(3)).join(', ')}`);
    assert.equal(end.grasped, 'red block 1');
  });
});

test('straight (option): the same call drags the held block through the blue one and pushes it', async () => {
  await withSim({ motion: 'straight' }, async (sim) => {
    const { blue, yaw, target } = await holdRedBlock(sim);
    const r = await sim.call('execute_trajectory', [target, yaw]);
    assert.equal(r.ok, true);
    assert.ok((r.ok ? (r.collisions ?? []) : []).some((c) => c.a === 'red block 1 (held)' && c.b === 'blue block 1'), output(r));
    assert.doesNotMatch(output(r), /went around/);
    const b = (await sim.observe()).state.objects.find((o) => o.name === 'blue block 1')!;
    assert.ok(!near(b.pos, blue.pos, 0.02), 'the blue block 1 was pushed');
  });
});

test('planned: a target inside the blue block 1 fails with the reason (the pairs at the target) and the arm does not move', async () => {
  await withSim({}, async (sim) => {
    const { blue, yaw } = await holdRedBlock(sim);
    const before = (await sim.observe()).state;
    const r = await sim.call('execute_trajectory', [[blue.pos[0], blue.pos[1], blue.pos[2]], yaw]);
    assert.equal(r.ok, false);
    assert.match(output(r), /^execute_trajectory: no collision-free path to \[[^\]]+\] with yaw -?\d+\.\d{4}: at the target the arm would collide: .*blue block 1-red block 1 \(\d+\.\d mm\).*; the arm did not move$/);
    const after = (await sim.observe()).state;
    assert.ok(near(after.ee.pos, before.ee.pos, 1e-6), 'nothing moved');
  });
});

test('the motion mode is named in the simulator line of every trace; execute_trajectory\'s description is the paper\'s by default and says straight lines when they are chosen; an unknown mode is refused', async () => {
  await withSim({}, async (sim) => {
    assert.match(sim.version ?? '', /friction grasps, planned execute_trajectory/);
    const { api } = await sim.reset('stack_blocks', 0);
    // Fig. 9 of the paper: the function, not how the robot moves (that is the prompts' api.motion_notes ablation).
    assert.equal(api.find((f) => f.name === 'execute_trajectory')!.doc, MALMM_API.find((f) => f.name === 'execute_trajectory')!.doc);
  });
  await withSim({ motion: 'straight' }, async (sim) => {
    assert.match(sim.version ?? '', /straight-line execute_trajectory/);
    const { api } = await sim.reset('stack_blocks', 0);
    assert.match(api.find((f) => f.name === 'execute_trajectory')!.doc, /moves in a straight line to the target/);
  });
  await assert.rejects(() => createTabletopSimulator({ motion: 'teleport' as never }), /unknown motion mode 'teleport'; choices: planned, straight/);
});
