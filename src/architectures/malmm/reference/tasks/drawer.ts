// "Open the right drawer." (open_drawer): grasp the handle on the face toward the robot and pull.
import { handleOf, pullDistance } from '../motion.js';
import { obj, resolve } from './common.js';
import type { TaskFamily } from './types.js';

/** Opened once pulled this far toward the robot. */
const OPEN_M = 0.1;

export const drawer: TaskFamily = {
  id: 'drawer',
  read(sentence, initial) {
    const m = /\b(?:open|pull\s+out|pull\s+open)\s+(?:the\s+)?(.*?\bdrawer)\b/i.exec(sentence);
    if (!m) return undefined;
    const r = resolve(initial, [m[1]!]);
    if (typeof r === 'string') return r;
    const name = r[0]!;
    return {
      family: 'drawer',
      goals(view) {
        const [tx, ty] = view.motion.toward;
        const now = obj(view.scene, name).pos;
        const then = obj(view.initial, name).pos;
        const out = (now[0] - then[0]) * tx + (now[1] - then[1]) * ty;
        // The handle where it was before anything moved, and where the pull should leave it.
        const handle = handleOf(obj(view.initial, name), view.motion);
        const dist = pullDistance(handle, view.motion);
        const to: [number, number, number] = [handle[0] + tx * dist, handle[1] + ty * dist, handle[2]];
        return [{ label: `pull the ${name} open`, done: out >= OPEN_M && view.scene.grasped !== name, action: { kind: 'pull', object: name, handle, to } }];
      },
    };
  },
};
