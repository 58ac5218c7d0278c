// `.waypoint/tests.yaml`: which episodes the Testing view lists (architecture x tasks x seeds, optionally x
// variants, with one model). Pure: YAML text in, a typed file or problems with 1-based lines out, so a bad file
// becomes a diagnostic on the line it is about and never an exception. docs/testing.md documents the fields.
import { LineCounter, parseDocument, type Document } from 'yaml';
import * as z from 'zod';

export const TESTS_FILE = '.waypoint/tests.yaml';

/** reference | reference-flawed (scripted policies, not LLMs) | openai:<model> | settings (the waypoint.model.* settings). */
export const ModelName = z.string().regex(/^(reference|reference-flawed|settings|openai:\S+)$/, 'model must be reference, reference-flawed, settings or openai:<model-name>');

const Id = z.string().regex(/^[A-Za-z0-9_.@-]+$/, 'letters, digits, _ . - @ only');

/** A count (seeds 0..n-1), a list, or a range; the same three forms as a sweep file's `seeds`. */
export const Seeds = z.union([
  z.number().int().positive().max(1000),
  z.array(z.number().int().nonnegative()).min(1),
  z.object({ from: z.number().int().nonnegative().default(0), count: z.number().int().positive().max(1000) }).strict(),
]);

const BaseUrl = z.string().regex(/^https?:\/\//, 'baseUrl must start with http:// or https://');
const Limits = z.record(z.string(), z.union([z.number(), z.boolean()]));

export const TestsEntry = z
  .object({
    architecture: Id,
    /** Default: the architecture's default task. */
    tasks: z.array(Id).min(1).optional(),
    /** Default: seed 0. */
    seeds: Seeds.optional(),
    /** One test per variant under each seed; default: one test with the active variant. */
    variants: z.array(Id).min(1).optional(),
    model: ModelName.optional(),
    baseUrl: BaseUrl.optional(),
    limits: Limits.optional(),
  })
  .strict();
export type TestsEntry = z.infer<typeof TestsEntry>;

export const TestsFileSchema = z
  .object({
    /** Model of every entry that names none. */
    model: ModelName.default('reference'),
    baseUrl: BaseUrl.optional(),
    /** Limits laid under every entry's own. */
    limits: Limits.optional(),
    tests: z.array(TestsEntry).min(1),
  })
  .strict();
export type TestsFile = z.infer<typeof TestsFileSchema>;

export interface FileProblem {
  file: string;
  /** 1-based. */
  line: number;
  message: string;
}

/** Where things are in the YAML text: 1-based lines of nodes by their path. */
export interface LineIndex {
  lineOf(path: (string | number)[]): number | undefined;
}

function lineIndex(doc: Document, lc: LineCounter): LineIndex {
  return {
    lineOf(path) {
      const node = (path.length > 0 ? doc.getIn(path, true) : doc.contents) as { range?: [number, number] } | undefined;
      return node?.range ? lc.linePos(node.range[0]).line : undefined;
    },
  };
}

/** Line positions of any YAML text (a sweep file's, whose own parser checks it). */
export function yamlLineIndex(text: string): LineIndex {
  const lc = new LineCounter();
  return lineIndex(parseDocument(text, { lineCounter: lc, prettyErrors: false }), lc);
}

/** The first line of a path that exists: the node itself, else the nearest parent that does. */
function nearestLine(lines: LineIndex, path: (string | number)[]): number {
  for (let n = path.length; n >= 0; n--) {
    const l = lines.lineOf(path.slice(0, n));
    if (l !== undefined) return l;
  }
  return 1;
}

/** Parses YAML text into a checked schema, or the first problem with its line (YAML syntax, then the schema). */
export function parseYamlWithLines<T>(text: string, file: string, schema: z.ZodType<T>, hint?: (unknownKey: string) => string | undefined): { value?: T; lines: LineIndex; problem?: FileProblem } {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false });
  const lines = lineIndex(doc, lc);
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    return { lines, problem: { file, line: lc.linePos(e.pos[0]).line, message: `invalid YAML: ${e.message.split('\n')[0]}` } };
  }
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    return { lines, problem: { file, line: 1, message: `invalid YAML: ${err instanceof Error ? err.message : String(err)}` } };
  }
  const r = schema.safeParse(raw ?? {});
  if (r.success) return { value: r.data, lines };
  // A misspelt key explains the missing one it stands for: report it first.
  const issue = r.error.issues.find((i) => i.code === 'unrecognized_keys') ?? r.error.issues[0]!;
  const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
  const unknown = issue.code === 'unrecognized_keys' ? (issue as { keys: string[] }).keys[0] : undefined;
  let line = nearestLine(lines, path);
  if (unknown !== undefined) {
    // Point at the unknown key itself, in the map the path names.
    const map = (path.length > 0 ? doc.getIn(path, true) : doc.contents) as { items?: { key: { value?: unknown; range?: [number, number] } }[] } | undefined;
    const key = map?.items?.find((p) => p.key?.value === unknown)?.key;
    if (key?.range) line = lc.linePos(key.range[0]).line;
  }
  const where = [...path, ...(unknown !== undefined ? [unknown] : [])].join('.') || '(top level)';
  const extra = unknown !== undefined ? hint?.(unknown) : undefined;
  return { lines, problem: { file, line, message: `${where}: ${issue.message}${extra ? ` (${extra})` : ''}` } };
}

export function parseTestsFile(text: string, file: string): { value?: TestsFile; lines: LineIndex; problem?: FileProblem } {
  return parseYamlWithLines(text, file, TestsFileSchema, (key) => (key === 'arch' ? 'did you mean architecture?' : key === 'seed' ? 'did you mean seeds?' : key === 'task' ? 'did you mean tasks?' : undefined));
}

export function seedList(s: z.infer<typeof Seeds> | undefined): number[] {
  if (s === undefined) return [0];
  if (typeof s === 'number') return Array.from({ length: s }, (_, i) => i);
  if (Array.isArray(s)) return [...new Set(s)];
  return Array.from({ length: s.count }, (_, i) => s.from + i);
}
