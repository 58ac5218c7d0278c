// Tolerant Handlebars template parser: finds every tag, parses its expression with Handlebars 4's grammar, pairs
// blocks, and keeps going after an error so outline, completion and the other checks still work on broken text.
// Offsets are absolute in the whole file (the body starts after the front matter).
import { lexTag, type Tok } from './lexer.js';
import { SyntaxFail, TagParser, describe, headOnly, type Call } from './expr.js';

export type { Call, Expr, HashPair, LiteralExpr, PathExpr, SubExpr } from './expr.js';

export type TagKind =
  | 'mustache'
  | 'open'
  | 'openInverse'
  | 'else'
  | 'elseChain'
  | 'close'
  | 'partial'
  | 'partialBlock'
  | 'decorator'
  | 'decoratorBlock'
  | 'rawOpen'
  | 'rawClose'
  | 'comment';

export interface TextNode {
  kind: 'text';
  start: number;
  end: number;
}
export interface TagNode {
  kind: TagKind;
  start: number;
  end: number;
  call: Call;
  /** `{{{ }}}` or `{{& }}`. */
  unescaped: boolean;
  /** Block this tag opens, continues or closes; -1 for none. */
  block: number;
}
export type TemplateNode = TextNode | TagNode;

export interface BlockInfo {
  id: number;
  /** The helper or variable name as written (`ablation`, `if`, `items`). */
  name: string;
  /** Node index of the opening tag. */
  open: number;
  /** Node indexes of `{{else}}` / `{{else if ...}}` tags. */
  elses: number[];
  /** Node index of the closing tag; -1 when unclosed. */
  close: number;
  /** Enclosing block id; -1 at top level. */
  parent: number;
}

export interface TemplateError {
  start: number;
  end: number;
  message: string;
  /** The unclosed block, for errors of kind 'unclosed'. */
  block?: number;
  kind: 'syntax' | 'unclosed' | 'stray';
}

export interface ParsedTemplate {
  nodes: TemplateNode[];
  blocks: BlockInfo[];
  errors: TemplateError[];
}

const EMPTY_CALL: Call = { params: [], hash: [], blockParams: [] };

const INVERSE_RE = /\^\s*~?\}\}/y;
const ELSE_RE = /\s*else\b/y;
const PLAIN_CLOSE_RE = /\s*~?\}\}/y;

/** Classifies the opening marker at `i` (which points at `{{`). Returns the tag kind and where its tokens start. */
function classify(text: string, i: number): { kind: TagKind | 'longComment' | 'shortComment' | 'inverse'; bodyStart: number; unescaped: boolean } {
  let j = i + 2;
  if (text[j] === '{' && text[j + 1] === '{') return { kind: 'rawOpen', bodyStart: j + 2, unescaped: false };
  if (text[j] === '~') j++;
  const c = text[j];
  if (c === '>') return { kind: 'partial', bodyStart: j + 1, unescaped: false };
  if (c === '#') {
    if (text[j + 1] === '>') return { kind: 'partialBlock', bodyStart: j + 2, unescaped: false };
    if (text[j + 1] === '*') return { kind: 'decoratorBlock', bodyStart: j + 2, unescaped: false };
    return { kind: 'open', bodyStart: j + 1, unescaped: false };
  }
  if (c === '/') return { kind: 'close', bodyStart: j + 1, unescaped: false };
  if (c === '^') {
    const m = INVERSE_RE;
    m.lastIndex = j;
    if (m.test(text)) return { kind: 'inverse', bodyStart: j + 1, unescaped: false };
    return { kind: 'openInverse', bodyStart: j + 1, unescaped: false };
  }
  const elseRe = ELSE_RE;
  elseRe.lastIndex = j;
  if ((c === 'e' || c === ' ' || c === '\t' || c === '\n' || c === '\r') && elseRe.test(text)) {
    const after = elseRe.lastIndex;
    const plain = PLAIN_CLOSE_RE;
    plain.lastIndex = after;
    if (plain.test(text)) return { kind: 'inverse', bodyStart: after, unescaped: false };
    return { kind: 'elseChain', bodyStart: after, unescaped: false };
  }
  if (c === '{') return { kind: 'mustache', bodyStart: j + 1, unescaped: true };
  if (c === '&') return { kind: 'mustache', bodyStart: j + 1, unescaped: true };
  if (c === '!') return { kind: text.startsWith('--', j + 1) ? 'longComment' : 'shortComment', bodyStart: j + 1, unescaped: false };
  if (c === '*') return { kind: 'decorator', bodyStart: j + 1, unescaped: false };
  return { kind: 'mustache', bodyStart: j, unescaped: false };
}

const LONG_COMMENT_END = /--~?\}\}/g;

export function parseTemplate(text: string, from = 0): ParsedTemplate {
  const nodes: TemplateNode[] = [];
  const blocks: BlockInfo[] = [];
  const errors: TemplateError[] = [];
  const stack: number[] = [];
  const n = text.length;
  let textStart = from;
  let search = from;
  const tagName = (call: Call) => (call.head && call.head.kind === 'path' ? call.head.original : call.head ? text.slice(call.head.start, call.head.end) : '');
  const blockLabel = (b: BlockInfo) => `{{#${b.name}}}`;
  const parser = new TagParser([]).setSource(text);

  while (search < n) {
    const i = text.indexOf('{{', search);
    if (i === -1) break;
    // `\{{` is an escaped mustache (literal text); `\\{{` is a backslash followed by a real one.
    if (i > 0 && text.charCodeAt(i - 1) === 92 && !(i > 1 && text.charCodeAt(i - 2) === 92)) {
      search = i + 2;
      continue;
    }
    if (i > textStart) nodes.push({ kind: 'text', start: textStart, end: i });
    const cls = classify(text, i);
    let end: number;
    let call: Call = EMPTY_CALL;
    let kind: TagKind;
    if (cls.kind === 'longComment' || cls.kind === 'shortComment') {
      kind = 'comment';
      if (cls.kind === 'longComment') {
        LONG_COMMENT_END.lastIndex = cls.bodyStart + 2;
        const m = LONG_COMMENT_END.exec(text);
        end = m ? m.index + m[0].length : n;
      } else {
        const e = text.indexOf('}}', cls.bodyStart);
        end = e === -1 ? n : e + 2;
      }
      if (end === n && !text.endsWith('}}')) errors.push({ start: i, end: Math.min(n, i + 5), message: `Handlebars syntax: comment is never closed (add '${cls.kind === 'longComment' ? '--}}' : '}}'}')`, kind: 'syntax' });
      nodes.push({ kind, start: i, end, call, unescaped: false, block: -1 });
      search = textStart = end;
      continue;
    }
    const lexed = lexTag(text, cls.bodyStart, cls.kind === 'rawOpen' ? '}}}}' : '}}');
    end = lexed.end;
    const eofTok: Tok = { t: 'EOF', start: end, end, value: '' };
    lexed.tokens.push(eofTok);
    parser.reset(lexed.tokens);
    kind = cls.kind === 'inverse' ? 'else' : cls.kind;
    try {
      if (!lexed.closed) {
        const bad = lexed.tokens.find((t) => t.t === 'INVALID');
        lexed.tokens.length = 0;
        lexed.tokens.push(eofTok);
        if (bad) throw new SyntaxFail(bad, `Handlebars syntax: unexpected ${describe(bad)} in a tag`);
        throw new SyntaxFail({ t: 'EOF', start: i, end: Math.min(end, i + 2), value: '' }, "Handlebars syntax: tag is never closed (missing '}}')");
      }
      if (kind === 'else') {
        parser.expectClose('CLOSE');
      } else if (kind === 'close') {
        call = { head: parser.helperName(), params: [], hash: [], blockParams: [] };
        parser.expectClose('CLOSE');
      } else if (kind === 'partial' || kind === 'partialBlock') {
        call = parser.callBody(false, true);
        parser.expectClose('CLOSE');
      } else if (kind === 'rawOpen') {
        call = parser.callBody(false);
        if (parser.peek().t !== 'EOF') parser.fail("'}}}}'");
      } else {
        const blockish = kind === 'open' || kind === 'openInverse' || kind === 'elseChain' || kind === 'decoratorBlock';
        call = parser.callBody(blockish);
        parser.expectClose(cls.unescaped && text[cls.bodyStart - 1] === '{' ? 'CLOSE_UNESCAPED' : 'CLOSE');
      }
    } catch (e) {
      if (!(e instanceof SyntaxFail)) throw e;
      errors.push({ start: e.tok.start, end: Math.max(e.tok.end, e.tok.start + 1), message: e.message, kind: 'syntax' });
      // Keep the head when it parsed, so the block still pairs with its closing tag.
      call = { head: headOnly(lexed.tokens, text), params: [], hash: [], blockParams: [] };
    }
    const node: TagNode = { kind, start: i, end, call, unescaped: cls.unescaped, block: -1 };
    const idx = nodes.push(node) - 1;

    if (!call.head && kind !== 'else') {
      // Nothing to pair or check.
    } else if (kind === 'open' || kind === 'openInverse' || kind === 'partialBlock' || kind === 'decoratorBlock' || kind === 'rawOpen') {
      const b: BlockInfo = { id: blocks.length, name: tagName(call), open: idx, elses: [], close: -1, parent: stack.length ? stack[stack.length - 1] : -1 };
      blocks.push(b);
      node.block = b.id;
      if (kind === 'rawOpen') {
        // Raw block content is literal up to `{{{{/name}}}}`.
        const closer = `{{{{/${b.name}}}}}`;
        const c = text.indexOf(closer, end);
        if (c === -1) {
          errors.push({ start: i, end, message: `Handlebars syntax: raw block '{{{{${b.name}}}}}' is never closed (add '${closer}')`, block: b.id, kind: 'unclosed' });
          search = textStart = n;
          if (end < n) nodes.push({ kind: 'text', start: end, end: n });
          break;
        }
        if (c > end) nodes.push({ kind: 'text', start: end, end: c });
        b.close = nodes.push({ kind: 'rawClose', start: c, end: c + closer.length, call: EMPTY_CALL, unescaped: false, block: b.id }) - 1;
        search = textStart = c + closer.length;
        continue;
      }
      stack.push(b.id);
    } else if (kind === 'else' || kind === 'elseChain') {
      const top = stack.length ? blocks[stack[stack.length - 1]] : undefined;
      const word = kind === 'else' ? '{{else}}' : `{{else ${tagName(call)}}}`;
      if (!top) {
        errors.push({ start: i, end, message: `Handlebars syntax: ${word} outside any block`, kind: 'stray' });
      } else {
        const topKind = (nodes[top.open] as TagNode).kind;
        const hadPlainElse = top.elses.some((e) => (nodes[e] as TagNode).kind === 'else');
        if (topKind === 'partialBlock' || topKind === 'decoratorBlock') {
          errors.push({ start: i, end, message: `Handlebars syntax: ${word} is not allowed inside ${blockLabel(top)}`, kind: 'syntax' });
        } else if (hadPlainElse) {
          errors.push({ start: i, end, message: `Handlebars syntax: ${word} after {{else}} in ${blockLabel(top)}; a block has at most one plain {{else}}, last`, kind: 'syntax' });
        } else if (kind === 'elseChain' && topKind === 'openInverse') {
          errors.push({ start: i, end, message: `Handlebars syntax: ${word} is not allowed in an inverse block {{^${top.name}}}`, kind: 'syntax' });
        }
        top.elses.push(idx);
        node.block = top.id;
      }
    } else if (kind === 'close') {
      const name = tagName(call);
      const at = findOpen(stack, blocks, name);
      if (at === -1) {
        const top = stack.length ? blocks[stack[stack.length - 1]] : undefined;
        errors.push({
          start: i,
          end,
          message: top ? `Handlebars syntax: {{/${name}}} does not match the open block ${blockLabel(top)}` : `Handlebars syntax: {{/${name}}} closes no open block`,
          kind: 'stray',
        });
      } else {
        while (stack.length - 1 > at) {
          const b = blocks[stack.pop()!];
          const o = nodes[b.open];
          errors.push({ start: o.start, end: o.end, message: `Handlebars syntax: ${blockLabel(b)} is not closed before {{/${name}}} (add {{/${b.name}}})`, block: b.id, kind: 'unclosed' });
        }
        const b = blocks[stack.pop()!];
        b.close = idx;
        node.block = b.id;
      }
    }
    search = textStart = end;
  }
  if (textStart < n) nodes.push({ kind: 'text', start: textStart, end: n });
  while (stack.length) {
    const b = blocks[stack.pop()!];
    const o = nodes[b.open];
    errors.push({ start: o.start, end: o.end, message: `Handlebars syntax: ${blockLabel(b)} is never closed (add {{/${b.name}}})`, block: b.id, kind: 'unclosed' });
  }
  return { nodes, blocks, errors };
}

function findOpen(stack: number[], blocks: BlockInfo[], name: string): number {
  for (let k = stack.length - 1; k >= 0; k--) if (blocks[stack[k]].name === name) return k;
  return -1;
}
