// What models write around an answer, read the same way by every architecture's parsers: Windows line endings,
// typographic quotes a chat front end put in, and fenced blocks (``` or ~~~, with or without a language tag, the
// last one left open when the answer was cut off). The parsers decide what a block must contain; this only finds it.

export interface FencedBlock {
  /** The info string's first word, lower case ('' for a bare fence). */
  lang: string;
  body: string;
  /** False when the answer ended inside the block (a truncated answer). */
  closed: boolean;
  /** 1-based line of the opening fence. */
  line: number;
}

/** Languages a Python block may be tagged with (a bare fence counts as Python for the parsers that want Python). */
const PYTHON_TAGS = new Set(['', 'python', 'py', 'python3', 'py3', 'ipython', 'python2']);

export function isPythonTag(lang: string): boolean {
  return PYTHON_TAGS.has(lang);
}

/**
 * A reasoning model's thinking (<think>…</think>, <thinking>…</thinking>) is not its answer and is dropped;
 * line endings become \n, no-break and zero-width spaces plain ones, and typographic quotes ASCII. An apostrophe
 * between two letters ("robot’s") is kept as it is when `keepWordApostrophes` is set, so that a Python string
 * 'the robot’s cup' stays one string; elsewhere it becomes '.
 */
export function plainText(text: string, options: { keepWordApostrophes?: boolean } = {}): string {
  let s = text.replace(/<(think|thinking)>[\s\S]*?<\/\1>/gi, '').replace(/\r\n?/g, '\n').replace(/[\u00a0\u2007\u202f]/g, ' ').replace(/[\u200b\u200c\u200d\ufeff]/g, '');
  s = s.replace(/[\u201c\u201d\u201e\u201f\u2033]/g, '"');
  s = options.keepWordApostrophes
    ? s.replace(/[\u2018\u2019\u201a\u201b\u2032]/g, (q, at: number) => (/\p{L}/u.test(s[at - 1] ?? '') && /\p{L}/u.test(s[at + 1] ?? '') ? q : "'"))
    : s.replace(/[\u2018\u2019\u201a\u201b\u2032]/g, "'");
  return s;
}

/** Every fenced block of `text` (after plainText), in order. A fence closes only with the same character, at least as long. */
export function fencedBlocks(text: string): FencedBlock[] {
  const lines = text.split('\n');
  const out: FencedBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^[ \t]{0,3}(`{3,}|~{3,})[ \t]*([^\s`]*)[^`]*$/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const lang = open[2]!.toLowerCase().replace(/^\{?\.?/, '').replace(/\}$/, '');
    const body: string[] = [];
    let j = i + 1;
    let closed = false;
    for (; j < lines.length; j++) {
      const close = /^[ \t]{0,3}(`{3,}|~{3,})[ \t]*$/.exec(lines[j]!);
      if (close && close[1]![0] === fence[0] && close[1]!.length >= fence.length) {
        closed = true;
        break;
      }
      body.push(lines[j]!);
    }
    out.push({ lang, body: body.join('\n'), closed, line: i + 1 });
    i = j;
  }
  return out;
}

/** Blocks tagged as Python or bare; those tagged with another language (```json, ```text, ```bash) are left out. */
export function pythonBlocksOf(text: string): FencedBlock[] {
  return fencedBlocks(text).filter((b) => isPythonTag(b.lang));
}
