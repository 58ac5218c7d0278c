// Lexer for the inside of one Handlebars tag, following the token rules of Handlebars 4's handlebars.l
// (which dotprompt uses). Hand-written because the jison parser costs ~50 ms on a 2000-line prompt.

export type TokKind =
  | 'ID'
  | 'SEP'
  | 'DATA'
  | 'STRING'
  | 'NUMBER'
  | 'BOOLEAN'
  | 'UNDEFINED'
  | 'NULL'
  | 'OPEN_SEXPR'
  | 'CLOSE_SEXPR'
  | 'EQUALS'
  | 'OPEN_BLOCK_PARAMS'
  | 'CLOSE_BLOCK_PARAMS'
  | 'CLOSE'
  | 'CLOSE_UNESCAPED'
  | 'INVALID'
  | 'EOF';

export interface Tok {
  t: TokKind;
  start: number;
  end: number;
  /** ID name (brackets removed), string contents (unescaped), or the literal's source. */
  value: string;
}

export interface LexedTag {
  tokens: Tok[];
  /** Offset just after the closing `}}` (or where the tag was cut off). */
  end: number;
  closed: boolean;
}

const WS = /\s/;
function isWs(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13 || c === 11 || c === 12 || (c > 127 && WS.test(String.fromCharCode(c)));
}
/** Characters that end an ID: whitespace and !"#%&'()*+,./;<=>@[\]^`{|}~ (handlebars.l's ID class). */
function isIdChar(c: number): boolean {
  if (c <= 32) return false;
  if (c === 33 || c === 34 || c === 35) return false; // ! " #
  if (c >= 37 && c <= 44) return false; // % & ' ( ) * + ,
  if (c === 46 || c === 47) return false; // . /
  if (c >= 59 && c <= 62) return false; // ; < = >
  if (c === 64) return false; // @
  if (c >= 91 && c <= 94) return false; // [ \ ] ^
  if (c === 96) return false; // `
  if (c >= 123 && c <= 126) return false; // { | } ~
  return !(c === 0x85 || c === 0xa0 || c === 0x2028 || c === 0x2029 || c === 0xfeff || (c >= 0x2000 && c <= 0x200a));
}
/** handlebars.l LOOKAHEAD [=~}\s\/.)|] : what may follow an ID. */
function isIdFollow(text: string, i: number): boolean {
  if (i >= text.length) return false;
  const ch = text[i];
  return ch === '=' || ch === '~' || ch === '}' || ch === '/' || ch === '.' || ch === ')' || ch === '|' || WS.test(ch);
}
/** handlebars.l LITERAL_LOOKAHEAD [~}\s)] : what may follow a literal. */
function isLiteralFollow(text: string, i: number): boolean {
  if (i >= text.length) return false;
  const ch = text[i];
  return ch === '~' || ch === '}' || ch === ')' || WS.test(ch);
}

const NUMBER = /-?[0-9]+(?:\.[0-9]+)?/y;
const KEYWORDS: [string, TokKind][] = [
  ['true', 'BOOLEAN'],
  ['false', 'BOOLEAN'],
  ['undefined', 'UNDEFINED'],
  ['null', 'NULL'],
];

/**
 * Lexes from `pos` (just after the opening marker) to the closing `}}` / `}}}` (`}}}}` for raw blocks).
 * A `{{` met before any close ends the tag unclosed there, as Handlebars would fail on it too.
 */
export function lexTag(text: string, pos: number, closeWith: '}}' | '}}}}' = '}}'): LexedTag {
  const tokens: Tok[] = [];
  const n = text.length;
  let i = pos;
  const push = (t: TokKind, start: number, end: number, value = text.slice(start, end)) => tokens.push({ t, start, end, value });
  while (i < n) {
    const c = text.charCodeAt(i);
    if (isWs(c)) {
      i++;
      continue;
    }
    if (closeWith === '}}}}') {
      if (text.startsWith('}}}}', i)) return { tokens, end: i + 4, closed: true };
    } else {
      // Order as in handlebars.l: `}~}}` / `}}}` (unescaped close) before `~}}` / `}}`.
      if (text.startsWith('}}}', i) || text.startsWith('}~}}', i)) {
        const len = text[i + 1] === '~' ? 4 : 3;
        push('CLOSE_UNESCAPED', i, i + len);
        return { tokens, end: i + len, closed: true };
      }
      if (text.startsWith('}}', i) || text.startsWith('~}}', i)) {
        const len = c === 126 ? 3 : 2;
        push('CLOSE', i, i + len);
        return { tokens, end: i + len, closed: true };
      }
    }
    if (c === 123 && text.charCodeAt(i + 1) === 123) return { tokens, end: i, closed: false }; // a new `{{`
    if (c === 40) { push('OPEN_SEXPR', i, i + 1); i++; continue; }
    if (c === 41) { push('CLOSE_SEXPR', i, i + 1); i++; continue; }
    if (c === 61) { push('EQUALS', i, i + 1); i++; continue; }
    if (c === 46) {
      if (text.charCodeAt(i + 1) === 46) { push('ID', i, i + 2); i += 2; continue; }
      if (isIdFollow(text, i + 1)) { push('ID', i, i + 1); i++; continue; }
      push('SEP', i, i + 1);
      i++;
      continue;
    }
    if (c === 47) { push('SEP', i, i + 1); i++; continue; }
    if (c === 34 || c === 39) {
      const q = text[i];
      let j = i + 1;
      let value = '';
      while (j < n && text[j] !== q) {
        if (text[j] === '\\' && text[j + 1] === q) { value += q; j += 2; continue; }
        value += text[j];
        j++;
      }
      if (j < n) { push('STRING', i, j + 1, value); i = j + 1; continue; }
      push('INVALID', i, i + 1);
      i++;
      continue;
    }
    if (c === 64) { push('DATA', i, i + 1); i++; continue; }
    let matched = false;
    if (c === 116 || c === 102 || c === 117 || c === 110) for (const [word, kind] of KEYWORDS) {
      if (text.startsWith(word, i) && isLiteralFollow(text, i + word.length)) {
        push(kind, i, i + word.length);
        i += word.length;
        matched = true;
        break;
      }
    }
    if (matched) continue;
    NUMBER.lastIndex = i;
    const num = c === 45 || (c >= 48 && c <= 57) ? NUMBER.exec(text) : null;
    if (num && isLiteralFollow(text, i + num[0].length)) {
      push('NUMBER', i, i + num[0].length);
      i += num[0].length;
      continue;
    }
    if (c === 97 && text.charCodeAt(i + 1) === 115) {
      // `as |` opens block params.
      let j = i + 2;
      if (j < n && isWs(text.charCodeAt(j))) {
        while (j < n && isWs(text.charCodeAt(j))) j++;
        if (text[j] === '|') { push('OPEN_BLOCK_PARAMS', i, j + 1); i = j + 1; continue; }
      }
    }
    if (c === 124) { push('CLOSE_BLOCK_PARAMS', i, i + 1); i++; continue; }
    if (isIdChar(c)) {
      let j = i + 1;
      while (j < n && isIdChar(text.charCodeAt(j))) j++;
      if (isIdFollow(text, j)) { push('ID', i, j); i = j; continue; }
      // The regex would backtrack to a shorter ID, but no shorter prefix can be followed by an ID character.
      push('INVALID', i, i + 1);
      i++;
      continue;
    }
    if (c === 91) {
      let j = i + 1;
      while (j < n && text[j] !== ']') j += text[j] === '\\' && text[j + 1] === ']' ? 2 : 1;
      if (j < n) { push('ID', i, j + 1, text.slice(i + 1, j)); i = j + 1; continue; }
    }
    push('INVALID', i, i + 1);
    i++;
  }
  return { tokens, end: n, closed: false };
}
