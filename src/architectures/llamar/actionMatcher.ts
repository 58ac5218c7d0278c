// TextSimilarityActionMatcher: maps an Actor's free-form action ("pick up the tomato", "NavigateTo(Fridge_1)") to the
// closest admissible high-level action. It stands where the paper uses a SentenceBERT (all-MiniLM-L6-v2) fine-tuned
// on 2,800 (free text, action) pairs, scored by cosine similarity. This one is deterministic and has no model: the
// text is normalised (verb synonyms, CamelCase split, object ids kept whole), then compared with every admissible
// action by cosine similarity of token counts (0.7) and character trigrams (0.3). Unlike the paper's matcher it does
// not ground an object id that no robot has seen onto a seen one: such an action is rejected with the ids that
// were seen, so the Actor hears about its mistake.

/** AI2-THOR type affordances: which actions make sense on which objects (the admissible set). */
const RECEPTACLES = new Set([
  'Fridge', 'CounterTop', 'Sink', 'StoveBurner', 'Cabinet', 'Drawer', 'Microwave', 'Toaster', 'CoffeeMachine', 'GarbageCan', 'DiningTable',
  'Sofa', 'ArmChair', 'CoffeeTable', 'SideTable', 'TVStand', 'Shelf', 'Desk', 'Dresser', 'Bed', 'Toilet', 'Bathtub', 'TowelHolder', 'Bowl', 'Plate',
  'Pot', 'Pan', 'Box', 'Floor',
]);
const OPENABLE = new Set(['Fridge', 'Cabinet', 'Drawer', 'Microwave', 'Box', 'Laptop']);
const TOGGLEABLE = new Set(['Faucet', 'StoveKnob', 'Microwave', 'Toaster', 'CoffeeMachine', 'Television', 'LightSwitch', 'FloorLamp', 'DeskLamp', 'Laptop']);
const SLICEABLE = new Set(['Apple', 'Tomato', 'Bread', 'Lettuce', 'Potato', 'Egg']);
const CLEANABLE = new Set(['Bowl', 'Plate', 'Mug', 'Cup', 'Pot', 'Pan', 'Apple', 'Tomato']);
const FIXED = new Set([
  'Fridge', 'CounterTop', 'Sink', 'Faucet', 'StoveBurner', 'StoveKnob', 'Cabinet', 'Drawer', 'Microwave', 'Toaster', 'CoffeeMachine', 'GarbageCan',
  'DiningTable', 'Sofa', 'ArmChair', 'CoffeeTable', 'SideTable', 'TVStand', 'Television', 'Shelf', 'Desk', 'Dresser', 'Bed', 'Toilet', 'Bathtub',
  'TowelHolder', 'LightSwitch', 'FloorLamp', 'Floor', 'Doorway',
]);

export interface AdmissibleAction {
  /** The phrase in the Actor prompt's vocabulary ("pick up object Tomato_1"). */
  text: string;
  /** The structured action the simulator runs. */
  name: string;
  args: unknown[];
}

export type MatchResult =
  | { ok: true; action: AdmissibleAction; score: number; candidates: { text: string; score: number }[] }
  | { ok: false; error: string; candidates: { text: string; score: number }[] };

export interface MatcherOptions {
  /** Include "explore" (off in the no-exploration ablation). */
  explore: boolean;
  /** Explore's rounds and moves (the architecture's limits). */
  exploreArgs: [number, number];
  /** Minimum similarity to accept the closest action. */
  threshold?: number;
}

const typeOfLabel = (label: string) => label.replace(/_\d+$/, '');

/** Every action the Actor may choose for one agent, given the object ids the team has seen. */
export function admissibleActions(known: readonly string[], opts: MatcherOptions): AdmissibleAction[] {
  const out: AdmissibleAction[] = [];
  for (const d of ['Ahead', 'Back', 'Left', 'Right']) out.push({ text: `move in ${d} direction`, name: 'Move', args: [d] });
  for (const d of ['Right', 'Left']) out.push({ text: `rotate in ${d} direction`, name: 'Rotate', args: [d] });
  for (const a of [30, 60, 90]) {
    out.push({ text: `look up by angle ${a}`, name: 'LookUp', args: [a] });
    out.push({ text: `look down by angle ${a}`, name: 'LookDown', args: [a] });
  }
  for (const id of known) {
    const t = typeOfLabel(id);
    out.push({ text: `navigate to object ${id}`, name: 'NavigateTo', args: [id] });
    if (!FIXED.has(t)) out.push({ text: `pick up object ${id}`, name: 'Pickup', args: [id] });
    if (RECEPTACLES.has(t)) out.push({ text: `put object on ${id}`, name: 'Put', args: [id] });
    if (OPENABLE.has(t)) {
      out.push({ text: `open object ${id}`, name: 'Open', args: [id] });
      out.push({ text: `close object ${id}`, name: 'Close', args: [id] });
    }
    if (SLICEABLE.has(t)) out.push({ text: `slice object ${id}`, name: 'Slice', args: [id] });
    if (TOGGLEABLE.has(t)) {
      out.push({ text: `toggle object ${id} on`, name: 'ToggleOn', args: [id] });
      out.push({ text: `toggle object ${id} off`, name: 'ToggleOff', args: [id] });
    }
    if (CLEANABLE.has(t)) out.push({ text: `clean object ${id}`, name: 'Clean', args: [id] });
  }
  if (opts.explore) out.push({ text: 'explore', name: 'Explore', args: [...opts.exploreArgs] });
  out.push({ text: 'stay idle', name: 'Idle', args: [] }, { text: 'Done', name: 'Done', args: [] });
  return out;
}

// ---- normalisation ------------------------------------------------------------------------------------------------

const PHRASES: [RegExp, string][] = [
  [/\bturn(?:s|ed|ing)?\s+(on|off)\b/g, 'toggle $1'],
  [/\bswitch(?:es|ed|ing)?\s+(on|off)\b/g, 'toggle $1'],
  [/\btoggleobject(on|off)\b/g, 'toggle $1'],
  [/\btoggle(on|off)\b/g, 'toggle $1'],
  [/\bturn(?:s|ed|ing)?\s+(?:to\s+the\s+)?(left|right)\b/g, 'rotate $1'],
  [/\bturn(?:s|ed|ing)?\s+around\b/g, 'rotate right'],
  [/\blook(?:s|ed|ing)?\s+around\b/g, 'explore'],
  [/\bpick(?:s|ed|ing)?\s*up\b/g, 'pick'],
  [/\bgo(?:es|ing)?\s+to\b|\bwalk(?:s|ed|ing)?\s+to\b|\bhead(?:s|ed|ing)?\s+to\b|\bmove(?:s|d)?\s+to\b|\bnavigate(?:s|d)?\s+to\b|\bnavigateto\b|\bapproach(?:es|ed)?\b/g, 'navigate'],
  [/\bstay(?:s|ed)?\s+idle\b|\bwait(?:s|ed|ing)?\b|\bdo\s+nothing\b|^\s*(none|nothing|no action|idle)\s*$/g, 'idle'],
  [/\bmove\s+forward\b|\bgo\s+forward\b|\bstep\s+forward\b/g, 'move ahead'],
  [/\bmove\s+backward(s)?\b|\bstep\s+back\b/g, 'move back'],
];
const WORDS: Record<string, string> = {
  pickupobject: 'pick', grab: 'pick', take: 'pick', lift: 'pick', pickup: 'pick',
  putobject: 'put', place: 'put', set: 'put', drop: 'put', insert: 'put', store: 'put',
  openobject: 'open',
  closeobject: 'close', shut: 'close',
  sliceobject: 'slice', cut: 'slice', chop: 'slice', crack: 'slice', dice: 'slice',
  cleanobject: 'clean', wash: 'clean', rinse: 'clean', scrub: 'clean',
  search: 'explore', scout: 'explore', exploring: 'explore', explores: 'explore',
  finish: 'done', finished: 'done', complete: 'done', completed: 'done',
  forward: 'ahead', backward: 'back', backwards: 'back',
  lookup: 'look up', lookdown: 'look down', moveahead: 'move ahead', moveback: 'move back', moveleft: 'move left', moveright: 'move right',
  rotateleft: 'rotate left', rotateright: 'rotate right', turn: 'rotate',
};
const STOP = new Set(['the', 'a', 'an', 'to', 'in', 'into', 'on', 'onto', 'inside', 'of', 'by', 'at', 'and', 'then', 'with', 'from', 'object', 'direction', 'angle', 'degrees', 'degree', 'it', 'its', 'robot', 'please']);

/** Splits CamelCase words into lower-case words, keeping object ids ("Tomato_1") as one token plus their type words. */
export function tokens(text: string): string[] {
  // Object ids are set aside first, so the phrase rules never rewrite their type words ("Light Switch").
  const ids: { id: string; words: string[] }[] = [];
  let s = text.replace(/\b([A-Z][A-Za-z]*)_(\d+)\b/g, (_m, t: string, n: string) => {
    ids.push({ id: `${t.toLowerCase()}_${n}`, words: t.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(' ') });
    return ` idslot${ids.length - 1} `;
  });
  s = s.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().replace(/[^a-z0-9_\s]/g, ' ');
  for (const [re, to] of PHRASES) s = s.replace(re, to);
  const out: string[] = [];
  for (const w of s.split(/\s+/).filter(Boolean)) {
    const slot = /^idslot(\d+)$/.exec(w);
    if (slot) {
      const x = ids[Number(slot[1])]!;
      out.push(...x.words, x.id);
      continue;
    }
    const m = WORDS[w] ?? w;
    for (const t of m.split(' ')) if (!STOP.has(t)) out.push(t);
  }
  return out;
}

function counts(xs: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
}

function cosine(a: Map<string, number>, b: Map<string, number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [k, v] of a) {
    na += v * v;
    const w = b.get(k);
    if (w) dot += v * w;
  }
  for (const v of b.values()) nb += v * v;
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

function trigrams(ts: readonly string[]): Map<string, number> {
  const s = ` ${ts.join(' ')} `;
  const out: string[] = [];
  for (let i = 0; i + 3 <= s.length; i++) out.push(s.slice(i, i + 3));
  return counts(out);
}

export function similarity(a: string, b: string): number {
  const ta = tokens(a);
  const tb = tokens(b);
  return 0.7 * cosine(counts(ta), counts(tb)) + 0.3 * cosine(trigrams(ta), trigrams(tb));
}

/**
 * The closest admissible action to `text`, or why there is none: an object id no robot has seen, or nothing
 * similar enough. `known` are the labels the team has discovered.
 */
export function matchAction(text: string, known: readonly string[], opts: MatcherOptions): MatchResult {
  const threshold = opts.threshold ?? 0.45;
  const all = admissibleActions(known, opts);
  const raw = text.trim();
  if (raw === '') return { ok: false, error: 'the action is empty', candidates: [] };
  // Exact vocabulary phrase or the structured form ("NavigateTo(Tomato_1)") first: no similarity needed.
  const exact = all.find((a) => a.text.toLowerCase() === raw.toLowerCase());
  if (exact) return { ok: true, action: exact, score: 1, candidates: [{ text: exact.text, score: 1 }] };
  const mentioned = [...raw.matchAll(/\b([A-Z][A-Za-z]*_\d+)\b/g)].map((m) => m[1]!);
  const unseen = mentioned.filter((id) => !known.includes(id));
  if (unseen.length > 0) {
    const sameType = known.filter((k) => unseen.some((u) => typeOfLabel(u) === typeOfLabel(k)));
    return {
      ok: false,
      error: `${unseen.join(', ')} ${unseen.length > 1 ? 'have' : 'has'} not been seen by any robot${sameType.length ? ` (seen of that type: ${sameType.join(', ')})` : ''}; only objects the robots have seen can be used`,
      candidates: [],
    };
  }
  let pool = all;
  if (mentioned.length > 0) {
    // An action naming an id is about that object (for put: the receptacle, usually named last).
    const target = mentioned[mentioned.length - 1]!;
    const withTarget = all.filter((a) => a.args[0] === target);
    if (withTarget.length > 0) pool = withTarget;
  }
  const scored = pool.map((a) => ({ a, score: similarity(raw, a.text) })).sort((x, y) => y.score - x.score || all.indexOf(x.a) - all.indexOf(y.a));
  const candidates = scored.slice(0, 3).map((x) => ({ text: x.a.text, score: Math.round(x.score * 1000) / 1000 }));
  const best = scored[0];
  if (!best || best.score < threshold) {
    return { ok: false, error: `"${raw}" is not close to any admissible action (closest: ${candidates.map((c) => `"${c.text}" ${c.score}`).join(', ') || 'none'})`, candidates };
  }
  return { ok: true, action: best.a, score: best.score, candidates };
}
