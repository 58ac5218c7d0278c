// "Put the basketball in the hoop." (basketball_in_hoop): carry the ball over the ring and let go, so it drops
// through. Read only when the destination is a hoop or a ring (a basket is a container: see ./placing.ts). The
// policy sees states, not the ball's track: the goal counts as done when the ball, released, lies below the ring
// within its footprint (where a ball that fell through lands).
import { bottom, dxy, normalName, top } from '../scene.js';
import { obj, resolve } from './common.js';
import type { TaskFamily } from './types.js';

const HOOP_RE = /\b(?:put|drop|throw|shoot|dunk|get)\s+(?:the\s+)?(.+?)\s+(?:in|into|through)\s+(?:the\s+)?(.+?)\s*\.?$/i;
/** The ball's bottom clears the ring's top by this much when it is let go. */
const CLEAR_M = 0.01;

export const hoop: TaskFamily = {
  id: 'hoop',
  read(sentence, initial) {
    const m = HOOP_RE.exec(sentence.trim());
    if (!m || !/\b(?:hoop|ring)\b/.test(normalName(m[2]!))) return undefined;
    const r = resolve(initial, [m[1]!, m[2]!]);
    if (typeof r === 'string') return r;
    const [ball, ring] = r as [string, string];
    return {
      family: 'hoop',
      goals(view) {
        const s = view.scene;
        const o = obj(s, ball);
        const h = obj(s, ring);
        const floor = Math.min(...s.objects.map(bottom));
        const done = s.grasped !== ball && top(o) < bottom(h) && dxy(o.pos, h.pos) < Math.max(h.length, h.width) / 2 + 0.03;
        return [
          {
            label: `drop the ${ball} through the ${ring}`,
            done,
            action: { kind: 'transfer', object: ball, to: { xy: [h.pos[0], h.pos[1]], surfaceZ: top(h) + CLEAR_M, yaw: 0, phrase: `over the ${ring}`, restZ: floor + o.height / 2 } },
          },
        ];
      },
    };
  },
};
