// "Remove the cap of the wine bottle." (open_bottle): lift the cap straight off (the interaction rules' lift after
// the grasp), carry it aside and set it on the table next to the bottle. Done when the cap, released, is clear of
// the bottle's footprint.
import type { Vec3 } from '../scene.js';
import { dxy, type Scene, type SceneObject } from '../scene.js';
import { obj, resolve, surfaceAt } from './common.js';
import type { TaskFamily } from './types.js';

const REMOVE_RE = /\bremove\s+(?:the\s+)?(.+?)\s+(?:of|from|off(?:\s+of)?)\s+(?:the\s+)?([^,.;:]+?)\s*\.?$/i;
/** How far from the bottle's axis the cap is set down. */
const ASIDE_M = 0.12;

const radius = (o: SceneObject): number => Math.max(o.length, o.width) / 2;

/** A free spot on the table ASIDE_M from the holder: toward the middle of the table first, then the other sides. */
function spotBeside(s: Scene, holder: SceneObject, item: SceneObject, ws?: { x?: [number, number]; y?: [number, number] }): [number, number] {
  const inward = holder.pos[0] > 0 ? -1 : 1;
  const tries: [number, number][] = [[inward, 0], [-inward, 0], [0, -1], [0, 1]];
  const inside = (p: [number, number]) => (!ws?.x || (p[0] >= ws.x[0] && p[0] <= ws.x[1])) && (!ws?.y || (p[1] >= ws.y[0] && p[1] <= ws.y[1]));
  for (const [dx, dy] of tries) {
    const p: [number, number] = [holder.pos[0] + dx * ASIDE_M, holder.pos[1] + dy * ASIDE_M];
    const clear = s.objects.every((o) => o === holder || o === item || dxy(o.pos, p) > radius(o) + radius(item) + 0.01);
    if (inside(p) && clear) return p;
  }
  return [holder.pos[0] + inward * ASIDE_M, holder.pos[1]];
}

export const uncapping: TaskFamily = {
  id: 'uncapping',
  read(sentence, initial) {
    const m = REMOVE_RE.exec(sentence.trim());
    if (!m) return undefined;
    const r = resolve(initial, [m[1]!, m[2]!]);
    if (typeof r === 'string') return r;
    const [item, holder] = r as [string, string];
    return {
      family: 'uncapping',
      goals(view) {
        const s = view.scene;
        const c = obj(s, item);
        const b = obj(s, holder);
        const done = s.grasped !== item && dxy(c.pos, b.pos) > radius(b) + radius(c);
        const xy = spotBeside(s, b, c, view.motion.workspace);
        const at: Vec3 = [xy[0], xy[1], 0];
        return [{ label: `take the ${item} off the ${holder}`, done, action: { kind: 'transfer', object: item, to: { xy, surfaceZ: surfaceAt(s, at, item), yaw: c.yaw, phrase: `on the table beside the ${holder}` } } }];
      },
    };
  },
};
