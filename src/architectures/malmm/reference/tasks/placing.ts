// Putting objects in or on things: "Put the red block in the target area." (put_block), "Put the rubbish in the
// bin.", "Pick up the red block and place it in the green zone." (toy pick_place), "put the green cup into the red
// cup and the blue cup into the green cup" (stack_cups), "Empty all items from the large container into the blue
// container." (empty_container, MALMM's App. E wording), "Put each block on the area of the same colour." (sort_by_color)
// and "Close the red jar with a lid." (close_jar: the lid goes on the jar).
import { insideFootprint, isFlat, normalName, type Scene, type SceneObject } from '../scene.js';
import { obj, placedIn, placement, resolve } from './common.js';
import type { Goal, TaskFamily, TaskModel } from './types.js';

interface Move {
  object: string;
  dest: string;
}

/** Goals for moves, with slots when several objects share a destination. */
function model(family: string, moves: Move[]): TaskModel {
  return {
    family,
    goals(view) {
      const s = view.scene;
      return moves.map((mv): Goal => {
        const o = obj(s, mv.object);
        const d = obj(s, mv.dest);
        const sharing = moves.filter((x) => x.dest === mv.dest);
        const to = placement(s, o, d, sharing.indexOf(mv), sharing.length);
        return { label: `put the ${o.name} ${to.phrase}`, done: placedIn(s, o, d), action: { kind: 'transfer', object: o.name, to } };
      });
    },
  };
}

const VERBS = 'put|place|move|drop|throw|set|bring|transfer|insert';
const PIECE_RE = new RegExp(`^(?:(?:${VERBS})\\s+)?(?:the\\s+)?(.+?)\\s+(?:into|inside(?:\\s+of)?|in|onto|on\\s+top\\s+of|on)\\s+(?:the\\s+)?(.+?)\\s*\\.?$`, 'i');
// "Take the steak off the grill": where it is taken from is not the object's name.
const PICK_RE = /^(?:pick\s+up|grab|take|grasp)\s+(?:the\s+)?(.+?)(?:\s+(?:off|from|out\s+of)\s+(?:the\s+)?[^,;]+?)?\s*\.?$/i;

export const putting: TaskFamily = {
  id: 'putting',
  read(sentence, initial) {
    if (!new RegExp(`\\b(?:${VERBS})\\b`, 'i').test(sentence)) return undefined;
    const pieces = sentence.split(/\s*[:;]\s*|,\s*(?:and\s+)?(?:then\s+)?|\s+and\s+(?:then\s+)?|\s+then\s+/i).filter((p) => p.trim());
    const moves: Move[] = [];
    let last: string | undefined;
    for (const piece of pieces) {
      const pick = PICK_RE.exec(piece.trim());
      if (pick) {
        const r = resolve(initial, [pick[1]!]);
        if (typeof r === 'string') return r;
        last = r[0];
        continue;
      }
      const m = PIECE_RE.exec(piece.trim());
      if (!m) continue;
      const what = /^(?:it|them)$/i.test(m[1]!.trim()) ? last : m[1]!;
      if (!what) continue;
      const r = resolve(initial, [what, m[2]!]);
      if (typeof r === 'string') return r;
      moves.push({ object: r[0]!, dest: r[1]! });
      last = r[0];
    }
    return moves.length > 0 ? model('putting', moves) : undefined;
  },
};

// "Close the red jar with a lid": closing a jar with something is putting that on it.
const CLOSE_RE = /^\s*close\s+(?:the\s+)?(.+?)\s+with\s+(?:a|an|the)\s+(.+?)\s*\.?\s*$/i;

export const closing: TaskFamily = {
  id: 'closing',
  read(sentence, initial) {
    const m = CLOSE_RE.exec(sentence);
    if (!m) return undefined;
    const r = resolve(initial, [m[2]!, m[1]!]);
    if (typeof r === 'string') return r;
    return model('closing', [{ object: r[0]!, dest: r[1]! }]);
  },
};

const EMPTY_RE = /\bempty\s+(?:the\s+)?(.+?)\s*(?::|,|;|\s-\s|\.\s)\s*(.*)$/i;
// MALMM's App. E wording: "Empty all items from the large container into the yellow container."
const EMPTY_FROM_RE = /\bempty\s+(?:all\s+)?(?:the\s+)?(?:items?|objects?|things|contents)\s+(?:from|of|in|out\s+of)\s+(?:the\s+)?(.+?)\s+(?:into|in|to|onto)\s+(?:the\s+)?([^,.;:]+?)\s*\.?$/i;

/** The objects standing inside `box` (centre within its footprint), in the order the state lists them. */
function contents(s: Scene, box: SceneObject, except: string[]): SceneObject[] {
  return s.objects.filter((o) => o !== box && !except.includes(o.name) && !isFlat(o) && insideFootprint(box, o.pos) && o.height < box.height + 0.05);
}

export const emptying: TaskFamily = {
  id: 'emptying',
  read(sentence, initial) {
    const from = EMPTY_FROM_RE.exec(sentence.trim());
    const m = from ?? EMPTY_RE.exec(sentence.trim());
    if (!m) return undefined;
    const dest = from ? from[2] : /.*\b(?:into|in|to|onto)\s+(?:the\s+)?([^,.;:]+?)\s*\.?$/i.exec(m[2]!)?.[1];
    if (!dest) return `the task does not say where the contents of the ${m[1]} go`;
    const r = resolve(initial, [m[1]!, dest]);
    if (typeof r === 'string') return r;
    const box = obj(initial, r[0]!);
    // What is in the container is decided from the first state: once moved out, an object still has to go.
    const items = contents(initial, box, [r[1]!]);
    if (items.length === 0) return `the state shows nothing inside the ${box.name}`;
    return model('emptying', items.map((o) => ({ object: o.name, dest: r[1]! })));
  },
};

const SORT_RE = /\beach\s+(\w+)\s+(?:on|onto|in|into|to)\s+(?:the\s+)?(\w+)\s+(?:of|with)\s+(?:the\s+)?same\s+colou?r/i;

export const sorting: TaskFamily = {
  id: 'sorting',
  read(sentence, initial) {
    const m = SORT_RE.exec(sentence);
    if (!m) return undefined;
    const noun = (w: string) => normalName(w).replace(/s$/, '').replace(/^cube$/, 'block').replace(/^zone$/, 'area');
    const item = noun(m[1]!);
    const place = noun(m[2]!);
    const has = (o: SceneObject, w: string) => normalName(o.name).split(' ').map(noun).includes(w);
    const moves: Move[] = [];
    for (const o of initial.objects.filter((x) => has(x, item) && !isFlat(x))) {
      const d = initial.objects.find((x) => x !== o && has(x, place) && x.color === o.color);
      if (!d) return `no ${place} has the colour of the ${o.name} (${o.color})`;
      moves.push({ object: o.name, dest: d.name });
    }
    if (moves.length === 0) return `the state lists no ${item} to sort`;
    return model('sorting', moves);
  },
};
