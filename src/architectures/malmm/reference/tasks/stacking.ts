// Stacking: "Stack three red blocks at the green target area." (stack_blocks_2/3/4, RLBench's stack_blocks as MALMM
// poses it: the state's Color fields say which blocks count, the first goes on the area, each next on the top of
// the growing stack), and "Stack the red block and the blue block on top of the green block." (the toy
// simulator's stack: the movers in the order named, each on the top of the stack on the base).
import { bottom, dxy, isFlat, normalName, top, type Scene } from '../scene.js';
import { obj, resolve, surfaceAt } from './common.js';
import type { Goal, TaskFamily, TaskModel } from './types.js';

const STACK_RE = /\bstack\s+(.+?)\s+on(?:\s+top\s+of)?\s+(?:the\s+)?([^,.;:]+?)\s*\.?\s*$/i;
const COUNT_RE = /\bstack\s+(\d+|one|two|three|four|five|six)\s+(\w+)\s+(?:blocks?|cubes?)\s+(?:at|on|onto|in|into)\s+(?:the\s+)?([^,.;:]+?)\s*\.?\s*$/i;
const NUMBERS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6 };

/** Goals that put `names`, in order, on a stack standing at `base` (a block, or a flat area). */
function stackModel(names: string[], base: string): TaskModel {
  return {
    family: 'stacking',
    goals(view) {
      const s = view.scene;
      const b = obj(s, base);
      const onStack = (name: string) => {
        const o = obj(s, name);
        return s.grasped !== name && dxy(o.pos, b.pos) < 0.03 && bottom(o) > top(b) - 0.015 && o.tilt < 0.35;
      };
      // On an area the stack's axis is its lowest block, which may have landed off the area's centre.
      const standing = names.filter(onStack).map((n) => obj(s, n)).sort((p, q) => q.pos[2] - p.pos[2]);
      const axis = isFlat(b) && standing.length > 0 ? standing[0]! : b;
      return names.map((name): Goal => {
        const xy: [number, number] = [axis.pos[0], axis.pos[1]];
        return {
          label: `put the ${name} on the stack on the ${base}`,
          done: onStack(name),
          action: { kind: 'transfer', object: name, to: { xy, surfaceZ: surfaceAt(s, xy, name), yaw: axis.yaw, phrase: `on the stack on the ${base}` } },
        };
      });
    },
  };
}

/** "Stack N <colour> blocks at X": the first N blocks of that colour in the state, nearest the area first. */
function readCounted(m: RegExpExecArray, initial: Scene): TaskModel | string {
  const n = /^\d+$/.test(m[1]!) ? Number(m[1]) : NUMBERS[m[1]!.toLowerCase()]!;
  const color = normalName(m[2]!);
  const r = resolve(initial, [m[3]!]);
  if (typeof r === 'string') return r;
  const area = obj(initial, r[0]!);
  const candidates = initial.objects.filter((o) => o !== area && !isFlat(o) && (o.color === color || normalName(o.name).split(' ').includes(color)));
  if (candidates.length < n) return `the task wants ${n} ${color} blocks but the state lists ${candidates.length} (${candidates.map((o) => o.name).join(', ') || 'none'})`;
  const chosen = [...candidates].sort((p, q) => dxy(p.pos, area.pos) - dxy(q.pos, area.pos)).slice(0, n);
  return stackModel(chosen.map((o) => o.name), area.name);
}

export const stacking: TaskFamily = {
  id: 'stacking',
  read(sentence, initial) {
    const counted = COUNT_RE.exec(sentence.trim());
    if (counted) return readCounted(counted, initial);
    const m = STACK_RE.exec(sentence.trim());
    if (!m) return undefined;
    const movers = m[1]!
      .split(/,\s*(?:and\s+)?(?:then\s+)?|\s+and\s+(?:then\s+)?|\s+then\s+/i)
      .map((s) => s.replace(/^(?:first\s+|then\s+)/i, '').trim())
      .filter((s) => s.length > 0);
    const names = resolve(initial, [...movers, m[2]!]);
    if (typeof names === 'string') return names;
    const base = names.pop()!;
    return stackModel(names, base);
  },
};
