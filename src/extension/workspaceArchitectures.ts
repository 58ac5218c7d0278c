// The extension host's side of workspace architectures (docs/architectures.md, "Bring your own"): the folders
// under each workspace folder's .waypoint/architectures/, the `waypoint.architectures.paths` setting's folders and
// $WAYPOINT_ARCHITECTURE_PATH are loaded with the CLI's loader (src/architectures/workspace.ts) and registered
// beside the built-ins, so the Agents view, live runs, the Testing view and the prompt checks see them. Reloads
// (a file changed, the setting changed) are serialised; a refused folder is kept as a problem with file:line for
// the view and the diagnostics, and the other architectures keep working. No `vscode` here (unit-tested).
import { isAbsolute, join, relative } from 'node:path';
import { architectureRoots as rootsFor, architecturePathValue, ARCHITECTURE_PATH_ENV, refusalLine, resolveArchitecturePaths, WORKSPACE_ARCHITECTURES_DIR, type RefusedArchitecture } from '../core/architecture/workspace.js';

export interface ArchitectureSources {
  /** Local workspace folders, the first one first (the one relative setting paths are read from). */
  folders: readonly string[];
  /** `waypoint.architectures.paths` as written. */
  paths: readonly string[];
  /** Loading runs the folders' code: only in a trusted workspace. */
  trusted: boolean;
}

export interface ReloadOutcome {
  /** Ids registered by this load, with their folders. */
  loaded: { id: string; folder: string }[];
  refused: RefusedArchitecture[];
  /** Why nothing was loaded (Restricted Mode), if so. */
  skipped?: string;
}

export type ReloadFn = (o: { workspace?: string; roots: readonly string[] }) => Promise<{ loaded: { def: { id: string }; folder: string }[]; refused: RefusedArchitecture[] }>;

/**
 * The roots a host loads from: the first folder as the workspace (its .waypoint/architectures/), the other
 * folders' .waypoint/architectures/, the setting's folders, then $WAYPOINT_ARCHITECTURE_PATH of `env`.
 */
export function architectureRoots(s: Pick<ArchitectureSources, 'folders' | 'paths'>, env: Readonly<Record<string, string | undefined>> = process.env): { workspace?: string; roots: string[] } {
  return rootsFor(s.folders, s.paths, env[ARCHITECTURE_PATH_ENV]);
}

/**
 * The environment entry for a process the extension starts (the CLI's doctor, the debug adapter): the setting's
 * folders, the other workspace folders' architecture folders and the host's own $WAYPOINT_ARCHITECTURE_PATH, so
 * the child loads what the extension loaded. Empty when there is nothing to add.
 */
export function architectureEnv(s: Pick<ArchitectureSources, 'folders' | 'paths'>, env: Readonly<Record<string, string | undefined>> = process.env): Record<string, string> {
  const [first, ...others] = s.folders;
  const value = architecturePathValue([...others.map((f) => join(f, WORKSPACE_ARCHITECTURES_DIR)), ...resolveArchitecturePaths(s.paths, first)], env[ARCHITECTURE_PATH_ENV]);
  return value !== undefined ? { [ARCHITECTURE_PATH_ENV]: value } : {};
}

/** Whether `file` lies inside one of `roots`. */
export function isUnderAny(file: string, roots: readonly string[]): boolean {
  return roots.some((root) => {
    const rel = relative(root, file);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  });
}

export class WorkspaceArchitectureHost {
  #last: ReloadOutcome = { loaded: [], refused: [] };
  #chain: Promise<unknown> = Promise.resolve();
  #sources: ArchitectureSources | undefined;

  /** `reload` defaults to the CLI's loader, imported when first used (it brings esbuild and every loop). */
  constructor(private readonly reloadFn?: ReloadFn) {}

  /** What the last finished load registered and refused. */
  get last(): ReloadOutcome {
    return this.#last;
  }

  /** Every root the last load read, each folder's own included (what a run or sweep process is told to load too). */
  roots(): string[] {
    if (!this.#sources) return [];
    return [...new Set([...this.#sources.folders.map((f) => join(f, WORKSPACE_ARCHITECTURES_DIR)), ...architectureRoots(this.#sources).roots])];
  }

  /** Loads again from `sources`, after any load in progress; resolves with this load's outcome. */
  reload(sources: ArchitectureSources): Promise<ReloadOutcome> {
    const next = this.#chain.then(() => this.#load(sources));
    this.#chain = next.catch(() => undefined);
    return next;
  }

  /** Resolves when the loads asked for so far have finished (a command that names an architecture waits for it). */
  async ready(): Promise<void> {
    await this.#chain;
  }

  async #load(sources: ArchitectureSources): Promise<ReloadOutcome> {
    this.#sources = sources;
    if (!sources.trusted) {
      this.#last = { loaded: [], refused: [], skipped: 'Restricted Mode: workspace architectures are code and load only in a trusted workspace' };
      return this.#last;
    }
    const reload = this.reloadFn ?? (await import('../architectures/workspace.js')).reloadArchitectures;
    const r = await reload(architectureRoots(sources));
    this.#last = { loaded: r.loaded.map((l) => ({ id: l.def.id, folder: l.folder })), refused: r.refused };
    return this.#last;
  }
}

/** One output line per refusal and one summary line, for the "Waypoint" output channel. */
export function reloadLines(r: ReloadOutcome): { info: string[]; warn: string[] } {
  if (r.skipped) return { info: [`workspace architectures not loaded: ${r.skipped}`], warn: [] };
  const info = r.loaded.length > 0 ? [`workspace architectures: ${r.loaded.map((l) => `${l.id} (${l.folder})`).join(', ')}`] : [];
  return { info, warn: r.refused.map(refusalLine) };
}
