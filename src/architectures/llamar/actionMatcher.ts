// LLaMAR's action matcher: maps an Actor's free-form action ("pick up the tomato", "NavigateTo(Fridge_1)") to an
// admissible high-level action, in three stages, and names the one that decided:
// 1. rule: an exact vocabulary phrase, or a verb with an object id written out, decides outright. An id no robot
//    has seen, or a verb the object does not afford ("open object Apple_1", "slice the laptop"), is refused with
//    what can be done with it; no later stage may turn such a pair into another action.
// 2. embedding (the paper, §4 and App. G: a SentenceBERT fine-tuned on 2,800 (free text, action) pairs, cosine
//    similarity): the run's embedding model from its endpoint's /v1/embeddings embeds the phrase and the
//    admissible actions, and the closest above EMBEDDING_THRESHOLD is taken, unless its verb is not the phrase's.
// 3. lexical (the fallback when the run has no embeddings, or the call failed): an everyday name read with its
//    verb ("open the refrigerator" is Open on the seen Fridge, TYPE_WORDS), else the cosine of token counts (0.7)
//    and character trigrams (0.3) after normalising (verb synonyms, CamelCase split, object ids kept whole).
// Unlike the paper's matcher, none grounds an object id that no robot has seen onto a seen one: the Actor is told.

import { cosine as vectorCosine, type EpisodeEmbeddings } from '../../core/llm/embeddings.js';

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

/**
 * Which matcher decided: 'rule' (an exact phrase, or a verb with an object id written out), 'embedding' (cosine of
 * the run's sentence embeddings), 'lexical' (everyday names and token similarity; the fallback without embeddings).
 */
export type MatcherName = 'rule' | 'embedding' | 'lexical';

/** `fallback`: why the lexical matcher decided although the run has an embedding model (no embeddings, a failed call). */
export type MatchResult =
  | { ok: true; action: AdmissibleAction; score: number; candidates: { text: string; score: number }[]; matcher: MatcherName; fallback?: string }
  | { ok: false; error: string; candidates: { text: string; score: number }[]; matcher?: MatcherName; fallback?: string };

export interface MatcherOptions {
  /** Include "explore" (off in the no-exploration ablation). */
  explore: boolean;
  /** Explore's rounds and moves (the architecture's limits). */
  exploreArgs: [number, number];
  /** Minimum lexical similarity to accept the closest action (LEXICAL_THRESHOLD). */
  threshold?: number;
  /** Minimum embedding cosine to accept the closest action (EMBEDDING_THRESHOLD). */
  embeddingThreshold?: number;
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

// ---- verb and object read outright ------------------------------------------------------------------------------

/** The verbs whose object decides the action, by the token tokens() leaves for them. */
const VERB_ACTION: Record<string, string> = { pick: 'Pickup', put: 'Put', open: 'Open', close: 'Close', slice: 'Slice', clean: 'Clean', navigate: 'NavigateTo', toggle: 'Toggle' };

const an = (t: string) => `${/^[AEIOU]/.test(t) ? 'an' : 'a'} ${t}`;

/** Why a type refuses a verb (the feedback), by action name. */
const CANNOT: Record<string, (t: string) => string> = {
  Pickup: (t) => `cannot be picked up (${an(t)} is fixed in place)`,
  Put: (t) => `cannot have things put on it (${an(t)} is not a receptacle)`,
  Open: (t) => `cannot be opened (${an(t)} does not open)`,
  Close: (t) => `cannot be closed (${an(t)} does not open or close)`,
  Slice: (t) => `cannot be sliced (${an(t)} is not sliceable)`,
  Clean: (t) => `cannot be cleaned (${an(t)} is not cleanable)`,
  ToggleOn: (t) => `cannot be switched on (${an(t)} has no switch)`,
  ToggleOff: (t) => `cannot be switched off (${an(t)} has no switch)`,
};

/** Everyday names for AI2-THOR types (a type's own words, "counter top" or "countertop", always count). */
const TYPE_WORDS: Record<string, string[]> = {
  Fridge: ['refrigerator', 'fridge', 'freezer'],
  Laptop: ['computer', 'laptop', 'notebook'],
  Sofa: ['couch', 'sofa', 'settee'],
  Television: ['tv', 'television', 'telly'],
  Plate: ['dish', 'plate'],
  Bowl: ['dish', 'bowl'],
  CounterTop: ['counter', 'worktop', 'countertop'],
  GarbageCan: ['trash', 'bin', 'garbage', 'trashcan', 'wastebasket'],
  StoveBurner: ['stove', 'burner', 'hob'],
  StoveKnob: ['knob'],
  Faucet: ['tap', 'faucet'],
  LightSwitch: ['light', 'lights'],
  DiningTable: ['table'],
  CoffeeTable: ['table'],
  Mug: ['mug', 'cup'],
  Cup: ['cup'],
  ArmChair: ['armchair', 'chair'],
  Microwave: ['microwave', 'oven'],
  CoffeeMachine: ['coffee maker', 'coffeemaker'],
};

const splitType = (t: string) => t.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

/**
 * The verb and object a phrase names, read outright: the first verb of VERB_ACTION, and its object (an id written
 * in it, or a seen object named by type or everyday name: "the refrigerator" is the seen Fridge). For put the
 * receptacle is the object named last; for the rest, the first. Of several seen objects of one type, the first seen.
 */
function readIntent(raw: string, known: readonly string[], ids: readonly string[]): { action?: string; target?: string } {
  const verb = tokens(raw).find((t) => VERB_ACTION[t] !== undefined);
  let action = verb ? VERB_ACTION[verb] : undefined;
  if (action === 'Toggle') action = /\boff\b/i.test(raw) ? 'ToggleOff' : /\bon\b/i.test(raw) ? 'ToggleOn' : undefined;
  let refs = ids.map((id) => ({ at: raw.indexOf(id), id }));
  if (refs.length === 0) {
    const text = ` ${raw.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().replace(/[^a-z0-9]+/g, ' ')} `;
    refs = [];
    for (const id of known) {
      const t = typeOfLabel(id);
      const names = [splitType(t), splitType(t).replace(/ /g, ''), ...(TYPE_WORDS[t] ?? [])];
      const at = Math.min(...names.map((n) => {
        const m = new RegExp(`\\s${n}(?:s|es)?\\s`).exec(text);
        return m ? m.index : Infinity;
      }));
      if (at < Infinity) refs.push({ at, id });
    }
  }
  refs.sort((a, b) => a.at - b.at);
  if (refs.length === 0) return { ...(action ? { action } : {}) };
  // Several objects at one place (two tomatoes): the first seen, as `known` lists them.
  const chosen = action === 'Put' ? refs.filter((r) => r.at === refs[refs.length - 1]!.at) : refs.filter((r) => r.at === refs[0]!.at);
  const target = chosen.sort((a, b) => known.indexOf(a.id) - known.indexOf(b.id))[0]!.id;
  return { ...(action ? { action } : {}), target };
}

/** What the rule stage leaves to the similarity matchers: the phrase, the admissible set and what was read from it. */
interface Open {
  raw: string;
  all: AdmissibleAction[];
  /** Object ids written in the phrase. */
  mentioned: string[];
  intent: { action?: string; target?: string };
}

/**
 * The rule: an exact vocabulary phrase, or a verb with an object id written out ("NavigateTo(Tomato_1)", "open
 * object Fridge_1"), decides outright. It refuses an id no robot has seen and a verb the named object does not
 * afford (also when the object is named by an everyday name: "open the apple"), so no later matcher can turn such
 * a pair into another action. Everything else is left open.
 */
function ruleStage(text: string, known: readonly string[], opts: MatcherOptions): { decided: MatchResult } | { open: Open } {
  const all = admissibleActions(known, opts);
  const raw = text.trim();
  if (raw === '') return { decided: { ok: false, error: 'the action is empty', candidates: [] } };
  // Exact vocabulary phrase or the structured form ("NavigateTo(Tomato_1)") first: no similarity needed.
  const exact = all.find((a) => a.text.toLowerCase() === raw.toLowerCase());
  if (exact) return { decided: { ok: true, action: exact, score: 1, candidates: [{ text: exact.text, score: 1 }], matcher: 'rule' } };
  const mentioned = [...raw.matchAll(/\b([A-Z][A-Za-z]*_\d+)\b/g)].map((m) => m[1]!);
  const unseen = mentioned.filter((id) => !known.includes(id));
  if (unseen.length > 0) {
    const sameType = known.filter((k) => unseen.some((u) => typeOfLabel(u) === typeOfLabel(k)));
    return {
      decided: {
        ok: false,
        error: `${unseen.join(', ')} ${unseen.length > 1 ? 'have' : 'has'} not been seen by any robot${sameType.length ? ` (seen of that type: ${sameType.join(', ')})` : ''}; only objects the robots have seen can be used`,
        candidates: [],
      },
    };
  }
  const intent = readIntent(raw, known, mentioned);
  if (intent.action && intent.target) {
    const hit = all.find((a) => a.name === intent.action && a.args[0] === intent.target);
    if (!hit) {
      const possible = all.filter((a) => a.args[0] === intent.target).map((a) => `"${a.text}"`);
      return { decided: { ok: false, error: `${intent.target} ${CANNOT[intent.action]!(typeOfLabel(intent.target))}; what can be done with ${intent.target}: ${possible.join(', ')}`, candidates: [] } };
    }
    if (mentioned.length > 0) return { decided: { ok: true, action: hit, score: 1, candidates: [{ text: hit.text, score: 1 }], matcher: 'rule' } };
  }
  return { open: { raw, all, mentioned, intent } };
}

/** An action naming an id is about that object (for put: the receptacle, usually named last). */
function poolOf(o: Open): AdmissibleAction[] {
  if (o.mentioned.length === 0) return o.all;
  const target = o.mentioned[o.mentioned.length - 1]!;
  const withTarget = o.all.filter((a) => a.args[0] === target);
  return withTarget.length > 0 ? withTarget : o.all;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** The best-scored action, or the refusal: below the threshold, or another verb than the phrase asks for. */
function choose(o: Open, scored: { a: AdmissibleAction; score: number }[], threshold: number, matcher: MatcherName, fallback?: string): MatchResult {
  scored.sort((x, y) => y.score - x.score || o.all.indexOf(x.a) - o.all.indexOf(y.a));
  const candidates = scored.slice(0, 3).map((x) => ({ text: x.a.text, score: round3(x.score) }));
  const extra = fallback ? { fallback } : {};
  const best = scored[0];
  if (!best || best.score < threshold) {
    return { ok: false, error: `"${o.raw}" is not close to any admissible action (closest${matcher === 'embedding' ? ' by embedding' : ''}: ${candidates.map((c) => `"${c.text}" ${c.score}`).join(', ') || 'none'}); write one of the actions as the prompt lists them`, candidates, matcher, ...extra };
  }
  // The phrase names a verb the closest action does not do: say so rather than run another action.
  if (o.intent.action && best.a.name !== o.intent.action) {
    return { ok: false, error: `"${o.raw}" asks for ${o.intent.action} but names no seen object that affords it (closest admissible: ${candidates.map((c) => `"${c.text}"`).join(', ')}); name the object by its id`, candidates, matcher, ...extra };
  }
  return { ok: true, action: best.a, score: best.score, candidates, matcher, ...extra };
}

/**
 * The lexical matcher (the fallback when there are no embeddings): an everyday name read with its verb ("open the
 * refrigerator" is Open on the seen Fridge, by TYPE_WORDS), else the token and trigram score above.
 */
function lexicalStage(o: Open, threshold: number, fallback?: string): MatchResult {
  const extra = fallback ? { fallback } : {};
  if (o.intent.action && o.intent.target) {
    const hit = o.all.find((a) => a.name === o.intent.action && a.args[0] === o.intent.target)!;
    const score = round3(similarity(o.raw, hit.text));
    return { ok: true, action: hit, score, candidates: [{ text: hit.text, score }], matcher: 'lexical', ...extra };
  }
  return choose(o, poolOf(o).map((a) => ({ a, score: similarity(o.raw, a.text) })), threshold, 'lexical', fallback);
}

/** The lexical matcher's default threshold (token/trigram cosine). */
export const LEXICAL_THRESHOLD = 0.45;
/**
 * The embedding matcher's default threshold (cosine). Unrelated short phrases score about 0.1-0.4 with common
 * embedding models and with the reference fixture; a phrase that names the action's verb and object scores higher.
 */
export const EMBEDDING_THRESHOLD = 0.5;

/**
 * The closest admissible action to `text` without embeddings (the rule, then the lexical matcher), or why there
 * is none: an object id no robot has seen, a pair the object does not afford, or nothing similar enough. `known`
 * are the labels the team has discovered.
 */
export function matchAction(text: string, known: readonly string[], opts: MatcherOptions): MatchResult {
  const r = ruleStage(text, known, opts);
  return 'decided' in r ? r.decided : lexicalStage(r.open, opts.threshold ?? LEXICAL_THRESHOLD);
}

/**
 * As matchAction, with the run's embedding model between the rule and the lexical matcher (the paper's matcher):
 * the phrase and the admissible actions are embedded (cached per episode, the missing ones in one request) and
 * the closest by cosine is taken above the threshold. When the endpoint has no embeddings or the call fails, the
 * lexical matcher decides and the result says why (`fallback`).
 */
export async function matchActionWithEmbeddings(text: string, known: readonly string[], opts: MatcherOptions, embeddings: EpisodeEmbeddings, signal?: AbortSignal): Promise<MatchResult> {
  const r = ruleStage(text, known, opts);
  if ('decided' in r) return r.decided;
  const o = r.open;
  const pool = poolOf(o);
  const v = await embeddings.vectors([o.raw, ...pool.map((a) => a.text)], signal);
  if (!v.ok) {
    const why = `${v.unsupported ? 'no embeddings' : 'the embedding call failed'} (${embeddings.model}): ${v.error.message}`;
    return lexicalStage(o, opts.threshold ?? LEXICAL_THRESHOLD, why);
  }
  const [q, ...vs] = v.vectors;
  return choose(o, pool.map((a, i) => ({ a, score: vectorCosine(q!, vs[i]!) })), opts.embeddingThreshold ?? EMBEDDING_THRESHOLD, 'embedding');
}
