#!/usr/bin/env node
// `waypoint`: the headless host over the engine core. Each subcommand is one declaration (options.ts) in its own
// file, listed once in commands.ts; `waypoint --help` and each command's --help are generated from them.
import { closestName } from '../core/closest.js';
import { COMMANDS } from './commands.js';
import { installProcessHandlers, shutdownExitStatus } from './lifecycle.js';
import { formatCommandHelp, HELP_FLAGS, parseCommandArgs, UsageError } from './options.js';
import { prepareArchitectures } from './workspaceArchs.js';

/** Commands that name an architecture (by --arch or in a sweep file) and so see the workspace's own. */
const TAKES_ARCHITECTURES = new Set(['archs', 'sweep']);

function usage(): string {
  const w = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  return [
    'waypoint — prompt engineering and trajectory debugging for LLM robot agents',
    '',
    'Usage: waypoint <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.filter((c) => !c.hidden).map((c) => `  ${c.name.padEnd(w)}${c.summary}`),
    '',
    'Run `waypoint <command> --help` for the options of a command.',
    'Exit status: 0 success, 1 task failure, 2 bad input or a run that could not start, 3 (doctor) chat completions do not work, 128+n when stopped by signal n.',
  ].join('\n');
}

let current: string | undefined;

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    process.stderr.write(usage() + '\n');
    return 2;
  }
  if (HELP_FLAGS.has(name) || name === 'help') {
    const about = name === 'help' ? rest[0] : undefined;
    const cmd = about ? COMMANDS.find((c) => c.name === about) : undefined;
    if (about && !cmd) throw new UsageError(`unknown command '${about}'; commands: ${COMMANDS.filter((c) => !c.hidden).map((c) => c.name).join(', ')}`);
    process.stdout.write((cmd ? formatCommandHelp(cmd) : usage()) + '\n');
    return 0;
  }
  const cmd = COMMANDS.find((c) => c.name === name);
  if (!cmd) {
    const near = closestName(name, COMMANDS.map((c) => c.name));
    throw new UsageError(`unknown command '${name}'${near ? ` (did you mean '${near}'?)` : ''}; commands: ${COMMANDS.filter((c) => !c.hidden).map((c) => c.name).join(', ')}`);
  }
  current = cmd.name;
  if ('arch' in cmd.options || TAKES_ARCHITECTURES.has(cmd.name)) await prepareArchitectures(rest);
  const parsed = parseCommandArgs(cmd, rest);
  if (parsed.help) {
    process.stdout.write(formatCommandHelp(cmd) + '\n');
    return 0;
  }
  return cmd.run({ values: parsed.values, positionals: parsed.positionals });
}

installProcessHandlers();
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = shutdownExitStatus() ?? code;
    // A command stopped by a signal or a closed pipe may leave handles (sockets, timers) open: end now.
    if (shutdownExitStatus() !== undefined) process.exit(process.exitCode);
  },
  (err: unknown) => {
    const who = current ? `waypoint ${current}` : 'waypoint';
    if (err instanceof UsageError) {
      // Bad input: one line, no stack.
      process.stderr.write(`${who}: ${err.message}\n`);
    } else {
      // Anything else that stops a command before it could do its work (a port in use, a missing build): one
      // line too; the stack only on request, since it helps us, not the user.
      const e = err instanceof Error ? err : new Error(String(err));
      process.stderr.write(`${who}: ${e.message.split('\n')[0]}${process.env.WAYPOINT_DEBUG ? `\n${e.stack}` : ''}\n`);
    }
    process.exitCode = shutdownExitStatus() ?? 2;
  },
);
