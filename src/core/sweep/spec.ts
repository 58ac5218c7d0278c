// A sweep file (YAML): architecture x tasks x variants x seeds x repeats with one model's settings, limits, a budget
// and rate limits. Parsed and checked up front against the registry, the variants file and the prompts, so a
// misspelt task, variant or ablation id fails before any model call, naming it. Expansion gives every episode a
// deterministic key (a readable prefix + a hash of everything that makes the episode what it is); the key names the
// run folder, so a resumed sweep or a shard knows which episodes are done without a coordinator.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import * as z from 'zod';
import { getArchitecture, ARCHITECTURES } from '../agents/registry.js';
import type { HostIO } from '../host.js';
import { canonicalJson } from '../llm/cache.js';
import { REFERENCE_PROFILES, type ReferenceProfile } from '../llm/reference/policy.js';
import { ABLATION_ID } from '../prompt/render.js';
import { loadVariants, resolveVariant, VARIANTS_FILE } from '../prompt/variants.js';
import type { ModelSpec } from '../runs/launch.js';
import { resolvePromptPaths } from '../runs/promptPaths.js';
import { taskCatalog } from '../sim/mujoco/index.js';

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
    /** Episodes at once (worker processes). */
    concurrency: z.number().int().positive().max(64).default(1),
    /** Use the response cache (the reference model's answers too, so a cell that differs after turn k re-asks nothing before k). */
    cache: z.boolean().default(true),
    budget: z.object({ tokens: z.number().int().positive().optional(), cost: z.number().positive().optional() }).strict().optional(),
    rateLimit: z.object({ requestsPerMinute: z.number().positive().optional(), tokensPerMinute: z.number().positive().optional() }).strict().optional(),
    /** Price per million tokens by model name; overrides .waypoint/prices.yaml. */
    prices: z.record(z.string(), Price).optional(),
    /** The matrix's baseline column (significance is against it); default the first variant. */
    baseline: z.string().optional(),
  })
  .strict();
export type SweepSpecInput = z.input<typeof SweepSpecSchema>;
export type SweepSpec = z.infer<typeof SweepSpecSchema>;

export interface SweepCell {
  /** Column name. */
  name: string;
  variant: string;
  ablations: Record<string, boolean>;
}

export interface SweepEpisode {
  key: string;
  task: string;
  cell: string;
  variant: string;
  ablations: Record<string, boolean>;
  seed: number;
  repeat: number;
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
}

export class SweepSpecError extends Error {}

/** Parses YAML text; schema errors name the file, line and field. */
export function parseSweepSpec(text: string, file: string): SweepSpec {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const pos = lc.linePos(e.pos[0]);
    throw new SweepSpecError(`${file}:${pos.line}: ${e.message.split('\n')[0]}`);
  }
  const r = SweepSpecSchema.safeParse(doc.toJS());
  if (!r.success) {
    const issue = r.error.issues[0]!;
    let node = issue.path.length > 0 ? doc.getIn(issue.path, true) : undefined;
    // An unknown key: point at the key itself, in the map the path names.
    const unknown = issue.code === 'unrecognized_keys' ? (issue as { keys: string[] }).keys[0] : undefined;
    if (unknown !== undefined) {
      const map = (issue.path.length > 0 ? doc.getIn(issue.path, true) : doc.contents) as { items?: { key: { value?: unknown; range?: [number, number] } }[] } | undefined;
      node = map?.items?.find((p) => p.key?.value === unknown)?.key as never;
    }
    const range = (node as { range?: [number, number] } | undefined)?.range;
    const line = range ? lc.linePos(range[0]).line : 1;
    const where = [...issue.path, ...(unknown !== undefined ? [unknown] : [])].join('.') || '(top level)';
    throw new SweepSpecError(`${file}:${line}: ${where}: ${issue.message}`);
  }
  return r.data;
}

export function modelSpecOf(m: SweepSpec['model'], env: NodeJS.ProcessEnv): ModelSpec {
  if ((REFERENCE_PROFILES as readonly string[]).includes(m.name)) return { kind: 'reference', baseUrl: m.baseUrl, profile: m.name as ReferenceProfile };
  if (!m.name.startsWith('openai:') || m.name.length <= 7) throw new SweepSpecError(`model.name must be ${REFERENCE_PROFILES.join(', ')} or openai:<model>, got '${m.name}'`);
  return { kind: 'openai', model: m.name.slice(7), baseUrl: m.baseUrl ?? 'https://api.openai.com/v1', apiKey: env[m.apiKeyEnv], temperature: m.temperature, maxTokens: m.maxTokens, seed: m.seed, ...(m.maxTokensField ? { maxTokensField: m.maxTokensField } : {}) };
}

function seedList(s: SweepSpec['seeds']): number[] {
  if (typeof s === 'number') return Array.from({ length: s }, (_, i) => i);
  if (Array.isArray(s)) return [...new Set(s)];
  return Array.from({ length: s.count }, (_, i) => s.from + i);
}

/** The key's hash input: everything that makes two episodes the same episode (never the API key). */
export function episodeKey(parts: { arch: string; task: string; seed: number; variant: string; ablations: Record<string, boolean>; model: ModelSpec; limits?: Record<string, unknown>; repeat: number; cell: string }): string {
  const { apiKey: _k, ...model } = parts.model as ModelSpec & { apiKey?: string };
  const input = { arch: parts.arch, task: parts.task, seed: parts.seed, variant: parts.variant, ablations: parts.ablations, model, limits: parts.limits ?? {}, repeat: parts.repeat };
  const hash = createHash('sha256').update(canonicalJson(input)).digest('hex').slice(0, 10);
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_.]/g, '_');
  return `${safe(parts.arch)}-${safe(parts.task)}-${safe(parts.cell)}-s${parts.seed}-r${parts.repeat}-${hash}`;
}

/**
 * Checks the spec against what exists (architecture, tasks, variants, ablation ids in the prompts the episodes will
 * use) and expands it. Throws SweepSpecError naming the first unknown id; nothing has called a model yet.
 */
export async function planSweep(spec: SweepSpec, ctx: { io: HostIO; workspace: string; builtInPromptRoot: string; promptDir?: string; file: string; env?: NodeJS.ProcessEnv }): Promise<PlannedSweep> {
  const where = ctx.file;
  if (!ARCHITECTURES[spec.arch]) throw new SweepSpecError(`${where}: unknown architecture '${spec.arch}'; known: ${Object.keys(ARCHITECTURES).sort().join(', ')}`);
  const arch = getArchitecture(spec.arch);
  const tasks = taskCatalog().filter((t) => t.apis.includes(arch.api));
  for (const t of spec.tasks) {
    if (!tasks.some((x) => x.id === t)) throw new SweepSpecError(`${where}: unknown task '${t}' for ${spec.arch}; known: ${tasks.map((x) => x.id).join(', ')}`);
  }
  const variantsFile = await loadVariants(ctx.io, join(ctx.workspace, VARIANTS_FILE));
  const paths = await resolvePromptPaths(ctx.io, arch, { workspace: ctx.workspace, promptDir: ctx.promptDir, builtInPromptRoot: ctx.builtInPromptRoot });
  const promptTexts = await Promise.all(Object.values(paths).map((p) => ctx.io.readText(p)));
  const cells: SweepCell[] = [];
  for (const v of spec.variants) {
    const entry = typeof v === 'string' ? { variant: v } : v;
    try {
      resolveVariant(entry.variant, variantsFile, arch.builtInVariants);
    } catch (err) {
      throw new SweepSpecError(`${where}: ${(err as Error).message}`);
    }
    for (const id of Object.keys(entry.ablations ?? {})) {
      if (!ABLATION_ID.test(id)) throw new SweepSpecError(`${where}: invalid ablation id '${id}'`);
      // A misspelt id would leave the cell identical to its variant and the comparison silently meaningless.
      if (!(id in (arch.codeAblations ?? {})) && !promptTexts.some((t) => t.includes(`"${id}"`))) throw new SweepSpecError(`${where}: unknown ablation '${id}' (in no ${spec.arch} prompt: ${Object.values(paths).join(', ')})`);
    }
    const name = 'name' in entry && entry.name ? entry.name : entry.variant;
    if (cells.some((c) => c.name === name)) throw new SweepSpecError(`${where}: two variants named '${name}' (give one a name:)`);
    cells.push({ name, variant: entry.variant, ablations: entry.ablations ?? {} });
  }
  const baseline = spec.baseline ?? cells[0]!.name;
  if (!cells.some((c) => c.name === baseline)) throw new SweepSpecError(`${where}: baseline '${baseline}' is not one of the variants (${cells.map((c) => c.name).join(', ')})`);
  const model = modelSpecOf(spec.model, ctx.env ?? process.env);
  const seeds = seedList(spec.seeds);
  const episodes: SweepEpisode[] = [];
  for (const task of spec.tasks)
    for (const c of cells)
      for (const seed of seeds)
        for (let repeat = 0; repeat < spec.repeats; repeat++) {
          const key = episodeKey({ arch: spec.arch, task, seed, variant: c.variant, ablations: c.ablations, model, limits: spec.limits, repeat, cell: c.name });
          episodes.push({ key, task, cell: c.name, variant: c.variant, ablations: c.ablations, seed, repeat });
        }
  const name = spec.name ?? (ctx.file.split('/').pop() ?? 'sweep').replace(/\.ya?ml$/, '').replace(/[^A-Za-z0-9_.-]/g, '_');
  return { name, spec, cells, seeds, model, episodes, baseline };
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
