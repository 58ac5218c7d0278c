// The multi-arm planner from a start that is already in collision (arms left touching by an earlier plan): it plans
// out of the contacts the start has, never deeper and never into new ones, and says so; when no way out is found
// the failure names the start's contacts instead of blaming the search.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { seededRng } from '../../../../../src/core/host.js';
import { EpisodeRuntime } from '../../../../../src/core/sim/mujoco/episodeRuntime.js';
import type { ArmController } from '../../../../../src/core/sim/mujoco/robot/armController.js';
import { planMultiArm, type MultiArmContext } from '../../../../../src/core/sim/mujoco/robot/multiArmPlanner.js';
import type { Vec3 } from '../../../../../src/core/sim/mujoco/scene/sceneSpec.js';
import { getTask } from '../../../../../src/core/sim/mujoco/tasks/registry.js';
import { loadMujocoModule } from '../../../../../src/core/sim/mujoco/wasm.js';

let rt: EpisodeRuntime;
let ctx: MultiArmContext;
before(async () => {
  const task = getTask('sort_cubes');
  rt = EpisodeRuntime.create(await loadMujocoModule(), task.scene);
  rt.reset(task.layout(seededRng(0)));
  ctx = { checker: rt.checker, state: rt.state, ranges: rt.scene.arms.map((a) => a.layout.jointRanges), allowed: rt.scene.arms.map(() => new Set<number>()) };
});
after(() => rt.dispose());

/** Puts an arm's tool at `pos` (joints and servo targets), as a finished motion leaves it. */
function place(arm: ArmController, pos: Vec3): void {
  const q = arm.solveTarget({ pos, yawRad: 0 }).sol;
  assert.ok(q.converged);
  const qpos = rt.state.data.qpos as Float64Array;
  const ctrl = rt.state.data.ctrl as Float64Array;
  arm.arm.qposAdr.forEach((adr, j) => (qpos[adr] = q.q[j]!));
  arm.arm.ctrlAdr.forEach((adr, j) => (ctrl[adr] = q.q[j]!));
  rt.runner.forward();
}

const key = (h: { a: string; b: string }) => `${h.a}|${h.b}`;

/** Bob's tool over panel3 and Alice's 8 cm beside it: their forearms overlap (Alice link3-Bob link4, ...). */
function touching(): number[][] {
  const [alice, bob] = rt.arms;
  place(bob!, [-0.17, 0.15, 0.9]);
  place(alice!, [-0.25, 0.15, 0.9]);
  return rt.scene.arms.map((_, a) => rt.state.armQ(a));
}

test('a start in collision is planned out of: the contacts it has get no deeper, none is added, and the plan says which they were', () => {
  const start = touching();
  const atStart = rt.checker.collisions(rt.state, start, ctx.allowed);
  assert.ok(atStart.length > 0 && atStart.every((h) => h.a.startsWith('Alice') && h.b.startsWith('Bob')), JSON.stringify(atStart));
  const goal = start.map((q) => [...q]);
  goal[0] = rt.arms[0]!.solveTarget({ pos: [-0.45, 0.1, 1.0], yawRad: 0 }).sol.q;
  const p = planMultiArm(ctx, start, goal, [], 3);
  assert.ok(p.ok, p.ok ? '' : p.reason);
  if (!p.ok) return;
  assert.deepEqual(p.startCollisions?.map(key), atStart.map(key));
  assert.deepEqual(p.knots[0], start);
  assert.deepEqual(p.knots.at(-1), goal);
  // Walk the path finely: until it is free, only the start's pairs, no deeper (2 mm); free from then on.
  const depth = new Map(atStart.map((h) => [key(h), h.depthM]));
  let free = false;
  for (let i = 1; i < p.knots.length; i++) {
    for (let k = 1; k <= 40; k++) {
      const q = p.knots[i - 1]!.map((qa, a) => qa.map((v, j) => v + (k / 40) * (p.knots[i]![a]![j]! - v)));
      const hits = rt.checker.collisions(rt.state, q, ctx.allowed);
      if (hits.length === 0) free = true;
      else {
        assert.equal(free, false, `back in collision after leaving it: ${JSON.stringify(hits)}`);
        for (const h of hits) assert.ok(h.depthM <= (depth.get(key(h)) ?? -1) + 0.002, `new or deeper contact ${key(h)} ${h.depthM}`);
      }
    }
  }
  assert.ok(free);
  assert.deepEqual(planMultiArm(ctx, start, goal, [], 3), p, 'same seed, same plan');
});

test('a start in collision with no way out found: the failure names the start and its pairs', () => {
  const start = touching();
  const goal = start.map((q) => [...q]);
  goal[0] = rt.arms[0]!.solveTarget({ pos: [-0.25, 0.3, 1.0], yawRad: 0 }).sol.q;
  // The straight joint line to this goal runs deeper into Bob's arm; with the sampling box pinned at the start,
  // RRT-Connect has nowhere else to go.
  const pinned = start.map((q) => q.map((v): [number, number] => [v, v]));
  const p = planMultiArm({ ...ctx, ranges: pinned }, start, goal, [], 3);
  assert.equal(p.ok, false);
  if (p.ok) return;
  assert.match(p.reason, /^the start configuration collides and no path out of it was found in \d+ BiRRT iterations$/);
  assert.deepEqual(p.collisions?.map(key), rt.checker.collisions(rt.state, start, ctx.allowed).map(key));
});
