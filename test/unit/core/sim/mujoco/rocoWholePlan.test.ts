// RoCo's plan is planned and checked as a whole before anything moves (issue 25): approach, contact and depart
// moves of every robot together, with the object a PICK will lift carried in the checks. A depart that would hit
// something is caught before execution: here Bob's open hand hovers over the free end of the wrench Alice picks;
// her approach and grasp are clear and the plan passes RoCo's five checks, but lifting the wrench would drive its
// far end into Bob's fingers, so nothing moves and the plan fails to execute with that reason. Without Bob there
// the same plan runs.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { seededRng } from '../../../../../src/core/host.js';
import { rocoApi } from '../../../../../src/core/sim/mujoco/apis/rocoApi.js';
import type { SimCallResult } from '../../../../../src/core/sim/mujoco/apis/robotApi.js';
import { EpisodeRuntime } from '../../../../../src/core/sim/mujoco/episodeRuntime.js';
import { quatRotate } from '../../../../../src/core/sim/mujoco/math3.js';
import type { Vec3 } from '../../../../../src/core/sim/mujoco/scene/sceneSpec.js';
import { getTask } from '../../../../../src/core/sim/mujoco/tasks/registry.js';
import { loadMujocoModule } from '../../../../../src/core/sim/mujoco/wasm.js';

const task = getTask('handover');
let rt: EpisodeRuntime;
before(async () => {
  rt = EpisodeRuntime.create(await loadMujocoModule(), task.scene);
});
after(() => rt.dispose());

const PICK = 'EXECUTE\nNAME Alice ACTION PICK wrench\nNAME Bob ACTION WAIT';

/** Puts Bob's tool at `pos`, top-down (joints and servo targets), as a finished motion leaves it. */
function placeBob(pos: Vec3): void {
  const bob = rt.arms[1]!;
  const q = bob.solveTarget({ pos, yawRad: 0 }).sol;
  assert.ok(q.converged, `Bob reaches ${pos.join(', ')}`);
  const qpos = rt.state.data.qpos as Float64Array;
  const ctrl = rt.state.data.ctrl as Float64Array;
  bob.arm.qposAdr.forEach((adr, j) => (qpos[adr] = q.q[j]!));
  bob.arm.ctrlAdr.forEach((adr, j) => (ctrl[adr] = q.q[j]!));
  rt.runner.forward();
}

/** The wrench's end away from Alice's base (she grips the other end), and the wrench's top height. */
function freeEnd(): { end: Vec3; top: number } {
  const i = rt.scene.objects.findIndex((o) => o.name === 'wrench');
  const pose = rt.state.objectPose(i);
  const size = rt.scene.built.spec.objects[i]!.size;
  const axis = quatRotate(pose.quat, [1, 0, 0]);
  const base = rt.scene.arms[0]!.layout.spec.basePos;
  const ends = [1, -1].map((s): Vec3 => [pose.pos[0] + (s * axis[0]! * size[0]) / 2, pose.pos[1] + (s * axis[1]! * size[0]) / 2, pose.pos[2]]);
  const far = ends.sort((a, b) => Math.hypot(b[0] - base[0], b[1] - base[1]) - Math.hypot(a[0] - base[0], a[1] - base[1]))[0]!;
  return { end: far, top: pose.pos[2] + size[2] / 2 };
}

const run = (text: string): SimCallResult => {
  const r = rocoApi.call({ ...rt.apiContext(), task }, 'execute_plan', [text]);
  rt.afterCall();
  return r;
};

test("a PICK whose lift would drive the wrench into Bob's hand passes the five checks but is caught before it moves anything", () => {
  rt.reset(task.layout(seededRng(0)));
  const { end, top } = freeEnd();
  // Bob's finger tips 4.5 cm over the wrench's far end (2 cm in from its tip): clear of it, but under the 12 cm lift.
  const c = rt.state.objectPose(0).pos;
  const L = Math.hypot(c[0] - end[0], c[1] - end[1]);
  placeBob([end[0] + (0.02 * (c[0] - end[0])) / L, end[1] + (0.02 * (c[1] - end[1])) / L, top + 0.045 + 0.014]);
  const t0 = rt.state.timeSecs;
  const alice0 = rt.state.armQ(0);
  const wrench0 = rt.state.objectPose(0).pos;
  const r = run(PICK);
  assert.ok(r.ok);
  assert.deepEqual(
    r.checks?.map((c) => [c.name, c.ok]),
    ['parse', 'task constraints', 'IK', 'collision', 'waypoints'].map((n) => [n, true]),
    'the plan passes all five checks',
  );
  assert.equal(r.value, false);
  assert.equal(r.executed, false);
  assert.match(r.output ?? '', /^This plan failed to execute: the depart move of Alice \(PICK wrench\) collides: [^;]*(Bob (left finger|right finger|hand)-wrench|wrench-Bob (left finger|right finger|hand))[^;]*;.*nothing moved$/);
  assert.equal(rt.state.timeSecs, t0, 'no physics step ran');
  assert.deepEqual(rt.state.armQ(0), alice0, "Alice's arm did not move");
  assert.deepEqual(rt.state.objectPose(0).pos, wrench0);
});

test('without Bob over it, the same PICK runs: approach, grasp and lift, the wrench carried up', () => {
  rt.reset(task.layout(seededRng(0)));
  const z0 = rt.state.objectPose(0).pos[2];
  const r = run(PICK);
  assert.ok(r.ok && r.value === true && r.executed === true, JSON.stringify(r));
  assert.match(r.output ?? '', /^Alice picked wrench$/m);
  assert.equal(rt.state.graspedName(0), 'wrench');
  assert.ok(rt.state.objectPose(0).pos[2] > z0 + 0.08, `lifted to ${rt.state.objectPose(0).pos[2].toFixed(3)}`);
});
