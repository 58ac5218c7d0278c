// Front matter: where it is (dotprompt's `---` rules), YAML errors with exact positions, the input variables
// declared in `input.schema` (Picoschema or JSON Schema) and the Waypoint keys (`waypoint.role`, ...).
import { isMap, isScalar, isSeq, parseDocument, type Node, type Pair, type YAMLMap } from 'yaml';
import { readSchemaShapes, type SchemaShapes } from '../schema.js';
import type { DiagnosticCode, InputVariable, Severity } from './types.js';

export interface RawDiag {
  start: number;
  end: number;
  severity: Severity;
  code: DiagnosticCode;
  message: string;
  unnecessary?: boolean;
}

export interface FrontMatterKey {
  key: string;
  keyStart: number;
  keyEnd: number;
  /** End of the value (absolute offset). */
  end: number;
  value: unknown;
  valueStart: number;
  valueEnd: number;
}

export interface FrontMatter {
  /** The front matter exists (first line `---`). */
  present: boolean;
  /** Offset of the first `---` line's start (0) and just after the closing `---` line (the body start). */
  start: number;
  /** Offset where the YAML text starts (line 2 of the file). */
  yamlStart: number;
  yamlEnd: number;
  /** 0-based line of the closing `---`; -1 when unclosed or absent. */
  closeLine: number;
  bodyStart: number;
  keys: FrontMatterKey[];
  variables: InputVariable[];
  /** input.schema names a schema we cannot see: do not report unknown variables. */
  schemaOpaque: boolean;
  hasSchema: boolean;
  /** input.schema's variables with their item and field shapes. */
  shapes: SchemaShapes;
  /** Variables with a value in input.default (dotprompt renders it when the call passes none). */
  defaults: string[];
  arch?: string;
  role?: string;
  budgetTokens?: number;
  diags: RawDiag[];
}

const SCALARS = ['any', 'boolean', 'integer', 'null', 'number', 'string'];
export const WAYPOINT_KEYS: Record<string, string> = {
  'waypoint.arch': 'Architecture id (malmm, roco, actctx, llamar, trajgen): selects the robot API shown in completion and hover.',
  'waypoint.role': 'The role this prompt is for (coder, planner, supervisor, ...). The engine matches role calls by it.',
  'waypoint.contextBudgetTokens': 'Token budget for the rendered prompt; the language server warns when the static text alone (chars/4 estimate) exceeds it.',
};

/** Splits off the front matter the way dotprompt's FRONTMATTER_AND_BODY_REGEX does, then reads it. */
export function readFrontMatter(text: string): FrontMatter {
  const fm: FrontMatter = {
    present: false, start: 0, yamlStart: 0, yamlEnd: 0, closeLine: -1, bodyStart: 0,
    keys: [], variables: [], schemaOpaque: false, hasSchema: false, shapes: { vars: {}, open: false }, defaults: [], diags: [],
  };
  const first = /^---[ \t]*(\r\n|\r|\n)/.exec(text);
  if (!first) return fm;
  fm.present = true;
  fm.yamlStart = first[0].length;
  // The closing `---` is the first later line holding only `---` (and blanks).
  let ls = fm.yamlStart;
  let line = 1;
  let found = false;
  for (;;) {
    const nl = text.indexOf('\n', ls);
    const le = nl === -1 ? text.length : nl;
    if (text.startsWith('---', ls) && /^---[ \t]*\r?$/.test(text.slice(ls, le))) {
      found = true;
      fm.yamlEnd = Math.max(fm.yamlStart, ls - (text[ls - 2] === '\r' ? 2 : 1));
      fm.bodyStart = nl === -1 ? text.length : nl + 1;
      fm.closeLine = line;
      if (nl === -1) {
        fm.diags.push({ start: ls, end: ls + 3, severity: 'error', code: 'front-matter', message: "The closing '---' needs a line break after it (dotprompt reads the whole file as template otherwise)" });
      }
      break;
    }
    if (nl === -1) break;
    ls = nl + 1;
    line++;
  }
  if (!found) {
    fm.yamlEnd = fm.bodyStart = text.length;
    fm.diags.push({ start: 0, end: 3, severity: 'error', code: 'front-matter', message: "Front matter is never closed: add a '---' line after it (dotprompt reads the whole file as template otherwise)" });
  }
  readYaml(text.slice(fm.yamlStart, fm.yamlEnd), fm);
  return fm;
}

function readYaml(src: string, fm: FrontMatter): void {
  const base = fm.yamlStart;
  const doc = parseDocument(src, { prettyErrors: false, uniqueKeys: true });
  for (const e of [...doc.errors, ...doc.warnings]) {
    const [s, t] = e.pos;
    fm.diags.push({ start: base + s, end: base + Math.max(t, s + 1), severity: e.name === 'YAMLWarning' ? 'warning' : 'error', code: 'yaml', message: `YAML: ${e.message.split('\n')[0]}` });
  }
  const root = doc.contents;
  if (root === null) return;
  if (!isMap(root)) {
    const r = (root as Node).range ?? [0, 0];
    fm.diags.push({ start: base + r[0], end: base + r[1], severity: 'error', code: 'front-matter', message: 'Front matter must be a YAML mapping (key: value lines)' });
    return;
  }
  for (const pair of root.items) {
    const key = pairKey(pair);
    if (!key) continue;
    const kr = (pair.key as Node).range!;
    const vNode = pair.value as Node | null;
    const vr = vNode?.range ?? [kr[1], kr[1], kr[1]];
    const entry: FrontMatterKey = {
      key, keyStart: base + kr[0], keyEnd: base + kr[1], end: base + vr[1], value: vNode ? safeJs(vNode) : null,
      valueStart: base + vr[0], valueEnd: base + vr[1],
    };
    fm.keys.push(entry);
    const at = (sev: Severity, code: DiagnosticCode, message: string, onValue = true) =>
      fm.diags.push({ start: onValue && vNode ? entry.valueStart : entry.keyStart, end: onValue && vNode ? entry.valueEnd : entry.keyEnd, severity: sev, code, message });
    if (key === 'waypoint.role' || key === 'waypoint.arch') {
      if (typeof entry.value === 'string' && entry.value.trim() !== '') {
        if (key === 'waypoint.role') fm.role = entry.value.trim();
        else fm.arch = entry.value.trim();
      } else at('error', 'front-matter', `${key} must be a non-empty string`);
    } else if (key === 'waypoint.contextBudgetTokens') {
      if (typeof entry.value === 'number' && Number.isInteger(entry.value) && entry.value > 0) fm.budgetTokens = entry.value;
      else at('error', 'front-matter', 'waypoint.contextBudgetTokens must be a positive integer (tokens)');
    } else if (key.startsWith('waypoint.')) {
      at('warning', 'front-matter', `Unknown Waypoint key '${key}' (known: ${Object.keys(WAYPOINT_KEYS).join(', ')})`, false);
    } else if (key === 'waypoint') {
      at('warning', 'front-matter', "dotprompt ignores a nested 'waypoint:' map; write dotted keys such as 'waypoint.role: coder'", false);
    } else if (key === 'config' && vNode && isMap(vNode)) {
      checkConfig(vNode, base, fm);
    } else if (key === 'input' && vNode && isMap(vNode)) {
      const schema = vNode.items.find((p) => pairKey(p) === 'schema');
      if (schema) {
        fm.hasSchema = true;
        readSchema(schema.value as Node | null, base, fm);
        fm.shapes = readSchemaShapes(schema.value ? safeJs(schema.value as Node) : null);
      }
      const defaults = vNode.items.find((p) => pairKey(p) === 'default');
      if (defaults && isMap(defaults.value)) fm.defaults = defaults.value.items.map(pairKey).filter((k): k is string => k !== undefined);
    }
  }
}

function pairKey(p: Pair): string | undefined {
  return isScalar(p.key) && p.key.value !== null && p.key.value !== undefined ? String(p.key.value) : undefined;
}

function safeJs(n: Node): unknown {
  try {
    return n.toJSON();
  } catch {
    return undefined; // the YAML error for this node is already reported
  }
}

function checkConfig(map: YAMLMap, base: number, fm: FrontMatter): void {
  for (const p of map.items) {
    const k = pairKey(p);
    const v = p.value as Node | null;
    if (!v || !v.range) continue;
    const val = isScalar(v) ? v.value : undefined;
    const bad = (message: string) => fm.diags.push({ start: base + v.range![0], end: base + v.range![1], severity: 'warning', code: 'front-matter', message });
    if (k === 'temperature' && !(typeof val === 'number' && val >= 0 && val <= 2)) bad('config.temperature should be a number from 0 to 2');
    if (k === 'maxOutputTokens' && !(typeof val === 'number' && Number.isInteger(val) && val > 0)) bad('config.maxOutputTokens should be a positive integer');
  }
}

/** Top-level variables of input.schema, in Picoschema (`name?(type, doc): ...`) or JSON Schema (`properties:`) form. */
function readSchema(node: Node | null, base: number, fm: FrontMatter): void {
  if (!node) return;
  if (isScalar(node)) {
    fm.schemaOpaque = true; // a named schema resolved elsewhere
    return;
  }
  if (!isMap(node)) return;
  const propsPair = node.items.find((p) => pairKey(p) === 'properties');
  const typePair = node.items.find((p) => pairKey(p) === 'type');
  if (propsPair && isMap(propsPair.value)) {
    const required = node.items.find((p) => pairKey(p) === 'required');
    const req = new Set(required && isSeq(required.value) ? required.value.items.map((i) => String(isScalar(i) ? i.value : '')) : []);
    for (const p of propsPair.value.items) {
      const name = pairKey(p);
      if (!name) continue;
      const r = (p.key as Node).range!;
      const v = p.value && isMap(p.value) ? (p.value.toJSON() as Record<string, unknown>) : {};
      const type = typeof v.type === 'string' ? v.type : Array.isArray(v.type) ? v.type.join('|') : 'any';
      const doc = typeof v.description === 'string' ? v.description : undefined;
      addVar(fm, { name, optional: !req.has(name), type, doc, keyStart: base + r[0], keyEnd: base + r[1] });
    }
    return;
  }
  if (typePair) return; // a JSON Schema without properties declares no variables
  for (const p of node.items) {
    const key = pairKey(p);
    if (!key) continue;
    const r = (p.key as Node).range!;
    if (key === '(*)') {
      fm.schemaOpaque = true; // wildcard: any variable name is allowed
      continue;
    }
    const paren = key.indexOf('(');
    const rawName = paren === -1 ? key : key.slice(0, paren);
    const optional = rawName.endsWith('?');
    const name = optional ? rawName.slice(0, -1) : rawName;
    let type: string;
    let doc: string | undefined;
    const value = p.value as Node | null;
    if (paren !== -1) {
      const [t, d] = splitDoc(key.slice(paren + 1, key.endsWith(')') ? -1 : undefined));
      doc = d;
      if (t === 'array') {
        type = `array<${isScalar(value) ? splitDoc(String(value.value))[0] : 'object'}>`;
        // `name(array): string, doc`: dotprompt keeps the doc as the items' description.
        if (!doc && isScalar(value)) doc = splitDoc(String(value.value))[1];
      }
      else if (t === 'enum') type = `enum(${isSeq(value) ? value.items.map((i) => String(isScalar(i) ? i.value : '?')).join('|') : '?'})`;
      else if (t === 'object') type = 'object';
      else {
        type = t;
        fm.diags.push({ start: base + r[0], end: base + r[1], severity: 'error', code: 'schema', message: `Picoschema: '${name}(${t}, ...)' must be object, array or enum (dotprompt rejects other parenthetical types)` });
      }
    } else if (value && isScalar(value)) {
      const [t, d] = splitDoc(String(value.value ?? ''));
      type = t;
      doc = d;
      if (!SCALARS.includes(t)) {
        const vr = value.range!;
        fm.diags.push({ start: base + vr[0], end: base + vr[1], severity: 'warning', code: 'schema', message: `Picoschema type '${t}' is not a scalar type (${SCALARS.join(', ')}): dotprompt's render fails with "could not find schema with name '${t}'" unless such a schema is registered${t === 'array' || t === 'object' ? `; write '${name}(${t}, ${d ?? 'documentation'}): any'` : ''}` });
      }
    } else if (value && isMap(value)) {
      type = 'object';
    } else {
      type = 'any';
    }
    addVar(fm, { name, optional, type, doc, keyStart: base + r[0], keyEnd: base + r[1] });
  }
}

function addVar(fm: FrontMatter, v: InputVariable): void {
  fm.variables.push(v);
  if (!v.doc) {
    fm.diags.push({ start: v.keyStart, end: v.keyEnd, severity: 'warning', code: 'undocumented-variable', message: `Variable '${v.name}' has no documentation: write '${v.name}: ${v.type}, what it holds'` });
  }
}

/** Picoschema's "type, description" split at the first comma. */
function splitDoc(s: string): [string, string | undefined] {
  const i = s.indexOf(',');
  if (i === -1) return [s.trim(), undefined];
  const d = s.slice(i + 1).trim();
  return [s.slice(0, i).trim(), d === '' ? undefined : d];
}
