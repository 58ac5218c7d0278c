// Distances from an arm's moving links to the things around it, with their gradients in joint space: what the
// obstacle modulation of the joint-space dynamical system needs (Action Contextualization, Sec. III-C and the
// authors' controller, where a learned joint-space distance function gives both). Here the distances are the
// scene's own geometry: link capsules and spheres, the hand and finger boxes, and every solid geom of the
// objects, fixtures and other arms (boxes measured by boxDistance.ts, the rest by mj_geomDistance), plus the
// table top analytically. The gradient of a distance d between a link point p and an obstacle point o is
// n^T J_p(q), with n = (p - o) / |p - o| and J_p the translational Jacobian of the link's body at p.
import type { DoubleBuffer } from 'mujoco-js';
import { armGeoms, GEOM_BOX, GEOM_CAPSULE, GEOM_CYLINDER, GEOM_SPHERE, type EnvGeom, type LinkGeom } from '../armGeoms.js';
import { boxBoxWitness, type Box } from '../boxDistance.js';
import type { SceneModel } from '../sceneModel.js';
import type { SimState } from '../simState.js';


export interface Obstacle {
  /** Object index, -1 for the table, -2 for another arm. */
  owner: number;
  label: string;
  /** Closest link of this arm to it. */
  link: string;
  distanceM: number;
  /** d(distance)/dq over the arm's joints (the direction that moves the link away from it). */
  grad: Float64Array;
}

export interface ObstacleQuery {
  /** Obstacles are reported when closer than this. */
  rangeM: number;
  /** Objects left out (the held one, the one being grasped). */
  ignore: ReadonlySet<number>;
  ignoreTable?: boolean;
}

export class ObstacleField {
  private readonly links: LinkGeom[][];
  private readonly env: EnvGeom[][];
  private readonly jacp: DoubleBuffer;
  private readonly jacr: DoubleBuffer;
  private readonly fromto: DoubleBuffer;
  private readonly table: { z: number; cx: number; cy: number; hx: number; hy: number };
  private disposed = false;

  constructor(private readonly scene: SceneModel) {
    const { mj, model: m } = scene;
    ({ links: this.links, env: this.env } = armGeoms(scene));
    this.jacp = new mj.DoubleBuffer(3 * m.nv);
    this.jacr = new mj.DoubleBuffer(3 * m.nv);
    this.fromto = new mj.DoubleBuffer(6);
    const t = scene.built.spec.table;
    this.table = { z: t.topZ, cx: t.center[0], cy: t.center[1], hx: t.halfExtents[0], hy: t.halfExtents[1] };
  }

  /**
   * Obstacles within `rangeM` of the arm's moving links, one per thing (the closest link-geom pair of each object,
   * of the table, of each other arm), with the distance's joint-space gradient. Reads the current (forwarded) state.
   */
  near(state: SimState, arm: number, q: ObstacleQuery): Obstacle[] {
    const { mj, model } = this.scene;
    const d = state.data;
    const xpos = d.geom_xpos as Float64Array;
    const xmat = d.geom_xmat as Float64Array;
    const rbound = model.geom_rbound as Float64Array;
    const type = model.geom_type as Int32Array;
    const size = model.geom_size as Float64Array;
    const box = (g: number): Box => ({ c: xpos.subarray(3 * g, 3 * g + 3), R: xmat.subarray(9 * g, 9 * g + 9), h: size.subarray(3 * g, 3 * g + 3) });
    // Closest pair per obstacle key.
    const best = new Map<string, { owner: number; label: string; link: LinkGeom; distance: number; p: number[]; o: number[] }>();
    const keep = (key: string, owner: number, label: string, link: LinkGeom, distance: number, p: number[], o: number[]) => {
      const cur = best.get(key);
      if (!cur || distance < cur.distance) best.set(key, { owner, label, link, distance, p, o });
    };
    for (const link of this.links[arm]!) {
      const g = link.geom;
      const c = [xpos[3 * g]!, xpos[3 * g + 1]!, xpos[3 * g + 2]!];
      if (!q.ignoreTable) {
        const t = this.table;
        if (Math.abs(c[0]! - t.cx) <= t.hx && Math.abs(c[1]! - t.cy) <= t.hy) {
          const low = lowestPoint(type[g]!, c, xmat.subarray(9 * g, 9 * g + 9), size.subarray(3 * g, 3 * g + 3));
          const dz = low[2]! - t.z;
          if (dz < q.rangeM) keep('table', -1, 'table', link, dz, low, [low[0]!, low[1]!, t.z]);
        }
      }
      for (const e of this.env[arm]!) {
        if (e.owner >= 0 && q.ignore.has(e.owner)) continue;
        const h = e.geom;
        const lb = Math.hypot(c[0]! - xpos[3 * h]!, c[1]! - xpos[3 * h + 1]!, c[2]! - xpos[3 * h + 2]!) - rbound[g]! - rbound[h]!;
        if (lb >= q.rangeM) continue;
        let dist: number;
        let p: number[];
        let o: number[];
        if (type[g] === GEOM_BOX && type[h] === GEOM_BOX) {
          const w = boxBoxWitness(box(g), box(h));
          dist = w.distance;
          p = w.pa;
          o = w.pb;
        } else {
          dist = mj.mj_geomDistance(model, d, g, h, q.rangeM, this.fromto);
          const ft = this.fromto.GetView() as Float64Array;
          p = [ft[0]!, ft[1]!, ft[2]!];
          o = [ft[3]!, ft[4]!, ft[5]!];
        }
        if (dist >= q.rangeM) continue;
        keep(e.owner === -2 ? `arm:${e.label}` : `obj:${e.owner}`, e.owner, e.owner === -2 ? e.label : this.scene.objects[e.owner]!.name, link, dist, p, o);
      }
    }
    const out: Obstacle[] = [];
    for (const b of best.values()) out.push({ owner: b.owner, label: b.label, link: b.link.label, distanceM: b.distance, grad: this.gradient(state, arm, b.link, b.distance, b.p, b.o) });
    return out.sort((x, y) => x.distanceM - y.distanceM);
  }

  /** n^T J_p(p): how the distance changes with each arm joint. */
  private gradient(state: SimState, arm: number, link: LinkGeom, distance: number, p: number[], o: number[]): Float64Array {
    const { mj, model } = this.scene;
    const xpos = state.data.geom_xpos as Float64Array;
    let n = [p[0]! - o[0]!, p[1]! - o[1]!, p[2]! - o[2]!];
    let len = Math.hypot(n[0]!, n[1]!, n[2]!);
    if (len < 1e-9) {
      // Touching or overlapping: fall back on the link centre's direction from the obstacle point.
      const g = link.geom;
      n = [xpos[3 * g]! - o[0]!, xpos[3 * g + 1]! - o[1]!, xpos[3 * g + 2]! - o[2]!];
      len = Math.hypot(n[0]!, n[1]!, n[2]!) || 1;
    } else if (distance < 0) {
      // Witness points of an overlap point the other way.
      n = n.map((x) => -x);
    }
    n = n.map((x) => x / len);
    mj.mj_jac(model, state.data, this.jacp, this.jacr, p, link.body);
    const J = this.jacp.GetView() as Float64Array;
    const nv = model.nv;
    const dofs = this.scene.arms[arm]!.dofAdr;
    const grad = new Float64Array(dofs.length);
    dofs.forEach((dof, j) => (grad[j] = n[0]! * J[dof]! + n[1]! * J[nv + dof]! + n[2]! * J[2 * nv + dof]!));
    return grad;
  }

  /** The tool site's Jacobian over the arm's joints, world frame: translational and rotational rows (3 x 7 each). */
  toolJacobian(state: SimState, arm: number, out: { pos: Float64Array; rot: Float64Array }): { pos: Float64Array; rot: Float64Array } {
    const { mj, model } = this.scene;
    const idx = this.scene.arms[arm]!;
    mj.mj_jacSite(model, state.data, this.jacp, this.jacr, idx.eeSite);
    const p = this.jacp.GetView() as Float64Array;
    const r = this.jacr.GetView() as Float64Array;
    const nv = model.nv;
    for (let row = 0; row < 3; row++)
      for (let j = 0; j < 7; j++) {
        out.pos[row * 7 + j] = p[row * nv + idx.dofAdr[j]!]!;
        out.rot[row * 7 + j] = r[row * nv + idx.dofAdr[j]!]!;
      }
    return out;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.jacp.delete();
    this.jacr.delete();
    this.fromto.delete();
  }
}

/** The lowest point of a link geom (world frame). */
function lowestPoint(type: number, c: number[], R: ArrayLike<number>, size: ArrayLike<number>): number[] {
  switch (type) {
    case GEOM_SPHERE:
      return [c[0]!, c[1]!, c[2]! - size[0]!];
    case GEOM_CAPSULE:
    case GEOM_CYLINDER: {
      // The end whose centre is lower, pushed down by the radius.
      const s = R[8]! >= 0 ? -size[1]! : size[1]!;
      return [c[0]! + R[2]! * s, c[1]! + R[5]! * s, c[2]! + R[8]! * s - size[0]!];
    }
    case GEOM_BOX: {
      // The corner with the lowest z.
      const l = [0, 1, 2].map((k) => (R[6 + k]! >= 0 ? -size[k]! : size[k]!));
      return [0, 1, 2].map((r) => c[r]! + R[3 * r]! * l[0]! + R[3 * r + 1]! * l[1]! + R[3 * r + 2]! * l[2]!);
    }
    default:
      return [c[0]!, c[1]!, c[2]! - size[0]!];
  }
}
