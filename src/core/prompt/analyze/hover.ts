// Hover at a position: a variable's type and documentation, a helper's doc, a robot API signature, an ablation
// block's id and label, a Waypoint front matter key.
import type { PromptAnalysis } from '../analyze.js';
import { WAYPOINT_KEYS } from './frontMatter.js';
import type { Call, Expr, TagNode, TemplateNode } from './template.js';
import type { InputVariable, Pos, PromptHover } from './types.js';

export function hoverPrompt(a: PromptAnalysis, pos: Pos): PromptHover | undefined {
  const { lines, frontMatter: fm } = a;
  const offset = lines.offset(pos);
  if (fm.present && offset < fm.bodyStart) {
    const v = a.variables.find((x) => offset >= x.keyStart && offset <= x.keyEnd);
    if (v) return { contents: variableDoc(v), range: lines.span(v.keyStart, v.keyEnd), variable: v.name };
    const k = fm.keys.find((x) => offset >= x.keyStart && offset <= x.keyEnd && WAYPOINT_KEYS[x.key]);
    if (k) return { contents: `**${k.key}**\n\n${WAYPOINT_KEYS[k.key]}`, range: lines.span(k.keyStart, k.keyEnd) };
    return undefined;
  }
  const node = nodeAt(a.template.nodes, offset);
  if (!node) return undefined;
  if (node.kind !== 'text') {
    if (node.kind === 'comment') return undefined;
    const hit = exprAt(node.call, offset);
    if (hit) {
      const h = exprHover(a, node, hit.expr, hit.call, offset);
      if (h) return h;
    }
  }
  return apiHover(a, offset);
}

function exprHover(a: PromptAnalysis, node: TagNode, e: Expr, owner: Call, offset: number): PromptHover | undefined {
  const range = a.lines.span(e.start, e.end);
  const ablation = node.block === -1 ? undefined : a.ablationByBlock.get(node.block);
  if (ablation && (e === owner.head || e === owner.params[0]) && owner === node.call) {
    const parts = [`**Ablation** \`${ablation.id || '(no id)'}\`${ablation.label ? ` — ${ablation.label}` : ''}`];
    parts.push(ablation.elseRange ? 'On: the block text is used. Off (in a variant of `.waypoint/variants.yaml`): the `{{else}}` part is used instead.' : 'On: the block text is used. Off (in a variant of `.waypoint/variants.yaml`): the block is left out.');
    if (!ablation.closed) parts.push('This block is never closed.');
    return { contents: parts.join('\n\n'), range };
  }
  if (e.kind === 'path') {
    const simple = !e.data && !e.scoped && e.depth === 0 && e.parts.length === 1;
    if (simple && e === owner.head && a.helpers[e.parts[0]] !== undefined) {
      return { contents: `**${e.parts[0]}** (helper)\n\n${a.helpers[e.parts[0]]}`, range };
    }
    const name = e.data ? (e.parts[0] === 'root' ? e.parts[1] : undefined) : e.scoped ? undefined : e.parts[0];
    const v = name === undefined ? undefined : a.variables.find((x) => x.name === name);
    if (v) return { contents: variableDoc(v) + (e.parts.length > 1 && !e.data ? `\n\nPath: \`${e.original}\`` : ''), range, variable: v.name };
    if (e.data) return { contents: `\`@${e.parts.join('.')}\`: Handlebars data variable (set by the enclosing block or the renderer).`, range };
    return undefined;
  }
  if (e.kind === 'string') return apiHover(a, offset, e.start + 1, e.end - 1);
  return undefined;
}

function variableDoc(v: InputVariable): string {
  return `**${v.name}** \`${v.type}\` · ${v.optional ? 'optional' : 'required'}\n\n${v.doc ?? '_No documentation in input.schema._'}`;
}

/** A robot API name under the cursor (body text or a string literal), for the file's waypoint.arch. */
function apiHover(a: PromptAnalysis, offset: number, min = a.frontMatter.bodyStart, max = a.text.length): PromptHover | undefined {
  const t = a.text;
  let s = offset;
  let e = offset;
  const isWord = (c: string) => /[A-Za-z0-9_]/.test(c);
  while (s > min && isWord(t[s - 1])) s--;
  while (e < max && isWord(t[e])) e++;
  if (s === e) return undefined;
  const word = t.slice(s, e);
  const f = a.api.find((x) => x.name === word);
  if (!f) return undefined;
  return { contents: `\`\`\`python\n${f.signature}\n\`\`\`\n\n${f.doc}\n\n_Robot API (${a.frontMatter.arch})_`, range: a.lines.span(s, e) };
}

function nodeAt(nodes: TemplateNode[], offset: number): TemplateNode | undefined {
  let lo = 0;
  let hi = nodes.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const n = nodes[mid];
    if (offset < n.start) hi = mid - 1;
    else if (offset >= n.end) lo = mid + 1;
    else return n;
  }
  return undefined;
}

/** The innermost expression containing `offset`, with the call it belongs to. */
function exprAt(call: Call, offset: number): { expr: Expr; call: Call } | undefined {
  const inside = (e: Expr) => offset >= e.start && offset <= e.end;
  const all: Expr[] = [...(call.head ? [call.head] : []), ...call.params, ...call.hash.map((h) => h.value)];
  for (const e of all) {
    if (!inside(e)) continue;
    if (e.kind === 'sexpr') return exprAt(e.call, offset) ?? { expr: e, call };
    return { expr: e, call };
  }
  return undefined;
}
