// The scenes of Action Contextualization's experiments (acScenes.ts): every task is seedable (layouts move with
// the seed), doing nothing fails its success check, the planner's context names the paper's labels and what the
// scene is about (a wedged paper ball, a lamp over the apple) only with the scene.spatial_relations ablation on (the
// paper's description has no relations; test/unit/architectures/actctx/sceneDescription.test.ts checks the
// rendered prompt). The scripted plans are in acSolutions.test.ts.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sceneContext } from '../../../../../src/architectures/actctx/context.js';
import { createTabletopSimulator } from '../../../../../src/core/sim/mujoco/index.js';
import type { Simulator } from '../../../../../src/core/sim/simulator.js';

const AC_TASKS = [
  'ac_single_whole_apple',
  'ac_single_half_eaten_apple',
  'ac_single_empty_glass',
  'ac_single_full_glass',
  'ac_single_paper_ball_1',
  'ac_single_paper_ball_2',
  'ac_sequential',
  'ac_robust_random',
  'ac_robust_lamp',
];
let sim: Simulator;
before(async () => {
  sim = await createTabletopSimulator();
});
after(async () => {
  await sim.close();
});

test('every scene of the paper is a task: seedable, its labels the paper\'s, and doing nothing fails', async () => {
  const ids = sim.tasks().map((t) => t.id);
  for (const id of AC_TASKS) {
    assert.ok(ids.includes(id), `${id} is registered`);
    const layouts: string[] = [];
    for (const seed of [0, 1]) {
      const { observation } = await sim.reset(id, seed);
      const idle = await sim.check();
      assert.equal(idle.success, false, `${id} seed ${seed}: doing nothing must fail`);
      // The instruction names no destination: any of the scene's places is success for each target.
      const notPut = idle.detail.match(/is not in the [^;]*/g) ?? [];
      assert.ok(notPut.length > 0, `${id}: ${idle.detail}`);
      for (const n of notPut) assert.equal(n, 'is not in the large red trash can or in the large white sink or on the storage shelf', `${id}: ${idle.detail}`);
      const c = sceneContext(observation.state);
      assert.deepEqual(c.locations, ['large red trash can', 'large white sink', 'storage shelf'], id);
      for (const o of ['whole apple', 'half-eaten apple', 'glass with yellowish liquid', 'empty glass 1', 'crumpled paper ball 1', 'crumpled paper ball 2']) assert.ok(c.objects.includes(o), `${id}: ${o}`);
      assert.ok(!c.objects.includes('overhead lamp'), 'a fixture is not an object to put away');
      assert.doesNotMatch(c.description, /\d\.\d{2}/, 'no coordinates in the description');
      layouts.push(JSON.stringify(observation.state.objects.map((o) => o.pos)));
      assert.doesNotMatch(c.description, /next to|wedged|behind|hangs/, `${id}: no spatial relations by default`);
      const r = sceneContext(observation.state, true);
      assert.deepEqual([r.objects, r.locations], [c.objects, c.locations], 'the relations change only the description');
      if (id === 'ac_single_paper_ball_2') assert.match(r.description, /'crumpled paper ball 2' lies [^.]*wedged between the/);
      if (id === 'ac_robust_lamp') {
        assert.match(r.description, /The overhead lamp is fixed [^.]*; it hangs over the 'half-eaten apple'/);
        // The full glass stands where the side approach to the apple passes (the authors' arrangement).
        assert.match(r.description, /The 'half-eaten apple' lies [^.]*it is behind the 'glass with yellowish liquid', which is between it and the robot/);
      }
      if (id === 'ac_sequential') assert.match(r.description, /'glass with yellowish liquid' lies [^.]*right next to the 'half-eaten apple'/);
    }
    assert.notEqual(layouts[0], layouts[1], `${id}: seeds 0 and 1 lay the table out differently`);
  }
});
