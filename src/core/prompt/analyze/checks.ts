// Semantic checks over the parsed template: variables against input.schema, helpers against the known set,
// ablation blocks (ids, duplicates, unclosed), the role marker line and the context budget estimate.
import { ROLE_MARKER_RE } from '../../llm/roleMarker.js';
import type { FrontMatter, RawDiag } from './frontMatter.js';
import type { Call, Expr, ParsedTemplate, PathExpr, TagNode } from './template.js';
import type { LineIndex } from './lineIndex.js';
import type { AblationInfo } from './types.js';

export const ABLATION_ID_RE = /^[a-z0-9_.-]+$/;

/** Handlebars registers these on every environment, so dotprompt's knownHelpersOnly accepts them too. */
export const HANDLEBARS_BUILTINS: Record<string, string> = {
  lookup: 'Handlebars built-in: looks up a property or index dynamically, e.g. {{lookup map key}}.',
  log: 'Handlebars built-in: logs its arguments while rendering; renders nothing.',
};
/** Helpers whose block body runs in a new context (`../` climbs out of it). */
const CONTEXT_HELPERS = new Set(['each', 'with']);

export interface VariableUse {
  name: string;
  start: number;
  end: number;
}

export interface CheckResult {
  diags: RawDiag[];
  /** Uses of root variables (first path segment), in order. */
  uses: VariableUse[];
  ablations: (AblationInfo & { block: number; openStart: number; openEnd: number; idStart?: number; idEnd?: number })[];
  /** Static text length that reaches the model with every ablation in its configured state. */
  staticChars: number;
}

export interface CheckOptions {
  helpers: ReadonlySet<string>;
  /** Ablation ids switched off (their else part counts toward the budget instead). */
  ablationsOff?: ReadonlySet<string>;
}

interface Frame {
  block: number;
  /** The block body runs in a context we cannot see (each/with/{{#var}}). */
  opaque: boolean;
  params: string[];
}

export function runChecks(text: string, lines: LineIndex, fm: FrontMatter, tpl: ParsedTemplate, opts: CheckOptions): CheckResult {
  const diags: RawDiag[] = [];
  const uses: VariableUse[] = [];
  const declared = new Set(fm.variables.map((v) => v.name));
  const checkVars = !fm.schemaOpaque;
  const frames: Frame[] = [];
  const isHelper = (name: string) => opts.helpers.has(name);
  const blockParam = (name: string) => frames.some((f) => f.params.includes(name));

  const resolve = (p: PathExpr) => {
    if (p.scoped) return;
    let name: string | undefined;
    if (p.data) {
      if (p.parts[0] !== 'root' || p.parts.length < 2) return; // @index, @key, @metadata, ...
      name = p.parts[1];
    } else {
      if (p.depth === 0 && blockParam(p.parts[0])) return;
      const opaqueAbove = frames.filter((f) => f.opaque).length;
      if (p.depth < opaqueAbove) return; // inside each/with: resolved against an item we cannot see
      name = p.parts[0];
    }
    if (name === undefined) return;
    uses.push({ name, start: p.start, end: p.end });
    if (checkVars && !declared.has(name)) {
      const hint = closest(name, [...declared]);
      diags.push({
        start: p.start, end: p.end, severity: 'warning', code: 'unknown-variable',
        message: `Unknown variable '${name}': not declared in input.schema${hint ? ` (did you mean '${hint}'?)` : ''}; it renders empty`,
      });
    }
  };
  const expr = (e: Expr) => {
    if (e.kind === 'path') resolve(e);
    else if (e.kind === 'sexpr') call(e.call, 'sexpr');
  };
  /** kind: how the call is used; a head with arguments (or in a sub-expression) must be a known helper. */
  const call = (c: Call, kind: 'mustache' | 'open' | 'openInverse' | 'sexpr') => {
    const h = c.head;
    if (h && h.kind === 'path') {
      const simple = !h.data && !h.scoped && h.depth === 0 && h.parts.length === 1;
      const asHelper = kind === 'sexpr' || c.params.length > 0 || c.hash.length > 0;
      if (asHelper && !(simple && blockParam(h.parts[0]))) {
        if (!isHelper(h.parts[0] ?? '')) {
          diags.push({
            start: h.start, end: h.end, severity: 'error', code: 'unknown-helper',
            message: `Unknown helper '${h.original}': dotprompt renders with knownHelpersOnly, so rendering fails (known: ${[...opts.helpers].sort().join(', ')})`,
          });
        }
      } else if (!(simple && isHelper(h.parts[0]))) {
        resolve(h);
      }
      if (simple && h.parts[0] === 'ablation' && kind === 'mustache') {
        diags.push({ start: h.start, end: h.end, severity: 'error', code: 'ablation-not-block', message: 'ablation is a block helper: write {{#ablation "id" label="..."}}...{{/ablation}}' });
      }
    } else if (h && h.kind === 'sexpr') {
      call(h.call, 'sexpr');
    }
    for (const p of c.params) expr(p);
    for (const hp of c.hash) expr(hp.value);
  };
  const opensContext = (c: Call, kind: 'open' | 'openInverse') => {
    const h = c.head;
    if (!h || h.kind !== 'path' || h.data || h.scoped || h.parts.length !== 1) return kind === 'open' && h?.kind === 'path';
    const name = h.parts[0];
    if (CONTEXT_HELPERS.has(name)) return true;
    if (isHelper(name)) return false;
    return kind === 'open' && c.params.length === 0 && c.hash.length === 0 && !blockParam(name);
  };
  const popTo = (block: number) => {
    if (!frames.some((f) => f.block === block)) return;
    while (frames.length && frames[frames.length - 1].block !== block) frames.pop();
    frames.pop();
  };

  // Ablation frames for the budget: which texts reach the model.
  const ablationOf = new Map<number, { off: boolean; elseAt: number; closeAt: number }>();
  const ablations: CheckResult['ablations'] = [];
  const seen = new Map<string, number>();
  for (const b of tpl.blocks) {
    if (b.name !== 'ablation') continue;
    const open = tpl.nodes[b.open] as TagNode;
    if (open.kind !== 'open') continue;
    let depth = 0;
    for (let p = b.parent; p !== -1; p = tpl.blocks[p].parent) if (tpl.blocks[p].name === 'ablation') depth++;
    const idExpr = open.call.params[0];
    const labelExpr = open.call.hash.find((h) => h.key === 'label')?.value;
    const defaultExpr = open.call.hash.find((h) => h.key === 'default')?.value;
    const id = idExpr?.kind === 'string' ? idExpr.value : '';
    const closeNode = b.close === -1 ? undefined : tpl.nodes[b.close];
    const elseNode = b.elses.length ? tpl.nodes[b.elses[0]] : undefined;
    const end = closeNode ? closeNode.end : text.length;
    ablations.push({
      id, label: labelExpr?.kind === 'string' ? labelExpr.value : undefined,
      defaultOn: !(defaultExpr?.kind === 'string' && defaultExpr.value === 'off'),
      line: lines.pos(open.start).line, openRange: lines.span(open.start, open.end),
      idRange: idExpr ? lines.span(idExpr.start, idExpr.end) : undefined,
      range: lines.span(open.start, end),
      elseRange: elseNode ? lines.span(elseNode.start, closeNode ? closeNode.start : text.length) : undefined,
      closed: !!closeNode, depth, block: b.id, openStart: open.start, openEnd: open.end,
      idStart: idExpr?.start, idEnd: idExpr?.end,
    });
    ablationOf.set(b.open, { off: (opts.ablationsOff?.has(id) ?? false) || (defaultExpr?.kind === 'string' && defaultExpr.value === 'off'), elseAt: b.elses[0] ?? Infinity, closeAt: b.close === -1 ? Infinity : b.close });
    if (!idExpr) {
      diags.push({ start: open.start, end: open.end, severity: 'error', code: 'ablation-invalid-id', message: 'Ablation block needs an id: {{#ablation "role.feature" label="..."}}' });
    } else if (idExpr.kind !== 'string') {
      diags.push({ start: idExpr.start, end: idExpr.end, severity: 'error', code: 'ablation-invalid-id', message: 'Ablation id must be a quoted string, e.g. "coder.step_by_step"' });
    } else if (!ABLATION_ID_RE.test(id)) {
      diags.push({ start: idExpr.start, end: idExpr.end, severity: 'error', code: 'ablation-invalid-id', message: `Ablation id '${id}' is invalid: use lowercase letters, digits, '_', '.' and '-' only (/^[a-z0-9_.-]+$/)` });
    } else if (seen.has(id)) {
      diags.push({ start: idExpr.start, end: idExpr.end, severity: 'error', code: 'ablation-duplicate', message: `Duplicate ablation id '${id}': first used on line ${lines.pos(seen.get(id)!).line + 1}; variants switch blocks by id` });
    } else {
      seen.set(id, idExpr.start);
    }
  }

  let staticChars = 0;
  const active: { off: boolean; elseAt: number; closeAt: number }[] = [];
  for (let i = 0; i < tpl.nodes.length; i++) {
    const node = tpl.nodes[i];
    while (active.length && active[active.length - 1].closeAt <= i) active.pop();
    if (node.kind === 'text') {
      if (active.every((a) => (i > a.elseAt) === a.off)) staticChars += node.end - node.start;
      continue;
    }
    const ab = ablationOf.get(i);
    if (ab) active.push(ab);
    switch (node.kind) {
      case 'mustache':
        call(node.call, 'mustache');
        break;
      case 'open':
      case 'openInverse':
        call(node.call, node.kind);
        if (node.block !== -1) frames.push({ block: node.block, opaque: opensContext(node.call, node.kind), params: node.call.blockParams });
        break;
      case 'else':
      case 'elseChain':
        if (node.block === -1) break;
        popTo(node.block);
        if (node.kind === 'elseChain') call(node.call, 'open');
        frames.push({ block: node.block, opaque: node.kind === 'elseChain' && opensContext(node.call, 'open'), params: node.call.blockParams });
        break;
      case 'close':
        if (node.block !== -1) popTo(node.block);
        break;
      case 'partial':
      case 'decorator':
        for (const p of node.call.params) expr(p);
        for (const hp of node.call.hash) expr(hp.value);
        break;
      case 'partialBlock':
      case 'decoratorBlock':
        if (node.block !== -1) frames.push({ block: node.block, opaque: true, params: [] });
        break;
      case 'rawOpen':
        call(node.call, 'open');
        break;
      default:
        break;
    }
  }

  for (const e of tpl.errors) {
    const b = e.block === undefined ? undefined : tpl.blocks[e.block];
    if (b && b.name === 'ablation' && e.kind === 'unclosed') {
      const a = ablations.find((x) => x.block === b.id);
      diags.push({ start: e.start, end: e.end, severity: 'error', code: 'ablation-unclosed', message: `Ablation block '${a?.id ?? ''}' is never closed: add {{/ablation}}` });
    } else {
      diags.push({ start: e.start, end: e.end, severity: 'error', code: 'hbs-parse', message: e.message });
    }
  }
  return { diags, uses, ablations, staticChars };
}

/** Finds the `[waypoint-role: arch/role]` line: a whole line of template text (not inside a tag or comment). */
export function findRoleMarker(text: string, tpl: ParsedTemplate, from = 0): { arch: string; role: string; start: number; end: number } | undefined {
  // One scan over the text, then a binary search for the node holding each hit (a scan per node would be quadratic).
  for (let i = text.indexOf('[waypoint-role:', from); i !== -1; i = text.indexOf('[waypoint-role:', i + 1)) {
    const ls = text.lastIndexOf('\n', i - 1) + 1;
    let le = text.indexOf('\n', i);
    if (le === -1) le = text.length;
    const n = textNodeAt(tpl, i);
    if (!n || ls < n.start || le > n.end) continue;
    const m = ROLE_MARKER_RE.exec(text.slice(ls, le).replace(/\r$/, ''));
    if (m) return { arch: m[1], role: m[2], start: ls, end: le };
  }
  return undefined;
}

function textNodeAt(tpl: ParsedTemplate, offset: number): { start: number; end: number } | undefined {
  let lo = 0;
  let hi = tpl.nodes.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const n = tpl.nodes[mid];
    if (offset < n.start) hi = mid - 1;
    else if (offset >= n.end) lo = mid + 1;
    else return n.kind === 'text' ? n : undefined;
  }
  return undefined;
}

/** The declared name closest to `name` within edit distance 2, for "did you mean". */
export function closest(name: string, options: string[]): string | undefined {
  let best: string | undefined;
  let bestD = 3;
  for (const o of options) {
    if (Math.abs(o.length - name.length) >= bestD) continue;
    const d = editDistance(name, o);
    if (d < bestD) {
      bestD = d;
      best = o;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}
