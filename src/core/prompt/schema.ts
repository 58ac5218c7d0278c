// The shapes of prompt variables, read from Picoschema (dotprompt's schema shorthand, the syntax of a prompt's
// `input.schema`) or plain JSON Schema: what an architecture declares it passes to a role, and what a prompt file
// declares it reads. `name?` marks a variable that may be absent, as dotprompt's PicoschemaParser reads it.
// Pure (no I/O) and synchronous, so the language server's analysis and the engine share it.

/** A Picoschema value: `type, description`, a nested object of fields, or an enum's values. */
export type Picoschema = { [key: string]: string | Picoschema | readonly (string | number | boolean | null)[] };

export type ShapeType = 'any' | 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'object' | 'array' | 'enum';

export interface VarShape {
  type: ShapeType;
  /** Declared with `?` (Picoschema) or left out of `required` (JSON Schema). */
  optional: boolean;
  /** An object's declared fields; undefined when the object is open (any field may exist). */
  fields?: Record<string, VarShape>;
  /** An array's item shape. */
  items?: VarShape;
}

export interface SchemaShapes {
  vars: Record<string, VarShape>;
  /** Any name may exist beyond `vars` (a Picoschema `(*)` wildcard, a named schema, additionalProperties). */
  open: boolean;
}

const SCALARS = new Set(['any', 'string', 'number', 'integer', 'boolean', 'null']);
const ANY: VarShape = { type: 'any', optional: false };

/** Reads a Picoschema or JSON Schema object (a prompt's `input.schema`, a role's declaration) into shapes. */
export function readSchemaShapes(schema: unknown): SchemaShapes {
  if (schema === null || schema === undefined) return { vars: {}, open: false };
  if (typeof schema !== 'object' || Array.isArray(schema)) return { vars: {}, open: true }; // a named schema
  const s = schema as Record<string, unknown>;
  if (typeof s.properties === 'object' || typeof s.type === 'string') {
    const shape = fromJsonSchema(s, false);
    return { vars: shape.fields ?? {}, open: shape.fields === undefined };
  }
  const shape = fromPicoObject(s, false);
  return { vars: shape.fields ?? {}, open: shape.fields === undefined };
}

/** A Picoschema object: `name`, `name?`, `name(array)`, `name?(object, doc)`, `name(enum)`, `(*)`. */
function fromPicoObject(obj: Record<string, unknown>, optional: boolean): VarShape {
  const fields: Record<string, VarShape> = {};
  let open = false;
  for (const [key, value] of Object.entries(obj)) {
    if (key === '(*)') {
      open = true;
      continue;
    }
    const paren = key.indexOf('(');
    const rawName = (paren === -1 ? key : key.slice(0, paren)).trim();
    const opt = rawName.endsWith('?');
    const name = opt ? rawName.slice(0, -1) : rawName;
    const kind = paren === -1 ? undefined : key.slice(paren + 1).split(/[,)]/)[0]!.trim();
    if (kind === 'array') fields[name] = { type: 'array', optional: opt, items: fromPicoValue(value, false) };
    else if (kind === 'enum') fields[name] = { type: 'enum', optional: opt };
    else if (kind === 'object') fields[name] = { ...fromPicoValue(value, opt), type: 'object' };
    else fields[name] = fromPicoValue(value, opt);
  }
  return { type: 'object', optional, ...(open ? {} : { fields }) };
}

function fromPicoValue(value: unknown, optional: boolean): VarShape {
  if (typeof value === 'string') {
    const type = value.split(',')[0]!.trim();
    // A name that is not a scalar type is a schema registered elsewhere: its fields are unknown here.
    return { type: SCALARS.has(type) ? (type as ShapeType) : 'any', optional };
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) return fromPicoObject(value as Record<string, unknown>, optional);
  return { ...ANY, optional };
}

function fromJsonSchema(s: Record<string, unknown>, optional: boolean): VarShape {
  const types = (Array.isArray(s.type) ? s.type : [s.type]).filter((t): t is string => typeof t === 'string' && t !== 'null');
  const type = types.length === 1 && (SCALARS.has(types[0]!) || types[0] === 'object' || types[0] === 'array') ? (types[0] as ShapeType) : Array.isArray(s.enum) ? 'enum' : 'any';
  if (type === 'array') {
    const items = s.items && typeof s.items === 'object' ? fromJsonSchema(s.items as Record<string, unknown>, false) : ANY;
    return { type, optional, items };
  }
  if (typeof s.properties === 'object' && s.properties !== null) {
    const required = new Set(Array.isArray(s.required) ? s.required.map(String) : []);
    const fields: Record<string, VarShape> = {};
    for (const [name, p] of Object.entries(s.properties as Record<string, unknown>)) {
      fields[name] = p && typeof p === 'object' ? fromJsonSchema(p as Record<string, unknown>, !required.has(name)) : { ...ANY, optional: !required.has(name) };
    }
    const open = s.additionalProperties !== undefined && s.additionalProperties !== false;
    return { type: 'object', optional, ...(open ? {} : { fields }) };
  }
  return { type, optional };
}

/** Where a value passed for `shape` does not match it (undeclared or missing fields, lists that are not lists). */
export function valueProblems(value: unknown, shape: VarShape, path: string): string[] {
  if (value === undefined || value === null) return shape.optional ? [] : [`${path} is missing`];
  if (shape.type === 'array') {
    if (!Array.isArray(value)) return [`${path} is declared a list but is ${typeof value}`];
    return shape.items ? value.flatMap((v, i) => valueProblems(v, { ...shape.items!, optional: false }, `${path}[${i}]`)).slice(0, 3) : [];
  }
  if (shape.type === 'object' && shape.fields) {
    if (typeof value !== 'object' || Array.isArray(value)) return [`${path} is declared an object but is ${Array.isArray(value) ? 'a list' : typeof value}`];
    return fieldProblems(value as Record<string, unknown>, shape.fields, path);
  }
  return [];
}

/** Fields of `value` that `fields` does not declare, and declared required fields it lacks. */
export function fieldProblems(value: Record<string, unknown>, fields: Record<string, VarShape>, path: string): string[] {
  const out: string[] = [];
  const at = (k: string) => (path ? `${path}.${k}` : k);
  for (const k of Object.keys(value)) if (!(k in fields)) out.push(`${at(k)} is not declared`);
  for (const [k, f] of Object.entries(fields)) out.push(...valueProblems(value[k], f, at(k)));
  return out;
}
