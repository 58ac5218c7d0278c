// LLaMAR's modules answer with a Python dictionary (the paper's prompts) or JSON. This reads exactly one dict: the
// whole answer, or the one fenced ```json / ```python block in it (as the released code extracts it). Values are
// Python or JSON literals: strings ('…' or "…"), numbers, True/False/None (true/false/null), lists, tuples, dicts.
// Anything else is a format error that says where and what was expected.

export type Literal = string | number | boolean | null | Literal[] | { [k: string]: Literal };

export type DictResult = { ok: true; value: Record<string, Literal> } | { ok: false; error: string };

export function readDictAnswer(text: string): DictResult {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, error: 'the answer is empty; expected a dict' };
  let source = trimmed;
  if (!trimmed.startsWith('{')) {
    const blocks = [...trimmed.matchAll(/```[ \t]*(json|python|py)?[ \t]*\r?\n([\s\S]*?)```/gi)].map((m) => m[2]!.trim());
    const dicts = blocks.filter((b) => b.startsWith('{'));
    if (dicts.length === 0) {
      return { ok: false, error: `expected a dict (the whole answer, or one \`\`\`json block); the answer starts with ${JSON.stringify(trimmed.slice(0, 60))}` };
    }
    if (dicts.length > 1) return { ok: false, error: `expected one dict, found ${dicts.length} fenced blocks with dicts` };
    source = dicts[0]!;
  }
  try {
    const p = new LiteralParser(source);
    const v = p.value();
    p.end();
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return { ok: false, error: 'the answer is not a dict' };
    return { ok: true, value: v };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

class LiteralParser {
  private i = 0;
  constructor(private readonly s: string) {}

  private where(): string {
    const before = this.s.slice(0, this.i);
    const line = before.split('\n').length;
    const col = this.i - before.lastIndexOf('\n');
    return `line ${line}, column ${col}`;
  }

  private fail(what: string): never {
    const near = this.s.slice(this.i, this.i + 20);
    throw new Error(`${what} at ${this.where()}${near ? ` (near ${JSON.stringify(near)})` : ' (at the end)'}`);
  }

  private ws(): void {
    for (;;) {
      while (this.i < this.s.length && /\s/.test(this.s[this.i]!)) this.i++;
      if (this.s[this.i] === '#') {
        while (this.i < this.s.length && this.s[this.i] !== '\n') this.i++;
        continue;
      }
      return;
    }
  }

  end(): void {
    this.ws();
    if (this.i < this.s.length) this.fail('unexpected text after the dict');
  }

  value(): Literal {
    this.ws();
    const c = this.s[this.i];
    if (c === '{') return this.dict();
    if (c === '[' || c === '(') return this.list(c === '[' ? ']' : ')');
    if (c === '"' || c === "'") return this.str();
    const word = /^(True|False|None|true|false|null)\b/.exec(this.s.slice(this.i));
    if (word) {
      this.i += word[1]!.length;
      return word[1] === 'True' || word[1] === 'true' ? true : word[1] === 'False' || word[1] === 'false' ? false : null;
    }
    const num = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(this.s.slice(this.i));
    if (num) {
      this.i += num[0].length;
      return Number(num[0]);
    }
    return this.fail(c === undefined ? 'expected a value' : `expected a value, found ${JSON.stringify(c)}`);
  }

  private dict(): Record<string, Literal> {
    this.i++;
    const out: Record<string, Literal> = {};
    for (;;) {
      this.ws();
      if (this.s[this.i] === '}') {
        this.i++;
        return out;
      }
      const k = this.value();
      if (typeof k !== 'string') this.fail('dict keys must be strings');
      this.ws();
      if (this.s[this.i] !== ':') this.fail(`expected ':' after the key ${JSON.stringify(k)}`);
      this.i++;
      out[k as string] = this.value();
      this.ws();
      if (this.s[this.i] === ',') {
        this.i++;
        continue;
      }
      if (this.s[this.i] === '}') {
        this.i++;
        return out;
      }
      this.fail("expected ',' or '}' in the dict");
    }
  }

  private list(close: string): Literal[] {
    this.i++;
    const out: Literal[] = [];
    for (;;) {
      this.ws();
      if (this.s[this.i] === close) {
        this.i++;
        return out;
      }
      out.push(this.value());
      this.ws();
      if (this.s[this.i] === ',') {
        this.i++;
        continue;
      }
      if (this.s[this.i] === close) {
        this.i++;
        return out;
      }
      this.fail(`expected ',' or '${close}' in the list`);
    }
  }

  private str(): string {
    const q = this.s[this.i]!;
    // Python triple quotes.
    const triple = this.s.startsWith(q.repeat(3), this.i);
    this.i += triple ? 3 : 1;
    let out = '';
    for (;;) {
      if (this.i >= this.s.length) this.fail('unterminated string');
      const c = this.s[this.i]!;
      if (triple ? this.s.startsWith(q.repeat(3), this.i) : c === q) {
        this.i += triple ? 3 : 1;
        return out;
      }
      if (c === '\n' && !triple) this.fail('line break inside a string');
      if (c === '\\') {
        const n = this.s[this.i + 1];
        const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', '/': '/', b: '\b', f: '\f' };
        if (n === 'u' && /^[0-9a-fA-F]{4}$/.test(this.s.slice(this.i + 2, this.i + 6))) {
          out += String.fromCharCode(parseInt(this.s.slice(this.i + 2, this.i + 6), 16));
          this.i += 6;
          continue;
        }
        if (n !== undefined && map[n] !== undefined) {
          out += map[n];
          this.i += 2;
          continue;
        }
        out += c;
        this.i++;
        continue;
      }
      out += c;
      this.i++;
    }
  }
}

/** Finds a key ignoring case and spacing ("Failure Reason" == "failure reason"). */
export function pick(dict: Record<string, Literal>, key: string): { found: boolean; value: Literal | undefined; key?: string } {
  const norm = (k: string) => k.toLowerCase().replace(/[\s_]+/g, ' ').trim();
  const want = norm(key);
  const k = Object.keys(dict).find((x) => norm(x) === want);
  return k === undefined ? { found: false, value: undefined } : { found: true, value: dict[k], key: k };
}
