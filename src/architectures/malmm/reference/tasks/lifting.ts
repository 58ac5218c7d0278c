// "Pick up the red block and lift it up to the target." (pick_and_lift): grasp, bring the object's centre to the
// target's centre and hold it there.
import { obj, resolve } from './common.js';
import type { TaskFamily } from './types.js';

const LIFT_RES = [
  /\b(?:pick\s+up|grab|grasp|take)\s+(?:the\s+)?(.+?)\s+and\s+(?:lift|raise|hold|bring|move)\s+it(?:\s+up)?\s+(?:to|into|at|inside)\s+(?:the\s+)?(.+?)\s*\.?$/i,
  /\b(?:lift|raise)\s+(?:the\s+)?(.+?)(?:\s+up)?\s+(?:to|into)\s+(?:the\s+)?(.+?)\s*\.?$/i,
];

export const lifting: TaskFamily = {
  id: 'lifting',
  read(sentence, initial) {
    const m = LIFT_RES.map((r) => r.exec(sentence.trim())).find(Boolean);
    if (!m) return undefined;
    const r = resolve(initial, [m[1]!, m[2]!]);
    if (typeof r === 'string') return r;
    const [name, target] = r as [string, string];
    return {
      family: 'lifting',
      goals(view) {
        const s = view.scene;
        const o = obj(s, name);
        const t = obj(s, target);
        const there = s.grasped === name && Math.hypot(o.pos[0] - t.pos[0], o.pos[1] - t.pos[1], o.pos[2] - t.pos[2]) < 0.03;
        return [{ label: `lift the ${name} to the ${target}`, done: there, action: { kind: 'lift', object: name, target: [...t.pos], phrase: `to the centre of the ${target}` } }];
      },
    };
  },
};
