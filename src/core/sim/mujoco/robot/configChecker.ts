// Static collision checks of arm configurations, on a private scratch MjData (the simulation never moves):
// copy the live scene, put the arms (and what they hold) where asked, run MuJoCo's collision detection and
// name the penetrating pairs that involve an arm or a held object. Used by RoCo's IK/collision/waypoint checks,
// by RRT-Connect, and by Action Contextualization's can_grasp.
import type { MjData } from 'mujoco-js';
import { forEachContact } from '../contacts.js';
import { quatMul, quatRotate } from '../math3.js';
import type { SceneModel } from '../sceneModel.js';
import type { GraspState, SimState } from '../simState.js';
import type { Vec3 } from '../scene/sceneSpec.js';
import { graspOf } from './gripper.js';

export interface ConfigCollision {
  a: string;
  b: string;
  /** Penetration depth, metres (negative distance). */
  depthM: number;
}

/** Contacts shallower than this are resting contacts (a block on the table), not collisions. */
const PENETRATION_TOL_M = 1e-3;

/** The pairs as RoCo's feedback lists them: `Alice hand-Bob hand, Alice left finger-table`. */
export function pairsText(hits: readonly ConfigCollision[]): string {
  return hits.map((h) => `${h.a.trim()}-${h.b.trim()}`).join(', ');
}

export class ConfigChecker {
  private readonly data: MjData;
  /** Per body: arm index owning it (-1 none). */
  private readonly armOfBody: Int32Array;
  /** Per body: object index (-1 none). */
  private readonly objectOfBody: Int32Array;
  private disposed = false;

  constructor(private readonly scene: SceneModel) {
    this.data = new scene.mj.MjData(scene.model);
    const nbody = scene.model.nbody;
    this.armOfBody = new Int32Array(nbody).fill(-1);
    this.objectOfBody = new Int32Array(nbody).fill(-1);
    scene.arms.forEach((a, i) => a.bodyIds.forEach((b) => (this.armOfBody[b] = i)));
    // A cable's inner segments belong to the cable (its first segment's object); named ends keep their own index.
    scene.objects.forEach((o, i) => o.linkBodies?.forEach((b) => (this.objectOfBody[b] = i)));
    scene.objects.forEach((o, i) => (this.objectOfBody[o.body] = i));
  }

  /**
   * Collisions with the arms at `q[arm]` (null: where the arm is now). Held objects move with their hands.
   * `allowed[arm]` lists objects that arm may touch (the one it is about to grasp). `grasps` replaces what the arms
   * hold now, for a later stage of a plan (an object a PICK will have lifted).
   */
  collisions(
    state: SimState,
    q: (number[] | null)[],
    allowed: Set<number>[] = [],
    grasps: readonly (GraspState | null)[] = state.grasps,
    placed: readonly { object: number; pos: Vec3; quat: readonly number[] }[] = [],
  ): ConfigCollision[] {
    const { mj, model } = this.scene;
    const d = this.data;
    this.pose(state, q);
    const qpos = d.qpos as Float64Array;
    // Objects a plan will have put down elsewhere by then (`placed`), and held objects carried with their hands
    // (their free joints set from the hand pose and the grasp offset).
    let moved = false;
    for (const p of placed) {
      if (this.scene.objects[p.object]!.kind !== 'free') continue;
      qpos.set([...p.pos, ...p.quat], this.scene.objects[p.object]!.qposAdr);
      moved = true;
    }
    grasps.forEach((g, a) => {
      if (!g || !q[a] || this.scene.objects[g.object]!.kind !== 'free') return;
      const hand = this.scene.arms[a]!.handBody;
      const xpos = d.xpos as Float64Array;
      const xquat = d.xquat as Float64Array;
      const hq = [xquat[4 * hand]!, xquat[4 * hand + 1]!, xquat[4 * hand + 2]!, xquat[4 * hand + 3]!];
      const off = quatRotate(hq, g.relPos);
      const pos: Vec3 = [xpos[3 * hand]! + off[0], xpos[3 * hand + 1]! + off[1], xpos[3 * hand + 2]! + off[2]];
      qpos.set([...pos, ...quatMul(hq, g.relQuat)], this.scene.objects[g.object]!.qposAdr);
      moved = true;
    });
    if (moved) mj.mj_kinematics(model, d);
    mj.mj_fwdPosition(model, d);
    return this.penetrations(grasps, allowed);
  }

  /** Where a held object would be with the arms at `q` (world pose), e.g. where a release will leave it. */
  carriedPose(state: SimState, q: (number[] | null)[], arm: number, grasp: GraspState): { pos: Vec3; quat: [number, number, number, number] } {
    this.pose(state, q);
    const d = this.data;
    const hand = this.scene.arms[arm]!.handBody;
    const xpos = d.xpos as Float64Array;
    const xquat = d.xquat as Float64Array;
    const hq = [xquat[4 * hand]!, xquat[4 * hand + 1]!, xquat[4 * hand + 2]!, xquat[4 * hand + 3]!];
    const off = quatRotate(hq, grasp.relPos);
    return { pos: [xpos[3 * hand]! + off[0], xpos[3 * hand + 1]! + off[1], xpos[3 * hand + 2]! + off[2]], quat: quatMul(hq, grasp.relQuat) as [number, number, number, number] };
  }

  /** The grasp `arm` would take of `object` (where it lies now) with its joints at `q`: a PICK's hold before it happens. */
  graspAt(state: SimState, arm: number, q: number[], object: number): GraspState {
    this.pose(state, this.scene.arms.map((_, a) => (a === arm ? q : null)));
    return graspOf(object, this.scene.arms[arm]!.handBody, this.scene.objects[object]!.body, this.data.xpos as Float64Array, this.data.xquat as Float64Array);
  }

  /** The live scene copied into the scratch data with the arms at `q` (null: where they are), body poses computed. */
  private pose(state: SimState, q: (number[] | null)[]): void {
    const d = this.data;
    (d.qpos as Float64Array).set(state.data.qpos as Float64Array);
    (d.mocap_pos as Float64Array).set(state.data.mocap_pos as Float64Array);
    (d.mocap_quat as Float64Array).set(state.data.mocap_quat as Float64Array);
    const qpos = d.qpos as Float64Array;
    this.scene.arms.forEach((arm, a) => {
      const qa = q[a];
      if (qa) arm.qposAdr.forEach((adr, j) => (qpos[adr] = qa[j]!));
    });
    this.scene.mj.mj_kinematics(this.scene.model, d);
  }

  private penetrations(grasps: readonly (GraspState | null)[], allowed: Set<number>[]): ConfigCollision[] {
    const heldBy = new Map<number, number>();
    grasps.forEach((g, a) => g && heldBy.set(g.object, a));
    const found = new Map<string, ConfigCollision>();
    forEachContact(this.scene.model, this.data, (b1, b2, depth) => {
      if (depth < PENETRATION_TOL_M) return;
      if (!this.counts(b1, b2, heldBy, allowed) && !this.counts(b2, b1, heldBy, allowed)) return;
      const pair = [this.scene.bodyLabel[b1] || 'world', this.scene.bodyLabel[b2] || 'world'].sort() as [string, string];
      const key = pair.join('\u0000');
      const prev = found.get(key);
      if (!prev || prev.depthM < depth) found.set(key, { a: pair[0], b: pair[1], depthM: depth });
    });
    return [...found.values()].sort((x, y) => (x.a + x.b < y.a + y.b ? -1 : 1));
  }

  /** Whether a contact of body x (an arm link or a held object) with body y is a collision. */
  private counts(x: number, y: number, heldBy: Map<number, number>, allowed: Set<number>[]): boolean {
    const arm = this.armOfBody[x]!;
    const yArm = this.armOfBody[y]!;
    const yObj = this.objectOfBody[y]!;
    if (arm >= 0) {
      if (yArm >= 0) return yArm !== arm;
      if (yObj >= 0) return !(heldBy.get(yObj) === arm || allowed[arm]?.has(yObj) || this.scene.objects[yObj]!.interactive);
      return true; // table, floor
    }
    const xObj = this.objectOfBody[x]!;
    const holder = xObj >= 0 ? heldBy.get(xObj) : undefined;
    if (holder === undefined) return false;
    // A held object hitting anything but its own hand (and what that arm may touch).
    if (yArm === holder) return false;
    if (yObj >= 0 && (allowed[holder]?.has(yObj) || heldBy.has(yObj))) return false;
    return true;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.data.delete();
  }
}
