// SimState: the mutable half of the model/state split. Owns one MjData (deleted exactly once in dispose())
// plus the few things MuJoCo's state does not hold: which object each arm grasps. Readers here copy numbers
// out of MuJoCo's live views, so nothing that leaves this folder can change under the caller after a step.
import type { MjData } from 'mujoco-js';
import type { SceneModel } from './sceneModel.js';
import type { Vec3 } from './scene/sceneSpec.js';
import { matToQuat } from './math3.js';

export type Quat = [number, number, number, number];

/** An active grasp: the weld's relative pose (object in hand frame) is part of the state, see grasp.ts. */
export interface GraspState {
  object: number;
  relPos: Vec3;
  relQuat: Quat;
  /** A tool the robot holds from the start (a task's mounted tool): welded whatever the grasp model. */
  mounted?: boolean;
}

/**
 * How a grasp holds its object: `friction` (default) leaves it to the finger pads' contact friction, so it can slip
 * and drop; `weld` pins the object to the hand with an equality constraint until the gripper opens (robot/gripper.ts).
 */
export type GraspMode = 'friction' | 'weld';
export const GRASP_MODES: readonly GraspMode[] = ['friction', 'weld'];

/** A friction grasp that ended without open_gripper: the object slipped out of the fingers. */
export interface GraspLoss {
  arm: number;
  object: number;
  tSecs: number;
}

export class SimState {
  readonly data: MjData;
  /** Per arm: the held object, or null. */
  grasps: (GraspState | null)[];
  graspMode: GraspMode = 'friction';
  /** Per arm: physics steps in a row the held object has lacked a pad contact (friction grasps). */
  padsMissing: number[];
  /** Grasps lost since the last take (a robot API call reports them). */
  graspLosses: GraspLoss[] = [];
  private disposed = false;

  constructor(readonly scene: SceneModel) {
    this.data = new scene.mj.MjData(scene.model);
    this.grasps = scene.arms.map(() => null);
    this.padsMissing = scene.arms.map(() => 0);
  }

  get timeSecs(): number {
    return this.data.time;
  }

  /** Physics steps since reset (time / timestep, rounded): drives the fixed-rate trajectory sampling. */
  get stepCount(): number {
    return Math.round(this.data.time / this.scene.timestepSecs);
  }

  armQ(arm: number): number[] {
    const q = this.data.qpos as Float64Array;
    return this.scene.arms[arm]!.qposAdr.map((a) => q[a]!);
  }

  /** Tool centre point position and yaw (angle of the pad plane's x axis about world +z). */
  tcp(arm: number): { pos: Vec3; yawRad: number } {
    const s = this.scene.arms[arm]!.eeSite;
    const p = this.data.site_xpos as Float64Array;
    const R = this.data.site_xmat as Float64Array;
    return { pos: [p[3 * s]!, p[3 * s + 1]!, p[3 * s + 2]!], yawRad: Math.atan2(R[9 * s + 3]!, R[9 * s]!) };
  }

  /** Tool centre point position and full orientation (row-major 3x3). */
  tcpPose(arm: number): { pos: Vec3; R: number[] } {
    const s = this.scene.arms[arm]!.eeSite;
    const p = this.data.site_xpos as Float64Array;
    const R = this.data.site_xmat as Float64Array;
    return { pos: [p[3 * s]!, p[3 * s + 1]!, p[3 * s + 2]!], R: Array.from(R.subarray(9 * s, 9 * s + 9)) };
  }

  /** Distance between the finger pads, metres (0 closed, 0.08 fully open on the Panda); 0 for a suction cup; a hand's thumb tip to middle fingertip. */
  fingerWidth(arm: number): number {
    const g = this.scene.arms[arm]!.gripper;
    if (g.kind === 'suction') return 0;
    if (g.kind === 'hand') {
      const p = this.data.site_xpos as Float64Array;
      const [a, b] = g.tipSites;
      return Math.hypot(p[3 * a]! - p[3 * b]!, p[3 * a + 1]! - p[3 * b + 1]!, p[3 * a + 2]! - p[3 * b + 2]!);
    }
    const q = this.data.qpos as Float64Array;
    return q[g.qposAdr[0]]! + q[g.qposAdr[1]]!;
  }

  /**
   * World pose of an object's body. Free objects read their joint (exact after a step); fixtures and sliding
   * parts read the body pose MuJoCo computed last (call forward() first when it must be current).
   */
  objectPose(object: number): { pos: Vec3; quat: Quat } {
    const o = this.scene.objects[object]!;
    // A cable segment: its centre (the geom's) with its body's orientation (x along the rope; the capsule geom's
    // own frame has z along it).
    if (o.poseGeom >= 0) return { pos: this.geomPose(o.poseGeom).pos, quat: this.bodyPose(o.body).quat };
    if (o.kind === 'free') {
      const a = o.qposAdr;
      const q = this.data.qpos as Float64Array;
      return { pos: [q[a]!, q[a + 1]!, q[a + 2]!], quat: [q[a + 3]!, q[a + 4]!, q[a + 5]!, q[a + 6]!] };
    }
    return this.bodyPose(o.body);
  }

  /** World pose of a geom (a cable segment's centre), from the last forward pass. */
  geomPose(geom: number): { pos: Vec3; quat: Quat } {
    const p = this.data.geom_xpos as Float64Array;
    const R = (this.data.geom_xmat as Float64Array).subarray(9 * geom, 9 * geom + 9);
    return { pos: [p[3 * geom]!, p[3 * geom + 1]!, p[3 * geom + 2]!], quat: matToQuat(R) };
  }

  bodyPose(body: number): { pos: Vec3; quat: Quat } {
    const p = this.data.xpos as Float64Array;
    const q = this.data.xquat as Float64Array;
    return { pos: [p[3 * body]!, p[3 * body + 1]!, p[3 * body + 2]!], quat: [q[4 * body]!, q[4 * body + 1]!, q[4 * body + 2]!, q[4 * body + 3]!] };
  }

  /** Linear and angular speed of an object (m/s, rad/s); a sliding part reports its joint speed, a fixture 0. */
  objectSpeed(object: number): { linear: number; angular: number } {
    const o = this.scene.objects[object]!;
    const v = this.data.qvel as Float64Array;
    const a = o.dofAdr;
    if (a < 0) return this.bodySpeed(o.body);
    if (o.kind === 'slide') return { linear: Math.abs(v[a]!), angular: 0 };
    if (o.kind === 'hinge') return { linear: 0, angular: Math.abs(v[a]!) };
    return { linear: Math.hypot(v[a]!, v[a + 1]!, v[a + 2]!), angular: Math.hypot(v[a + 3]!, v[a + 4]!, v[a + 5]!) };
  }

  /** Opening of a sliding part (metres along its axis from the closed position), or null for other objects. */
  slidePos(object: number): number | null {
    const o = this.scene.objects[object]!;
    return o.kind === 'slide' ? (this.data.qpos as Float64Array)[o.qposAdr]! : null;
  }

  /** Angle of a hinged part (radians from closed), or null for other objects. */
  hingeAngle(object: number): number | null {
    const o = this.scene.objects[object]!;
    return o.kind === 'hinge' ? (this.data.qpos as Float64Array)[o.qposAdr]! : null;
  }

  /** Speed of a body without a joint of its own (a part, a cable segment), from MuJoCo's com-based velocity. */
  private bodySpeed(body: number): { linear: number; angular: number } {
    const c = (this.data.cvel as Float64Array).subarray(6 * body, 6 * body + 6);
    return { linear: Math.hypot(c[3]!, c[4]!, c[5]!), angular: Math.hypot(c[0]!, c[1]!, c[2]!) };
  }

  graspedName(arm: number): string | null {
    const g = this.grasps[arm];
    return g ? this.scene.objects[g.object]!.name : null;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.data.delete();
  }
}
