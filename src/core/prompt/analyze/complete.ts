// Completion at a position: variables and helpers inside tags, ablation ids inside `{{#ablation "`, the name to
// close inside `{{/`, robot API names in body text, Waypoint keys in front matter.
import type { PromptAnalysis } from '../analyze.js';
import { WAYPOINT_KEYS } from './frontMatter.js';
import type { Pos, PromptCompletion, Span } from './types.js';

const BLOCK_HELPERS = new Set(['if', 'unless', 'each', 'with', 'ablation', 'ifEquals', 'unlessEquals']);
/** How far back a tag may open before the cursor (tags are short; this bounds the work per keystroke). */
const LOOKBACK = 4000;

export function completePrompt(a: PromptAnalysis, pos: Pos): PromptCompletion[] {
  const { text, lines, frontMatter: fm } = a;
  const offset = lines.offset(pos);
  if (fm.present && offset >= fm.yamlStart && offset <= fm.yamlEnd) return frontMatterItems(a, pos);
  const from = Math.max(fm.bodyStart, offset - LOOKBACK);
  const before = text.slice(from, offset);
  const open = before.lastIndexOf('{{');
  const word = /[A-Za-z0-9_$@.:?-]*$/.exec(before)![0];
  const replace: Span = lines.span(offset - word.length, offset);
  if (open === -1 || open < before.lastIndexOf('}}')) return apiItems(a, replace);

  const tag = before.slice(open);
  if (/^\{\{~?!/.test(tag)) return [];
  const abl = /^\{\{~?#\s*ablation\s+(["'])([^"']*)$/.exec(tag);
  if (abl) return ablationItems(a, lines.span(offset - abl[2].length, offset));
  if (/^\{\{~?\/\s*[^\s}]*$/.test(tag)) return closeItems(a, offset, replace);
  const head = /^\{\{~?(#\*?|\^|&|\{|\s*else\s+)?\s*([^\s(){}"'=]*)$/.exec(tag);
  const closes = text.startsWith('}}', offset);
  if (head) {
    if (word.includes('.')) return [];
    const block = head[1] === '#';
    const items: PromptCompletion[] = [];
    for (const [name, doc] of Object.entries(a.helpers)) {
      if (block !== BLOCK_HELPERS.has(name)) continue;
      if (block && name === 'ablation') {
        // Replace an auto-closed `}}` too, so the snippet can write the whole block.
        const r = closes ? lines.span(offset - word.length, offset + 2) : replace;
        items.push({ label: 'ablation', kind: 'helper', detail: 'ablation block', documentation: doc, snippet: true, replace: r, sortText: '0ablation',
          insertText: 'ablation "${1:role.feature}" label="${2:What the block adds}"}}\n$0\n{{/ablation}}' });
      } else {
        items.push({ label: name, kind: 'helper', detail: block ? 'block helper' : 'helper', documentation: doc, replace, sortText: `1${name}` });
      }
    }
    if (!block && head[1] === undefined) items.push({ label: 'else', kind: 'keyword', detail: 'inverse section of the enclosing block', replace, sortText: '2else' });
    items.push(...variableItems(a, replace));
    return items;
  }
  const items = variableItems(a, replace);
  if (/\(\s*[^\s()]*$/.test(tag)) {
    for (const [name, doc] of Object.entries(a.helpers)) if (!BLOCK_HELPERS.has(name)) items.push({ label: name, kind: 'helper', detail: 'helper', documentation: doc, replace, sortText: `1${name}` });
  }
  return items;
}

function variableItems(a: PromptAnalysis, replace: Span): PromptCompletion[] {
  return a.variables.map((v) => ({
    label: v.name,
    kind: 'variable' as const,
    detail: `${v.type}${v.optional ? ' (optional)' : ''}`,
    documentation: v.doc,
    replace,
    sortText: `0${v.name}`,
  }));
}

function apiItems(a: PromptAnalysis, replace: Span): PromptCompletion[] {
  return a.api.map((f) => ({ label: f.name, kind: 'api' as const, detail: f.signature, documentation: f.doc, replace }));
}

function ablationItems(a: PromptAnalysis, replace: Span): PromptCompletion[] {
  const labels = new Map<string, string | undefined>();
  for (const ab of a.ablations) if (ab.id && !labels.has(ab.id)) labels.set(ab.id, ab.label);
  for (const id of a.knownAblationIds) if (!labels.has(id)) labels.set(id, undefined);
  return [...labels.entries()]
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
    .map(([id, label]) => ({ label: id, kind: 'ablation' as const, detail: label ?? 'ablation id', replace }));
}

/** Inside `{{/`: the names of the blocks open at the cursor, innermost first. */
function closeItems(a: PromptAnalysis, offset: number, replace: Span): PromptCompletion[] {
  const { nodes, blocks } = a.template;
  const open = blocks
    .filter((b) => nodes[b.open].end <= offset && (b.close === -1 || nodes[b.close].start >= offset - 3))
    .sort((x, y) => nodes[y.open].start - nodes[x.open].start);
  const tail = a.text.startsWith('}}', offset) ? '' : '}}';
  const seen = new Set<string>();
  const out: PromptCompletion[] = [];
  for (const b of open) {
    if (seen.has(b.name)) continue;
    seen.add(b.name);
    out.push({ label: b.name, kind: 'keyword', detail: `closes {{#${b.name}}} from line ${a.lines.pos(nodes[b.open].start).line + 1}`, insertText: b.name + tail, replace, sortText: String(out.length).padStart(3, '0') });
  }
  return out;
}

function frontMatterItems(a: PromptAnalysis, pos: Pos): PromptCompletion[] {
  const lineText = a.lines.lineText(pos.line).slice(0, pos.character);
  const arch = /^waypoint\.arch:\s*([\w-]*)$/.exec(lineText);
  if (arch) {
    const r = a.lines.span(a.lines.offset(pos) - arch[1].length, a.lines.offset(pos));
    return Object.keys(a.archApis).map((k) => ({ label: k, kind: 'value' as const, detail: 'architecture', replace: r }));
  }
  const key = /^([\w.]*)$/.exec(lineText);
  if (!key) return [];
  const r = a.lines.span(a.lines.offset(pos) - key[1].length, a.lines.offset(pos));
  const present = new Set(a.frontMatter.keys.map((k) => k.key));
  const all: Record<string, string> = {
    config: 'Model settings: temperature, maxOutputTokens.',
    input: 'input.schema declares every variable the role receives, in Picoschema: `name: type, documentation`.',
    ...WAYPOINT_KEYS,
  };
  return Object.entries(all)
    .filter(([k]) => !present.has(k))
    .map(([k, doc]) => ({ label: k, kind: 'property' as const, documentation: doc, insertText: `${k}: `, replace: r }));
}
