// The debugger's expression language: breakpoint conditions, hit counts, logpoint interpolation, watch and the
// debug console all use it. Small and safe by construction: it reads values from a plain scope object and never
// evaluates JavaScript (no eval, no Function, no property named like a prototype member).
//
//   expr    := or
//   or      := and (('||' | 'or') and)*
//   and     := not (('&&' | 'and') not)*
//   not     := ('!' | 'not') not | cmp
//   cmp     := add (('==' | '!=' | '<' | '<=' | '>' | '>=' | 'in') add)?
//   add     := mul (('+' | '-') mul)*
//   mul     := unary (('*' | '/' | '%') unary)*
//   unary   := '-' unary | postfix
//   postfix := primary ('.' name | '[' expr ']')*
//   primary := number | string | true | false | null | name | name '(' args ')' | '(' expr ')' | '[' args ']'

export type Expr =
  | { kind: 'lit'; value: unknown; at: number }
  | { kind: 'name'; name: string; at: number }
  | { kind: 'member'; object: Expr; key: Expr; at: number; text: string }
  | { kind: 'call'; fn: string; args: Expr[]; at: number }
  | { kind: 'list'; items: Expr[]; at: number }
  | { kind: 'unary'; op: '-' | '!'; arg: Expr; at: number }
  | { kind: 'binary'; op: string; left: Expr; right: Expr; at: number };

/** A syntax error at a 1-based column. */
export class ExprSyntaxError extends Error {
  constructor(
    readonly column: number,
    readonly detail: string,
  ) {
    super(`syntax error at column ${column}: ${detail}`);
    this.name = 'ExprSyntaxError';
  }
}

/** An expression that parsed but cannot be evaluated on this scope (unknown name, wrong types). */
export class ExprEvalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExprEvalError';
  }
}

interface Tok {
  kind: 'num' | 'str' | 'name' | 'op' | 'end';
  value: string;
  at: number;
}

const OPS = ['==', '!=', '<=', '>=', '&&', '||', '<', '>', '+', '-', '*', '/', '%', '!', '(', ')', '[', ']', '.', ','];
/** Members that would reach JavaScript internals; refused even on plain objects. */
const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);

function tokenize(src: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const m = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(src.slice(i))!;
      toks.push({ kind: 'num', value: m[0], at: i });
      i += m[0].length;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      let out = '';
      while (j < src.length && src[j] !== c) {
        if (src[j] === '\\' && j + 1 < src.length) {
          const n = src[j + 1]!;
          out += n === 'n' ? '\n' : n === 't' ? '\t' : n;
          j += 2;
        } else out += src[j++];
      }
      if (j >= src.length) throw new ExprSyntaxError(i + 1, `unterminated string starting with ${c}`);
      toks.push({ kind: 'str', value: out, at: i });
      i = j + 1;
      continue;
    }
    if (/[A-Za-z_$]/.test(c)) {
      const m = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(src.slice(i))!;
      toks.push({ kind: 'name', value: m[0], at: i });
      i += m[0].length;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) throw new ExprSyntaxError(i + 1, `unexpected character '${c}'`);
    toks.push({ kind: 'op', value: op, at: i });
    i += op.length;
  }
  toks.push({ kind: 'end', value: '', at: src.length });
  return toks;
}

class Parser {
  private i = 0;
  constructor(
    private readonly toks: Tok[],
    private readonly src: string,
  ) {}

  private peek(): Tok {
    return this.toks[this.i]!;
  }
  private next(): Tok {
    return this.toks[this.i++]!;
  }
  private isOp(v: string): boolean {
    const t = this.peek();
    return t.kind === 'op' && t.value === v;
  }
  private isWord(v: string): boolean {
    const t = this.peek();
    return t.kind === 'name' && t.value === v;
  }
  private expect(v: string, what: string): void {
    if (!this.isOp(v)) throw this.fail(`expected ${what}`);
    this.i++;
  }
  private fail(expected: string): ExprSyntaxError {
    const t = this.peek();
    return new ExprSyntaxError(t.at + 1, `${expected}, found ${t.kind === 'end' ? 'the end of the expression' : `'${t.value}'`}`);
  }

  parseAll(): Expr {
    if (this.peek().kind === 'end') throw new ExprSyntaxError(1, 'the expression is empty');
    const e = this.or();
    if (this.peek().kind !== 'end') throw this.fail('expected an operator or the end of the expression');
    return e;
  }

  private or(): Expr {
    let left = this.and();
    while (this.isOp('||') || this.isWord('or')) {
      const at = this.next().at;
      left = { kind: 'binary', op: '||', left, right: this.and(), at };
    }
    return left;
  }
  private and(): Expr {
    let left = this.not();
    while (this.isOp('&&') || this.isWord('and')) {
      const at = this.next().at;
      left = { kind: 'binary', op: '&&', left, right: this.not(), at };
    }
    return left;
  }
  private not(): Expr {
    if (this.isOp('!') || this.isWord('not')) {
      const at = this.next().at;
      return { kind: 'unary', op: '!', arg: this.not(), at };
    }
    return this.cmp();
  }
  private cmp(): Expr {
    const left = this.add();
    const t = this.peek();
    if ((t.kind === 'op' && ['==', '!=', '<', '<=', '>', '>='].includes(t.value)) || (t.kind === 'name' && t.value === 'in')) {
      this.i++;
      return { kind: 'binary', op: t.value, left, right: this.add(), at: t.at };
    }
    return left;
  }
  private add(): Expr {
    let left = this.mul();
    while (this.isOp('+') || this.isOp('-')) {
      const t = this.next();
      left = { kind: 'binary', op: t.value, left, right: this.mul(), at: t.at };
    }
    return left;
  }
  private mul(): Expr {
    let left = this.unary();
    while (this.isOp('*') || this.isOp('/') || this.isOp('%')) {
      const t = this.next();
      left = { kind: 'binary', op: t.value, left, right: this.unary(), at: t.at };
    }
    return left;
  }
  private unary(): Expr {
    if (this.isOp('-')) {
      const at = this.next().at;
      return { kind: 'unary', op: '-', arg: this.unary(), at };
    }
    return this.postfix();
  }
  private postfix(): Expr {
    let e = this.primary();
    const start = e.at;
    for (;;) {
      if (this.isOp('.')) {
        this.i++;
        const t = this.peek();
        if (t.kind !== 'name') throw this.fail('expected a field name after .');
        this.i++;
        e = { kind: 'member', object: e, key: { kind: 'lit', value: t.value, at: t.at }, at: start, text: this.src.slice(start, t.at + t.value.length) };
      } else if (this.isOp('[')) {
        this.i++;
        const key = this.or();
        const close = this.peek();
        this.expect(']', "']'");
        e = { kind: 'member', object: e, key, at: start, text: this.src.slice(start, close.at + 1) };
      } else return e;
    }
  }
  private primary(): Expr {
    const t = this.next();
    if (t.kind === 'num') return { kind: 'lit', value: Number(t.value), at: t.at };
    if (t.kind === 'str') return { kind: 'lit', value: t.value, at: t.at };
    if (t.kind === 'name') {
      if (t.value === 'true') return { kind: 'lit', value: true, at: t.at };
      if (t.value === 'false') return { kind: 'lit', value: false, at: t.at };
      if (t.value === 'null') return { kind: 'lit', value: null, at: t.at };
      if (['and', 'or', 'not', 'in'].includes(t.value)) {
        this.i--;
        throw this.fail('expected a value');
      }
      if (this.isOp('(')) {
        this.i++;
        const args = this.args(')');
        if (!(t.value in FUNCTIONS)) throw new ExprSyntaxError(t.at + 1, `unknown function '${t.value}' (functions: ${Object.keys(FUNCTIONS).join(', ')})`);
        return { kind: 'call', fn: t.value, args, at: t.at };
      }
      return { kind: 'name', name: t.value, at: t.at };
    }
    if (t.kind === 'op' && t.value === '(') {
      const e = this.or();
      this.expect(')', "')'");
      return e;
    }
    if (t.kind === 'op' && t.value === '[') return { kind: 'list', items: this.args(']'), at: t.at };
    this.i--;
    throw this.fail('expected a value');
  }
  private args(close: string): Expr[] {
    const out: Expr[] = [];
    if (this.isOp(close)) {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.or());
      if (this.isOp(',')) {
        this.i++;
        continue;
      }
      this.expect(close, `',' or '${close}'`);
      return out;
    }
  }
}

/** Parses an expression; throws ExprSyntaxError with a 1-based column. */
export function parseExpr(src: string): Expr {
  return new Parser(tokenize(src), src).parseAll();
}

export type ParseResult = { ok: true; expr: Expr } | { ok: false; error: ExprSyntaxError };

export function tryParseExpr(src: string): ParseResult {
  try {
    return { ok: true, expr: parseExpr(src) };
  } catch (e) {
    if (e instanceof ExprSyntaxError) return { ok: false, error: e };
    throw e;
  }
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'list';
  return typeof v === 'object' ? 'object' : typeof v;
}

function num(v: unknown, what: string): number {
  if (typeof v !== 'number') throw new ExprEvalError(`${what} needs a number, got ${typeName(v)}`);
  return v;
}

const FUNCTIONS: Record<string, (args: unknown[]) => unknown> = {
  len: ([v]) => {
    if (typeof v === 'string' || Array.isArray(v)) return v.length;
    if (v && typeof v === 'object') return Object.keys(v).length;
    throw new ExprEvalError(`len() needs a string, list or object, got ${typeName(v)}`);
  },
  abs: ([v]) => Math.abs(num(v, 'abs()')),
  min: (args) => Math.min(...(args.length === 1 && Array.isArray(args[0]) ? args[0] : args).map((x) => num(x, 'min()'))),
  max: (args) => Math.max(...(args.length === 1 && Array.isArray(args[0]) ? args[0] : args).map((x) => num(x, 'max()'))),
  round: ([v, d]) => {
    const f = 10 ** (d === undefined ? 0 : num(d, 'round() digits'));
    return Math.round(num(v, 'round()') * f) / f;
  },
  contains: ([a, b]) => {
    if (typeof a === 'string') return typeof b === 'string' && a.includes(b);
    if (Array.isArray(a)) return a.some((x) => equal(x, b));
    throw new ExprEvalError(`contains() needs a string or list first, got ${typeName(a)}`);
  },
  lower: ([v]) => String(v).toLowerCase(),
  upper: ([v]) => String(v).toUpperCase(),
  keys: ([v]) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v) : []),
  dist: ([a, b]) => {
    const p = vec(a, 'dist()');
    const q = vec(b, 'dist()');
    return Math.hypot(...p.map((x, i) => x - (q[i] ?? 0)));
  },
};

function vec(v: unknown, what: string): number[] {
  if (Array.isArray(v)) return v.map((x) => num(x, what));
  if (v && typeof v === 'object' && 'pos' in v) return vec((v as { pos: unknown }).pos, what);
  throw new ExprEvalError(`${what} needs positions ([x, y, z] or something with pos), got ${typeName(v)}`);
}

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => equal(x, b[i]));
  return false;
}

function member(object: unknown, key: unknown, text: string): unknown {
  if (object === undefined || object === null) throw new ExprEvalError(`${text}: cannot read a field of ${object === null ? 'null' : 'nothing'}`);
  if (Array.isArray(object) || typeof object === 'string') {
    if (key === 'length') return object.length;
    if (typeof key !== 'number' || !Number.isInteger(key)) throw new ExprEvalError(`${text}: a list index must be an integer, got ${typeName(key)}`);
    const i = key < 0 ? object.length + key : key;
    if (i < 0 || i >= object.length) throw new ExprEvalError(`${text}: index ${key} is out of range (length ${object.length})`);
    return object[i];
  }
  if (typeof object !== 'object') throw new ExprEvalError(`${text}: a ${typeName(object)} has no fields`);
  const k = String(key);
  if (FORBIDDEN.has(k) || !Object.prototype.hasOwnProperty.call(object, k)) {
    const known = Object.keys(object as object);
    throw new ExprEvalError(`${text}: no field '${k}'${known.length ? ` (fields: ${known.slice(0, 12).join(', ')}${known.length > 12 ? ', …' : ''})` : ''}`);
  }
  return (object as Record<string, unknown>)[k];
}

function compare(op: string, a: unknown, b: unknown): boolean {
  if (op === '==') return equal(a, b);
  if (op === '!=') return !equal(a, b);
  if (!((typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string'))) {
    throw new ExprEvalError(`'${op}' compares two numbers or two strings, got ${typeName(a)} and ${typeName(b)}`);
  }
  if (op === '<') return a < b;
  if (op === '<=') return a <= b;
  if (op === '>') return a > b;
  return a >= b;
}

/** Evaluates an expression over a scope of plain data. Throws ExprEvalError. */
export function evaluateExpr(e: Expr, scope: Readonly<Record<string, unknown>>): unknown {
  switch (e.kind) {
    case 'lit':
      return e.value;
    case 'name':
      if (FORBIDDEN.has(e.name) || !Object.prototype.hasOwnProperty.call(scope, e.name)) {
        throw new ExprEvalError(`unknown name '${e.name}' (names here: ${Object.keys(scope).join(', ')})`);
      }
      return scope[e.name];
    case 'member':
      return member(evaluateExpr(e.object, scope), evaluateExpr(e.key, scope), e.text);
    case 'call':
      return FUNCTIONS[e.fn]!(e.args.map((a) => evaluateExpr(a, scope)));
    case 'list':
      return e.items.map((a) => evaluateExpr(a, scope));
    case 'unary': {
      const v = evaluateExpr(e.arg, scope);
      return e.op === '!' ? !truthy(v) : -num(v, "unary '-'");
    }
    case 'binary': {
      if (e.op === '&&') return truthy(evaluateExpr(e.left, scope)) && truthy(evaluateExpr(e.right, scope));
      if (e.op === '||') return truthy(evaluateExpr(e.left, scope)) || truthy(evaluateExpr(e.right, scope));
      const a = evaluateExpr(e.left, scope);
      const b = evaluateExpr(e.right, scope);
      switch (e.op) {
        case 'in':
          if (typeof b === 'string') return typeof a === 'string' && b.includes(a);
          if (Array.isArray(b)) return b.some((x) => equal(x, a));
          if (b && typeof b === 'object') return typeof a === 'string' && Object.prototype.hasOwnProperty.call(b, a);
          throw new ExprEvalError(`'in' needs a string, list or object on the right, got ${typeName(b)}`);
        case '+':
          if (typeof a === 'string' || typeof b === 'string') return String(a) + String(b);
          return num(a, "'+'") + num(b, "'+'");
        case '-':
          return num(a, "'-'") - num(b, "'-'");
        case '*':
          return num(a, "'*'") * num(b, "'*'");
        case '/':
          return num(a, "'/'") / num(b, "'/'");
        case '%':
          return num(a, "'%'") % num(b, "'%'");
        default:
          return compare(e.op, a, b);
      }
    }
  }
}

/** Conditions are true when their value is: not false, null, undefined, 0, '' or an empty list. */
export function truthy(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  return Boolean(v);
}

/** One line for the console: strings as they are at top level, everything else as compact JSON. */
export function formatValue(v: unknown, maxChars = 400): string {
  let s: string;
  if (typeof v === 'string') s = v;
  else if (v === undefined) s = 'undefined';
  else if (typeof v === 'number') s = Number.isInteger(v) ? String(v) : String(Math.round(v * 1e6) / 1e6);
  else s = JSON.stringify(v, (_k, x) => (typeof x === 'number' && !Number.isInteger(x) ? Math.round(x * 1e6) / 1e6 : x)) ?? String(v);
  return s.length > maxChars ? `${s.slice(0, maxChars)}…` : s;
}

/**
 * A hit condition: a bare number N stops on the Nth hit and after; `op N` compares the hit count (`== 3`, `> 2`,
 * `% 5` for every fifth); anything else is an expression in which `hits` is the count.
 */
export function parseHitCondition(src: string): Expr {
  const t = src.trim();
  const bare = /^(\d+)$/.exec(t);
  if (bare) return parseExpr(`hits >= ${bare[1]}`);
  const op = /^(==|!=|<=|>=|<|>|%)\s*(\d+)$/.exec(t);
  if (op) return parseExpr(op[1] === '%' ? `hits % ${op[2]} == 0` : `hits ${op[1]} ${op[2]}`);
  return parseExpr(t);
}
