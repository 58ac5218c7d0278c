import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTabletopSimulator } from '../../../../../src/core/sim/mujoco/index.js';
import type { ApiCallResult, Simulator } from '../../../../../src/core/sim/simulator.js';

let sim: Simulator;
before(async () => {
  sim = await createTabletopSimulator();
});
after(async () => {
  await sim.close();
});

const out = (r: ApiCallResult) => (r.ok ? (r.output ?? '') : `error: ${r.error}`);

test('detect_object prints position, dimensions and both side yaws in the paper\'s format, for objects and parts', async () => {
  await sim.reset('open_drawer', 0, { api: 'lmtg' });
  const state = (await sim.observe()).state;
  const left = state.objects.find((o) => o.name === 'left drawer')!;
  const text = out(await sim.call('detect_object', ['left drawer']));
  assert.match(text, /^Position of left drawer: \[-?\d+\.\d{3}, -?\d+\.\d{3}, -?\d+\.\d{3}\]\nDimensions:\nWidth: 0\.270\nLength: 0\.110\nHeight: 0\.100\nOrientation along shorter side \(length\): -?\d\.\d{3}\nOrientation along longer side \(width\): -?\d\.\d{3}$/);
  // Width is the longer side (the drawer's y extent, handle included): its yaw is the object's yaw + pi/2.
  const yawWidth = Number(/longer side \(width\): (-?[\d.]+)/.exec(text)![1]);
  assert.ok(Math.abs(Math.abs(yawWidth) - Math.PI / 2) < 0.01, String(yawWidth));
  const pos = /\[([^\]]+)\]/.exec(text)![1]!.split(', ').map(Number);
  pos.forEach((v, i) => assert.ok(Math.abs(v - left.pos[i]!) < 0.0006));
  // A part of one object, two spellings; and every handle.
  const handle = out(await sim.call('detect_object', ['handle of the left drawer']));
  assert.equal(handle, out(await sim.call('detect_object', ['left drawer handle'])));
  assert.match(handle, /^Position of left drawer handle: /);
  const hy = Number(/\[[^,]+, ([^,]+),/.exec(handle)![1]);
  assert.ok(Math.abs(hy - (left.pos[1] - left.size[1] / 2 + 0.006)) < 0.001, `handle y ${hy}`);
  const all = out(await sim.call('detect_object', ['handle']));
  assert.equal(all.match(/^Position of /gm)?.length, 3);
  assert.equal(out(await sim.call('detect_object', ['drawers'])).match(/^Position of /gm)?.length, 3);
  // A miss names no other object (the paper's detector never listed the scene).
  assert.equal(out(await sim.call('detect_object', ['unicorn'])), "detect_object: nothing matches 'unicorn'");
});

test('execute_trajectory checks the arguments first: bad shapes fail as Python errors without moving', async () => {
  await sim.reset('wipe_plate', 0);
  const t0 = sim.simTimeSecs();
  const cases: [unknown[], RegExp][] = [
    [[[0.1, 0.2, 0.9]], /^execute_trajectory\(\) expects trajectory as a list of \[x, y, z, yaw\] poses, got \[0\.1, 0\.2, 0\.9\] \(one pose is written \[\[x, y, z, yaw\]\]\)$/],
    [[[[0.1, 0.2, 0.9, 0], [0.1, 0.2]]], /^execute_trajectory\(\) expects every pose as \[x, y, z, yaw\]; pose 1 is \[0\.1, 0\.2\]$/],
    [[[]], /empty trajectory/],
  ];
  for (const [args, re] of cases) {
    const r = await sim.call('execute_trajectory', args);
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.error, re);
  }
  assert.equal(sim.simTimeSecs(), t0);
});

test('an unreachable pose is executed best effort, open loop: the arm goes as close as it can, the list goes on, and the notes say so', async () => {
  await sim.reset('wipe_plate', 0);
  const far = [0, 0.9, 0.8];
  const start = (await sim.observe()).state.ee.pos;
  const d = (p: readonly number[]) => Math.hypot(p[0]! - far[0]!, p[1]! - far[1]!, p[2]! - far[2]!);
  const r = await sim.call('execute_trajectory', [[[0, 0.1, 1.0, 0], [...far, 0]]]);
  assert.equal(r.ok, true, out(r));
  assert.match(out(r), /^execute_trajectory: pose 1 \[0\.0000, 0\.9000, 0\.8000, 0\.0000\] unreachable \(IK residual .*\); the arm went as close as it could$/m);
  assert.match(out(r), /^execute_trajectory: stopped \d\.\d{4} m from the last pose \[0\.0000, 0\.9000, 0\.8000\]/m);
  const reached = (await sim.observe()).state.ee.pos;
  assert.ok(d(reached) < d(start) - 0.2, `from ${d(start).toFixed(3)} m to ${d(reached).toFixed(3)} m of the pose`);
  // A reachable pose after the unreachable one is still followed (nothing was refused).
  const back = await sim.call('execute_trajectory', [[[...far, 0], [0, 0.2, 1.0, 0]]]);
  assert.equal(back.ok, true, out(back));
  const p = (await sim.observe()).state.ee.pos;
  assert.ok(Math.hypot(p[0]!, p[1]! - 0.2, p[2]! - 1.0) < 0.01, `ended at ${p}`);
});

test('a dense circle is followed within a few millimetres, and more points take longer', async () => {
  await sim.reset('wipe_plate', 1);
  const circle = (n: number) => Array.from({ length: n }, (_, i) => [0.05 * Math.cos((2 * Math.PI * i) / (n - 1)), 0.15 + 0.05 * Math.sin((2 * Math.PI * i) / (n - 1)), 0.95, 0]);
  await sim.call('execute_trajectory', [[[0.05, 0.15, 0.95, 0]]]);
  await sim.drainTrajectory();
  let t = sim.simTimeSecs();
  assert.equal((await sim.call('execute_trajectory', [circle(100)])).ok, true);
  const slow = sim.simTimeSecs() - t;
  const { samples } = await sim.drainTrajectory();
  for (const s of samples) {
    const r = Math.hypot(s.ee[0], s.ee[1] - 0.15);
    assert.ok(Math.abs(r - 0.05) < 0.006 && Math.abs(s.ee[2] - 0.95) < 0.006, `tool at ${s.ee.slice(0, 3)}`);
  }
  t = sim.simTimeSecs();
  await sim.call('execute_trajectory', [circle(40)]);
  const fast = sim.simTimeSecs() - t;
  assert.ok(slow > 1.8 && fast < slow * 0.6, `100 points ${slow} s, 40 points ${fast} s`);
});

test('close_gripper() grasps whatever is between the pads and open_gripper() lets go', async () => {
  await sim.reset('shake_bottle', 0);
  const b = (await sim.observe()).state.objects[0]!;
  const top = b.pos[2] + b.size[2] / 2;
  await sim.call('execute_trajectory', [[[b.pos[0], b.pos[1], top + 0.05, 0], [b.pos[0], b.pos[1], top - 0.04, 0]]]);
  assert.equal(out(await sim.call('close_gripper', [])), 'close_gripper: grasped mustard bottle');
  assert.equal((await sim.observe()).state.grasped, 'mustard bottle');
  assert.equal(out(await sim.call('close_gripper', [])), 'close_gripper: already holding mustard bottle');
  await sim.call('open_gripper', []);
  assert.equal((await sim.observe()).state.grasped, null);
  await sim.call('execute_trajectory', [[[b.pos[0], b.pos[1], top + 0.1, 0]]]);
  assert.equal(out(await sim.call('close_gripper', [])), 'close_gripper: nothing grasped');
});

test('execute_trajectory with a fifth pose element (the paper\'s binary gripper) closes and opens the gripper where it changes', async () => {
  await sim.reset('shake_bottle', 0, { api: 'lmtg' });
  const b = (await sim.observe()).state.objects.find((o) => o.name === 'mustard bottle')!;
  const top = b.pos[2] + b.size[2] / 2 - 0.04;
  const line = (a: number[], c: number[], n: number) => Array.from({ length: n }, (_, i) => a.map((v, k) => v + ((c[k]! - v) * (i + 1)) / n));
  const ee = (await sim.observe()).state.ee;
  const above = [b.pos[0], b.pos[1], top + 0.1, 0, 1];
  const at = [b.pos[0], b.pos[1], top, 0, 1];
  const lifted = [b.pos[0], b.pos[1], top + 0.12, 0, 0];
  // Open down to the bottle, closed from the first lifting pose on.
  const poses = [...line([...ee.pos, 0, 1], above, 40), ...line(above, at, 40), ...line(at, lifted, 40).map((p) => [...p.slice(0, 4), 0])];
  const r = await sim.call('execute_trajectory', [poses]);
  assert.equal(r.ok, true, out(r));
  assert.match(out(r), /close_gripper: grasped mustard bottle/);
  const s = (await sim.observe()).state;
  assert.ok(s.objects.find((o) => o.name === 'mustard bottle')!.pos[2] > b.pos[2] + 0.05, 'the bottle was lifted');
  // A gripper state other than 0 or 1 is refused before moving.
  const bad = await sim.call('execute_trajectory', [[[b.pos[0], b.pos[1], 0.95, 0, 0.5]]]);
  assert.equal(bad.ok, false);
  assert.match(out(bad), /fifth pose element \(gripper state\) to be 1 \(open\) or 0 \(closed\)/);
});
