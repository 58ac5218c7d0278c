// Parallel-jaw gripper and the grasp model. Fingers are position servos. A grasp is declared only when both
// finger pads touch the named object after closing; then a weld equality (hand -> object) is switched on with
// the relative pose the object has at that moment, so the grasp survives fast transport without relying on
// simulated friction. Opening the gripper switches the weld off. The relative pose is stored in SimState and
// snapshots, because MuJoCo keeps it in the model (eq_data), not in mjData.
import { quatConj, quatMul, quatRotate } from '../math3.js';
import type { PhysicsRunner } from '../physicsRunner.js';
import type { SceneModel } from '../sceneModel.js';
import type { GraspState, Quat, SimState } from '../simState.js';
import type { Vec3 } from '../scene/sceneSpec.js';

const FINGER_SETTLE_SPEED = 2e-3;

/** Drives both fingers to `open` (true: 0.08 m opening) and steps until they stop. */
export function moveFingers(runner: PhysicsRunner, arm: number, open: boolean): void {
  const a = runner.state.scene.arms[arm]!;
  const target = open ? a.layout.fingerRange[1] : a.layout.fingerRange[0];
  const ctrl = runner.state.data.ctrl as Float64Array;
  ctrl[a.fingerCtrlAdr[0]] = target;
  ctrl[a.fingerCtrlAdr[1]] = target;
  const dof = a.fingerQposAdr.map((q) => jointDofOfQpos(runner.state.scene, q));
  runner.stepUntil(
    () => {
      const v = runner.state.data.qvel as Float64Array;
      return Math.abs(v[dof[0]!]!) < FINGER_SETTLE_SPEED && Math.abs(v[dof[1]!]!) < FINGER_SETTLE_SPEED;
    },
    0.12,
    0.8,
  );
}

/** True if the gripper is commanded open (the servo target, not the measured width). */
export function gripperCommandedOpen(state: SimState, arm: number): boolean {
  const a = state.scene.arms[arm]!;
  const ctrl = state.data.ctrl as Float64Array;
  return ctrl[a.fingerCtrlAdr[0]]! > a.layout.fingerRange[1] / 2;
}

/** Which fingers (left, right) touch `object` now, from the contact sensors. */
export function fingerContacts(state: SimState, arm: number, object: number): [boolean, boolean] {
  const s = state.data.sensordata as Float64Array;
  const out: [boolean, boolean] = [false, false];
  for (const { sensor, adr } of state.scene.sensors) {
    if (sensor.kind === 'finger' && sensor.arm === arm && sensor.other === object && s[adr]! > 0) out[sensor.side] = true;
  }
  return out;
}

/** Objects any finger of the arm touches now (indices, sorted). */
export function objectsBetweenFingers(state: SimState, arm: number): number[] {
  const s = state.data.sensordata as Float64Array;
  const found = new Set<number>();
  for (const { sensor, adr } of state.scene.sensors) if (sensor.kind === 'finger' && sensor.arm === arm && s[adr]! > 0) found.add(sensor.other);
  return [...found].sort((x, y) => x - y);
}

/** Switches the grasp weld on with the object's current pose in the hand frame. */
export function attach(state: SimState, arm: number, object: number): GraspState {
  const scene = state.scene;
  const hand = scene.arms[arm]!.handBody;
  const body = scene.objects[object]!.body;
  const xpos = state.data.xpos as Float64Array;
  const xquat = state.data.xquat as Float64Array;
  const handPos: Vec3 = [xpos[3 * hand]!, xpos[3 * hand + 1]!, xpos[3 * hand + 2]!];
  const handQuat: Quat = [xquat[4 * hand]!, xquat[4 * hand + 1]!, xquat[4 * hand + 2]!, xquat[4 * hand + 3]!];
  const objPos: Vec3 = [xpos[3 * body]!, xpos[3 * body + 1]!, xpos[3 * body + 2]!];
  const objQuat: Quat = [xquat[4 * body]!, xquat[4 * body + 1]!, xquat[4 * body + 2]!, xquat[4 * body + 3]!];
  const inv = quatConj(handQuat);
  const grasp: GraspState = {
    object,
    relPos: quatRotate(inv, [objPos[0] - handPos[0], objPos[1] - handPos[1], objPos[2] - handPos[2]]),
    relQuat: quatMul(inv, objQuat),
  };
  applyGrasp(state, arm, grasp);
  return grasp;
}

/** Writes a grasp into the model's weld row and activates it (also used by restore). */
export function applyGrasp(state: SimState, arm: number, grasp: GraspState): void {
  const scene = state.scene;
  const eq = scene.arms[arm]!.graspEq[grasp.object]!;
  const stride = scene.mj.mjNEQDATA;
  const eqData = scene.model.eq_data as Float64Array;
  // Weld data layout: anchor (3), relative pose position (3) and quaternion (4), torque scale (1).
  eqData.set([0, 0, 0, ...grasp.relPos, ...grasp.relQuat, 1], eq * stride);
  (state.data.eq_active as Uint8Array)[eq] = 1;
  state.grasps[arm] = grasp;
}

export function detach(state: SimState, arm: number): void {
  const g = state.grasps[arm];
  if (!g) return;
  (state.data.eq_active as Uint8Array)[state.scene.arms[arm]!.graspEq[g.object]!] = 0;
  state.grasps[arm] = null;
}

function jointDofOfQpos(scene: SceneModel, qposAdr: number): number {
  const m = scene.model;
  const qadr = m.jnt_qposadr as Int32Array;
  const dadr = m.jnt_dofadr as Int32Array;
  for (let j = 0; j < m.njnt; j++) if (qadr[j] === qposAdr) return dadr[j]!;
  throw new Error(`no joint with qpos address ${qposAdr}`);
}
