// Which geoms of a scene count for distance measures: each arm's moving links, and for each arm the environment it
// is measured against (objects, and the other arms' links). Shared by the motion probe (M_E, clearance) and the
// obstacle field (Action Contextualization's avoiding controller), so both see the same geometry.
import type { SceneModel } from './sceneModel.js';

// MuJoCo geom types (mjtGeom).
export const GEOM_PLANE = 0;
export const GEOM_SPHERE = 2;
export const GEOM_CAPSULE = 3;
export const GEOM_CYLINDER = 5;
export const GEOM_BOX = 6;
/** Links that move: every arm body except the base (link0) and the shoulder (link1), which sit on the table. */
const FIRST_MOVING_BODY = 2;

export interface LinkGeom {
  geom: number;
  body: number;
  label: string;
}
/** An environment geom: who it belongs to, for exclusions and names. */
export interface EnvGeom {
  geom: number;
  /** Object index, -1 for the table, -2 for another arm's link. */
  owner: number;
  label: string;
}

/** Per arm: its moving solid geoms, and the solid geoms of objects and other arms (the table is measured apart). */
export function armGeoms(scene: SceneModel): { links: LinkGeom[][]; env: EnvGeom[][] } {
  const m = scene.model;
  const bodyOf = m.geom_bodyid as Int32Array;
  const type = m.geom_type as Int32Array;
  const contype = m.geom_contype as Int32Array;
  const conaff = m.geom_conaffinity as Int32Array;
  const solid = (g: number) => (contype[g]! !== 0 || conaff[g]! !== 0) && type[g]! !== GEOM_PLANE;
  const ownerOfBody = new Map<number, number>();
  scene.objects.forEach((o, i) => ownerOfBody.set(o.body, i));
  const links = scene.arms.map((arm) => {
    const moving = new Set(arm.bodyIds.slice(FIRST_MOVING_BODY));
    const out: LinkGeom[] = [];
    for (let g = 0; g < m.ngeom; g++) if (moving.has(bodyOf[g]!) && solid(g)) out.push({ geom: g, body: bodyOf[g]!, label: scene.bodyLabel[bodyOf[g]!]! });
    return out;
  });
  const env = scene.arms.map((arm) => {
    const own = new Set(arm.bodyIds);
    const others = new Set(scene.arms.flatMap((a) => (a === arm ? [] : a.bodyIds)));
    const out: EnvGeom[] = [];
    for (let g = 0; g < m.ngeom; g++) {
      const b = bodyOf[g]!;
      if (own.has(b) || !solid(g) || b === scene.tableBody) continue;
      if (others.has(b)) out.push({ geom: g, owner: -2, label: scene.bodyLabel[b]! });
      else if (ownerOfBody.has(b)) out.push({ geom: g, owner: ownerOfBody.get(b)!, label: scene.bodyLabel[b]! });
    }
    return out;
  });
  return { links, env };
}
