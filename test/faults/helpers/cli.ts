// The built CLI (dist/cli.mjs) as a user runs it, with the suite's temporary HOME and TMPDIR. A CLI process that
// dies by a signal we did not send, exits with an undocumented code or prints a stack trace counts as a crash.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { rebuildIfStale } from '../../helpers/dist.js';
import { noteCrash, PACKAGE_ROOT } from './harness.js';
import { FAKE_HOME, FAKE_TMP } from './isolate.js';

export const CLI = join(PACKAGE_ROOT, 'dist', 'cli.mjs');

/** Rebuilds the CLI and the sandbox worker bundles when missing or older than their sources (`test:faults` builds first; a direct run may not). */
export function ensureBuilt(): void {
  rebuildIfStale(['dist/cli.mjs', 'dist/sandboxWorker.mjs'], PACKAGE_ROOT);
}

export function cliEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, HOME: FAKE_HOME, TMPDIR: FAKE_TMP, NO_COLOR: '1', ...extra };
}

export interface CliResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Exit codes the CLI documents: 0 success, 1 task failure, 2 bad input or a run that could not start, 3 infrastructure failure. */
export function checkCliExit(what: string, r: CliResult, expectedSignal?: NodeJS.Signals): void {
  if (expectedSignal && r.signal === expectedSignal) return;
  if (r.signal || r.status === null || r.status > 3 || /^\s+at .+:\d+:\d+\)?$/m.test(r.stderr)) {
    noteCrash(`${what}: exit ${r.status ?? r.signal}; stderr: ${r.stderr.slice(0, 500)}`);
  }
}

export function runCli(args: string[], o: { cwd: string; env: NodeJS.ProcessEnv }): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: o.cwd, env: o.env, encoding: 'utf8', timeout: 120_000, maxBuffer: 256 * 1024 * 1024 });
  const result = { status: r.status, signal: r.signal, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
  checkCliExit(`waypoint ${args.join(' ')}`, result);
  return result;
}

/** Starts the CLI in the background; `done` resolves with its output once it exits. */
export function startCli(args: string[], o: { cwd: string; env: NodeJS.ProcessEnv }): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: o.cwd, env: o.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  const done = new Promise<CliResult>((resolve) => child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr })));
  return { child, done };
}
