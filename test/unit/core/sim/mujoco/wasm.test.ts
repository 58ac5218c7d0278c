import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileMjcf, loadMujocoModule } from '../../../../../src/core/sim/mujoco/wasm.js';

test('the MuJoCo module is loaded once and shared', async () => {
  const [a, b] = await Promise.all([loadMujocoModule(), loadMujocoModule()]);
  assert.equal(a, b);
  assert.match(a.mj_versionString(), /^3\./);
});

test('MJCF that does not compile fails with MuJoCo\'s reason and the scene label, and the module stays usable', async () => {
  const mj = await loadMujocoModule();
  assert.throws(() => compileMjcf(mj, '<mujoco><worldbody></worldbod></mujoco>', 'broken scene'), /^Error: MJCF for 'broken scene' did not compile: .*XML parse error/);
  assert.throws(() => compileMjcf(mj, '<mujoco><worldbody><geom type="box"/></worldbody></mujoco>', 'box without size'), /^Error: MJCF for 'box without size' did not compile: mjCError/);
  const m = compileMjcf(mj, '<mujoco><worldbody><geom type="sphere" size="0.1"/></worldbody></mujoco>', 'ok');
  assert.equal(m.ngeom, 1);
  m.delete();
});
