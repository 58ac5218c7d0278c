// The reference server's embedding (`/v1/embeddings`, model `reference-embedding`): a FIXTURE, not a learned model.
// It exists so LLaMAR's embedding matcher runs offline and in tests over the real client path. A text becomes a
// bag of normalised words: lower case, CamelCase and object ids split ("CounterTop_1" -> counter, top, counter_top_1),
// a few phrases folded ("go to" -> navigate, "pick up" -> pickup, "turn on" -> toggle on), filler words dropped,
// and a small synonym table (refrigerator -> fridge, couch -> sofa, computer -> laptop, ...). Each word is hashed
// (FNV-1a) onto one of DIMENSIONS signed axes and the vector is scaled to unit length, so the cosine of two
// vectors is, up to rare hash collisions, the cosine of their word counts. Deterministic; knows no meanings beyond
// the table below.

export const REFERENCE_EMBEDDING_MODEL = 'reference-embedding';
export const REFERENCE_EMBEDDING_LABEL = `${REFERENCE_EMBEDDING_MODEL} (hashed bag of words with a synonym table, not a learned model)`;
export const DIMENSIONS = 1024;

const PHRASES: [RegExp, string][] = [
  [/\b(?:go|goes|going|walk|walks|head|heads|move|moves|navigate|navigates)\s+(?:over\s+)?to\b/g, 'navigate'],
  [/\bnavigateto\b|\bapproach(?:es)?\b/g, 'navigate'],
  [/\bpick(?:s|ed|ing)?\s*up\b|\bpickupobject\b/g, 'pickup'],
  [/\b(?:turn|switch)(?:s|ed|ing)?\s+(on|off)\b/g, 'toggle $1'],
  [/\b(?:turn|switch)(?:s|ed|ing)?\s+(?:(?:the|it|this)\s+)?(\w+)\s+(on|off)\b/g, 'toggle $1 $2'],
  [/\blook(?:s|ing)?\s+around\b/g, 'explore'],
  [/\bdo\s+nothing\b|\bstay\s+idle\b/g, 'idle'],
];

/** Word -> the word it counts as. Verbs and the everyday names of household objects. */
const SYNONYMS: Record<string, string> = {
  grab: 'pickup', take: 'pickup', lift: 'pickup', fetch: 'pickup', pickup: 'pickup',
  place: 'put', set: 'put', drop: 'put', putobject: 'put',
  openobject: 'open', closeobject: 'close', shut: 'close',
  cut: 'slice', chop: 'slice', dice: 'slice', sliceobject: 'slice',
  wash: 'clean', rinse: 'clean', scrub: 'clean', cleanobject: 'clean',
  search: 'explore', wait: 'idle',
  refrigerator: 'fridge', freezer: 'fridge',
  tv: 'television', telly: 'television',
  couch: 'sofa', settee: 'sofa',
  computer: 'laptop', notebook: 'laptop',
  countertop: 'counter', worktop: 'counter',
  trash: 'garbage', bin: 'garbage', trashcan: 'garbage',
  tap: 'faucet', forward: 'ahead', backward: 'back',
};
/** Words that count as several (a dish is a plate or a bowl): each gets an equal share. */
const SPREAD: Record<string, string[]> = { dish: ['plate', 'bowl'] };
const FILLER = new Set(['the', 'a', 'an', 'to', 'in', 'into', 'onto', 'inside', 'of', 'by', 'at', 'and', 'then', 'with', 'from', 'object', 'direction', 'angle', 'degrees', 'it', 'its', 'please', 'my', 'your', 'this', 'that', 'robot']);

/** The weighted words of a text, as the fixture embeds them. */
export function embeddingWords(text: string): Map<string, number> {
  let s = text.replace(/\b([A-Za-z]+)_(\d+)\b/g, (_m, t: string, n: string) => {
    const parts = t.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
    return ` ${parts} ${parts.replace(/ /g, '_')}_${n} `;
  });
  s = s.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().replace(/[^a-z0-9_\s]/g, ' ');
  for (const [re, to] of PHRASES) s = s.replace(re, to);
  const out = new Map<string, number>();
  const add = (w: string, x: number) => out.set(w, (out.get(w) ?? 0) + x);
  for (const raw of s.split(/\s+/)) {
    if (raw === '' || FILLER.has(raw)) continue;
    const w = singular(raw);
    const spread = SPREAD[w];
    if (spread) for (const x of spread) add(x, 1 / Math.sqrt(spread.length));
    else add(SYNONYMS[w] ?? w, 1);
  }
  return out;
}

/** "tomatoes" -> tomato, "dishes" -> dish, "apples" -> apple; "glass" and short words stay. */
function singular(w: string): string {
  if (w.length <= 3 || SYNONYMS[w] || w.endsWith('ss')) return w;
  if (/(?:o|sh|ch|x)es$/.test(w)) return w.slice(0, -2);
  return w.endsWith('s') ? w.slice(0, -1) : w;
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The unit vector of a text (all zeros for a text with no words left). */
export function referenceEmbedding(text: string): number[] {
  const v = new Array<number>(DIMENSIONS).fill(0);
  for (const [w, x] of embeddingWords(text)) {
    const h = fnv1a(w);
    v[h % DIMENSIONS]! += (h & 0x80000000 ? -1 : 1) * x;
  }
  const norm = Math.hypot(...v);
  return norm === 0 ? v : v.map((x) => x / norm);
}
