// What every host does with the architectures a workspace brings (docs/architectures.md, "Bring your own"): load
// the folders under <workspace>/.waypoint/architectures/ and the roots in $WAYPOINT_ARCHITECTURE_PATH, compile them
// with the Node loader, and register the good ones beside the built-ins. The CLI and the debug adapter call it.
import { delimiter, resolve } from 'node:path';
import { loadWorkspaceArchitectures, type RefusedArchitecture } from '../core/architecture/workspace.js';
import { compileAndImport } from '../core/node/loadModule.js';
import { nodeIO } from '../core/node/nodeHost.js';
import { architectures, registerArchitecture } from './registry.js';

/** Extra roots from $WAYPOINT_ARCHITECTURE_PATH (folders of architecture folders, separated like $PATH). */
export function architecturePathRoots(env: Readonly<Record<string, string | undefined>> = process.env): string[] {
  return (env.WAYPOINT_ARCHITECTURE_PATH ?? '').split(delimiter).filter((p) => p.trim() !== '').map((p) => resolve(p));
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
