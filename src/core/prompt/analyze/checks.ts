// Semantic checks over the parsed template: variables against what the architecture passes the role (or, for a
// prompt of no known role, against input.schema), helpers against the known set, ablation blocks (ids, duplicates,
// unclosed), the role marker line and the context budget estimate.
import { ROLE_MARKER_RE } from '../../llm/roleMarker.js';
import type { SchemaShapes, VarShape } from '../schema.js';
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

export interface VariableUse {
  name: string;
  start: number;
  end: number;
}

/** The variables a role's prompt is rendered with, as its architecture declares them. */
export interface PassedVariables {
  /** For messages: "malmm's planner prompt". */
  who: string;
  vars: Record<string, VarShape>;
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
  /** What the architecture passes this role; absent: variables are checked against input.schema only (warnings). */
  passed?: PassedVariables;
}

/** What a name in the template resolves against: a shape we know, or `undefined` (anything may be there). */
interface Scope {
  shape: VarShape | undefined;
  /** For messages: "an item of 'api'". */
  what: string;
}

interface Frame {
  block: number;
  /** The block body runs in a new context (each, with, a section over a list or object); `../` climbs out of it. */
  ctx?: Scope;
  /** Whether the block changes the context depends on the value at run time (a section over a value of unknown type). */
  maybe?: boolean;
  params: Map<string, Scope>;
}

const ANY_SCOPE: Scope = { shape: undefined, what: '' };
const NUMBER: VarShape = { type: 'number', optional: false };

export function runChecks(text: string, lines: LineIndex, fm: FrontMatter, tpl: ParsedTemplate, opts: CheckOptions): CheckResult {
  const diags: RawDiag[] = [];
  const uses: VariableUse[] = [];
  const declared = new Map(fm.variables.map((v) => [v.name, v]));
  const passed = opts.passed;
  // With the architecture's declaration the check is exact (what renders empty is an error); without it, the
  // prompt's own input.schema is all we know (warnings), and an opaque schema leaves nothing to check.
  const severity = passed ? 'error' : 'warning';
  const rootVars: Record<string, VarShape> | undefined = passed ? passed.vars : fm.schemaOpaque || fm.shapes.open ? undefined : fm.shapes.vars;
  const frames: Frame[] = [];
  const isHelper = (name: string) => opts.helpers.has(name);
  const blockParam = (name: string) => {
    for (let i = frames.length - 1; i >= 0; i--) {
      const s = frames[i].params.get(name);
      if (s) return s;
    }
    return undefined;
  };
  const flag = (p: { start: number; end: number }, code: RawDiag['code'], message: string, sev: RawDiag['severity'] = severity) => diags.push({ start: p.start, end: p.end, severity: sev, code, message });

  /** Walks the path's later segments through the shape; flags a segment that cannot be there (it renders empty). */
  const walk = (shape: VarShape | undefined, rest: string[], p: PathExpr, what: string): VarShape | undefined => {
    let s = shape;
    let where = what;
    for (const seg of rest) {
      if (!s || s.type === 'any' || s.type === 'enum' || s.type === 'null') return undefined;
      let next: VarShape | undefined;
      if (s.type === 'array') next = seg === 'length' ? NUMBER : /^\d+$/.test(seg) ? s.items : undefined;
      else if (s.type === 'string') next = seg === 'length' ? NUMBER : undefined;
      else if (s.type === 'object') {
        if (!s.fields) return undefined;
        next = s.fields[seg];
        if (!next) {
          const names = Object.keys(s.fields);
          const hint = closest(seg, names);
          flag(p, 'undefined-variable', `'${seg}' is not a field of ${where} (fields: ${names.join(', ') || 'none'})${hint ? `; did you mean '${hint}'?` : ''}: it renders empty`);
          return undefined;
        }
      }
      if (!next) {
        const kind = s.type === 'array' ? 'a list (it has length and numbered items' + (s.items?.fields ? '; loop over it with {{#each}} to reach its items\' fields' : '') + ')' : `a ${s.type}${s.type === 'string' ? ' (it has only length)' : ''}`;
        flag(p, 'undefined-variable', `'${seg}' is not a field of ${where}, which is ${kind}: it renders empty`);
        return undefined;
      }
      s = next;
      where = `'${seg}'`;
    }
    return s;
  };

  /** A variable at the prompt's root (`{{name}}` outside any each/with, `{{../name}}`, `{{@root.name}}`). */
  const rootUse = (parts: string[], p: PathExpr): VarShape | undefined => {
    const name = parts[0];
    uses.push({ name, start: p.start, end: p.end });
    const decl = declared.get(name);
    const hasDefault = fm.defaults.includes(name);
    if (!passed) {
      if (!rootVars) return undefined;
      if (!rootVars[name] && !hasDefault) {
        const hint = closest(name, Object.keys(rootVars));
        flag(p, 'unknown-variable', `Unknown variable '${name}': not declared in input.schema${hint ? ` (did you mean '${hint}'?)` : ''}; it renders empty`);
        return undefined;
      }
      return walk(rootVars[name], parts.slice(1), p, `'${name}'`);
    }
    const shape = passed.vars[name];
    if (!shape) {
      if (hasDefault) return undefined;
      if (decl?.optional) {
        flag(p, 'never-passed', `'${name}' is declared optional, but ${passed.who} is never given it: it always renders empty`, 'warning');
        return undefined;
      }
      const names = Object.keys(passed.vars);
      const hint = closest(name, names);
      flag(p, 'undefined-variable', `Undefined variable '${name}'${hint ? ` (did you mean '${hint}'?)` : ''}: ${passed.who} is given ${names.join(', ') || 'no variables'}; '${name}' would render empty`);
      return undefined;
    }
    if (shape.optional && !decl?.optional && !hasDefault) {
      flag(p, 'optional-variable', `'${name}' is given to ${passed.who} only on some calls and renders empty on the others: declare it optional in input.schema ('${name}?: ${shapeText(shape)}, ...')`);
    } else if (!decl && !fm.schemaOpaque) {
      flag(p, 'unknown-variable', `Variable '${name}' is not declared in input.schema: declare it with its documentation ('${name}: ${shapeText(shape)}, ...')`, 'warning');
    }
    return walk(shape, parts.slice(1), p, `'${name}'`);
  };

  /** Resolves a path the way Handlebars looks it up, flags what renders empty, and returns its shape when known. */
  const resolve = (p: PathExpr): VarShape | undefined => {
    if (p.data) {
      if (p.parts[0] !== 'root' || p.parts.length < 2) return undefined; // @index, @key, @first, @metadata, ...
      return rootVars || passed ? rootUse(p.parts.slice(1), p) : undefined;
    }
    if (!p.scoped && p.depth === 0) {
      const param = blockParam(p.parts[0]);
      if (param) return walk(param.shape, p.parts.slice(1), p, param.what);
    }
    // `../` climbs context frames only: if, unless, ablation and other helpers keep the context they were given.
    const contexts = frames.filter((f) => f.ctx);
    if (p.depth > contexts.length) {
      const enclosing = contexts.length === 0 ? 'no each/with block encloses it' : `only ${contexts.length} each/with block${contexts.length === 1 ? ' encloses' : 's enclose'} it`;
      if (!frames.some((f) => f.maybe)) flag(p, 'undefined-variable', `'${p.original}' climbs above the prompt's variables (${enclosing}; if, unless and ablation blocks do not count): it renders empty`);
      return undefined;
    }
    const scope = p.depth === contexts.length ? undefined : contexts[contexts.length - 1 - p.depth].ctx!;
    if (p.parts.length === 0) return scope ? scope.shape : undefined; // `this`, `.`, `..`
    if (!scope) return rootVars || passed ? rootUse(p.parts, p) : undefined;
    return walk(scope.shape, p.parts, p, scope.what);
  };
  const exprShape = (e: Expr | undefined): VarShape | undefined => {
    if (!e) return undefined;
    if (e.kind === 'path') return resolve(e);
    if (e.kind === 'sexpr') call(e.call, 'sexpr');
    return undefined;
  };
  const expr = (e: Expr) => void exprShape(e);
  /** kind: how the call is used; a head with arguments (or in a sub-expression) must be a known helper. */
  const call = (c: Call, kind: 'mustache' | 'open' | 'openInverse' | 'sexpr'): { head?: VarShape; first?: VarShape } => {
    const h = c.head;
    let head: VarShape | undefined;
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
        head = resolve(h);
      }
      if (simple && h.parts[0] === 'ablation' && kind === 'mustache') {
        diags.push({ start: h.start, end: h.end, severity: 'error', code: 'ablation-not-block', message: 'ablation is a block helper: write {{#ablation "id" label="..."}}...{{/ablation}}' });
      }
    } else if (h && h.kind === 'sexpr') {
      call(h.call, 'sexpr');
    }
    const first = c.params.map(exprShape)[0];
    for (const hp of c.hash) expr(hp.value);
    return { head, first };
  };
  /**
   * The frame a block opens, with the context its body runs in. Handlebars: `each` runs its body per item, `with` in
   * the value, a section `{{#name}}` per item of a list, in an object or other value, unchanged for `true`; helpers
   * (if, unless, ablation, ...) keep the context. `head` was already resolved by `call` (its shape is passed in).
   */
  const frameFor = (block: number, c: Call, kind: 'open' | 'openInverse', headShape: VarShape | undefined, firstShape: VarShape | undefined): Frame => {
    const frame: Frame = { block, params: new Map() };
    const h = c.head;
    if (!h || h.kind !== 'path' || h.data || h.scoped || h.parts.length !== 1) {
      if (kind === 'open' && h?.kind === 'path') Object.assign(frame, sectionScope(headShape, h.original));
    } else if (h.parts[0] === 'each' || h.parts[0] === 'with') {
      const subject = c.params[0];
      const name = subject && subject.kind === 'path' ? `'${subject.original}'` : 'the value';
      if (h.parts[0] === 'each') {
        const items = firstShape?.type === 'array' ? firstShape.items : undefined;
        frame.ctx = { shape: items, what: `an item of ${name}` };
        if (c.blockParams[1]) frame.params.set(c.blockParams[1], ANY_SCOPE);
      } else {
        frame.ctx = { shape: firstShape, what: name };
      }
      if (c.blockParams[0]) frame.params.set(c.blockParams[0], frame.ctx);
    } else if (!isHelper(h.parts[0]) && kind === 'open' && c.params.length === 0 && c.hash.length === 0 && !blockParam(h.parts[0])) {
      Object.assign(frame, sectionScope(headShape, h.original));
    }
    return frame;
  };
  /** `{{#name}}` on a variable: what its body sees, by the variable's shape. */
  const sectionScope = (shape: VarShape | undefined, original: string): Pick<Frame, 'ctx' | 'maybe'> => {
    if (!shape || shape.type === 'any' || shape.type === 'enum') return { ctx: ANY_SCOPE, maybe: true };
    if (shape.type === 'boolean') return {};
    if (shape.type === 'array') return { ctx: { shape: shape.items, what: `an item of '${original}'` } };
    return { ctx: { shape, what: `'${original}'` } };
  };
  const popTo = (block: number) => {
    if (!frames.some((f) => f.block === block)) return;
    while (frames.length && frames[frames.length - 1].block !== block) frames.pop();
    frames.pop();
  };

  // Ablation frames for the budget: which texts reach the model.
  const ablationOf = new Map<number, { off: boolean; elseAt: number; closeAt: number }>();
  const ablations: CheckResult['ablations'] = [];
  // An id may switch several blocks together (one toggle, text in several places); their defaults must agree.
  const seen = new Map<string, { start: number; defaultOn: boolean }>();
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
      const first = seen.get(id)!;
      const defaultOn = ablations[ablations.length - 1].defaultOn;
      if (first.defaultOn !== defaultOn) {
        const word = (on: boolean) => (on ? 'on' : 'off');
        diags.push({
          start: idExpr.start, end: idExpr.end, severity: 'error', code: 'ablation-duplicate',
          message: `Ablation id '${id}' is used again with default ${word(defaultOn)}; its first block (line ${lines.pos(first.start).line + 1}) defaults ${word(first.defaultOn)}. One switch turns every block with this id on or off together, so their defaults must agree`,
        });
      }
    } else {
      seen.set(id, { start: idExpr.start, defaultOn: ablations[ablations.length - 1].defaultOn });
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
      case 'openInverse': {
        const r = call(node.call, node.kind);
        if (node.block !== -1) frames.push(frameFor(node.block, node.call, node.kind, r.head, r.first));
        break;
      }
      case 'else':
      case 'elseChain': {
        if (node.block === -1) break;
        popTo(node.block);
        // A plain {{else}} runs in the context outside the block (each's and with's too).
        if (node.kind === 'else') {
          frames.push({ block: node.block, params: new Map() });
          break;
        }
        const r = call(node.call, 'open');
        frames.push(frameFor(node.block, node.call, 'open', r.head, r.first));
        break;
      }
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
        if (node.block !== -1) frames.push({ block: node.block, ctx: ANY_SCOPE, maybe: true, params: new Map() });
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

/** A shape as Picoschema writes it, for the declaration a message suggests. */
function shapeText(s: VarShape): string {
  if (s.type === 'array') return `array of ${s.items ? shapeText(s.items) : 'any'}`;
  if (s.type === 'object' && s.fields) return `object with ${Object.keys(s.fields).join(', ')}`;
  return s.type;
}
