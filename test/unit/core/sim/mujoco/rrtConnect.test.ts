import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { seededRng } from '../../../../../src/core/host.js';
import { EpisodeRuntime } from '../../../../../src/core/sim/mujoco/episodeRuntime.js';
import { edgeCollision, planJointPath, type PlanContext } from '../../../../../src/core/sim/mujoco/robot/rrtConnect.js';
import { getTask } from '../../../../../src/core/sim/mujoco/tasks/registry.js';
import { loadMujocoModule } from '../../../../../src/core/sim/mujoco/wasm.js';

let drawer: EpisodeRuntime;
let cubes: EpisodeRuntime;
before(async () => {
  const mj = await loadMujocoModule();
  const d = getTask('open_drawer');
  drawer = EpisodeRuntime.create(mj, d.scene);
  drawer.reset(d.layout(seededRng(0)));
  const s = getTask('sort_cubes');
  cubes = EpisodeRuntime.create(mj, s.scene);
  cubes.reset(s.layout(seededRng(0)));
});
after(() => {
  drawer.dispose();
  cubes.dispose();
});

test('RRT-Connect finds a collision-free joint path when the straight joint line cuts through the cabinet, reproducibly', () => {
  const cab = drawer.state.objectPose(0).pos;
  const arm = drawer.arms[0]!;
  const a = arm.solveTarget({ pos: [cab[0] - 0.3, cab[1] - 0.02, 0.8], yawRad: 0 }).sol;
  const b = arm.solveTarget({ pos: [cab[0] + 0.3, cab[1] - 0.02, 0.8], yawRad: 0 }).sol;
  assert.ok(a.converged && b.converged);
  const ctx: PlanContext = { checker: drawer.checker, state: drawer.state, arm: 0, ranges: arm.arm.layout.jointRanges, allowed: [new Set()] };
  const straight = edgeCollision(ctx, a.q, b.q);
  assert.ok(straight && straight.some((c) => c.a === 'cabinet' || c.b === 'cabinet'), JSON.stringify(straight));
  const p = planJointPath(ctx, a.q, b.q, 7);
  assert.ok(p.ok, p.ok ? '' : p.reason);
  if (!p.ok) return;
  assert.equal(p.kind, 'rrt');
  assert.deepEqual(p.knots[0], a.q);
  assert.deepEqual(p.knots.at(-1), b.q);
  for (let i = 1; i < p.knots.length; i++) assert.equal(edgeCollision(ctx, p.knots[i - 1]!, p.knots[i]!), null, `edge ${i}`);
  const again = planJointPath(ctx, a.q, b.q, 7);
  assert.deepEqual(again, p, 'same seed, same plan');
  // A free straight line is kept as is.
  const c = arm.solveTarget({ pos: [cab[0] - 0.3, cab[1] - 0.1, 1.0], yawRad: 0 }).sol;
  const free = planJointPath(ctx, a.q, c.q);
  assert.deepEqual(free.ok && [free.kind, free.knots.length], ['straight', 2]);
});

test('a goal inside another arm is refused with the colliding pairs; arm-arm contacts during motion are reported', () => {
  const [alice, bob] = cubes.arms;
  // Bob's tool low over panel3, Alice asked to go to the same spot.
  const spot = { pos: [-0.17, 0.15, 0.82] as [number, number, number], yawRad: 0 };
  const qb = bob!.solveTarget(spot).sol;
  const qpos = cubes.state.data.qpos as Float64Array;
  const ctrl = cubes.state.data.ctrl as Float64Array;
  bob!.arm.qposAdr.forEach((adr, j) => (qpos[adr] = qb.q[j]!));
  bob!.arm.ctrlAdr.forEach((adr, j) => (ctrl[adr] = qb.q[j]!));
  cubes.runner.forward();
  const qa = alice!.solveTarget(spot).sol;
  const ctx: PlanContext = { checker: cubes.checker, state: cubes.state, arm: 0, ranges: alice!.arm.layout.jointRanges, allowed: [new Set(), new Set(), new Set()] };
  const p = planJointPath(ctx, cubes.state.armQ(0), qa.q);
  assert.equal(p.ok, false);
  if (p.ok) return;
  assert.equal(p.reason, 'the goal configuration collides');
  assert.ok(p.collisions!.some((c) => c.a.startsWith('Alice') && c.b.startsWith('Bob')), JSON.stringify(p.collisions));
  // Driving Alice there anyway (no planning): the contact monitor names the arm-arm pairs.
  cubes.contacts.begin([new Set(), new Set(), new Set()]);
  alice!.moveTool(spot, 'test');
  const hits = cubes.contacts.end();
  assert.ok(hits.some((h) => h.a.startsWith('Alice') && h.b.startsWith('Bob')), JSON.stringify(hits));
});
