// Prompt variants: named sets of ablation switches (and optionally an agent topology), kept in the workspace
// file `.waypoint/variants.yaml`. Every ablation id is on unless a variant turns it off, except blocks written
// {{#ablation "id" default="off"}}: those are opt-in additions, on only where a variant lists them under `on`.
//
//   active: default
//   variants:
//     no_replan:
//       description: Planner is not asked to check each step against the new state
//       off: [planner.replan_check]
//     ma:
//       agent: ma            # MALMM's fixed-cycle baseline with the same prompts
//     three_robots:
//       agents: 3            # team size (LLaMAR)
//       limits: {maxSteps: 40}
//     hints:
//       on: [supervisor.routing_hints]   # a default="off" block (an opt-in addition) turned on
import { parseDocument } from 'yaml';
import * as z from 'zod';
import { closestName } from '../closest.js';
import type { HostIO } from '../host.js';
import { ABLATION_ID, PromptError } from './render.js';

export const VARIANTS_FILE = '.waypoint/variants.yaml';

const VariantSpec = z
  .object({
    description: z.string().optional(),
    /** Agent topology inside the architecture, e.g. malmm | ma | sa | sa_nofeedback. */
    agent: z.string().optional(),
    off: z.array(z.string().regex(ABLATION_ID)).optional(),
    on: z.array(z.string().regex(ABLATION_ID)).optional(),
    /** Team size for simulators that take one (LLaMAR's 1-5 agents). */
    agents: z.number().int().positive().optional(),
    /** Architecture limits by their seed names (checked against the architecture's declarations when a run starts). */
    limits: z.record(z.string(), z.union([z.number(), z.boolean()])).optional(),
  })
  .strict();
export type VariantSpec = z.infer<typeof VariantSpec>;

const VariantsFile = z
  .object({
    active: z.string().optional(),
    variants: z.record(z.string().regex(/^[A-Za-z0-9_.-]+$/), VariantSpec.nullable()).optional(),
  })
  .strict();

export interface VariantSet {
  active: string;
  variants: Record<string, VariantSpec>;
}

export interface ResolvedVariant {
  name: string;
  agent?: string;
  /** Only ids a variant mentions; absent ids keep their block's default (on, unless written default="off"). */
  ablations: Record<string, boolean>;
  description?: string;
  agents?: number;
  limits?: Record<string, number | boolean>;
}

export const DEFAULT_VARIANT = 'default';

export function parseVariants(path: string, text: string): VariantSet {
  const doc = parseDocument(text, { prettyErrors: false });
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    throw new PromptError(path, text.slice(0, e.pos[0]).split('\n').length, `invalid YAML: ${e.message.split('\n')[0]}`);
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    throw new PromptError(path, 1, `invalid YAML: ${err instanceof Error ? err.message : String(err)}`);
  }
  const parsed = VariantsFile.safeParse(value ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new PromptError(path, undefined, `invalid variants file at ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  const variants: Record<string, VariantSpec> = {};
  for (const [name, spec] of Object.entries(parsed.data.variants ?? {})) variants[name] = spec ?? {};
  return { active: parsed.data.active ?? DEFAULT_VARIANT, variants };
}

export async function loadVariants(io: HostIO, path: string): Promise<VariantSet> {
  if (!(await io.exists(path))) return { active: DEFAULT_VARIANT, variants: {} };
  return parseVariants(path, await io.readText(path));
}

/**
 * Resolves a variant by name: the workspace file first, then the architecture's built-in variants
 * (e.g. MALMM's `ma` and `sa` baselines), then `default` (everything on).
 */
export function resolveVariant(name: string, set: VariantSet, builtIn: Record<string, VariantSpec> = {}): ResolvedVariant {
  const spec = set.variants[name] ?? builtIn[name] ?? (name === DEFAULT_VARIANT ? {} : undefined);
  if (!spec) {
    const known = [...new Set([DEFAULT_VARIANT, ...Object.keys(builtIn), ...Object.keys(set.variants)])].sort();
    const near = closestName(name, known);
    throw new Error(`unknown variant '${name}'${near ? ` (did you mean '${near}'?)` : ''}; known: ${known.join(', ')}`);
  }
  const ablations: Record<string, boolean> = {};
  for (const id of spec.off ?? []) ablations[id] = false;
  for (const id of spec.on ?? []) ablations[id] = true;
  return {
    name,
    agent: spec.agent,
    ablations,
    description: spec.description,
    ...(spec.agents !== undefined ? { agents: spec.agents } : {}),
    ...(spec.limits !== undefined ? { limits: { ...spec.limits } } : {}),
  };
}

/**
 * Flips one ablation in a variant and returns the new file text (comments and order kept where possible). A
 * `default="off"` block (`defaultOn` false) is turned on by listing it under `on`; other ids by leaving `off`.
 */
export function setAblationInVariantsText(text: string, variant: string, id: string, on: boolean, defaultOn = true): string {
  const doc = parseDocument(text || 'variants: {}\n');
  if (!doc.has('variants')) doc.set('variants', doc.createNode({}));
  const path = ['variants', variant];
  if (!doc.hasIn(path) || doc.getIn(path) === null) doc.setIn(path, doc.createNode({}));
  const offList = ((doc.getIn([...path, 'off']) as { toJSON(): string[] } | undefined)?.toJSON?.() ?? []) as string[];
  const onList = ((doc.getIn([...path, 'on']) as { toJSON(): string[] } | undefined)?.toJSON?.() ?? []) as string[];
  const nextOff = offList.filter((x) => x !== id);
  const nextOn = onList.filter((x) => x !== id);
  if (!on && defaultOn) nextOff.push(id);
  if (on && !defaultOn) nextOn.push(id);
  if (nextOff.length > 0) doc.setIn([...path, 'off'], doc.createNode(nextOff, { flow: true }));
  else if (doc.hasIn([...path, 'off'])) doc.deleteIn([...path, 'off']);
  if (nextOn.length > 0) doc.setIn([...path, 'on'], doc.createNode(nextOn, { flow: true }));
  else if (doc.hasIn([...path, 'on'])) doc.deleteIn([...path, 'on']);
  return doc.toString();
}
