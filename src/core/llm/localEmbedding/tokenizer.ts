// A WordPiece tokenizer read from a Hugging Face `tokenizer.json`, doing what the `tokenizers` library does for BERT:
// added (special) tokens split off the raw text, then the normalizer (BertNormalizer: drop control characters, map
// whitespace to spaces, space out CJK ideographs, strip accents (NFD, drop non-spacing marks) and lower-case, each as
// the file says), the pre-tokenizer (BertPreTokenizer: split on whitespace, every punctuation character its own word),
// WordPiece (greedy longest match, continuation pieces prefixed "##", a word with no split is one [UNK]), truncation
// to the maximum length and the post-processor's [CLS] ... [SEP].
import { LocalModelError } from './errors.js';

type Json = Record<string, unknown>;

export interface TokenizerOptions {
  /** Total length including the special tokens (sentence-transformers' max_seq_length). */
  maxLength: number;
  /** sentence-transformers' `do_lower_case`: lower-case before the tokenizer (older models set it). */
  lowerCaseFirst?: boolean;
}

export class WordPieceTokenizer {
  readonly #vocab: Map<string, number>;
  readonly #unk: number;
  readonly #prefix: string;
  readonly #maxWordChars: number;
  readonly #normalize: (s: string) => string;
  readonly #preTokenize: (s: string) => string[];
  readonly #added: { content: string; id: number }[];
  readonly #before: number[];
  readonly #after: number[];
  readonly #maxLength: number;
  readonly #lowerFirst: boolean;

  /** `json`: the parsed tokenizer.json; `file` names it in errors. */
  constructor(json: unknown, file: string, options: TokenizerOptions) {
    const bad = (cause: string) => new LocalModelError(cause, file);
    const t = json as Json;
    const model = t?.model as Json | undefined;
    if (!model || model.type !== 'WordPiece') throw bad(`tokenizer model is ${String(model?.type ?? 'missing')}, not WordPiece (BERT's)`);
    const vocab = model.vocab as Record<string, unknown> | undefined;
    if (!vocab || typeof vocab !== 'object') throw bad('WordPiece model has no vocab');
    this.#vocab = new Map(Object.entries(vocab).filter((e): e is [string, number] => Number.isInteger(e[1])));
    const unkToken = typeof model.unk_token === 'string' ? model.unk_token : '[UNK]';
    const unk = this.#vocab.get(unkToken);
    if (unk === undefined) throw bad(`unk_token ${unkToken} is not in the vocab`);
    this.#unk = unk;
    this.#prefix = typeof model.continuing_subword_prefix === 'string' ? model.continuing_subword_prefix : '##';
    this.#maxWordChars = typeof model.max_input_chars_per_word === 'number' ? model.max_input_chars_per_word : 100;
    this.#normalize = normalizerOf(t.normalizer, bad);
    this.#preTokenize = preTokenizerOf(t.pre_tokenizer, bad);
    this.#added = (Array.isArray(t.added_tokens) ? (t.added_tokens as Json[]) : [])
      .filter((a) => typeof a.content === 'string' && a.content !== '' && Number.isInteger(a.id))
      .map((a) => ({ content: a.content as string, id: a.id as number }))
      .sort((a, b) => b.content.length - a.content.length);
    [this.#before, this.#after] = specialsOf(t.post_processor, this.#vocab, bad);
    this.#maxLength = options.maxLength;
    this.#lowerFirst = options.lowerCaseFirst ?? false;
  }

  /** The largest id the tokenizer can produce (it must be below the model's vocab_size). */
  get maxId(): number {
    let m = 0;
    for (const id of this.#vocab.values()) m = Math.max(m, id);
    for (const a of this.#added) m = Math.max(m, a.id);
    return Math.max(m, ...this.#before, ...this.#after);
  }

  /** The input ids of one text: specials included, truncated to the maximum length. */
  encode(text: string): number[] {
    const ids: number[] = [];
    for (const part of this.#splitAdded(this.#lowerFirst ? text.toLowerCase() : text)) {
      if (typeof part === 'number') ids.push(part);
      else for (const word of this.#preTokenize(this.#normalize(part))) this.#wordPiece(word, ids);
    }
    const room = Math.max(0, this.#maxLength - this.#before.length - this.#after.length);
    return [...this.#before, ...ids.slice(0, room), ...this.#after];
  }

  /** Added tokens (the specials) written in the text are matched before normalisation, longest first. */
  #splitAdded(text: string): (string | number)[] {
    if (this.#added.length === 0) return [text];
    const out: (string | number)[] = [];
    let from = 0;
    let i = 0;
    while (i < text.length) {
      const hit = this.#added.find((a) => text.startsWith(a.content, i));
      if (!hit) {
        i++;
        continue;
      }
      if (i > from) out.push(text.slice(from, i));
      out.push(hit.id);
      i += hit.content.length;
      from = i;
    }
    if (from < text.length) out.push(text.slice(from));
    return out;
  }

  #wordPiece(word: string, out: number[]): void {
    const chars = Array.from(word);
    if (chars.length > this.#maxWordChars) {
      out.push(this.#unk);
      return;
    }
    const pieces: number[] = [];
    for (let start = 0; start < chars.length; ) {
      let end = chars.length;
      let id: number | undefined;
      for (; end > start; end--) {
        const sub = chars.slice(start, end).join('');
        id = this.#vocab.get(start > 0 ? this.#prefix + sub : sub);
        if (id !== undefined) break;
      }
      // No piece fits: the whole word is unknown, as in `tokenizers`.
      if (id === undefined) {
        out.push(this.#unk);
        return;
      }
      pieces.push(id);
      start = end;
    }
    out.push(...pieces);
  }
}

const CONTROL = /\p{C}/u;
const WHITESPACE = /\p{White_Space}/u;
const PUNCT = /[\p{P}!-/:-@[-`{-~]/u;
const NONSPACING_MARK = /\p{Mn}/gu;

const isCjk = (c: number) =>
  (c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x20000 && c <= 0x2a6df) || (c >= 0x2a700 && c <= 0x2b73f) ||
  (c >= 0x2b740 && c <= 0x2b81f) || (c >= 0x2b920 && c <= 0x2ceaf) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0x2f800 && c <= 0x2fa1f);

/** Lower-cases code point by code point, as Rust's char::to_lowercase (no context rules such as final sigma). */
const lowerEach = (s: string) => Array.from(s, (c) => c.toLowerCase()).join('');
const stripAccents = (s: string) => s.normalize('NFD').replace(NONSPACING_MARK, '');

function normalizerOf(spec: unknown, bad: (cause: string) => Error): (s: string) => string {
  if (spec === null || spec === undefined) return (s) => s;
  const n = spec as Json;
  switch (n.type) {
    case 'BertNormalizer': {
      const lowercase = n.lowercase !== false;
      // strip_accents null follows lowercase, as in `tokenizers`.
      const strip = typeof n.strip_accents === 'boolean' ? n.strip_accents : lowercase;
      const clean = n.clean_text !== false;
      const cjk = n.handle_chinese_chars !== false;
      return (s) => {
        let out = '';
        for (const ch of s) {
          const c = ch.codePointAt(0)!;
          if (clean) {
            if (ch === '\t' || ch === '\n' || ch === '\r') {
              out += ' ';
              continue;
            }
            if (c === 0 || c === 0xfffd || CONTROL.test(ch)) continue;
            if (WHITESPACE.test(ch)) {
              out += ' ';
              continue;
            }
          }
          out += cjk && isCjk(c) ? ` ${ch} ` : ch;
        }
        if (strip) out = stripAccents(out);
        return lowercase ? lowerEach(out) : out;
      };
    }
    case 'Lowercase':
      return lowerEach;
    case 'StripAccents':
      return (s) => s.replace(NONSPACING_MARK, '');
    case 'NFD':
    case 'NFC':
    case 'NFKD':
    case 'NFKC':
      return (s) => s.normalize(n.type as string);
    case 'Sequence': {
      const steps = (Array.isArray(n.normalizers) ? n.normalizers : []).map((x) => normalizerOf(x, bad));
      return (s) => steps.reduce((acc, f) => f(acc), s);
    }
    default:
      throw bad(`normalizer ${String(n.type)} is not supported (BertNormalizer, Lowercase, StripAccents, NFD/NFC/NFKD/NFKC and Sequence are)`);
  }
}

/** BertPreTokenizer: whitespace separates words and is dropped; each punctuation character is a word of its own. */
function bertSplit(s: string): string[] {
  const out: string[] = [];
  let word = '';
  for (const ch of s) {
    if (WHITESPACE.test(ch)) {
      if (word) out.push(word);
      word = '';
    } else if (PUNCT.test(ch)) {
      if (word) out.push(word);
      out.push(ch);
      word = '';
    } else word += ch;
  }
  if (word) out.push(word);
  return out;
}

function preTokenizerOf(spec: unknown, bad: (cause: string) => Error): (s: string) => string[] {
  if (spec === null || spec === undefined) return (s) => (s ? [s] : []);
  const p = spec as Json;
  if (p.type === 'BertPreTokenizer') return bertSplit;
  if (p.type === 'WhitespaceSplit') return (s) => s.split(/\p{White_Space}+/u).filter(Boolean);
  if (p.type === 'Sequence') {
    const steps = (Array.isArray(p.pretokenizers) ? p.pretokenizers : []).map((x) => preTokenizerOf(x, bad));
    return (s) => steps.reduce<string[]>((words, f) => words.flatMap(f), [s]);
  }
  throw bad(`pre_tokenizer ${String(p.type)} is not supported (BertPreTokenizer, WhitespaceSplit and Sequence are)`);
}

/** The ids the post-processor puts before and after a single sequence ([CLS] and [SEP] for BERT). */
function specialsOf(spec: unknown, vocab: Map<string, number>, bad: (cause: string) => Error): [number[], number[]] {
  if (spec === null || spec === undefined) return [[], []];
  const p = spec as Json;
  if (p.type === 'BertProcessing') {
    const [cls, sep] = [p.cls, p.sep] as [unknown, unknown][];
    if (!Array.isArray(cls) || !Array.isArray(sep) || !Number.isInteger(cls[1]) || !Number.isInteger(sep[1])) throw bad('BertProcessing lacks cls or sep');
    return [[cls[1] as number], [sep[1] as number]];
  }
  if (p.type === 'TemplateProcessing') {
    const single = Array.isArray(p.single) ? (p.single as Json[]) : [];
    const specials = (p.special_tokens ?? {}) as Record<string, { ids?: unknown }>;
    const before: number[] = [];
    const after: number[] = [];
    let seen = false;
    for (const piece of single) {
      if ('Sequence' in piece) {
        seen = true;
        continue;
      }
      const id = (piece.SpecialToken as Json | undefined)?.id;
      const ids = typeof id === 'string' ? (specials[id]?.ids ?? (vocab.has(id) ? [vocab.get(id)] : undefined)) : undefined;
      if (!Array.isArray(ids) || !ids.every(Number.isInteger)) throw bad(`TemplateProcessing names special token ${String(id)} without ids`);
      (seen ? after : before).push(...(ids as number[]));
    }
    return [before, after];
  }
  throw bad(`post_processor ${String(p.type)} is not supported (TemplateProcessing and BertProcessing are)`);
}
