// A sweep file (YAML): architecture x tasks x variants x seeds x repeats with one model's settings, limits, a budget
// and rate limits. Parsed and checked up front with the same checks `waypoint run` makes (limits by their declared
// names, tasks of the architecture on its simulator, variants, topologies, prompt files and ablation ids: preflight),
// each refusal naming the sweep file's line, so nothing wrong reaches a model call. Expansion gives every episode a
// deterministic key: a readable prefix + a hash of everything that makes the episode what it is (the sweep's name,
// the engine's behaviour version, the simulator, the prompt version, the resolved variant and limits, the model,
// task, seed and repeat); the key names the run folder, so a resumed sweep or a shard knows which episodes are done
// without a coordinator, an edited prompt re-runs exactly the episodes that use it, and two sweeps never share one.
import { createHash } from 'node:crypto';
import { LineCounter, parseDocument, type Document } from 'yaml';
import * as z from 'zod';
import { resolveLimits } from '../architecture/limits.js';
import type { Architectures } from '../architecture/registry.js';
import { closestName } from '../closest.js';
import { ENGINE_BEHAVIOUR_VERSION } from '../engine/behaviourVersion.js';
import type { HostIO } from '../host.js';
import { canonicalJson } from '../llm/cache.js';
import { localEmbeddingClient } from '../llm/localEmbedding/client.js';
import { localModelDir } from '../llm/localEmbedding/name.js';
import { LocalModelError } from '../llm/localEmbedding/errors.js';
import { REFERENCE_PROFILES, type ReferenceProfile } from '../llm/reference/policy.js';
import type { ModelSpec } from '../runs/launch.js';
import { preflightRun, StartError } from '../runs/preflight.js';
import { embeddedCatalog, taskProblem, type TaskCatalog } from '../runs/taskCheck.js';
import { ALL_TASKS, Paper } from './paper.js';
import { promptIdentityOf, promptVersion, type PromptIdentity } from './promptVersion.js';

const Id = z.string().regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, _ . - only');

const Seeds = z.union([
  z.number().int().positive().max(10000),
  z.array(z.number().int().nonnegative()).min(1),
  z.object({ from: z.number().int().nonnegative().default(0), count: z.number().int().positive().max(10000) }).strict(),
]);

const VariantEntry = z.union([
  Id,
  z
    .object({
      /** Column name in the matrix; default the variant's name. */
      name: Id.optional(),
      variant: Id,
      /** Switches laid over the variant's own. */
      ablations: z.record(z.string(), z.boolean()).optional(),
    })
    .strict(),
]);

const Model = z
  .object({
    /** reference | reference-flawed | openai:<model> */
    name: z.string().default('reference'),
    baseUrl: z.string().optional(),
    /** Env var holding the API key (never the key itself). */
    apiKeyEnv: z.string().default('OPENAI_API_KEY'),
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: z.number().int().positive().optional(),
    /** max_completion_tokens for OpenAI models that refuse max_tokens (`waypoint doctor` says which). */
    maxTokensField: z.enum(['max_tokens', 'max_completion_tokens']).optional(),
    seed: z.number().int().optional(),
    /**
     * LLaMAR's action matcher: an embedding model at the endpoint (or at embeddingBaseUrl), a local
     * sentence-transformers folder (`local:<dir>`, relative to the workspace), or 'none' for the lexical matcher.
     */
    embeddingModel: z.string().min(1).optional(),
    embeddingBaseUrl: z.string().regex(/^https?:\/\/[^/]/, 'an http:// or https:// URL').optional(),
  })
  .strict();

const Price = z.object({ inputPerMTok: z.number().nonnegative(), outputPerMTok: z.number().nonnegative() }).strict();

export const SweepSpecSchema = z
  .object({
    /** Names the sweep's folder (.waypoint/sweeps/<name>); default the file's base name. */
    name: Id.optional(),
    arch: z.string(),
    tasks: z.array(z.string()).min(1),
    variants: z.array(VariantEntry).min(1),
    seeds: Seeds,
    repeats: z.number().int().positive().max(100).default(1),
    model: Model.default({ name: 'reference', apiKeyEnv: 'OPENAI_API_KEY' }),
    limits: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])).optional(),
    /** Send the simulator's camera frames to the model as image parts (a vision model; `waypoint run --vision`). */
    vision: z.boolean().optional(),
    /** Episodes in flight at once, over all worker processes. */
    concurrency: z.number().int().positive().max(64).default(1),
    /** Worker processes the episodes in flight are spread over (default: defaultWorkers). */
    workers: z.number().int().positive().max(64).optional(),
    /** Use the response cache (the reference model's answers too, so a cell that differs after turn k re-asks nothing before k). */
    cache: z.boolean().default(true),
    budget: z.object({ tokens: z.number().int().positive().optional(), cost: z.number().positive().optional() }).strict().optional(),
    rateLimit: z.object({ requestsPerMinute: z.number().positive().optional(), tokensPerMinute: z.number().positive().optional() }).strict().optional(),
    /** Price per million tokens by model name; overrides .waypoint/prices.yaml. */
    prices: z.record(z.string(), Price).optional(),
    /** The matrix's baseline column (significance is against it); default the first variant. */
    baseline: z.string().optional(),
    /** The paper's reported numbers per cell, shown beside this run's in the matrix and the report. */
    paper: Paper.optional(),
  })
  .strict();
export type SweepSpecInput = z.input<typeof SweepSpecSchema>;
export type SweepSpec = z.infer<typeof SweepSpecSchema>;

export interface SweepCell {
  /** Column name. */
  name: string;
  variant: string;
  ablations: Record<string, boolean>;
  /** Prompt version of the cell's episodes (promptVersion.ts); absent in plans written before it existed. */
  promptVersion?: string;
}

export interface SweepEpisode {
  key: string;
  task: string;
  cell: string;
  variant: string;
  ablations: Record<string, boolean>;
  seed: number;
  repeat: number;
  /** The prompt version the episode must run with; a record whose trace ran another is not this episode. */
  promptVersion?: string;
}

/** Which simulator a sweep runs on: the spec as given, and what it reports (the embedded ones: their catalogs). */
export interface SimulatorIdentity {
  spec: string;
  name: string;
  version?: string;
}

export interface PlannedSweep {
  name: string;
  spec: SweepSpec;
  cells: SweepCell[];
  seeds: number[];
  model: ModelSpec;
  /** Every episode in a fixed order (task, cell, seed, repeat). */
  episodes: SweepEpisode[];
  baseline: string;
  simulator?: SimulatorIdentity;
}

export class SweepSpecError extends Error {
  override name = 'SweepSpecError';
}

/** Where each value of a parsed sweep file is (1-based line), for the checks made after parsing. */
const LINES = new WeakMap<SweepSpec, { file: string; lineOf(path: readonly (string | number)[]): number | undefined }>();

/** The keys a map at `path` of the schema allows (an unknown key's message lists them). */
function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let t: z.ZodType | undefined = schema;
  const unwrap = (x: z.ZodType): z.ZodType => {
    if (x instanceof z.ZodDefault || x instanceof z.ZodOptional || x instanceof z.ZodNullable) return unwrap(x.unwrap() as z.ZodType);
    // A union of a scalar and a map (a variant entry, seeds): the map's keys.
    if (x instanceof z.ZodUnion) return (x.options as z.ZodType[]).map(unwrap).find((o) => o instanceof z.ZodObject) ?? x;
    return x;
  };
  for (const step of path) {
    if (!t) return [];
    t = unwrap(t);
    if (t instanceof z.ZodObject) t = (t.shape as Record<string, z.ZodType>)[String(step)];
    else if (t instanceof z.ZodArray) t = t.element as z.ZodType;
    else if (t instanceof z.ZodRecord) t = t.valueType as z.ZodType;
    else return [];
  }
  t = t ? unwrap(t) : undefined;
  return t instanceof z.ZodObject ? Object.keys(t.shape) : [];
}

type Issue = z.core.$ZodIssue;

/** The issue to report: a union's branch that is a map, and an unknown key before what it left missing. */
function chooseIssue(issues: readonly Issue[], prefix: readonly PropertyKey[] = []): Issue {
  const flat: Issue[] = [];
  for (const i of issues) {
    if (i.code === 'invalid_union' && i.errors.length > 0) {
      // The branch that got furthest: the one whose issues are inside the value (a map's keys), not about its type.
      const branch = i.errors.find((e) => e.some((x) => x.code === 'unrecognized_keys' || x.path.length > 0)) ?? i.errors[0]!;
      flat.push(chooseIssue(branch, [...prefix, ...i.path]));
    } else flat.push({ ...i, path: [...prefix, ...i.path] } as Issue);
  }
  return flat.find((i) => i.code === 'unrecognized_keys') ?? flat[0]!;
}

function lineOfNode(doc: Document, lc: LineCounter, path: readonly (string | number)[]): number | undefined {
  const node = path.length > 0 ? doc.getIn(path, true) : doc.contents;
  const range = (node as { range?: [number, number] } | undefined)?.range;
  if (range) return lc.linePos(range[0]).line;
  return path.length > 0 ? lineOfNode(doc, lc, path.slice(0, -1)) : undefined;
}

/** The line of a map's key (an unknown key points at itself). */
function lineOfKey(doc: Document, lc: LineCounter, mapPath: readonly (string | number)[], key: string): number | undefined {
  const map = (mapPath.length > 0 ? doc.getIn(mapPath, true) : doc.contents) as { items?: { key: { value?: unknown; range?: [number, number] } }[] } | undefined;
  const range = map?.items?.find((p) => p.key?.value === key)?.key?.range;
  return range ? lc.linePos(range[0]).line : lineOfNode(doc, lc, mapPath);
}

const where = (path: readonly PropertyKey[]) => path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '') || '(top level)';

/** Parses YAML text; errors name the file, line and field, and an unknown key the valid ones. */
export function parseSweepSpec(text: string, file: string): SweepSpec {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const pos = lc.linePos(e.pos[0]);
    throw new SweepSpecError(`${file}:${pos.line}: ${e.message.split('\n')[0]}`);
  }
  const js = doc.toJS() as unknown;
  if (js === null || typeof js !== 'object' || Array.isArray(js)) throw new SweepSpecError(`${file}:1: a sweep file is a map of keys (${Object.keys(SweepSpecSchema.shape).join(', ')}); docs/sweeps.md`);
  const r = SweepSpecSchema.safeParse(js);
  if (!r.success) {
    const issue = chooseIssue(r.error.issues);
    const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    if (issue.code === 'unrecognized_keys') {
      const key = issue.keys[0]!;
      const valid = keysAt(SweepSpecSchema, path);
      const near = closestName(key, valid);
      const inMap = path.length > 0 ? ` in ${where(path)}` : '';
      throw new SweepSpecError(`${file}:${lineOfKey(doc, lc, path, key) ?? 1}: unknown key '${key}'${inMap}${near ? ` (did you mean '${near}'?)` : ''}; valid keys: ${valid.join(', ')}`);
    }
    const line = lineOfNode(doc, lc, path) ?? 1;
    const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message);
    throw new SweepSpecError(`${file}:${line}: ${where(path)}: ${missing ? 'missing (required)' : issue.message}`);
  }
  checkPaper(r.data, (mapPath, key) => `${file}:${lineOfKey(doc, lc, mapPath, key) ?? 1}`);
  const tooMany = workersProblem(r.data.workers, r.data.concurrency);
  if (tooMany) throw new SweepSpecError(`${file}:${lineOfKey(doc, lc, [], 'workers') ?? 1}: ${tooMany}`);
  LINES.set(r.data, { file, lineOf: (path) => lineOfNode(doc, lc, path) });
  return r.data;
}

/** Why `workers` processes cannot share `concurrency` episodes in flight (each process needs one), or undefined. */
export function workersProblem(workers: number | undefined, concurrency: number, names = { workers: 'workers', concurrency: 'concurrency' }): string | undefined {
  if (workers === undefined || workers <= concurrency) return undefined;
  return `${names.workers} ${workers} is more than ${names.concurrency} ${concurrency} (the episodes in flight, spread over the worker processes): a process would have no episode to run; lower ${names.workers} or raise ${names.concurrency}`;
}

/**
 * Worker processes when the sweep names none: one per core up to 4, never more than the episodes in flight. A
 * process keeps many episodes going while their model calls wait, but its episodes' code blocks take turns in its
 * one Pyodide interpreter and its engine in its one event loop, so it uses about one core: processes beyond the
 * cores add memory (a Pyodide sandbox and a MuJoCo module each) and no speed. The cap keeps a big machine's default
 * tree small; `workers:` (or --workers) raises it for a sweep whose episodes are CPU-bound (a fast local model).
 */
export function defaultWorkers(concurrency: number, cores: number): number {
  return Math.max(1, Math.min(concurrency, cores, 4), Math.ceil(concurrency / MAX_DEFAULT_SLOTS));
}

/**
 * Episodes in flight one process takes by default. Each holds its own MuJoCo model and data in the process's one
 * WebAssembly module: 32 RoCo scenes in one module aborted inside MuJoCo (`native code called abort()`, measured
 * with bench:slow-endpoint), 16 ran.
 */
export const MAX_DEFAULT_SLOTS = 16;

/** Slots of each of `workers` processes sharing `concurrency` episodes in flight: the first ones take the remainder. */
export function slotsPerWorker(concurrency: number, workers: number): number[] {
  return Array.from({ length: workers }, (_, i) => Math.floor(concurrency / workers) + (i < concurrency % workers ? 1 : 0));
}

/** A column's name as the matrix shows it: a named cell's name, else its variant's id. */
export function columnName(v: SweepSpec['variants'][number]): string {
  return typeof v === 'string' ? v : (v.name ?? v.variant);
}

/** The paper's cells must name the sweep's tasks (or all_tasks) and columns; a typo is refused with its line. */
function checkPaper(spec: SweepSpec, at: (mapPath: (string | number)[], key: string) => string): void {
  if (!spec.paper) return;
  const tasks = [...spec.tasks, ALL_TASKS];
  const columns = spec.variants.map(columnName);
  for (const [task, byColumn] of Object.entries(spec.paper.cells)) {
    if (!tasks.includes(task)) {
      const near = closestName(task, tasks);
      throw new SweepSpecError(`${at(['paper', 'cells'], task)}: paper.cells: '${task}' is not a task of this sweep${near ? ` (did you mean '${near}'?)` : ''}; its tasks: ${tasks.join(', ')}`);
    }
    for (const [column, c] of Object.entries(byColumn)) {
      if (!columns.includes(column)) {
        const near = closestName(column, columns);
        throw new SweepSpecError(`${at(['paper', 'cells', task], column)}: paper.cells.${task}: '${column}' is not a column of this sweep${near ? ` (did you mean '${near}'?)` : ''}; its columns: ${columns.join(', ')}`);
      }
      if (typeof c === 'object' && c.ci && !(c.ci[0] <= c.rate && c.rate <= c.ci[1])) throw new SweepSpecError(`${at(['paper', 'cells', task], column)}: paper.cells.${task}.${column}: the interval [${c.ci.join(', ')}] does not contain the rate ${c.rate}`);
    }
  }
}

export function modelSpecOf(m: SweepSpec['model'], env: NodeJS.ProcessEnv): ModelSpec {
  const embedding = { ...(m.embeddingModel ? { embeddingModel: m.embeddingModel } : {}), ...(m.embeddingBaseUrl ? { embeddingBaseUrl: m.embeddingBaseUrl } : {}) };
  if ((REFERENCE_PROFILES as readonly string[]).includes(m.name)) return { kind: 'reference', baseUrl: m.baseUrl, profile: m.name as ReferenceProfile, ...embedding };
  if (!m.name.startsWith('openai:') || m.name.length <= 7) throw new SweepSpecError(`model.name must be ${REFERENCE_PROFILES.join(', ')} or openai:<model>, got '${m.name}'`);
  return { kind: 'openai', model: m.name.slice(7), baseUrl: m.baseUrl ?? 'https://api.openai.com/v1', apiKey: env[m.apiKeyEnv], temperature: m.temperature, maxTokens: m.maxTokens, seed: m.seed, ...(m.maxTokensField ? { maxTokensField: m.maxTokensField } : {}), ...embedding };
}

function seedList(s: SweepSpec['seeds']): number[] {
  if (typeof s === 'number') return Array.from({ length: s }, (_, i) => i);
  if (Array.isArray(s)) return [...new Set(s)];
  return Array.from({ length: s.count }, (_, i) => s.from + i);
}

/** What one cell's episodes run, resolved: the prompt version's inputs, the limits after the variant's, the team size. */
export interface ResolvedCell {
  prompt: PromptIdentity;
  limits: Record<string, number | boolean>;
  agents?: number;
}

/**
 * The key's hash input: everything that makes two episodes the same episode (never the API key), including the
 * sweep (so two sweeps never share a run folder), the engine's behaviour version and the simulator.
 */
export type EpisodeKeyParts = { sweep: string; arch: string; task: string; seed: number; repeat: number; cell: string; variant: string; resolved: ResolvedCell; model: ModelSpec; simulator: SimulatorIdentity | string };

/** What the key hashes (the cell's name is only in the readable prefix). */
export function episodeIdentity(parts: EpisodeKeyParts): Record<string, unknown> {
  const { apiKey: _k, ...model } = parts.model as ModelSpec & { apiKey?: string };
  return { engine: ENGINE_BEHAVIOUR_VERSION, sweep: parts.sweep, arch: parts.arch, task: parts.task, seed: parts.seed, repeat: parts.repeat, variant: parts.variant, ...parts.resolved, model, simulator: parts.simulator };
}

export function episodeKey(parts: EpisodeKeyParts): string {
  const hash = createHash('sha256').update(canonicalJson(episodeIdentity(parts))).digest('hex').slice(0, 10);
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_.]/g, '_');
  return `${safe(parts.sweep)}-${safe(parts.task)}-${safe(parts.cell)}-s${parts.seed}-r${parts.repeat}-${hash}`;
}

export interface PlanContext {
  io: HostIO;
  /** The architectures the host registered; the sweep's `arch` names one of them. */
  architectures: Architectures;
  workspace: string;
  builtInPromptRoot: string;
  promptDir?: string;
  file: string;
  env?: NodeJS.ProcessEnv;
  /** The simulator's spec and tasks, asked of it before planning; default: the architecture's embedded one. */
  simulator?: { spec: string; catalog: TaskCatalog };
  /** The embedded simulator's spec when it carries settings (embedded:robot=iiwa): part of every episode's key. */
  embeddedSpec?: string;
}

/**
 * Checks the spec against what exists, with the checks `waypoint run` makes, and expands it. Throws
 * SweepSpecError naming the sweep file's line and the valid choices; nothing has called a model yet.
 */
export async function planSweep(spec: SweepSpec, ctx: PlanContext): Promise<PlannedSweep> {
  const parsed = LINES.get(spec);
  const at = (path: (string | number)[]) => {
    const line = parsed?.lineOf(path);
    return `${parsed?.file ?? ctx.file}${line !== undefined ? `:${line}` : ''}`;
  };
  if (!ctx.architectures.find(spec.arch)) {
    const known = ctx.architectures.ids().sort();
    const near = closestName(spec.arch, known);
    throw new SweepSpecError(`${at(['arch'])}: unknown architecture '${spec.arch}'${near ? ` (did you mean '${near}'?)` : ''}; known: ${known.join(', ')}`);
  }
  const arch = ctx.architectures.get(spec.arch);
  // A paper that counts other units than episodes names two of the architecture's metrics (IV-B's trials).
  const per = spec.paper?.rateOf;
  if (per) {
    const known = Object.keys(arch.metrics).sort();
    for (const key of ['successes', 'of'] as const) {
      if (known.includes(per[key])) continue;
      const near = closestName(per[key], known);
      throw new SweepSpecError(`${at(['paper', 'rateOf', key])}: paper.rateOf.${key}: '${per[key]}' is not a metric of ${spec.arch}${near ? ` (did you mean '${near}'?)` : ''}; its metrics: ${known.join(', ')}`);
    }
  }
  // Limits by their declared names, as `run --limit` takes them (a variant's own limits are checked per cell).
  const limits = resolveLimits(arch, spec.limits ?? {});
  if (!limits.ok) throw new SweepSpecError(`${at(['limits', limits.name])}: limits.${limits.name}: ${limits.error}`);
  const catalog = ctx.simulator?.catalog ?? (await embeddedCatalog(arch.simulator));
  spec.tasks.forEach((t, i) => {
    const problem = taskProblem(arch, t, catalog);
    if (problem) throw new SweepSpecError(`${at(['tasks', i])}: tasks[${i}]: ${problem}`);
  });
  const cells: SweepCell[] = [];
  const resolved = new Map<string, ResolvedCell>();
  for (const [i, v] of spec.variants.entries()) {
    const entry = typeof v === 'string' ? { variant: v } : v;
    let pre;
    try {
      // The checks a run makes before it starts: variant, topology, prompt folder and files, ablation ids, limits.
      pre = await preflightRun(ctx.io, { architectures: ctx.architectures, workspace: ctx.workspace, arch: spec.arch, variant: entry.variant, ablations: entry.ablations, promptDir: ctx.promptDir, builtInPromptRoot: ctx.builtInPromptRoot, limits: spec.limits });
    } catch (err) {
      if (!(err instanceof StartError)) throw err;
      const cause = err.file ? ` (${err.file}${err.line !== undefined ? `:${err.line}` : ''})` : '';
      throw new SweepSpecError(`${at(['variants', i])}: variants[${i}]: ${err.reason === 'prompt_error' ? 'prompt error: ' : ''}${err.message}${cause}`);
    }
    const name = 'name' in entry && entry.name ? entry.name : entry.variant;
    if (cells.some((c) => c.name === name)) throw new SweepSpecError(`${at(['variants', i])}: two variants named '${name}' (give one a name:)`);
    const cellLimits = resolveLimits(arch, { ...(pre.variant.limits ?? {}), ...(spec.limits ?? {}) });
    if (!cellLimits.ok) throw new SweepSpecError(`${at(['variants', i])}: variants[${i}]: ${cellLimits.error}`);
    const prompt = await promptIdentityOf(ctx.io, pre);
    resolved.set(name, { prompt, limits: cellLimits.limits, ...(pre.variant.agents !== undefined ? { agents: pre.variant.agents } : {}) });
    cells.push({ name, variant: entry.variant, ablations: entry.ablations ?? {}, promptVersion: promptVersion(prompt) });
  }
  const baseline = spec.baseline ?? cells[0]!.name;
  if (!cells.some((c) => c.name === baseline)) throw new SweepSpecError(`${at(['baseline'])}: baseline '${baseline}' is not one of the variants (${cells.map((c) => c.name).join(', ')})`);
  let model: ModelSpec;
  try {
    model = modelSpecOf(spec.model, ctx.env ?? process.env);
  } catch (err) {
    throw new SweepSpecError(`${at(['model', 'name'])}: ${(err as Error).message}`);
  }
  // A local embedding folder is loaded now (once per process): one that cannot be used stops the sweep before it starts.
  const localDir = arch.modelNeeds?.embeddings && model.embeddingModel ? localModelDir(model.embeddingModel, ctx.workspace) : undefined;
  if (localDir !== undefined) {
    try {
      localEmbeddingClient(localDir, model.embeddingModel!);
    } catch (err) {
      if (err instanceof LocalModelError) throw new SweepSpecError(`${at(['model', 'embeddingModel'])}: ${err.message}`);
      throw err;
    }
  }
  const simulator: SimulatorIdentity = { spec: ctx.simulator?.spec ?? ctx.embeddedSpec ?? 'embedded', name: catalog.simulator, ...(catalog.version !== undefined ? { version: catalog.version } : {}) };
  const name = spec.name ?? (ctx.file.split('/').pop() ?? 'sweep').replace(/\.ya?ml$/, '').replace(/[^A-Za-z0-9_.-]/g, '_');
  const seeds = seedList(spec.seeds);
  const episodes: SweepEpisode[] = [];
  for (const task of spec.tasks)
    for (const c of cells)
      for (const seed of seeds)
        for (let repeat = 0; repeat < spec.repeats; repeat++) {
          const key = episodeKey({ sweep: name, arch: spec.arch, task, seed, repeat, cell: c.name, variant: c.variant, resolved: resolved.get(c.name)!, model, simulator });
          episodes.push({ key, task, cell: c.name, variant: c.variant, ablations: c.ablations, seed, repeat, promptVersion: c.promptVersion });
        }
  return { name, spec, cells, seeds, model, episodes, baseline, simulator };
}

/** Parses `i/n` (0-based i); undefined for no sharding. */
export function parseShard(text: string | undefined, env: NodeJS.ProcessEnv = process.env): { index: number; count: number } | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d+|\$JOB_COMPLETION_INDEX|env)\/(\d+)$/.exec(text.trim());
  if (!m) throw new SweepSpecError(`--shard must be i/n (0-based i, or env/n to read JOB_COMPLETION_INDEX), got '${text}'`);
  const count = Number(m[2]);
  const raw = /^\d+$/.test(m[1]!) ? m[1]! : env.JOB_COMPLETION_INDEX;
  if (raw === undefined || !/^\d+$/.test(raw)) throw new SweepSpecError(`--shard ${text}: JOB_COMPLETION_INDEX is not set to an integer`);
  const index = Number(raw);
  if (count < 1 || index >= count) throw new SweepSpecError(`--shard ${text}: index must be in 0..${count - 1}`);
  return { index, count };
}

/**
 * The shard's slice: every count-th episode of the fixed expansion order, starting at index. Every shard computes
 * the same order from the same file, so they agree without talking; round-robin keeps slices within one episode
 * of each other in size and mixes tasks and variants in each.
 */
export function shardOf(episodes: SweepEpisode[], shard: { index: number; count: number } | undefined): SweepEpisode[] {
  if (!shard || shard.count === 1) return episodes;
  return episodes.filter((_, i) => i % shard.count === shard.index);
}
