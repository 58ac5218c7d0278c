// The CLI's side of workspace architectures (src/core/architecture/workspace.ts): before a command that takes an
// architecture parses its options, the folders under <workspace>/.waypoint/architectures/ and under each folder in
// $WAYPOINT_ARCHITECTURE_PATH are compiled, checked and registered like the built-in five. A refused folder is one
// stderr line with file:line and the cause; naming it with --arch is bad input (exit 2).
import { delimiter, resolve } from 'node:path';
import { architectures, registerArchitecture } from '../architectures/registry.js';
import { loadWorkspaceArchitectures, refusalLine, type RefusedArchitecture } from '../core/architecture/workspace.js';
import { compileAndImport } from '../core/node/loadModule.js';
import { nodeIO } from '../core/node/nodeHost.js';
import { displayPath } from './run.js';
import { UsageError } from './options.js';

/** Extra roots from $WAYPOINT_ARCHITECTURE_PATH (folders of architecture folders, separated like $PATH). */
export function architecturePathRoots(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.WAYPOINT_ARCHITECTURE_PATH ?? '').split(delimiter).filter((p) => p.trim() !== '').map((p) => resolve(p));
}

const done = new Map<string, RefusedArchitecture[]>();

/** Loads and registers the workspace's architectures once per workspace; returns the refused folders. */
export async function registerWorkspaceArchitectures(workspace: string): Promise<RefusedArchitecture[]> {
  const key = resolve(workspace);
  const known = done.get(key);
  if (known) return known;
  const r = await loadWorkspaceArchitectures(nodeIO, { workspace: key, extraRoots: architecturePathRoots(), taken: architectures.ids(), load: compileAndImport });
  for (const { def } of r.loaded) registerArchitecture(def);
  done.set(key, r.refused);
  return r.refused;
}

/** The value of `--name v` / `--name=v` in raw arguments, before the command's parser runs. */
function rawOption(args: readonly string[], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === `--${name}`) return args[i + 1];
    if (args[i]!.startsWith(`--${name}=`)) return args[i]!.slice(name.length + 3);
  }
  return undefined;
}

/**
 * Run by main before parsing a command's options (its --arch choices must include the workspace's). Refusals are
 * printed; when --arch names a refused one, the command is refused with that refusal.
 */
export async function prepareArchitectures(args: readonly string[], stderr: NodeJS.WritableStream = process.stderr): Promise<void> {
  const refused = await registerWorkspaceArchitectures(rawOption(args, 'workspace') ?? process.cwd());
  const arch = rawOption(args, 'arch');
  const named = refused.find((r) => r.id === arch);
  const line = (r: RefusedArchitecture) => refusalLine({ ...r, file: displayPath(r.file) });
  if (named) throw new UsageError(line(named));
  for (const r of refused) stderr.write(`warning: ${line(r)}\n`);
}
