// What every host does with the architectures a workspace brings (docs/architectures.md, "Bring your own"): load
// the folders under <workspace>/.waypoint/architectures/ and the roots in $WAYPOINT_ARCHITECTURE_PATH, compile them
// with the Node loader, and register the good ones beside the built-ins. The CLI and the debug adapter call it.
import { resolve } from 'node:path';
import { ARCHITECTURE_PATH_ENV, architecturePathRoots as rootsOf, loadWorkspaceArchitectures, reloadWorkspaceArchitectures as reloadInto, type RefusedArchitecture, type WorkspaceArchitectures } from '../core/architecture/workspace.js';
import { compileAndImport } from '../core/node/loadModule.js';
import { nodeIO } from '../core/node/nodeHost.js';
import { architectures, registerArchitecture, unregisterArchitecture } from './registry.js';

/** Extra roots from $WAYPOINT_ARCHITECTURE_PATH (folders of architecture folders, separated like $PATH). */
export function architecturePathRoots(env: Readonly<Record<string, string | undefined>> = process.env): string[] {
  return rootsOf(env[ARCHITECTURE_PATH_ENV]);
}

const done = new Map<string, RefusedArchitecture[]>();

/** Loads and registers the workspace's architectures once per workspace in this process; returns the refused folders. */
export async function registerWorkspaceArchitectures(workspace: string, env: Readonly<Record<string, string | undefined>> = process.env): Promise<RefusedArchitecture[]> {
  const key = resolve(workspace);
  const known = done.get(key);
  if (known) return known;
  const r = await loadWorkspaceArchitectures(nodeIO, { workspace: key, extraRoots: architecturePathRoots(env), taken: architectures.ids(), load: compileAndImport });
  for (const { def } of r.loaded) registerArchitecture(def);
  done.set(key, r.refused);
  return r.refused;
}

/** Ids the last reloadArchitectures registered in this process. */
let reloaded: string[] = [];

/**
 * For hosts that outlive an edit (the extension host, a warm run process): the workspace architectures this
 * process registered before are taken out, and the folders under `workspace` (when given) and `roots` loaded again.
 */
export async function reloadArchitectures(o: { workspace?: string; roots: readonly string[] }): Promise<WorkspaceArchitectures> {
  const sink = { ids: () => architectures.ids(), register: registerArchitecture, unregister: unregisterArchitecture };
  const r = await reloadInto(nodeIO, sink, reloaded, { ...(o.workspace !== undefined ? { workspace: resolve(o.workspace) } : {}), extraRoots: o.roots, load: compileAndImport });
  reloaded = r.loaded.map((l) => l.def.id);
  return r;
}
