// How every `waypoint` process ends: on SIGINT, SIGTERM or SIGHUP, on a reader that closed our stdout (`| head`),
// or, for a child started by another waypoint process, when that parent goes away. Each of these aborts one
// signal that long-running commands watch (cancel the episode, close servers, stop children); commands that own
// nothing worth cleaning up just end. A second signal ends the process at once. Exit status follows the shell
// convention (128 + signal number; 141 for a closed pipe) so scripts can tell an interrupted run from a failure.
import type { ChildProcess } from 'node:child_process';

export type ShutdownCause = 'SIGINT' | 'SIGTERM' | 'SIGHUP' | 'pipe' | 'parent';

const EXIT_STATUS: Record<ShutdownCause, number> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143, pipe: 141, parent: 129 };

const controller = new AbortController();
let cause: ShutdownCause | undefined;
let watchers = 0;
const children = new Set<ChildProcess>();

/** Aborted when the process should wind down; `shutdownCause()` says why. */
export const shutdownSignal: AbortSignal = controller.signal;

export function shutdownCause(): ShutdownCause | undefined {
  return cause;
}

/** The exit status for a process that was asked to stop, or undefined when nothing asked. */
export function shutdownExitStatus(): number | undefined {
  return cause ? EXIT_STATUS[cause] : undefined;
}

/**
 * Registers cleanup for the duration of `body`: while it runs, a signal aborts `shutdownSignal` instead of
 * killing the process outright, so the command can end its episode, its servers and its children first.
 */
export async function whileCleaningUp<T>(body: (signal: AbortSignal) => Promise<T>): Promise<T> {
  watchers++;
  try {
    return await body(shutdownSignal);
  } finally {
    watchers--;
  }
}

/** A child process that must not outlive this one: killed on shutdown and, as a last resort, on exit. */
export function ownChild(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

function killChildren(signal: NodeJS.Signals = 'SIGTERM'): void {
  for (const c of children) {
    try {
      c.kill(signal);
    } catch {
      // Already gone.
    }
  }
}

function shutdown(why: ShutdownCause): void {
  if (cause) {
    // A second request: stop waiting for a graceful end.
    if (why !== 'pipe') {
      killChildren('SIGKILL');
      process.exit(EXIT_STATUS[why]);
    }
    return;
  }
  cause = why;
  controller.abort(why);
  if (watchers === 0) {
    killChildren();
    process.exit(EXIT_STATUS[why]);
  }
}

function isBrokenPipe(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}

/** Installs the handlers once, at the start of `main`. */
export function installProcessHandlers(): void {
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, () => shutdown(sig));
  // A reader that closed early (`waypoint runs | head -1`) is the end of our output, not an error.
  process.stdout.on('error', (err) => {
    if (isBrokenPipe(err)) shutdown('pipe');
    else throw err;
  });
  process.stderr.on('error', (err) => {
    if (!isBrokenPipe(err)) throw err;
  });
  // Started by another waypoint process with an IPC channel (demo's serve-model): end with that parent, even when
  // it was killed without a chance to stop us.
  if (process.send) {
    process.on('disconnect', () => shutdown('parent'));
    process.channel?.unref();
  }
  process.on('exit', () => killChildren('SIGKILL'));
}
