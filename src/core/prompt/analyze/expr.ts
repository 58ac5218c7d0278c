// Parser of one tag's tokens with Handlebars 4's rules (handlebars.yy: helperName, path, param, hash, sexpr,
// blockParams) and the expression types it produces. Offsets are absolute in the file.
import type { Tok } from './lexer.js';

export interface PathExpr {
  kind: 'path';
  original: string;
  /** Name segments without `..`, `.`, `this`. */
  parts: string[];
  /** `@name` data variable. */
  data: boolean;
  /** Number of leading `..` segments. */
  depth: number;
  /** Starts with `this` or `.`: resolved against the current context only. */
  scoped: boolean;
  start: number;
  end: number;
}
export interface LiteralExpr {
  kind: 'string' | 'number' | 'boolean' | 'undefined' | 'null';
  value: string;
  start: number;
  end: number;
}
export interface SubExpr {
  kind: 'sexpr';
  call: Call;
  start: number;
  end: number;
}
export type Expr = PathExpr | LiteralExpr | SubExpr;
export interface HashPair {
  key: string;
  keyStart: number;
  value: Expr;
}
export interface Call {
  head?: Expr;
  params: Expr[];
  hash: HashPair[];
  blockParams: string[];
}

export class SyntaxFail {
  constructor(readonly tok: Tok, readonly message: string) {}
}

export function describe(t: Tok): string {
  if (t.t === 'EOF') return 'the end of the file';
  if (t.t === 'CLOSE' || t.t === 'CLOSE_UNESCAPED') return `'${t.value}'`;
  return `'${t.value.length > 20 ? t.value.slice(0, 20) + '...' : t.value}'`;
}

/** Recursive-descent parser over one tag's tokens (handlebars.yy's rules for helperName, param, hash, sexpr). */
export class TagParser {
  private k = 0;
  constructor(private toks: Tok[]) {}
  /** Reuses the parser for the next tag (one parser per template, not per tag). */
  reset(toks: Tok[]): this {
    this.toks = toks;
    this.k = 0;
    return this;
  }
  peek(o = 0): Tok {
    return this.toks[this.k + o] ?? this.toks[this.toks.length - 1];
  }
  next(): Tok {
    const t = this.peek();
    if (this.k < this.toks.length - 1) this.k++;
    return t;
  }
  fail(expected: string): never {
    const t = this.peek();
    throw new SyntaxFail(t, `Handlebars syntax: expected ${expected}, found ${describe(t)}`);
  }
  helperName(): Expr {
    const t = this.peek();
    switch (t.t) {
      case 'ID':
      case 'DATA':
        return this.path();
      case 'STRING':
        this.next();
        return { kind: 'string', value: t.value, start: t.start, end: t.end };
      case 'NUMBER':
        this.next();
        return { kind: 'number', value: t.value, start: t.start, end: t.end };
      case 'BOOLEAN':
        this.next();
        return { kind: 'boolean', value: t.value, start: t.start, end: t.end };
      case 'UNDEFINED':
        this.next();
        return { kind: 'undefined', value: t.value, start: t.start, end: t.end };
      case 'NULL':
        this.next();
        return { kind: 'null', value: t.value, start: t.start, end: t.end };
      default:
        return this.fail('a helper or variable name');
    }
  }
  path(): PathExpr {
    const first = this.peek();
    const data = first.t === 'DATA';
    if (data) this.next();
    if (this.peek().t !== 'ID') this.fail(data ? 'a name after @' : 'a name');
    const segs: Tok[] = [this.next()];
    while (this.peek().t === 'SEP') {
      this.next();
      if (this.peek().t !== 'ID') this.fail("a name after '.' or '/'");
      segs.push(this.next());
    }
    const last = segs[segs.length - 1];
    const start = first.start;
    const original = this.sourceOf(start, last.end);
    const parts: string[] = [];
    let depth = 0;
    for (const s of segs) {
      const literal = this.isBracketed(s);
      if (!literal && (s.value === '..' || s.value === '.' || s.value === 'this')) {
        if (parts.length > 0) throw new SyntaxFail(s, `Handlebars syntax: invalid path '${original}': '${s.value}' may only start a path`);
        if (s.value === '..') depth++;
      } else {
        parts.push(s.value);
      }
    }
    const head = segs[0].value;
    const scoped = !this.isBracketed(segs[0]) && (head === 'this' || head === '.');
    return { kind: 'path', original, parts, data, depth, scoped, start, end: last.end };
  }
  private src = '';
  setSource(src: string): this {
    this.src = src;
    return this;
  }
  private sourceOf(start: number, end: number): string {
    return this.src.slice(start, end);
  }
  private isBracketed(t: Tok): boolean {
    return this.src.charCodeAt(t.start) === 91 && t.end - t.start === t.value.length + 2;
  }
  param(): Expr {
    if (this.peek().t === 'OPEN_SEXPR') return this.sexpr();
    return this.helperName();
  }
  sexpr(): SubExpr {
    const open = this.next();
    const call = this.callBody(false);
    const close = this.peek();
    if (close.t !== 'CLOSE_SEXPR') this.fail("')'");
    this.next();
    return { kind: 'sexpr', call, start: open.start, end: close.end };
  }
  /** helperName param* hash? blockParams? — the part shared by mustaches, blocks and sub-expressions. */
  callBody(allowBlockParams: boolean, headCanBeSexpr = false): Call {
    const head = headCanBeSexpr && this.peek().t === 'OPEN_SEXPR' ? this.sexpr() : this.helperName();
    const params: Expr[] = [];
    const hash: HashPair[] = [];
    for (;;) {
      const t = this.peek();
      if (t.t === 'ID' && this.peek(1).t === 'EQUALS') break;
      if (t.t === 'OPEN_SEXPR' || t.t === 'ID' || t.t === 'DATA' || t.t === 'STRING' || t.t === 'NUMBER' || t.t === 'BOOLEAN' || t.t === 'UNDEFINED' || t.t === 'NULL') {
        params.push(this.param());
        continue;
      }
      break;
    }
    while (this.peek().t === 'ID' && this.peek(1).t === 'EQUALS') {
      const key = this.next();
      this.next();
      const t = this.peek();
      if (t.t === 'CLOSE' || t.t === 'CLOSE_UNESCAPED' || t.t === 'CLOSE_SEXPR' || t.t === 'EOF' || t.t === 'EQUALS') this.fail(`a value after '${key.value}='`);
      hash.push({ key: key.value, keyStart: key.start, value: this.param() });
    }
    const blockParams: string[] = [];
    if (allowBlockParams && this.peek().t === 'OPEN_BLOCK_PARAMS') {
      this.next();
      while (this.peek().t === 'ID') blockParams.push(this.next().value);
      if (blockParams.length === 0) this.fail('a block parameter name after "as |"');
      if (this.peek().t !== 'CLOSE_BLOCK_PARAMS') this.fail("'|' to end the block parameters");
      this.next();
    }
    return { head, params, hash, blockParams };
  }
  expectClose(kind: 'CLOSE' | 'CLOSE_UNESCAPED'): void {
    if (this.peek().t !== kind) this.fail(kind === 'CLOSE' ? "'}}'" : "'}}}'");
  }
}

export function headOnly(toks: Tok[], text: string): Expr | undefined {
  try {
    return new TagParser(toks).setSource(text).helperName();
  } catch {
    return undefined; // the tag's syntax error is already reported
  }
}
