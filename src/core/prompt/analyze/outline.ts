// Document outline and folding: front matter (keys, variables), role messages, sections (CAPS lines ending
// with ':' or markdown '#' headings) and ablation blocks with their else parts, nested by position.
import type { FrontMatter } from './frontMatter.js';
import type { LineIndex } from './lineIndex.js';
import type { ParsedTemplate, TagNode } from './template.js';
import type { PromptFold, PromptSymbol, PromptSymbolKind } from './types.js';

export interface Heading {
  level: number;
  name: string;
  start: number;
  end: number;
}

const MD_HEADING = /^(#{1,6})[ \t]+(.+?)[ \t#]*\r?$/;
/** `RULES:`, `OUTPUT FORMAT:`, `ROBOT FUNCTIONS (already defined):` — capitals, optional parenthetical, colon. */
const CAPS_HEADING = /^([A-Z][A-Z0-9 _/&,'+-]*[A-Z0-9])(?:[ \t]*\([^)]*\))?:[ \t]*\r?$/;
/** CAPS headings rank like `##`: under a `#` title, beside other `##` sections. */
const CAPS_LEVEL = 2;

/** Section headings that stand alone on a line of template text. */
export function findHeadings(text: string, tpl: ParsedTemplate): Heading[] {
  const out: Heading[] = [];
  for (const n of tpl.nodes) {
    if (n.kind !== 'text') continue;
    let ls = n.start;
    if (n.start > 0 && text.charCodeAt(n.start - 1) !== 10) {
      const nl = text.indexOf('\n', n.start);
      if (nl === -1) continue;
      ls = nl + 1;
    }
    while (ls < n.end) {
      let le = text.indexOf('\n', ls);
      if (le === -1) le = text.length;
      if (le > n.end) break;
      const c = text.charCodeAt(ls);
      if (c === 35 || (c >= 65 && c <= 90)) {
        const line = text.slice(ls, le);
        const md = c === 35 ? MD_HEADING.exec(line) : null;
        const caps = md ? null : CAPS_HEADING.exec(line);
        if (md) out.push({ level: md[1].length, name: md[2], start: ls, end: ls + line.replace(/\r$/, '').length });
        else if (caps && /[A-Z].*[A-Z]/.test(caps[1])) out.push({ level: CAPS_LEVEL, name: caps[1], start: ls, end: ls + line.replace(/\r$/, '').length });
      }
      if (le >= text.length) break;
      ls = le + 1;
    }
  }
  return out;
}

interface OpenNode {
  sym: PromptSymbol;
  start: number;
  soft: boolean;
  level: number;
  block: number;
  isElse: boolean;
  invisible: boolean;
}

type Event =
  | { at: number; kind: 'heading'; h: Heading }
  | { at: number; kind: 'tag'; node: TagNode; index: number };

export interface AblationLabel {
  block: number;
  id: string;
  label?: string;
}

export function buildOutline(text: string, lines: LineIndex, fm: FrontMatter, tpl: ParsedTemplate, headings: Heading[], ablations: AblationLabel[]): { symbols: PromptSymbol[]; folds: PromptFold[] } {
  const roots: PromptSymbol[] = [];
  if (fm.present) roots.push(frontMatterSymbol(text, lines, fm));
  const ablationByBlock = new Map(ablations.map((a) => [a.block, a]));
  const stack: OpenNode[] = [];
  const children = () => (stack.length ? stack[stack.length - 1].sym.children : roots);
  const trimEnd = (end: number, min: number) => {
    let e = end;
    while (e > min && /\s/.test(text[e - 1])) e--;
    return e;
  };
  const pop = (end: number, trim: boolean) => {
    const o = stack.pop()!;
    const e = trim ? Math.max(trimEnd(end, o.start), o.start) : end;
    o.sym.range = lines.span(o.start, e);
    const into = children();
    if (o.invisible) into.push(...o.sym.children);
    else into.push(o.sym);
  };
  const push = (kind: PromptSymbolKind, name: string, detail: string | undefined, start: number, selEnd: number, extra: Partial<OpenNode>) => {
    const sel = lines.span(start, selEnd);
    stack.push({
      sym: { name, detail, kind, range: sel, selectionRange: sel, children: [] },
      start, soft: false, level: 0, block: -1, isElse: false, invisible: false, ...extra,
    });
  };
  const inStack = (block: number) => stack.some((o) => o.block === block && !o.isElse);

  const events: Event[] = [];
  let h = 0;
  tpl.nodes.forEach((node, index) => {
    if (node.kind === 'text') {
      while (h < headings.length && headings[h].start < node.end) events.push({ at: headings[h].start, kind: 'heading', h: headings[h++] });
    } else if (node.kind !== 'comment') {
      events.push({ at: node.start, kind: 'tag', node, index });
    }
  });

  for (const ev of events) {
    if (ev.kind === 'heading') {
      while (stack.length && stack[stack.length - 1].soft && stack[stack.length - 1].level >= ev.h.level) pop(ev.at, true);
      push('section', ev.h.name, undefined, ev.h.start, ev.h.end, { soft: true, level: ev.h.level });
      continue;
    }
    const { node, index } = ev;
    const head = node.call.head;
    const headName = head && head.kind === 'path' ? head.original : '';
    if (node.kind === 'mustache' && headName === 'role') {
      while (stack.length && stack[stack.length - 1].soft) pop(ev.at, true);
      const p = node.call.params[0];
      const role = p && p.kind === 'string' ? p.value : '?';
      push('role', `${role} message`, `{{role "${role}"}}`, node.start, node.end, { soft: true, level: 0 });
    } else if (node.kind === 'mustache' && headName === 'history') {
      const sel = lines.span(node.start, node.end);
      children().push({ name: 'history', detail: 'conversation so far', kind: 'history', range: sel, selectionRange: sel, children: [] });
    } else if (node.block !== -1 && (node.kind === 'open' || node.kind === 'openInverse' || node.kind === 'partialBlock' || node.kind === 'decoratorBlock') && tpl.blocks[node.block].open === index) {
      const a = ablationByBlock.get(node.block);
      if (a) push('ablation', a.id || '(no id)', a.label, node.start, node.end, { block: node.block });
      else push('section', '', undefined, node.start, node.end, { block: node.block, invisible: true });
    } else if ((node.kind === 'else' || node.kind === 'elseChain') && node.block !== -1 && inStack(node.block)) {
      while (stack.length && !(stack[stack.length - 1].block === node.block && !stack[stack.length - 1].isElse)) pop(ev.at, true);
      if (ablationByBlock.has(node.block)) push('else', 'else', 'shown when the ablation is off', node.start, node.end, { block: node.block, isElse: true });
    } else if (node.kind === 'close' && node.block !== -1 && inStack(node.block)) {
      while (stack.length && !(stack[stack.length - 1].block === node.block && !stack[stack.length - 1].isElse)) pop(ev.at, true);
      pop(node.end, false);
    }
  }
  while (stack.length) pop(text.length, true);
  return { symbols: roots, folds: buildFolds(lines, fm, tpl, roots) };
}

function frontMatterSymbol(text: string, lines: LineIndex, fm: FrontMatter): PromptSymbol {
  const end = fm.closeLine >= 0 ? lines.lineEnd(fm.closeLine) : text.length;
  const keys: PromptSymbol[] = fm.keys.map((k) => {
    const sel = lines.span(k.keyStart, k.keyEnd);
    const detail = k.value === null || typeof k.value === 'object' ? undefined : String(k.value);
    const sym: PromptSymbol = { name: k.key, detail, kind: 'key', range: lines.span(k.keyStart, Math.max(k.end, k.keyEnd)), selectionRange: sel, children: [] };
    if (k.key === 'input') {
      sym.children = fm.variables.map((v) => {
        const vs = lines.span(v.keyStart, v.keyEnd);
        return { name: v.name, detail: `${v.type}${v.optional ? ' (optional)' : ''}`, kind: 'variable' as const, range: vs, selectionRange: vs, children: [] };
      });
    }
    return sym;
  });
  return { name: 'front matter', kind: 'frontMatter', range: lines.span(0, end), selectionRange: lines.span(0, 3), children: keys };
}

function buildFolds(lines: LineIndex, fm: FrontMatter, tpl: ParsedTemplate, symbols: PromptSymbol[]): PromptFold[] {
  const byStart = new Map<number, PromptFold>();
  const add = (f: PromptFold) => {
    if (f.endLine <= f.startLine) return;
    const prev = byStart.get(f.startLine);
    if (!prev || prev.endLine < f.endLine) byStart.set(f.startLine, f);
  };
  if (fm.present && fm.closeLine > 0) add({ startLine: 0, endLine: fm.closeLine });
  const walk = (list: PromptSymbol[]) => {
    for (const s of list) {
      if (s.kind === 'role' || s.kind === 'section' || s.kind === 'else') add({ startLine: s.range.start.line, endLine: s.range.end.line });
      walk(s.children);
    }
  };
  walk(symbols.filter((s) => s.kind !== 'frontMatter'));
  // Blocks fold up to the line before their closing tag, which stays visible.
  for (const b of tpl.blocks) {
    const open = tpl.nodes[b.open];
    const startLine = lines.pos(open.start).line;
    const endLine = b.close === -1 ? lines.lineCount - 1 : lines.pos(tpl.nodes[b.close].start).line - 1;
    add({ startLine, endLine, kind: 'region' });
  }
  for (const n of tpl.nodes) {
    if (n.kind === 'comment') add({ startLine: lines.pos(n.start).line, endLine: lines.pos(n.end).line, kind: 'comment' });
  }
  return [...byStart.values()].sort((a, b) => a.startLine - b.startLine);
}
