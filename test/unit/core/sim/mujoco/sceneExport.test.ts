// Scene export: the file is the simulator's exact XML plus keyframe 0 = the state after reset, and MuJoCo's own
// tools load it: mujoco-js always, the native `mujoco` Python package where it can be had (else skipped, with why).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { sceneWithKeyframe, stripExport } from '../../../../../src/core/sim/mujoco/sceneExport.js';
import { buildTabletopScene } from '../../../../../src/core/sim/mujoco/scene/tabletopScene.js';
import { TabletopSimulator } from '../../../../../src/core/sim/mujoco/tabletopSim.js';
import { getTask } from '../../../../../src/core/sim/mujoco/tasks/registry.js';
import { compileMjcf, loadMujocoModule } from '../../../../../src/core/sim/mujoco/wasm.js';
import { findMujocoPython, NativeMujoco } from '../../../../bench/nativeMujoco.js';

const dir = mkdtempSync(join(tmpdir(), 'waypoint-scene-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Exports (task, seed) and returns the XML with the simulator's own object positions after reset. */
async function exported(taskId: string, seed: number) {
  const sim = new TabletopSimulator(await loadMujocoModule());
  try {
    const r = await sim.reset(taskId, seed);
    return { xml: sim.sceneMjcf(), objects: r.observation.state.objects.map((o) => ({ name: o.name, pos: o.pos })) };
  } finally {
    await sim.close();
  }
}

const CASES: [string, number][] = [['stack_blocks', 4], ['sort_cubes', 1], ['open_drawer', 2]];

test('scene export: the product XML plus a keyframe; mujoco-js reset to key 0 puts every object where the simulator did', async () => {
  const mj = await loadMujocoModule();
  for (const [taskId, seed] of CASES) {
    const { xml, objects } = await exported(taskId, seed);
    assert.equal(stripExport(xml), buildTabletopScene(getTask(taskId).scene).xml, `${taskId}: nothing but the comment and keyframe added`);
    assert.match(xml, new RegExp(`task ${taskId}, seed ${seed}`));
    const m = compileMjcf(mj, xml, taskId);
    const d = new mj.MjData(m);
    try {
      assert.equal(m.nkey, 1);
      mj.mj_resetDataKeyframe(m, d, 0);
      mj.mj_forward(m, d);
      const spec = getTask(taskId).scene.objects;
      for (const o of objects) {
        const body = mj.mj_name2id(m, mj.mjtObj.mjOBJ_BODY.value, spec.find((s) => s.name === o.name)!.mjcfName);
        const p = Array.from((d.xpos as Float64Array).subarray(3 * body, 3 * body + 3));
        for (let i = 0; i < 3; i++) assert.ok(Math.abs(p[i]! - o.pos[i]!) < 1e-6, `${taskId} ${o.name}: ${p} vs ${o.pos}`);
      }
    } finally {
      d.delete();
      m.delete();
    }
  }
  // A held object cannot be put in a keyframe (no active welds there): refused, not silently dropped.
  const k = { timeSecs: 0, qpos: [0], qvel: [0], act: [], ctrl: [], mpos: [], mquat: [] };
  assert.throws(() => sceneWithKeyframe('<mujoco/>\n</mujoco>', k, { taskId: 't', seed: 0, mujocoVersion: 'x', activeGrasps: 1 }), /1 grasp\(s\) active; a keyframe cannot hold an active grasp weld/);
});

test('scene export: the native mujoco Python package loads the file and its keyframe gives the same positions', async (t) => {
  const found = findMujocoPython();
  if ('skipped' in found) {
    t.skip(`native MuJoCo not available: ${found.skipped}`);
    return;
  }
  const native = await NativeMujoco.start(found.python);
  try {
    for (const [taskId, seed] of CASES) {
      const { xml, objects } = await exported(taskId, seed);
      const file = join(dir, `${taskId}.xml`);
      writeFileSync(file, xml);
      const info = await native.load(file);
      assert.equal(info.nkey, 1, `${taskId}: MuJoCo ${native.version} sees the keyframe`);
      const spec = getTask(taskId).scene.objects;
      const r = await native.keyframe(file, objects.map((o) => spec.find((s) => s.name === o.name)!.mjcfName));
      for (const o of objects) {
        const p = r.bodies[spec.find((s) => s.name === o.name)!.mjcfName]!;
        for (let i = 0; i < 3; i++) assert.ok(Math.abs(p[i]! - o.pos[i]!) < 1e-6, `native ${native.version} ${taskId} ${o.name}: ${p} vs ${o.pos}`);
      }
    }
  } finally {
    native.close();
  }
});
