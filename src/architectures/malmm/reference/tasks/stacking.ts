// "Stack the red block and the blue block on top of the green block." (stack_blocks_2/3/4, the toy simulator's
// stack): the movers in the order named, each on the top of the growing stack.
import { bottom, dxy, top } from '../scene.js';
import { obj, resolve, surfaceAt } from './common.js';
import type { Goal, TaskFamily } from './types.js';

const STACK_RE = /\bstack\s+(.+?)\s+on(?:\s+top\s+of)?\s+(?:the\s+)?([^,.;:]+?)\s*\.?\s*$/i;

export const stacking: TaskFamily = {
  id: 'stacking',
  read(sentence, initial) {
    const m = STACK_RE.exec(sentence.trim());
    if (!m) return undefined;
    const movers = m[1]!
      .split(/,\s*(?:and\s+)?(?:then\s+)?|\s+and\s+(?:then\s+)?|\s+then\s+/i)
      .map((s) => s.replace(/^(?:first\s+|then\s+)/i, '').trim())
      .filter((s) => s.length > 0);
    const names = resolve(initial, [...movers, m[2]!]);
    if (typeof names === 'string') return names;
    const base = names.pop()!;
    return {
      family: 'stacking',
      goals(view) {
        const s = view.scene;
        const b = obj(s, base);
        const onStack = (name: string) => {
          const o = obj(s, name);
          return s.grasped !== name && dxy(o.pos, b.pos) < 0.03 && bottom(o) > top(b) - 0.015 && o.tilt < 0.35;
        };
        return names.map((name): Goal => {
          const xy: [number, number] = [b.pos[0], b.pos[1]];
          return {
            label: `put the ${name} on the stack on the ${base}`,
            done: onStack(name),
            action: { kind: 'transfer', object: name, to: { xy, surfaceZ: surfaceAt(s, xy, name), yaw: b.yaw, phrase: `on the stack on the ${base}` } },
          };
        });
      },
    };
  },
};
