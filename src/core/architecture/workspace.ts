// Architectures a workspace brings: each folder `.waypoint/architectures/<id>/` (and each folder listed in extra
// roots) holds an `index.ts`, `index.mjs` or `index.js` whose default export (or export `architecture`) is an
// ArchitectureDefinition, and its prompts in `prompts/`. Loading compiles and imports the module (the host's
// `load`, src/core/node/loadModule.ts), checks the definition as the registry would and then some, and returns it
// with its folder; a folder that fails is returned refused with file:line and the cause, never thrown.
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { API_CATALOG } from '../apis/catalog.js';
import type { HostIO } from '../host.js';
import { manifestProblems } from './limits.js';
import type { ArchitectureDefinition } from './types.js';

export const WORKSPACE_ARCHITECTURES_DIR = join('.waypoint', 'architectures');
/** Entry files tried in this order. */
export const ENTRY_FILES = ['index.ts', 'index.mts', 'index.mjs', 'index.js'] as const;
const ID_RE = /^[a-z][a-z0-9_-]*$/;

export interface LoadedArchitecture {
  def: ArchitectureDefinition;
  folder: string;
}

export interface RefusedArchitecture {
  /** The folder's name, which is the id it would have had. */
  id: string;
  folder: string;
  file: string;
  line?: number;
  message: string;
}

export type ModuleLoader = (entry: string) => Promise<{ ok: true; exports: Record<string, unknown> } | { ok: false; file: string; line?: number; message: string }>;

export interface WorkspaceArchitectures {
  loaded: LoadedArchitecture[];
  refused: RefusedArchitecture[];
}

/** Folders of architecture folders a host adds to each workspace's own (separated like $PATH). */
export const ARCHITECTURE_PATH_ENV = 'WAYPOINT_ARCHITECTURE_PATH';

/** The roots in a $WAYPOINT_ARCHITECTURE_PATH value, absolute. */
export function architecturePathRoots(value: string | undefined): string[] {
  return (value ?? '').split(delimiter).filter((p) => p.trim() !== '').map((p) => resolve(p));
}

/** The folders of the `waypoint.architectures.paths` setting: absolute as given, relative ones from `base` (the workspace folder). */
export function resolveArchitecturePaths(paths: readonly string[], base: string | undefined): string[] {
  return paths.filter((p) => p.trim() !== '').flatMap((p) => (isAbsolute(p) ? [resolve(p)] : base ? [resolve(base, p)] : []));
}

/**
 * $WAYPOINT_ARCHITECTURE_PATH for a process the extension starts (the CLI, the debug adapter, run and sweep
 * processes): the setting's folders, then those of the extension host's own environment; undefined when neither has any.
 */
export function architecturePathValue(roots: readonly string[], inherited: string | undefined): string | undefined {
  const all = [...new Set([...roots, ...architecturePathRoots(inherited)])];
  return all.length > 0 ? all.join(delimiter) : undefined;
}

/**
 * The roots a long-lived host (the extension, the language server) loads from: the first folder as the workspace
 * (its .waypoint/architectures/), the other folders' .waypoint/architectures/, the setting's folders (relative
 * ones from the first folder), then the roots of a $WAYPOINT_ARCHITECTURE_PATH value.
 */
export function architectureRoots(folders: readonly string[], paths: readonly string[], envValue: string | undefined): { workspace?: string; roots: string[] } {
  const [first, ...others] = folders;
  const roots = [...others.map((f) => join(f, WORKSPACE_ARCHITECTURES_DIR)), ...resolveArchitecturePaths(paths, first), ...architecturePathRoots(envValue)];
  return { ...(first !== undefined ? { workspace: first } : {}), roots: [...new Set(roots)] };
}

/** `file:line: message` for one refusal (the line when known). */
export function refusalLine(r: RefusedArchitecture): string {
  return `${r.file}${r.line !== undefined ? `:${r.line}` : ''}: architecture '${r.id}' refused: ${r.message}`;
}

/** The architecture folders under `roots` (each root a folder of folders), in name order per root. */
async function architectureFolders(io: HostIO, roots: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const root of roots) {
    if (!(await io.exists(root))) continue;
    for (const name of (await io.list(root)).sort()) {
      const folder = join(root, name);
      if (!name.startsWith('.') && (await io.exists(join(folder, 'prompts')) || (await entryOf(io, folder)) !== undefined)) out.push(folder);
    }
  }
  return out;
}

async function entryOf(io: HostIO, folder: string): Promise<string | undefined> {
  for (const f of ENTRY_FILES) if (await io.exists(join(folder, f))) return join(folder, f);
  return undefined;
}

/**
 * Loads every architecture folder under the workspace's `.waypoint/architectures/` and `extraRoots`. `taken` are
 * the ids already registered (the built-ins): a folder that reuses one is refused, as is a second folder with an id
 * an earlier one took.
 */
export async function loadWorkspaceArchitectures(io: HostIO, o: { workspace?: string; extraRoots?: readonly string[]; taken: readonly string[]; load: ModuleLoader }): Promise<WorkspaceArchitectures> {
  const result: WorkspaceArchitectures = { loaded: [], refused: [] };
  const taken = new Set(o.taken);
  const roots = [...(o.workspace !== undefined ? [join(o.workspace, WORKSPACE_ARCHITECTURES_DIR)] : []), ...(o.extraRoots ?? [])];
  for (const folder of await architectureFolders(io, [...new Set(roots)])) {
    const r = await loadArchitectureFolder(io, folder, taken, o.load);
    if ('def' in r) {
      taken.add(r.def.id);
      result.loaded.push(r);
    } else {
      result.refused.push(r);
    }
  }
  return result;
}

/** Where loaded workspace architectures go: the hosts' registries (src/architectures/registry.ts), or the manifests alone. */
export interface ArchitectureSink {
  ids(): string[];
  register(def: ArchitectureDefinition): void;
  unregister(id: string): void;
}

/**
 * For a host that lives on while the folders change (the extension, the language server, a warm run process):
 * takes out the architectures the previous load registered (`previous`, their ids), loads the folders again and
 * registers what loads. The built-ins are never taken out: `previous` holds only ids this returned before.
 */
export async function reloadWorkspaceArchitectures(
  io: HostIO,
  sink: ArchitectureSink,
  previous: readonly string[],
  o: { workspace?: string; extraRoots?: readonly string[]; load: ModuleLoader },
): Promise<WorkspaceArchitectures> {
  for (const id of previous) sink.unregister(id);
  const r = await loadWorkspaceArchitectures(io, { ...o, taken: sink.ids() });
  for (const { def } of r.loaded) sink.register(def);
  return r;
}

/** One folder: compiled, imported and checked. */
export async function loadArchitectureFolder(io: HostIO, folder: string, taken: ReadonlySet<string>, load: ModuleLoader): Promise<LoadedArchitecture | RefusedArchitecture> {
  const id = folder.split(/[\\/]/).pop()!;
  const refuse = (file: string, message: string, line?: number): RefusedArchitecture => ({ id, folder, file, message, ...(line !== undefined ? { line } : {}) });
  if (!ID_RE.test(id)) return refuse(folder, 'the folder name is the architecture id and must be lower-case letters, digits, - or _ (starting with a letter)');
  if (taken.has(id)) return refuse(folder, `the id '${id}' is already taken (a built-in architecture or an earlier folder); rename the folder and the definition's id`);
  const entry = await entryOf(io, folder);
  if (!entry) return refuse(folder, `no loop module: expected one of ${ENTRY_FILES.join(', ')}`);
  const mod = await load(entry);
  if (!mod.ok) return refuse(mod.file, mod.message, mod.line);
  const exported = mod.exports.default ?? mod.exports.architecture;
  if (exported === undefined) return refuse(entry, 'the module exports no architecture: export the ArchitectureDefinition as default (or as `architecture`)');
  const shape = shapeProblems(exported, id);
  if (shape.length > 0) return refuse(entry, shape.join('; '));
  // Absent declarations an architecture need not make: no variants, end reasons, metrics or limits of its own.
  const given = exported as Partial<ArchitectureDefinition>;
  const def = { ...given, builtInVariants: given.builtInVariants ?? {}, endReasons: given.endReasons ?? {}, metrics: given.metrics ?? {}, limits: given.limits ?? [], folder } as ArchitectureDefinition;
  const problems = manifestProblems(def);
  if (problems.length > 0) return refuse(entry, problems.join('; '));
  for (const role of def.roles) {
    const prompt = join(folder, 'prompts', role.promptFile);
    if (!(await io.exists(prompt))) return refuse(prompt, `role '${role.id}' names prompt file ${role.promptFile}, which is not in ${join(folder, 'prompts')}`);
  }
  return { def, folder };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What the definition lacks or has wrong before manifestProblems can read it, one phrase each. */
export function shapeProblems(v: unknown, folderId: string): string[] {
  if (!isRecord(v)) return ['the exported architecture is not an object'];
  const out: string[] = [];
  if (v.id !== folderId) out.push(`its id is ${JSON.stringify(v.id)} but the folder is named '${folderId}' (they must match)`);
  for (const k of ['label', 'description', 'paper', 'defaultTopology'] as const) if (typeof v[k] !== 'string') out.push(`'${k}' must be a string`);
  if (typeof v.run !== 'function') out.push("'run' must be a function (ctx: EpisodeContext) => Promise<ArchOutcome>");
  if (typeof v.api !== 'string' || !API_CATALOG.has(v.api)) out.push(`'api' must name a robot API family the simulator serves (${[...API_CATALOG.keys()].join(', ')}), got ${JSON.stringify(v.api)}`);
  if (v.simulator !== 'tabletop' && v.simulator !== 'household') out.push(`'simulator' must be 'tabletop' or 'household', got ${JSON.stringify(v.simulator)}`);
  if (!Array.isArray(v.roles) || v.roles.length === 0) out.push("'roles' must be a non-empty array");
  else {
    v.roles.forEach((r: unknown, i) => {
      if (!isRecord(r) || typeof r.id !== 'string' || typeof r.promptFile !== 'string' || !isRecord(r.variables)) out.push(`roles[${i}] needs an id, a promptFile and its variables (Picoschema)`);
    });
  }
  if (!isRecord(v.topologies) || Object.values(v.topologies).some((t) => !isRecord(t) || !Array.isArray(t.roles))) out.push("'topologies' must map ids to { label, description, roles: [...] }");
  for (const k of ['builtInVariants', 'endReasons', 'metrics'] as const) if (v[k] !== undefined && !isRecord(v[k])) out.push(`'${k}' must be an object`);
  if (v.limits !== undefined && !Array.isArray(v.limits)) out.push("'limits' must be an array");
  for (const k of ['renderObservation', 'registerReferencePolicies'] as const) if (v[k] !== undefined && typeof v[k] !== 'function') out.push(`'${k}' must be a function`);
  return out;
}
