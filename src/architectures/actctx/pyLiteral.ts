// A parser for the Python the Action Contextualization planner writes: assignment statements whose values are
// literals (`task_plan = [(0, 'approach', ('cup', 0.5, 0.03, 'top')), ...]`, `task_plan[2] = (2, 'place', (...))`).
// It follows Python's grammar for that subset (tokens, brackets across lines, comments, implicit string
// concatenation, trailing commas, 1-tuples) and `ast.literal_eval`'s rules for values (literals, containers,
// unary +/-; names and calls are "malformed"), and reports errors as Python would, with the line.
// Values keep Python's types (int vs float, tuple vs list) so that feedback can quote them back exactly.

export type Py =
  | { t: 'none'; line: number }
  | { t: 'bool'; v: boolean; line: number }
  | { t: 'int'; v: number; line: number }
  | { t: 'float'; v: number; line: number }
  | { t: 'str'; v: string; line: number }
  | { t: 'tuple'; items: Py[]; line: number }
  | { t: 'list'; items: Py[]; line: number }
  | { t: 'set'; items: Py[]; line: number }
  | { t: 'dict'; entries: [Py, Py][]; line: number };

/** `name = value` or `name[index] = value`. */
export interface PyAssignment {
  target: string;
  /** Set for `name[index] = ...` (a literal index). */
  index?: Py;
  value: Py;
  line: number;
}

export class PySyntaxError extends Error {
  constructor(
    readonly kind: 'SyntaxError' | 'ValueError',
    readonly detail: string,
    readonly line: number,
  ) {
    super(`${kind}: ${detail} (line ${line})`);
    this.name = 'PySyntaxError';
  }
}

type Tok =
  | { k: 'name'; v: string; line: number }
  | { k: 'num'; v: number; float: boolean; line: number }
  | { k: 'str'; v: string; line: number }
  | { k: 'op'; v: string; line: number }
  | { k: 'nl'; line: number }
  | { k: 'end'; line: number };

const OPEN: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
const CLOSE = new Set([')', ']', '}']);
const KEYWORDS = new Set(['True', 'False', 'None']);

function tokenize(src: string): Tok[] {
  const out: Tok[] = [];
  const stack: { ch: string; line: number }[] = [];
  let i = 0;
  let line = 1;
  const n = src.length;
  while (i < n) {
    const c = src[i]!;
    if (c === '\n') {
      if (stack.length === 0 && out.length > 0 && out[out.length - 1]!.k !== 'nl') out.push({ k: 'nl', line });
      line++;
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f') {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    if (c === '\\' && src[i + 1] === '\n') {
      i += 2;
      line++;
      continue;
    }
    // Strings, with optional r/u/b prefixes.
    const pre = /^([rRuUbB]{0,2})(['"])/.exec(src.slice(i, i + 3));
    if (pre && (pre[1] === '' || /^[a-zA-Z]/.test(c))) {
      const prefix = pre[1]!.toLowerCase();
      if (prefix.includes('b')) throw new PySyntaxError('ValueError', 'bytes literals are not used in plans', line);
      const raw = prefix.includes('r');
      i += prefix.length;
      const q = src[i]!;
      const triple = src.slice(i, i + 3) === q.repeat(3);
      const startLine = line;
      i += triple ? 3 : 1;
      let v = '';
      for (;;) {
        if (i >= n) throw new PySyntaxError('SyntaxError', triple ? `unterminated triple-quoted string literal (detected at line ${line})` : `unterminated string literal (detected at line ${startLine})`, startLine);
        const ch = src[i]!;
        if (triple ? src.slice(i, i + 3) === q.repeat(3) : ch === q) {
          i += triple ? 3 : 1;
          break;
        }
        if (ch === '\n') {
          if (!triple) throw new PySyntaxError('SyntaxError', `unterminated string literal (detected at line ${startLine})`, startLine);
          line++;
        }
        if (ch === '\\' && !raw) {
          const e = src[i + 1];
          const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', '0': '\0', '\n': '' };
          if (e !== undefined && e in map) {
            v += map[e];
            if (e === '\n') line++;
            i += 2;
            continue;
          }
          if (e === 'u' || e === 'x') {
            const len = e === 'u' ? 4 : 2;
            const hex = src.slice(i + 2, i + 2 + len);
            if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) throw new PySyntaxError('SyntaxError', `(unicode error) truncated \\${e} escape`, line);
            v += String.fromCharCode(parseInt(hex, 16));
            i += 2 + len;
            continue;
          }
        }
        v += ch;
        i++;
      }
      out.push({ k: 'str', v, line: startLine });
      continue;
    }
    const num = /^(?:\d[\d_]*\.?[\d_]*(?:[eE][+-]?\d+)?|\.\d[\d_]*(?:[eE][+-]?\d+)?)/.exec(src.slice(i));
    if (num) {
      const text = num[0].replace(/_/g, '');
      const float = /[.eE]/.test(text);
      if (!float && text.length > 1 && text.startsWith('0') && /[1-9]/.test(text)) {
        throw new PySyntaxError('SyntaxError', 'leading zeros in decimal integer literals are not permitted', line);
      }
      out.push({ k: 'num', v: Number(text), float, line });
      i += num[0].length;
      if (i < n && /[A-Za-z_]/.test(src[i]!)) throw new PySyntaxError('SyntaxError', 'invalid decimal literal', line);
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i));
    if (name) {
      out.push({ k: 'name', v: name[0], line });
      i += name[0].length;
      continue;
    }
    if (c in OPEN) {
      stack.push({ ch: c, line });
      out.push({ k: 'op', v: c, line });
      i++;
      continue;
    }
    if (CLOSE.has(c)) {
      const top = stack.pop();
      if (!top) throw new PySyntaxError('SyntaxError', `unmatched '${c}'`, line);
      if (OPEN[top.ch] !== c) {
        throw new PySyntaxError('SyntaxError', `closing parenthesis '${c}' does not match opening parenthesis '${top.ch}'${top.line !== line ? ` on line ${top.line}` : ''}`, line);
      }
      out.push({ k: 'op', v: c, line });
      i++;
      continue;
    }
    const op = /^(==|!=|<=|>=|\*\*|\/\/|[=,:.;+\-*/%<>@&|^~])/.exec(src.slice(i));
    if (op) {
      out.push({ k: 'op', v: op[0], line });
      i += op[0].length;
      continue;
    }
    throw new PySyntaxError('SyntaxError', `invalid character '${c}' (U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`, line);
  }
  if (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    throw new PySyntaxError('SyntaxError', `'${top.ch}' was never closed`, top.line);
  }
  if (out.length > 0 && out[out.length - 1]!.k !== 'nl') out.push({ k: 'nl', line });
  out.push({ k: 'end', line });
  return out;
}

/** Parses a block of assignment statements. Anything else (an expression, a call, an import) is an error. */
export function parseAssignments(src: string): PyAssignment[] {
  const toks = tokenize(src);
  let p = 0;
  const peek = (): Tok => toks[p]!;
  const next = (): Tok => toks[p++]!;
  const isOp = (t: Tok, v: string) => t.k === 'op' && t.v === v;
  const fail = (t: Tok, detail = 'invalid syntax'): never => {
    throw new PySyntaxError('SyntaxError', detail, t.line);
  };

  // An expression: literals and containers, plus names/calls/subscripts/operators parsed only to be rejected.
  const expr = (): Py => {
    const first = unary();
    if (peek().k === 'op' && ['+', '-', '*', '/', '%', '**', '//', '@', '|', '&', '^'].includes((peek() as { v: string }).v)) {
      // literal_eval accepts only complex-number arithmetic; a plan never needs it.
      const t = next();
      unary();
      throw new PySyntaxError('ValueError', `malformed node or string on line ${t.line}: arithmetic ('${(t as { v: string }).v}') is not a literal; write the number itself`, t.line);
    }
    return first;
  };
  const unary = (): Py => {
    const t = peek();
    if (isOp(t, '-') || isOp(t, '+')) {
      next();
      const v = unary();
      if (v.t !== 'int' && v.t !== 'float') throw new PySyntaxError('ValueError', `malformed node or string on line ${t.line}: '${(t as { v: string }).v}' before a ${describe(v)}`, t.line);
      return { ...v, v: (t as { v: string }).v === '-' ? -v.v : v.v };
    }
    return postfix(atom());
  };
  const postfix = (v: Py): Py => {
    const t = peek();
    if (isOp(t, '(') || isOp(t, '[') || isOp(t, '.')) {
      throw new PySyntaxError('ValueError', `malformed node or string on line ${t.line}: ${isOp(t, '(') ? 'a call' : isOp(t, '.') ? 'an attribute' : 'a subscript'} is not a literal`, t.line);
    }
    return v;
  };
  const seq = (close: string, line: number): { items: Py[]; trailingComma: boolean } => {
    const items: Py[] = [];
    let trailingComma = false;
    while (!isOp(peek(), close)) {
      items.push(expr());
      trailingComma = false;
      if (isOp(peek(), ',')) {
        next();
        trailingComma = true;
        continue;
      }
      if (!isOp(peek(), close)) {
        const t = peek();
        fail(t, t.k === 'str' || t.k === 'num' || (t.k === 'op' && t.v in OPEN) ? 'invalid syntax. Perhaps you forgot a comma?' : 'invalid syntax');
      }
    }
    next();
    void line;
    return { items, trailingComma };
  };
  const atom = (): Py => {
    const t = next();
    switch (t.k) {
      case 'num':
        return t.float ? { t: 'float', v: t.v, line: t.line } : { t: 'int', v: t.v, line: t.line };
      case 'str': {
        let v = t.v;
        while (peek().k === 'str') v += (next() as { v: string }).v;
        return { t: 'str', v, line: t.line };
      }
      case 'name':
        if (t.v === 'True' || t.v === 'False') return { t: 'bool', v: t.v === 'True', line: t.line };
        if (t.v === 'None') return { t: 'none', line: t.line };
        if (isOp(peek(), '(')) throw new PySyntaxError('ValueError', `malformed node or string on line ${t.line}: the call ${t.v}(...) is not a literal`, t.line);
        throw new PySyntaxError('ValueError', `malformed node or string on line ${t.line}: the name '${t.v}' is not a literal`, t.line);
      case 'op':
        if (t.v === '(') {
          if (isOp(peek(), ')')) {
            next();
            return { t: 'tuple', items: [], line: t.line };
          }
          const { items, trailingComma } = seq(')', t.line);
          return items.length === 1 && !trailingComma ? items[0]! : { t: 'tuple', items, line: t.line };
        }
        if (t.v === '[') return { t: 'list', items: seq(']', t.line).items, line: t.line };
        if (t.v === '{') {
          if (isOp(peek(), '}')) {
            next();
            return { t: 'dict', entries: [], line: t.line };
          }
          const k = expr();
          if (isOp(peek(), ':')) {
            next();
            const entries: [Py, Py][] = [[k, expr()]];
            while (isOp(peek(), ',')) {
              next();
              if (isOp(peek(), '}')) break;
              const key = expr();
              if (!isOp(peek(), ':')) fail(peek(), "':' expected after dictionary key");
              next();
              entries.push([key, expr()]);
            }
            if (!isOp(peek(), '}')) fail(peek(), isOp(peek(), ':') ? 'invalid syntax' : 'invalid syntax. Perhaps you forgot a comma?');
            next();
            return { t: 'dict', entries, line: t.line };
          }
          const items = [k];
          while (isOp(peek(), ',')) {
            next();
            if (isOp(peek(), '}')) break;
            items.push(expr());
          }
          if (!isOp(peek(), '}')) fail(peek(), 'invalid syntax. Perhaps you forgot a comma?');
          next();
          return { t: 'set', items, line: t.line };
        }
        return fail(t);
      case 'nl':
      case 'end':
        return fail(t, 'invalid syntax (the expression is incomplete)');
    }
  };

  const out: PyAssignment[] = [];
  while (peek().k !== 'end') {
    if (peek().k === 'nl' || isOp(peek(), ';')) {
      next();
      continue;
    }
    const t = next();
    if (t.k !== 'name' || KEYWORDS.has(t.v)) {
      // An expression statement (or garbage): say what it is.
      fail(t, t.k === 'name' ? `cannot assign to ${t.v}` : 'invalid syntax: expected an assignment such as task_plan = [...]');
    }
    const target = (t as { v: string }).v;
    let index: Py | undefined;
    if (isOp(peek(), '[')) {
      next();
      index = expr();
      if (!isOp(peek(), ']')) fail(peek());
      next();
    }
    if (isOp(peek(), '(')) throw new PySyntaxError('SyntaxError', `expected an assignment, got a call of ${target}(...)`, t.line);
    if (!isOp(peek(), '=')) fail(peek(), `invalid syntax: expected '=' after ${target}${index ? '[...]' : ''}`);
    next();
    const value = expr();
    if (isOp(peek(), '=')) fail(peek(), 'chained assignments are not used in plans');
    if (isOp(peek(), ',')) {
      // `a = 1, 2` is a tuple in Python.
      const items = [value];
      while (isOp(peek(), ',')) {
        next();
        if (peek().k === 'nl' || peek().k === 'end') break;
        items.push(expr());
      }
      out.push({ target, ...(index ? { index } : {}), value: { t: 'tuple', items, line: value.line }, line: t.line });
    } else out.push({ target, ...(index ? { index } : {}), value, line: t.line });
    if (!(peek().k === 'nl' || peek().k === 'end' || isOp(peek(), ';'))) fail(peek(), 'invalid syntax. Perhaps you forgot a comma?');
  }
  return out;
}

export function describe(v: Py): string {
  switch (v.t) {
    case 'none':
      return 'None';
    case 'bool':
      return 'bool';
    case 'int':
      return 'int';
    case 'float':
      return 'float';
    case 'str':
      return 'str';
    default:
      return v.t;
  }
}

/** Python's repr of a float: shortest round-trip digits, exponent below 1e-4 and from 1e16. */
export function floatRepr(x: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'nan' : x > 0 ? 'inf' : '-inf';
  if (Number.isInteger(x) && Math.abs(x) < 1e16) return `${x.toFixed(1)}`;
  const a = Math.abs(x);
  if (a >= 1e-4 && a < 1e16) return String(x);
  const [m, e] = x.toExponential().split('e') as [string, string];
  const exp = Number(e);
  return `${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}

/** Python's repr of a string (single quotes unless the string holds one and no double quote). */
export function strRepr(s: string): string {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  const body = s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\t/g, '\\t').replace(/\r/g, '\\r');
  return q + (q === "'" ? body.replace(/'/g, "\\'") : body) + q;
}

/** Python's repr of a parsed value. */
export function pyRepr(v: Py): string {
  switch (v.t) {
    case 'none':
      return 'None';
    case 'bool':
      return v.v ? 'True' : 'False';
    case 'int':
      return String(v.v);
    case 'float':
      return floatRepr(v.v);
    case 'str':
      return strRepr(v.v);
    case 'tuple':
      return v.items.length === 1 ? `(${pyRepr(v.items[0]!)},)` : `(${v.items.map(pyRepr).join(', ')})`;
    case 'list':
      return `[${v.items.map(pyRepr).join(', ')}]`;
    case 'set':
      return `{${v.items.map(pyRepr).join(', ')}}`;
    case 'dict':
      return `{${v.entries.map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`).join(', ')}}`;
  }
}
