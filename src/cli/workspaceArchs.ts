// The CLI's side of workspace architectures (src/architectures/workspace.ts): before a command that takes an
// architecture parses its options, the folders under <workspace>/.waypoint/architectures/ and under each folder in
// $WAYPOINT_ARCHITECTURE_PATH are compiled, checked and registered like the built-in five. A refused folder is one
// stderr line with file:line and the cause; naming it with --arch is bad input (exit 2).
import { registerWorkspaceArchitectures } from '../architectures/workspace.js';
import { refusalLine, type RefusedArchitecture } from '../core/architecture/workspace.js';
import { displayPath } from './run.js';
import { UsageError } from './options.js';

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
