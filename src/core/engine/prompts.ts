// The episode's prompt files: hashed for episode_start, loaded and checked against the roles before the run, and
// re-read after a debugger pause so an edit made while stopped takes effect on the next call.
import type { PendingEvent, TraceEvent } from '../../protocol/trace.js';
import type { ArchitectureDefinition } from '../architecture/types.js';
import type { HostIO } from '../host.js';
import type { PromptRole } from '../prompt/analyze.js';
import { loadPromptFile, PromptError, type PromptFile } from '../prompt/render.js';
import { fieldProblems, readSchemaShapes } from '../prompt/schema.js';
import { EpisodeAbort, messageOf } from './endReasons.js';
import { sha256Hex } from './hash.js';

/** A role's prompt as last loaded: re-read from disk when the episode has stopped since (a debugger pause). */
export interface LoadedPrompt {
  path: string;
  text: string;
  sha256: string;
  file: PromptFile;
  /** controller.promptEpoch when the file was last checked. */
  checkedAt: number;
}

/** The role a prompt file serves, with what the architecture passes it, for the prompt's variable check. */
function promptRole(arch: ArchitectureDefinition, role: string): PromptRole | undefined {
  const r = arch.roles.find((x) => x.id === role);
  return r && { arch: arch.id, id: r.id, variables: r.variables };
}

/** How one call's variables differ from the role's declaration (RoleSpec.variables). */
export function passedVariableProblems(arch: ArchitectureDefinition, role: string, variables: Record<string, unknown>): string[] {
  const r = arch.roles.find((x) => x.id === role);
  return r ? fieldProblems(variables, readSchemaShapes(r.variables).vars, '') : [];
}

/** The prompt files hashed first, so the episode_start records exactly which text ran, even if one fails to parse. */
export async function hashPromptFiles(io: HostIO, roleIds: readonly string[], promptPaths: Record<string, string>): Promise<{ refs: { role: string; path: string; sha256: string }[]; sources: Record<string, string> }> {
  const refs: { role: string; path: string; sha256: string }[] = [];
  const sources: Record<string, string> = {};
  for (const role of roleIds) {
    const path = promptPaths[role];
    if (!path) continue;
    try {
      const text = await io.readText(path);
      sources[role] = text;
      refs.push({ role, path, sha256: sha256Hex(text) });
    } catch {
      refs.push({ role, path, sha256: '' });
    }
  }
  return { refs, sources };
}

/** Every role's prompt file parsed and checked; the first problem ends the episode as a prompt error. */
export async function loadPrompts(o: { io: HostIO; arch: ArchitectureDefinition; roleIds: readonly string[]; promptPaths: Record<string, string>; sources: Record<string, string>; epoch: number }): Promise<Record<string, LoadedPrompt>> {
  const prompts: Record<string, LoadedPrompt> = {};
  for (const role of o.roleIds) {
    const path = o.promptPaths[role];
    if (!path) throw new EpisodeAbort('prompt_error', `no prompt file configured for role '${role}'`);
    try {
      const text = o.sources[role] ?? (await o.io.readText(path));
      const file = await loadPromptFile({ ...o.io, readText: async () => text }, path, promptRole(o.arch, role));
      prompts[role] = { path, text, sha256: sha256Hex(text), file, checkedAt: o.epoch };
    } catch (err) {
      if (err instanceof PromptError) throw new EpisodeAbort('prompt_error', err.detail, err.file, err.line);
      // The path goes in `file` (the end message names it once).
      throw new EpisodeAbort('prompt_error', `cannot read the prompt file: ${messageOf(err)}`, path);
    }
  }
  return prompts;
}

/** The prompt file of a role as it is now, if the episode has stopped since it was last read. */
export async function currentPrompt(
  prompts: Record<string, LoadedPrompt>,
  role: string,
  o: { io: HostIO; arch: ArchitectureDefinition; epoch: number; turn: () => number; emit: (e: PendingEvent) => Promise<TraceEvent> },
): Promise<LoadedPrompt> {
  const lp = prompts[role];
  if (!lp) throw new EpisodeAbort('prompt_error', `role '${role}' has no loaded prompt file`);
  if (lp.checkedAt === o.epoch) return lp;
  lp.checkedAt = o.epoch;
  let text: string;
  try {
    text = await o.io.readText(lp.path);
  } catch (err) {
    await o.emit({ type: 'error', turn: o.turn(), kind: 'prompt_error', message: `cannot re-read ${lp.path} after the pause (${messageOf(err)}); this call uses the version read before`, file: lp.path });
    return lp;
  }
  const sha = sha256Hex(text);
  if (sha === lp.sha256) return lp;
  try {
    const file = await loadPromptFile({ ...o.io, readText: async () => text }, lp.path, promptRole(o.arch, role));
    Object.assign(lp, { text, sha256: sha, file });
  } catch (err) {
    if (!(err instanceof PromptError)) throw err;
    // A half-finished edit must not end a debugging session: say so, and keep the last version that parsed.
    await o.emit({ type: 'error', turn: o.turn(), kind: 'prompt_error', message: `${err.message}; this call uses the version read before`, file: err.file, line: err.line });
  }
  return lp;
}
