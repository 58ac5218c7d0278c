// Parallel-jaw gripper and the grasp model. Fingers are position servos. A grasp is declared only when both
// finger pads touch the named object after closing. Two grasp modes (SimState.graspMode):
// - friction (default): nothing else; the pads' squeeze (servo kp 400 against the object, up to 40 N) and contact
//   friction (pads 1.5, elliptic cones, impratio 10) carry the object, so a grasp at the edge or a hard stop can
//   let it slip. When a pad has lost the object for FRICTION_LOSS_SECS the grasp is over (a GraspLoss is logged).
// - weld: a weld equality (hand -> object) is switched on with the relative pose the object has at that moment,
//   so the grasp survives anything until the gripper opens.
// A suction cup keeps the weld in both modes (vacuum, not friction), and so does a tool a task mounts in a hand
// from the start (Sweep Floor's broom and dustpan). The relative pose is stored in SimState and snapshots, because
// MuJoCo keeps it in the model (eq_data).
import { quatConj, quatMul, quatRotate } from '../math3.js';
import type { PhysicsRunner } from '../physicsRunner.js';
import type { GraspState, Quat, SimState } from '../simState.js';
import type { Vec3 } from '../scene/sceneSpec.js';

const FINGER_SETTLE_SPEED = 2e-3;
/** A friction grasp ends when a pad has not touched the object for this long (brief chatter is not a loss). */
export const FRICTION_LOSS_SECS = 0.05;

/** Drives both fingers to `open` (true: fully open) and steps until they stop. A suction cup switches off / on. */
export function moveFingers(runner: PhysicsRunner, arm: number, open: boolean): void {
  moveGrippers(runner, [{ arm, open }]);
}

/** Opens a hand with its thumb swung round in front of the palm (`thumbIn`) or out to the side, and waits for it. */
export function preshapeHand(runner: PhysicsRunner, arm: number, thumbIn: boolean): void {
  const g = runner.state.scene.arms[arm]!.gripper;
  if (g.kind !== 'hand') return;
  const ctrl = runner.state.data.ctrl as Float64Array;
  const pose = thumbIn ? g.openThumbIn : g.open;
  g.ctrlAdr.forEach((a, k) => (ctrl[a] = pose[k]!));
  runner.stepUntil(() => g.dofAdr.every((d) => Math.abs((runner.state.data.qvel as Float64Array)[d]!) < FINGER_SETTLE_SPEED), 0.12, 0.8);
}

/** Sets several grippers at once (robots acting in the same steps) and steps until every finger has stopped. */
export function moveGrippers(runner: PhysicsRunner, commands: { arm: number; open: boolean }[]): void {
  const ctrl = runner.state.data.ctrl as Float64Array;
  const dofs: number[] = [];
  for (const { arm, open } of commands) {
    const g = runner.state.scene.arms[arm]!.gripper;
    if (g.kind === 'suction') {
      ctrl[g.ctrlAdr] = open ? 0 : 1;
      continue;
    }
    if (g.kind === 'hand') {
      g.ctrlAdr.forEach((a, k) => (ctrl[a] = open ? g.open[k]! : g.closed[k]!));
      dofs.push(...g.dofAdr);
      continue;
    }
    const target = open ? g.range[1] : g.range[0];
    ctrl[g.ctrlAdr[0]] = target;
    ctrl[g.ctrlAdr[1]] = target;
    dofs.push(...g.dofAdr);
  }
  if (commands.length === 0) return;
  runner.stepUntil(
    () => {
      const v = runner.state.data.qvel as Float64Array;
      return dofs.every((d) => Math.abs(v[d]!) < FINGER_SETTLE_SPEED);
    },
    0.12,
    0.8,
  );
}

/** True if the gripper is commanded open (the servo target, not the measured width); a suction cup: suction off. */
export function gripperCommandedOpen(state: SimState, arm: number): boolean {
  const g = state.scene.arms[arm]!.gripper;
  const ctrl = state.data.ctrl as Float64Array;
  if (g.kind === 'suction') return ctrl[g.ctrlAdr]! < 0.5;
  if (g.kind === 'hand') return Math.abs(ctrl[g.ctrlAdr[0]]! - g.open[0]!) < Math.abs(ctrl[g.ctrlAdr[0]]! - g.closed[0]!);
  return ctrl[g.ctrlAdr[0]]! > g.range[1] / 2;
}

/** Which fingers (left, right; a hand's thumb and fingers) touch `object` now, from the contact sensors. A suction cup counts as both. */
export function fingerContacts(state: SimState, arm: number, object: number): [boolean, boolean] {
  const s = state.data.sensordata as Float64Array;
  const out: [boolean, boolean] = [false, false];
  for (const { sensor, adr } of state.scene.sensors) {
    if (sensor.kind === 'finger' && sensor.arm === arm && sensor.other === object && s[adr]! > 0) out[sensor.side] = true;
  }
  if (state.scene.arms[arm]!.gripper.kind === 'suction') out[1] = out[0];
  return out;
}

/** Objects any finger of the arm touches now (indices, sorted). */
export function objectsBetweenFingers(state: SimState, arm: number): number[] {
  const s = state.data.sensordata as Float64Array;
  const found = new Set<number>();
  for (const { sensor, adr } of state.scene.sensors) if (sensor.kind === 'finger' && sensor.arm === arm && s[adr]! > 0) found.add(sensor.other);
  return [...found].sort((x, y) => x - y);
}

/** Switches the grasp weld on with the object's current pose in the hand frame (`mounted`: a tool held from the start). */
export function attach(state: SimState, arm: number, object: number, mounted = false): GraspState {
  const scene = state.scene;
  const grasp = graspOf(object, scene.arms[arm]!.handBody, scene.objects[object]!.body, state.data.xpos as Float64Array, state.data.xquat as Float64Array);
  if (mounted) grasp.mounted = true;
  applyGrasp(state, arm, grasp);
  return grasp;
}

/** The grasp of `object` (body `body`) by the hand body `hand`, from body poses (live data, or a checker's scratch data). */
export function graspOf(object: number, hand: number, body: number, xpos: Float64Array, xquat: Float64Array): GraspState {
  const handPos: Vec3 = [xpos[3 * hand]!, xpos[3 * hand + 1]!, xpos[3 * hand + 2]!];
  const handQuat: Quat = [xquat[4 * hand]!, xquat[4 * hand + 1]!, xquat[4 * hand + 2]!, xquat[4 * hand + 3]!];
  const objPos: Vec3 = [xpos[3 * body]!, xpos[3 * body + 1]!, xpos[3 * body + 2]!];
  const objQuat: Quat = [xquat[4 * body]!, xquat[4 * body + 1]!, xquat[4 * body + 2]!, xquat[4 * body + 3]!];
  const inv = quatConj(handQuat);
  return { object, relPos: quatRotate(inv, [objPos[0] - handPos[0], objPos[1] - handPos[1], objPos[2] - handPos[2]]), relQuat: quatMul(inv, objQuat) };
}

/** Writes a grasp into the model's weld row and activates it (also used by restore). Friction grasps only record it. */
export function applyGrasp(state: SimState, arm: number, grasp: GraspState): void {
  state.padsMissing[arm] = 0;
  // A suction cup holds by vacuum, not friction, and a mounted tool is fixed to its hand: both keep the weld.
  if (state.graspMode === 'friction' && state.scene.arms[arm]!.gripper.kind !== 'suction' && !grasp.mounted) {
    state.grasps[arm] = grasp;
    return;
  }
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

/** After a physics step: a friction grasp whose object left a pad for FRICTION_LOSS_SECS is lost (it slipped). */
export function watchFrictionGrasps(state: SimState): void {
  const limit = Math.max(1, Math.round(FRICTION_LOSS_SECS / state.scene.timestepSecs));
  for (let arm = 0; arm < state.grasps.length; arm++) {
    const g = state.grasps[arm];
    if (!g || g.mounted || state.scene.arms[arm]!.gripper.kind === 'suction') continue;
    // Fingers opening on purpose (a skill that opens before it lets go) release the object; that is no slip.
    if (gripperCommandedOpen(state, arm)) continue;
    const [l, r] = fingerContacts(state, arm, g.object);
    if (l && r) {
      state.padsMissing[arm] = 0;
      continue;
    }
    if (++state.padsMissing[arm]! < limit) continue;
    state.grasps[arm] = null;
    state.padsMissing[arm] = 0;
    state.graspLosses.push({ arm, object: g.object, tSecs: state.timeSecs });
  }
}
