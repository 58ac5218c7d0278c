// One walk of MuJoCo's contact list for every caller that needs body pairs: each contact and the list itself are
// Embind objects that must be deleted exactly once, so the get/delete/finally dance lives here and nowhere else.
import type { MjData, MjModel } from 'mujoco-js';

/**
 * Calls `visit` with the two bodies and the penetration depth (metres, positive when overlapping) of every active
 * contact in `data`.
 */
export function forEachContact(model: MjModel, data: MjData, visit: (body1: number, body2: number, depthM: number) => void): void {
  const bodyOf = model.geom_bodyid as Int32Array;
  const list = data.contact;
  try {
    const n = data.ncon;
    for (let i = 0; i < n; i++) {
      const c = list.get(i);
      if (!c) continue;
      const b1 = bodyOf[c.geom1]!;
      const b2 = bodyOf[c.geom2]!;
      const depth = -c.dist;
      c.delete();
      visit(b1, b2, depth);
    }
  } finally {
    list.delete();
  }
}
