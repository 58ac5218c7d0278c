import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTabletopSimulator } from '../../../../../src/core/sim/mujoco/index.js';
import { SimParamError, type ApiCallResult, type Simulator } from '../../../../../src/core/sim/simulator.js';
import { TrajectorySample, WorldState } from '../../../../../src/protocol/trace.js';
import { cubeYaw } from './scriptedStacker.js';

let sim: Simulator;
before(async () => {
  sim = await createTabletopSimulator();
});
after(async () => {
  await sim.close();
});

const errorOf = (r: ApiCallResult): string => (r.ok ? `ok: ${r.output ?? ''}` : r.error);
const outputOf = (r: ApiCallResult): string => (r.ok ? (r.output ?? '') : `error: ${r.error}`);
/** The call result without its motion metrics (checked in motionMetrics.test.ts). */
const withoutMetrics = (r: ApiCallResult): ApiCallResult => {
  const { metrics: _metrics, ...rest } = r as ApiCallResult & { metrics?: unknown };
  return rest as ApiCallResult;
};

async function block(name: string) {
  return (await sim.observe()).state.objects.find((o) => o.name === name)!;
}

async function pick(name: string): Promise<void> {
  const b = await block(name);
  const yaw = cubeYaw(b.euler[2]);
  assert.equal((await sim.call('execute_trajectory', [[b.pos[0], b.pos[1], b.pos[2] + 0.1], yaw])).ok, true);
  assert.equal((await sim.call('execute_trajectory', [[b.pos[0], b.pos[1], b.pos[2]], yaw])).ok, true);
  const r = await sim.call('close_gripper', [name]);
  assert.deepEqual(withoutMetrics(r), { ok: true });
}

test('reset returns the task, the MALMM API (with task_completed), the workspace and a text observation', async () => {
  const r = await sim.reset('stack_blocks', 0);
  assert.deepEqual(
    { ...r.task, description: undefined },
    {
      id: 'stack_blocks',
      description: undefined,
      instruction: 'Stack three red blocks at the green target area.',
      suite: 'single-arm',
      arms: 1,
      imitates: 'MALMM / RLBench stack_blocks',
    },
  );
  assert.deepEqual(
    r.api.map((f) => f.signature),
    [
      'execute_trajectory(position: list[float], orientation: float) -> None',
      'open_gripper() -> None',
      'close_gripper(object_name: str) -> None',
      'task_completed() -> None',
    ],
  );
  assert.deepEqual(r.workspace.xRange, [-0.3, 0.3]);
  assert.deepEqual(r.workspace.yRange, [-0.05, 0.35]);
  assert.equal(r.workspace.tableTopZ, 0.75);
  WorldState.parse(r.observation.state);
  assert.deepEqual(r.observation.state.objects.map((o) => o.name), ['red block 1', 'red block 2', 'red block 3', 'blue block 1', 'blue block 2', 'target area']);
  for (const o of r.observation.state.objects) {
    assert.ok(Math.abs(o.pos[2] - (o.name === 'target area' ? 0.751 : 0.775)) < 0.002, `${o.name} rests on the table`);
    assert.ok(o.pos[0] >= -0.3 && o.pos[0] <= 0.3 && o.pos[1] >= -0.05 && o.pos[1] <= 0.35, `${o.name} inside the workspace`);
  }
  assert.match(r.observation.text, /^\*\*red block 1\*\* :\nCenter Position: \[/);
  assert.match(r.observation.text, /\*\*End-effector\*\* :\nrobot arm end-effector Position: \[0\.0000 0\.0000 1\.1000\]\nEnd-effector Orientation \(yaw\): 0\.0000\nGripper: open\nNo object has been grasped$/);
  assert.equal(sim.simTimeSecs(), 0);
});

test('reset rejects unknown tasks and robot APIs with the known names', async () => {
  await assert.rejects(sim.reset('fold_laundry', 0), /unknown task 'fold_laundry'; known tasks: stack_blocks, stack_blocks_2, stack_blocks_4, /);
  await assert.rejects(sim.reset('stack_blocks', 0, { api: 'telepathy' }), /unknown robot API 'telepathy'; known: malmm, /);
  await assert.rejects(sim.reset('stack_blocks', 0, { api: 'lmtg' }), /task 'stack_blocks' works with the robot API malmm, not 'lmtg'/);
  // A task of another architecture's API is the caller's input (the run exits 2), not a simulator failure (exit 3).
  await assert.rejects(sim.reset('stack_blocks', 0, { api: 'roco' }), (e: unknown) => e instanceof SimParamError && e.param === 'api');
});

test('call validates arguments with Python-like messages and does not move', async () => {
  await sim.reset('stack_blocks', 0);
  const cases: [string, unknown[], string][] = [
    ['execute_trajectory', [[0.1, 0.2], 0], 'execute_trajectory() expects position as a list of 3 numbers, got [0.1, 0.2]'],
    ['execute_trajectory', [[0.1, '0.2', 0.9], 0], "execute_trajectory() expects position as a list of 3 numbers, got [0.1, '0.2', 0.9]"],
    ['execute_trajectory', [[0.1, Number.NaN, 0.9], 0], 'execute_trajectory() expects finite numbers in position, got [0.1, nan, 0.9]'],
    ['execute_trajectory', [[0.1, 0.2, 0.9], '0.5'], "execute_trajectory() expects orientation as a number (yaw in radians), got '0.5'"],
    ['execute_trajectory', [[0.1, 0.2, 0.9], null], 'execute_trajectory() expects orientation as a number (yaw in radians), got None'],
    ['execute_trajectory', [[0.1, 0.2, 0.9]], "execute_trajectory() missing 1 required positional argument: 'orientation'"],
    ['execute_trajectory', [], "execute_trajectory() missing 2 required positional arguments: 'position' and 'orientation'"],
    ['execute_trajectory', [[0.1, 0.2, 0.9], 0, 1], 'execute_trajectory() takes 2 positional arguments but 3 were given'],
    ['open_gripper', [1], 'open_gripper() takes 0 positional arguments but 1 was given'],
    ['close_gripper', [3], 'close_gripper() expects object_name as a str, got 3'],
    ['close_gripper', ['purple block'], "close_gripper: no object named 'purple block'; known: red block 1, red block 2, red block 3, blue block 1, blue block 2, target area"],
    ['fly', [], "unknown robot API function 'fly'; available: execute_trajectory, open_gripper, close_gripper, task_completed"],
  ];
  for (const [fn, args, message] of cases) assert.equal(errorOf(await sim.call(fn, args)), message);
  assert.equal(sim.simTimeSecs(), 0);
});

test('a collision names the pair in the result and in a warning line', async () => {
  // A planned motion refuses a target inside the table (plannedMotion.test.ts); a straight one presses into it.
  const sim = await createTabletopSimulator({ motion: 'straight' });
  after(() => sim.close());
  await sim.reset('stack_blocks', 0);
  // Press the open fingers into the table next to the robot's home position.
  const r = await sim.call('execute_trajectory', [[0.0, 0.3, 0.75], 0]);
  assert.equal(r.ok, true);
  if (!r.ok) return;
  const pairs = (r.collisions ?? []).map((c) => `${c.a} <-> ${c.b}`);
  assert.ok(pairs.includes('left finger <-> table') || pairs.includes('right finger <-> table'), pairs.join(', '));
  assert.ok(r.collisions!.every((c) => c.tSecs > 0 && c.tSecs <= sim.simTimeSecs()));
  assert.match(r.output ?? '', /^collision: (left|right) finger <-> table at t=\d+\.\d\d s, depth \d+\.\d mm$/m);
  assert.match(r.output ?? '', /execute_trajectory: stopped 0\.0\d{3} m from the target \[0\.0000, 0\.3000, 0\.7500\]/);

  // Lowering one finger onto a block knocks it: finger <-> block.
  await sim.reset('stack_blocks', 0);
  const red = await block('red block 1');
  await sim.call('execute_trajectory', [[red.pos[0], red.pos[1] + 0.04, red.pos[2] + 0.1], 0]);
  const hit = await sim.call('execute_trajectory', [[red.pos[0], red.pos[1] + 0.04, red.pos[2]], 0]);
  assert.match(outputOf(hit), /collision: (left|right) finger <-> red block 1 at t=/);
});

test('close_gripper on empty space closes on nothing and the observation shows no grasp', async () => {
  await sim.reset('stack_blocks', 0);
  const r = await sim.call('close_gripper', ['red block 1']);
  assert.deepEqual(withoutMetrics(r), { ok: true, output: 'close_gripper: nothing grasped' });
  const obs = await sim.observe();
  assert.equal(obs.state.grasped, null);
  assert.equal(obs.state.gripperOpen, false);
  assert.match(obs.text, /Gripper: closed\nNo object has been grasped$/);
});

test('a grasp survives lifting and a 1 m transport, and open_gripper releases it', async () => {
  await sim.reset('stack_blocks', 3);
  await pick('blue block 1');
  let obs = await sim.observe();
  assert.equal(obs.state.grasped, 'blue block 1');
  assert.match(obs.text, /Grasped Object: blue block 1$/);
  // Lift, then a 1 m straight line across the table at 1 m height, checking the block stays in the hand.
  const path: [number, number, number][] = [
    [obs.state.ee.pos[0], obs.state.ee.pos[1], 1.0],
    [-0.5, 0.2, 1.0],
    [0.5, 0.2, 1.0],
  ];
  let travelled = 0;
  let prev = obs.state.ee.pos;
  for (const p of path) {
    const r = await sim.call('execute_trajectory', [p, 0]);
    assert.equal(r.ok, true, errorOf(r));
    assert.equal(outputOf(r), '');
    obs = await sim.observe();
    travelled += Math.hypot(obs.state.ee.pos[0] - prev[0], obs.state.ee.pos[1] - prev[1], obs.state.ee.pos[2] - prev[2]);
    prev = obs.state.ee.pos;
    const b = obs.state.objects.find((o) => o.name === 'blue block 1')!;
    const offset = Math.hypot(b.pos[0] - obs.state.ee.pos[0], b.pos[1] - obs.state.ee.pos[1], b.pos[2] - obs.state.ee.pos[2]);
    assert.ok(offset < 0.01, `block ${offset.toFixed(4)} m from the hand at ${p}`);
    assert.equal(obs.state.grasped, 'blue block 1');
  }
  assert.ok(travelled > 1.2, `travelled ${travelled} m`);
  // The trajectory shows the block held during the transport.
  const { samples } = await sim.drainTrajectory();
  assert.ok(samples.filter((s) => s.grasped === 'blue block 1').length > 100);
  assert.deepEqual(withoutMetrics(await sim.call('open_gripper', [])), { ok: true });
  obs = await sim.observe();
  assert.equal(obs.state.grasped, null);
  const b = obs.state.objects.find((o) => o.name === 'blue block 1')!;
  assert.ok(b.pos[2] < 0.8, `released block fell to the table (z ${b.pos[2]})`);
});

test('trajectory samples are recorded at 50 Hz with bodies in geometry() order', async () => {
  await sim.reset('stack_blocks_2', 1);
  const geometry = await sim.geometry();
  assert.equal(geometry.bodies[0], 'world');
  for (const name of ['table', 'link0', 'link7', 'hand', 'left finger', 'right finger', 'red block 2', 'red block 1']) assert.ok(geometry.bodies.includes(name), name);
  for (const g of geometry.geoms) assert.ok(geometry.bodies.includes(g.body), g.body);
  const redGeom = geometry.geoms.find((g) => g.body === 'red block 1')!;
  assert.deepEqual({ kind: redGeom.kind, size: redGeom.size.map((s) => Math.round(s * 1e6) / 1e6) }, { kind: 'box', size: [0.025, 0.025, 0.025] });

  const first = await sim.drainTrajectory();
  assert.equal(first.rateHz, 50);
  assert.equal(first.samples.length, 1, 'reset records the initial sample');
  await sim.call('execute_trajectory', [[0.1, 0.2, 0.95], 0.3]);
  const { samples } = await sim.drainTrajectory();
  assert.ok(samples.length > 10);
  for (let i = 1; i < samples.length; i++) assert.ok(Math.abs(samples[i]!.tSecs - samples[i - 1]!.tSecs - 0.02) < 1e-6);
  for (const s of samples) assert.ok(Math.abs(s.tSecs / 0.02 - Math.round(s.tSecs / 0.02)) < 1e-6, `on the 50 Hz grid: ${s.tSecs}`);
  assert.equal(samples[0]!.tSecs, 0.02);
  for (const s of samples) {
    TrajectorySample.parse(s);
    assert.equal(s.qpos.length, 7);
    assert.equal(s.bodies!.length, 7 * geometry.bodies.length);
    assert.ok(Math.abs(s.gripperWidth - 0.08) < 1e-3);
  }
  const last = samples.at(-1)!;
  assert.ok(Math.hypot(last.ee[0] - 0.1, last.ee[1] - 0.2, last.ee[2] - 0.95) < 0.01);
  assert.deepEqual(
    last.contacts!.filter((c) => c[1] === 'table'),
    // Every block rests on the table (the target area is a visual patch: no contact).
    [
      ['blue block 1', 'table'],
      ['blue block 2', 'table'],
      ['red block 1', 'table'],
      ['red block 2', 'table'],
    ],
  );
  const red = geometry.bodies.indexOf('red block 1');
  const redPose = last.bodies!.slice(7 * red, 7 * red + 3);
  const obsRed = (await sim.observe()).state.objects.find((o) => o.name === 'red block 1')!;
  redPose.forEach((v, i) => assert.ok(Math.abs(v - obsRed.pos[i]!) < 1e-4));
  assert.equal((await sim.drainTrajectory()).samples.length, 0, 'drain clears');
});

test('task_completed reaching the simulator is harmless', async () => {
  await sim.reset('stack_blocks', 0);
  assert.deepEqual(await sim.call('task_completed', []), { ok: true });
  assert.equal(sim.simTimeSecs(), 0);
});
