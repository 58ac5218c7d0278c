// The MALMM tasks added for the paper's nine: each seedable with its RLBench-style variation, a scripted solution
// that succeeds, and a do-nothing run that fails.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTabletopSimulator } from '../../../../../src/core/sim/mujoco/index.js';
import type { Simulator } from '../../../../../src/core/sim/simulator.js';
import type { TaskView } from '../../../../../src/core/sim/mujoco/tasks/taskDefinition.js';
import { MALMM_TASK_SOLUTIONS } from './scripted/malmmTaskSolutions.js';

let sim: Simulator;
before(async () => {
  sim = await createTabletopSimulator();
});
after(async () => {
  await sim.close();
});

/** RLBench gives these one variation: the seed moves the objects, the instruction stays. */
const ONE_VARIATION = new Set(['basketball_in_hoop', 'open_bottle']);

for (const [taskId, solve] of Object.entries(MALMM_TASK_SOLUTIONS)) {
  test(`${taskId}: a scripted MALMM-API solution succeeds for seeds 0..2, doing nothing fails, the seed varies the ${ONE_VARIATION.has(taskId) ? 'layout' : 'goal'}`, async () => {
    const instructions = new Set<string>();
    const layouts = new Set<string>();
    for (let seed = 0; seed < 3; seed++) {
      const { task, observation } = await sim.reset(taskId, seed);
      instructions.add(task.instruction);
      layouts.add(JSON.stringify(observation.state.objects.map((o) => o.pos.map((v) => v.toFixed(3)))));
      const idle = await sim.check();
      assert.equal(idle.success, false, `${taskId} seed ${seed}: doing nothing must fail (${idle.detail})`);
      await solve(sim, task.instruction);
      const check = await sim.check();
      assert.equal(check.success, true, `${taskId} seed ${seed}: ${check.detail}`);
    }
    if (ONE_VARIATION.has(taskId)) {
      assert.equal(instructions.size, 1);
      assert.equal(layouts.size, 3, 'each seed places the objects elsewhere');
      return;
    }
    const more = await Promise.all([3, 4, 5, 6].map(async (s) => (await sim.reset(taskId, s)).task.instruction));
    for (const i of more) instructions.add(i);
    assert.ok(instructions.size >= 2, `the variation changes with the seed: ${[...instructions].join(' | ')}`);
  });
}

test('basketball_in_hoop is judged from the ball\'s track: a ball that ends under the ring without passing fails, a drop beside the ring fails', async () => {
  const { basketballInHoopTask, RIM_HEIGHT_M } = await import('../../../../../src/core/sim/mujoco/tasks/rlbench/basketballInHoop.js');
  const task = basketballInHoopTask();
  const ringZ = 0.75 + RIM_HEIGHT_M;
  const view = (ball: [number, number, number], monitor?: unknown): TaskView => ({
    objects: [
      { name: 'basketball', pos: ball, quat: [1, 0, 0, 0], size: [0.044, 0.044, 0.044], linearSpeed: 0, angularSpeed: 0 },
      { name: 'hoop', pos: [0.1, 0.1, ringZ], quat: [Math.SQRT1_2, 0, 0, Math.SQRT1_2], size: [0.112, 0.112, 0.008], linearSpeed: 0, angularSpeed: 0 },
      { name: 'hoop pole', pos: [0.1, 0.19, 0.855], quat: [1, 0, 0, 0], size: [0.024, 0.024, 0.21], linearSpeed: 0, angularSpeed: 0 },
    ],
    grasped: [null],
    tableTopZ: 0.75,
    ...(monitor !== undefined ? { monitor } : {}),
  });
  const judge = (track: [number, number, number][]) => {
    const m = task.monitor!();
    for (const p of track) m.sample(view(p));
    return task.check(view(track.at(-1)!, m.state()));
  };
  // Rolled in under the ring along the table: its end pose is where a ball that went through would lie.
  const under = judge([[-0.1, 0.1, 0.772], [0.0, 0.1, 0.772], [0.1, 0.1, 0.772]]);
  assert.equal(under.success, false);
  assert.match(under.detail, /never went down through the hoop's plane/);
  // Falling fast beside the ring: one sample above the plane, the next below, 7 cm from its centre at the crossing.
  const beside = judge([[0.17, 0.1, 1.0], [0.17, 0.1, 0.9], [0.17, 0.1, 0.772]]);
  assert.equal(beside.success, false);
  assert.match(beside.detail, /came down 7\.0 cm from the ring's centre at best; the opening's radius is 4\.8 cm/);
  // Through the ring, between two samples 10 cm apart: the interpolated crossing is inside the opening.
  const through = judge([[0.12, 0.1, 1.0], [0.1, 0.1, 0.9], [0.1, 0.1, 0.772]]);
  assert.equal(through.success, true, through.detail);
  // Up through the ring (held, from below) is not a pass.
  const upward = judge([[0.1, 0.1, 0.9], [0.1, 0.1, 1.0]]);
  assert.equal(upward.success, false);
});

test('basketball_in_hoop on the simulator: a ball dropped beside the ring fails', async () => {
  const { call, move, obj, pick } = await import('./scripted/malmmScript.js');
  await sim.reset('basketball_in_hoop', 0);
  await pick(sim, 'basketball', { yaw: 0, liftZ: 1.08 });
  const hoop = await obj(sim, 'hoop');
  const side = [hoop.pos[0] + (hoop.pos[0] > 0 ? -0.09 : 0.09), hoop.pos[1]] as const;
  await move(sim, [side[0], side[1], 1.08], 0);
  await move(sim, [side[0], side[1], 1.0], 0);
  await call(sim, 'open_gripper', []);
  const beside = await sim.check();
  assert.equal(beside.success, false);
  const off = /came down (\d+\.\d) cm from the ring's centre at best/.exec(beside.detail);
  assert.ok(off && Number(off[1]) > 4.8, beside.detail);
});

test('a variation that cannot be placed fails at reset with a message naming the task, the seed and the object', async () => {
  const { seededLayout } = await import('../../../../../src/core/sim/mujoco/tabletopSim.js');
  const { putBlockTask } = await import('../../../../../src/core/sim/mujoco/tasks/singleArm/putBlock.js');
  const { LayoutBuilder } = await import('../../../../../src/core/sim/mujoco/tasks/layout.js');
  const { cube } = await import('../../../../../src/core/sim/mujoco/tasks/sceneObjects.js');
  // Twelve 5 cm cubes in a 12 cm square: no collision-free layout exists.
  const crowded = { ...putBlockTask(), layout: (rng: import('../../../../../src/core/host.js').Rng) => {
    const l = new LayoutBuilder(rng);
    const cubes = Array.from({ length: 12 }, (_, i) => cube(`cube ${i}`, 'red'));
    for (const c of cubes) l.scatter(c, { x: [0, 0.12], y: [0, 0.12] }, { gapM: 0.01 });
    return l.placements(cubes);
  } };
  assert.throws(() => seededLayout(crowded, 7), /^Error: reset: task 'put_block' seed 7 has no collision-free layout: could not place 'cube \d+' in x \[0, 0\.12\], y \[0, 0\.12\] clear of \d+ placed objects$/);
  // The registered tasks place at every seed tried.
  for (const seed of [0, 1, 2]) assert.equal(seededLayout(putBlockTask(), seed).length, 4);
});
