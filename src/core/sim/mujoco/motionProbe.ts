// Measures what the motion metrics need while an action runs (src/core/metrics/motionMetrics.ts): the inverse
// condition number of each arm's 6x7 tool Jacobian (mj_jacSite), the smallest distance between a moving link
// and the environment (mj_geomDistance behind a bounding-sphere cull; the table top analytically), the largest
// distance from a moving link to a point of the environment (for M_E's d_bar), the tool positions and the tilt of
// held objects. Sampled on the 50 Hz grid of the physics clock plus once at the start and once at the end of each
// action, so the numbers do not depend on how a call was split into steps.
// Which things count (as the Action Contextualization authors' code has it): an object the arm holds or is closing
// on is left out of the smallest distance; a grasp target the arm is only approaching is in it (`measureAlso`)
// until the hand touches it: the authors' controller stops at that contact (0.5 mm) and starts grasping, after which
// the target is the grasped object, left out. So the touch reads 0 (not the contact's penetration) and the target
// is left out for the rest of the call. The largest distance covers everything in the scene.
import type { DoubleBuffer } from 'mujoco-js';
import { ActionMetricsRecorder, CLEARANCE_RANGE_M, type ActionMetrics, type MotionSample } from '../../metrics/motionMetrics.js';
import { inverseConditionNumber } from '../../metrics/conditioning.js';
import { armGeoms, GEOM_BOX, GEOM_CAPSULE, GEOM_CYLINDER, GEOM_SPHERE, type EnvGeom, type LinkGeom } from './armGeoms.js';
import { boxBoxDistance, type Box } from './boxDistance.js';
import type { ContactMonitor } from './contactMonitor.js';
import type { SceneModel } from './sceneModel.js';
import type { SimState } from './simState.js';
import type { Vec3 } from './scene/sceneSpec.js';
import { TRAJECTORY_RATE_HZ } from './trajectoryRecorder.js';


export class MotionProbe {
  readonly stepsPerSample: number;
  private readonly recorder = new ActionMetricsRecorder();
  private readonly jacp: DoubleBuffer;
  private readonly jacr: DoubleBuffer;
  private readonly J = new Float64Array(42); // 6 x (up to 7) joints
  /** Per arm: its moving geoms and the environment it is measured against. */
  private readonly links: LinkGeom[][];
  private readonly env: EnvGeom[][];
  private readonly tableTop: { z: number; cx: number; cy: number; hx: number; hy: number };
  private disposed = false;
  /**
   * d_bar so far: the running maximum of the largest link-environment distance since it was last reset (episode
   * reset, or a snapshot taken before the plan's execution began). Saved in snapshots.
   */
  dBarM = 0;
  /**
   * Objects an arm may touch in the current call that still count in its smallest distance (per arm): the grasp
   * target while the hand only approaches it (the authors measure it; they leave it out of obstacle avoidance).
   * The probe removes one when the arm touches it (see the header).
   */
  readonly measureAlso: Set<number>[];

  constructor(
    private readonly scene: SceneModel,
    private readonly contacts: ContactMonitor,
  ) {
    const mj = scene.mj;
    const m = scene.model;
    this.stepsPerSample = Math.max(1, Math.round(1 / (TRAJECTORY_RATE_HZ * scene.timestepSecs)));
    this.jacp = new mj.DoubleBuffer(3 * m.nv);
    this.jacr = new mj.DoubleBuffer(3 * m.nv);
    ({ links: this.links, env: this.env } = armGeoms(scene));
    const t = scene.built.spec.table;
    this.tableTop = { z: t.topZ, cx: t.center[0], cy: t.center[1], hx: t.halfExtents[0], hy: t.halfExtents[1] };
    this.measureAlso = scene.arms.map(() => new Set<number>());
  }

  /** Simulated time when the current measurement began (null when idle). */
  startedAt: number | null = null;

  get active(): boolean {
    return this.recorder.active;
  }

  /** Starts measuring an action (takes the first sample now). */
  begin(action: string, state: SimState): void {
    this.startedAt = state.timeSecs;
    this.recorder.begin(action);
    this.recorder.add(this.measure(state));
  }

  /** Called after every physics step; samples on the grid while an action is measured. */
  afterStep(state: SimState, started = state.stepCount - 1): void {
    if (!this.recorder.active) return;
    // Same grid as the trajectory recorder: the step that started on the grid.
    if (started > 0 && started % this.stepsPerSample === 0) this.recorder.add(this.measure(state));
  }

  /** Ends the action (takes the last sample from the current, forwarded state). */
  end(state: SimState, collisionCount: number): ActionMetrics {
    this.startedAt = null;
    this.recorder.add(this.measure(state));
    const m = this.recorder.end(collisionCount, this.stepsPerSample * this.scene.timestepSecs, this.dBarM);
    this.dBarM = m.dBarM ?? this.dBarM;
    return m;
  }

  /** Abandons a measurement (the action threw). */
  cancel(): void {
    this.startedAt = null;
    if (this.recorder.active) this.recorder.end(0, 1);
  }

  measure(state: SimState): MotionSample {
    let dexterity = Infinity;
    const ee: Vec3[] = [];
    for (let a = 0; a < this.scene.arms.length; a++) {
      dexterity = Math.min(dexterity, this.dexterity(state, a));
      ee.push(state.tcp(a).pos);
    }
    const { distance, closest } = this.clearance(state, { measureAlso: true });
    return { tSecs: state.timeSecs, dexterity, clearanceM: distance, closest, farthestM: this.farthest(state), ee, heldTiltRad: this.heldTilt(state) };
  }

  /** 1 / cond of the arm's 6x7 Jacobian at the tool centre point (world-aligned; cond is frame-independent). */
  dexterity(state: SimState, arm: number): number {
    const { mj, model } = this.scene;
    const idx = this.scene.arms[arm]!;
    mj.mj_jacSite(model, state.data, this.jacp, this.jacr, idx.eeSite);
    const jp = this.jacp.GetView() as Float64Array;
    const jr = this.jacr.GetView() as Float64Array;
    const nv = model.nv;
    const n = idx.dofAdr.length;
    for (let r = 0; r < 3; r++)
      for (let c = 0; c < n; c++) {
        const dof = idx.dofAdr[c]!;
        this.J[r * n + c] = jp[r * nv + dof]!;
        this.J[(r + 3) * n + c] = jr[r * nv + dof]!;
      }
    return inverseConditionNumber(this.J.subarray(0, 6 * n), 6, n);
  }

  /**
   * Smallest moving-link distance to the table, objects, fixtures and other arms, capped at CLEARANCE_RANGE_M.
   * Objects the arm may touch in this call are left out, except those in `measureAlso` when that option is set.
   * Options: only `arms`, skip the table, skip more objects.
   */
  clearance(state: SimState, options: { arms?: number[]; skipTable?: boolean; skip?: Set<number>; measureAlso?: boolean } = {}): { distance: number; closest: [string, string] | null } {
    const { mj, model } = this.scene;
    const d = state.data;
    const xpos = d.geom_xpos as Float64Array;
    const xmat = d.geom_xmat as Float64Array;
    const rbound = model.geom_rbound as Float64Array;
    let best = CLEARANCE_RANGE_M;
    let closest: [string, string] | null = null;
    for (const a of options.arms ?? this.scene.arms.map((_, i) => i)) {
      const candidates: { lb: number; link: { geom: number; label: string }; env: EnvGeom }[] = [];
      for (const link of this.links[a]!) {
        const g = link.geom;
        const gx = xpos[3 * g]!;
        const gy = xpos[3 * g + 1]!;
        const gz = xpos[3 * g + 2]!;
        const t = this.tableTop;
        if (!options.skipTable && Math.abs(gx - t.cx) <= t.hx && Math.abs(gy - t.cy) <= t.hy) {
          const dz = gz - this.supportDown(g, xmat) - t.z;
          if (dz < best) {
            best = dz;
            closest = [link.label, 'table'];
          }
        }
        for (const e of this.env[a]!) {
          // What the arm holds never counts (also right after a snapshot is restored, when the contact monitor has
          // not yet been told what this call may touch).
          if (e.owner >= 0 && (this.isHeld(state, a, e.owner) || (this.contacts.isAllowed(a, e.owner) && !(options.measureAlso && this.measureAlso[a]!.has(e.owner))) || options.skip?.has(e.owner))) continue;
          const h = e.geom;
          const lb = Math.hypot(gx - xpos[3 * h]!, gy - xpos[3 * h + 1]!, gz - xpos[3 * h + 2]!) - rbound[g]! - rbound[h]!;
          if (lb < best) candidates.push({ lb, link, env: e });
        }
      }
      candidates.sort((x, y) => x.lb - y.lb);
      const type = model.geom_type as Int32Array;
      const size = model.geom_size as Float64Array;
      const box = (g: number): Box => ({ c: xpos.subarray(3 * g, 3 * g + 3), R: xmat.subarray(9 * g, 9 * g + 9), h: size.subarray(3 * g, 3 * g + 3) });
      const touched = new Set<number>();
      for (const c of candidates) {
        if (c.lb >= best) break;
        const g1 = c.link.geom;
        const g2 = c.env.geom;
        // Box pairs are measured exactly here (see boxDistance.ts for why not mj_geomDistance).
        let dist = type[g1] === GEOM_BOX && type[g2] === GEOM_BOX ? boxBoxDistance(box(g1), box(g2)) : mj.mj_geomDistance(model, d, g1, g2, best, null);
        if (dist <= 0 && options.measureAlso && this.measureAlso[a]!.has(c.env.owner)) {
          // The hand reached the grasp target: contact, distance 0 (see the header).
          dist = 0;
          touched.add(c.env.owner);
        }
        if (dist < best) {
          best = dist;
          closest = [c.link.label, c.env.label];
        }
      }
      for (const o of touched) this.measureAlso[a]!.delete(o);
    }
    return { distance: best, closest };
  }

  private isHeld(state: SimState, arm: number, object: number): boolean {
    return state.grasps[arm]?.object === object;
  }

  /**
   * The largest distance from a moving link to a point of the environment's geometry (objects, fixtures, other
   * arms, the table top's corners), updating the running d_bar. Each environment geom stands for its extreme
   * points (a box's corners, a sphere's far side, a capsule's or cylinder's end discs), each link for its own
   * shape (capsule, sphere, box); a pair is measured only when its bound could raise d_bar.
   */
  farthest(state: SimState): number {
    const xpos = state.data.geom_xpos as Float64Array;
    const xmat = state.data.geom_xmat as Float64Array;
    const model = this.scene.model;
    const type = model.geom_type as Int32Array;
    const size = model.geom_size as Float64Array;
    const rbound = model.geom_rbound as Float64Array;
    const t = this.tableTop;
    const corners: Vec3[] = [
      [t.cx - t.hx, t.cy - t.hy, t.z],
      [t.cx + t.hx, t.cy - t.hy, t.z],
      [t.cx - t.hx, t.cy + t.hy, t.z],
      [t.cx + t.hx, t.cy + t.hy, t.z],
    ];
    let sampleMax = 0;
    for (let a = 0; a < this.scene.arms.length; a++) {
      for (const link of this.links[a]!) {
        const g = link.geom;
        const c: Vec3 = [xpos[3 * g]!, xpos[3 * g + 1]!, xpos[3 * g + 2]!];
        const toLink = (p: Vec3) => pointToGeom(p, type[g]!, c, xmat.subarray(9 * g, 9 * g + 9), size.subarray(3 * g, 3 * g + 3));
        for (const p of corners) sampleMax = Math.max(sampleMax, toLink(p));
        for (const e of this.env[a]!) {
          const h = e.geom;
          const ce: Vec3 = [xpos[3 * h]!, xpos[3 * h + 1]!, xpos[3 * h + 2]!];
          const bound = Math.hypot(ce[0] - c[0], ce[1] - c[1], ce[2] - c[2]) + rbound[h]!;
          if (bound <= Math.max(sampleMax, this.dBarM)) continue;
          for (const p of extremePoints(type[h]!, ce, xmat.subarray(9 * h, 9 * h + 9), size.subarray(3 * h, 3 * h + 3), rbound[h]!, c)) {
            sampleMax = Math.max(sampleMax, toLink(p));
          }
        }
      }
    }
    this.dBarM = Math.max(this.dBarM, sampleMax);
    return sampleMax;
  }

  /** How far a geom reaches below its centre (support along -z). */
  private supportDown(g: number, xmat: Float64Array): number {
    const size = this.scene.model.geom_size as Float64Array;
    const type = (this.scene.model.geom_type as Int32Array)[g]!;
    const zx = Math.abs(xmat[9 * g + 6]!);
    const zy = Math.abs(xmat[9 * g + 7]!);
    const zz = Math.abs(xmat[9 * g + 8]!);
    const s0 = size[3 * g]!;
    const s1 = size[3 * g + 1]!;
    const s2 = size[3 * g + 2]!;
    switch (type) {
      case GEOM_SPHERE:
        return s0;
      case GEOM_CAPSULE:
        return s0 + zz * s1;
      case GEOM_CYLINDER:
        return zz * s1 + s0 * Math.sqrt(Math.max(0, 1 - zz * zz));
      case GEOM_BOX:
        return zx * s0 + zy * s1 + zz * s2;
      default:
        return (this.scene.model.geom_rbound as Float64Array)[g]!;
    }
  }

  /** Largest tilt from upright of any held object, or null when no arm holds anything. */
  private heldTilt(state: SimState): number | null {
    let tilt: number | null = null;
    for (const g of state.grasps) {
      if (!g) continue;
      const q = state.objectPose(g.object).quat;
      const zz = 1 - 2 * (q[1] * q[1] + q[2] * q[2]);
      tilt = Math.max(tilt ?? 0, Math.acos(Math.max(-1, Math.min(1, zz))));
    }
    return tilt;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.jacp.delete();
    this.jacr.delete();
  }
}

/** Points of a geom farthest from anything (world frame): a box's corners, a sphere's point away from `from`, a
 * capsule's or cylinder's end centres pushed away from `from` by the radius; otherwise the centre plus its bound. */
function extremePoints(type: number, c: Vec3, R: ArrayLike<number>, size: ArrayLike<number>, rbound: number, from: Vec3): Vec3[] {
  const away = (p: Vec3, r: number): Vec3 => {
    const d = [p[0] - from[0], p[1] - from[1], p[2] - from[2]];
    const n = Math.hypot(d[0]!, d[1]!, d[2]!) || 1;
    return [p[0] + (r * d[0]!) / n, p[1] + (r * d[1]!) / n, p[2] + (r * d[2]!) / n];
  };
  const along = (s: number): Vec3 => [c[0] + R[2]! * s, c[1] + R[5]! * s, c[2] + R[8]! * s];
  switch (type) {
    case GEOM_BOX: {
      const out: Vec3[] = [];
      for (const sx of [-1, 1])
        for (const sy of [-1, 1])
          for (const sz of [-1, 1]) {
            const l = [sx * size[0]!, sy * size[1]!, sz * size[2]!];
            out.push([
              c[0] + R[0]! * l[0]! + R[1]! * l[1]! + R[2]! * l[2]!,
              c[1] + R[3]! * l[0]! + R[4]! * l[1]! + R[5]! * l[2]!,
              c[2] + R[6]! * l[0]! + R[7]! * l[1]! + R[8]! * l[2]!,
            ]);
          }
      return out;
    }
    case GEOM_SPHERE:
      return [away(c, size[0]!)];
    case GEOM_CAPSULE:
    case GEOM_CYLINDER:
      return [away(along(size[1]!), size[0]!), away(along(-size[1]!), size[0]!)];
    default:
      return [away(c, rbound)];
  }
}

/** Distance from a point to a geom's surface (0 inside): capsule, sphere and box exactly, others by their bound. */
export function pointToGeom(p: Vec3, type: number, c: Vec3, R: ArrayLike<number>, size: ArrayLike<number>): number {
  const d = [p[0] - c[0], p[1] - c[1], p[2] - c[2]];
  // In the geom's frame (R is row-major world-from-local).
  const l = [0, 1, 2].map((k) => R[k]! * d[0]! + R[3 + k]! * d[1]! + R[6 + k]! * d[2]!);
  switch (type) {
    case GEOM_SPHERE:
      return Math.max(0, Math.hypot(l[0]!, l[1]!, l[2]!) - size[0]!);
    case GEOM_CAPSULE: {
      const z = Math.max(-size[1]!, Math.min(size[1]!, l[2]!));
      return Math.max(0, Math.hypot(l[0]!, l[1]!, l[2]! - z) - size[0]!);
    }
    case GEOM_CYLINDER: {
      const radial = Math.max(0, Math.hypot(l[0]!, l[1]!) - size[0]!);
      const axial = Math.max(0, Math.abs(l[2]!) - size[1]!);
      return Math.hypot(radial, axial);
    }
    case GEOM_BOX: {
      const q = [0, 1, 2].map((k) => Math.max(0, Math.abs(l[k]!) - size[k]!));
      return Math.hypot(q[0]!, q[1]!, q[2]!);
    }
    default:
      return Math.max(0, Math.hypot(l[0]!, l[1]!, l[2]!) - Math.max(size[0]!, size[1]!, size[2]!));
  }
}
