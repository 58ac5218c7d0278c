// Everything a run can be refused for before it starts, checked before any trace, model call or simulator step:
// the architecture, its limits, the variant and its agent topology, the prompt folder, every prompt file the topology uses
// (parsed, so a syntax error names its file and line; its variables checked against what the architecture passes
// the role, so a misspelt one is refused instead of rendering empty), and every ablation id the variant or a sweep switches
// (an id no prompt of the topology has would make the switch silently do nothing). Each refusal names what is
// wrong and the valid choices.
import { join } from 'node:path';
import { resolveLimits } from '../architecture/limits.js';
import type { Architectures } from '../architecture/registry.js';
import type { ArchitectureDefinition } from '../architecture/types.js';
import type { HostIO } from '../host.js';
import { listAblationIds, loadPromptFile, PromptError } from '../prompt/render.js';
import { loadVariants, resolveVariant, VARIANTS_FILE, type ResolvedVariant } from '../prompt/variants.js';
import { resolvePromptPaths } from './promptPaths.js';

/** Why a run did not start; `file`/`line` point at the prompt or variants file at fault. */
export class StartError extends Error {
  override name = 'StartError';
  constructor(
    readonly reason: 'invalid_input' | 'prompt_error',
    message: string,
    readonly file?: string,
    readonly line?: number,
  ) {
    super(message);
  }
}

export interface PreflightOptions {
  /** The architectures the host registered; `arch` names one of them. */
  architectures: Architectures;
  workspace: string;
  arch: string;
  variant?: string;
  /** Switches laid over the variant's (a paired sweep's side); each id must be in the topology's prompts. */
  ablations?: Record<string, boolean>;
  promptDir?: string;
  builtInPromptRoot: string;
  /** The architecture's limits by name (e.g. { maxTurns: 30 }), checked against its declarations. */
  limits?: Readonly<Record<string, unknown>>;
}

export interface Preflight {
  arch: ArchitectureDefinition;
  variant: ResolvedVariant;
  /** Agent topology the variant runs (e.g. malmm, ma, sa). */
  agent: string;
  /** Role id -> prompt file, for every role of the architecture. */
  promptPaths: Record<string, string>;
  /** Ablation ids in the prompts the topology uses, in order of appearance. */
  ablationIds: string[];
}

function list(xs: readonly string[]): string {
  return xs.length ? xs.join(', ') : '(none)';
}

export async function preflightRun(io: HostIO, o: PreflightOptions): Promise<Preflight> {
  let arch: ArchitectureDefinition;
  try {
    arch = o.architectures.get(o.arch);
  } catch (err) {
    throw new StartError('invalid_input', err instanceof Error ? err.message : String(err));
  }
  const variantsPath = join(o.workspace, VARIANTS_FILE);
  let variant: ResolvedVariant;
  try {
    const variants = await loadVariants(io, variantsPath);
    variant = resolveVariant(o.variant ?? variants.active, variants, arch.builtInVariants);
  } catch (err) {
    if (err instanceof PromptError) throw new StartError('invalid_input', err.detail, err.file, err.line);
    throw new StartError('invalid_input', err instanceof Error ? err.message : String(err));
  }
  // A variant may set limits (LLaMAR's step cap); the command line's win.
  const limits = resolveLimits(arch, { ...(variant.limits ?? {}), ...(o.limits ?? {}) });
  if (!limits.ok) throw new StartError('invalid_input', limits.error);
  const agent = variant.agent ?? arch.defaultTopology;
  const topology = arch.topologies[agent];
  if (!topology) {
    throw new StartError('invalid_input', `variant '${variant.name}' names agent topology '${agent}', which ${arch.id} does not have; valid: ${list(Object.keys(arch.topologies))}`, variantsPath);
  }

  if (o.promptDir !== undefined) {
    const files = arch.roles.map((r) => r.promptFile);
    if (!(await io.exists(o.promptDir))) throw new StartError('invalid_input', `prompt folder ${o.promptDir} does not exist (it should hold ${arch.id}'s ${list(files)})`);
    let present: string[] = [];
    try {
      present = (await io.list(o.promptDir)).filter((f) => files.includes(f));
    } catch {
      throw new StartError('invalid_input', `prompt folder ${o.promptDir} is not a readable folder (it should hold ${arch.id}'s ${list(files)})`);
    }
    if (present.length === 0) throw new StartError('invalid_input', `prompt folder ${o.promptDir} has none of ${arch.id}'s prompt files (${list(files)})`);
  }
  const promptPaths = await resolvePromptPaths(io, arch, o);

  const ablationIds: string[] = [];
  const used: string[] = [];
  for (const role of topology.roles) {
    const path = promptPaths[role];
    if (!path) throw new StartError('prompt_error', `no prompt file configured for role '${role}'`);
    const spec = arch.roles.find((r) => r.id === role);
    try {
      const file = await loadPromptFile(io, path, spec && { arch: arch.id, id: spec.id, variables: spec.variables });
      for (const id of listAblationIds(file.source)) if (!ablationIds.includes(id)) ablationIds.push(id);
    } catch (err) {
      if (err instanceof PromptError) throw new StartError('prompt_error', err.detail, err.file, err.line);
      throw err;
    }
    used.push(path.slice(path.lastIndexOf('/') + 1));
  }

  // Switches the loop reads in code count as ablations too (MALMM's executor and state-text additions).
  const codeIds = Object.keys(arch.codeAblations ?? {}).filter((id) => !ablationIds.includes(id));
  const known = (id: string) => ablationIds.includes(id) || codeIds.includes(id);
  const where = `the prompts ${arch.id}/${agent} runs (${list(used)})`;
  const idsThere = `ids there: ${list(ablationIds)}${codeIds.length > 0 ? `; switched in ${arch.id}'s code: ${list(codeIds)}` : ''}`;
  for (const id of Object.keys(variant.ablations)) {
    if (!known(id)) {
      throw new StartError('invalid_input', `variant '${variant.name}' switches ablation '${id}', which is not in ${where}; ${idsThere}`, variant.name in arch.builtInVariants ? undefined : variantsPath);
    }
  }
  for (const id of Object.keys(o.ablations ?? {})) {
    if (!known(id)) throw new StartError('invalid_input', `ablation '${id}' is not in ${where}; ${idsThere}`);
  }
  ablationIds.push(...codeIds);
  variant = o.ablations ? { ...variant, ablations: { ...variant.ablations, ...o.ablations } } : variant;
  return { arch, variant, agent, promptPaths, ablationIds };
}
