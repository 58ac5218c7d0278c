// Drives `waypoint debug-adapter` (dist/cli.mjs, built by `npm test`; refused when older than its sources) with
// @vscode/debugadapter-testsupport's DebugClient, in a scratch workspace holding a copy of the MALMM prompts.
import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { readTrace } from '../../src/core/trace/reader.js';
import type { TraceEvent } from '../../src/protocol/trace.js';
import { freshCli } from '../helpers/dist.js';

export const ROOT = process.cwd();
export const CLI = freshCli(ROOT);

export function scratchWorkspace(): { dir: string; prompt(role: string): string; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'waypoint-dap-'));
  cpSync(join(ROOT, 'src', 'architectures', 'malmm', 'prompts'), join(dir, 'prompts', 'malmm'), { recursive: true });
  cpSync(join(ROOT, 'test', 'fixtures', 'dap'), dir, { recursive: true });
  return { dir, prompt: (role) => join(dir, 'prompts', 'malmm', `${role}.prompt`), dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Session {
  dc: DebugClient;
  /** Every output event's text, in order. */
  output: string[];
}

export async function startAdapter(cwd: string): Promise<Session> {
  // The CLI is the executable (its shebang runs Node): DebugClient spawns `<runtime> <executable>`.
  const dc = new DebugClient(CLI, 'debug-adapter', 'waypoint', { cwd, env: { ...process.env, NO_COLOR: '1' } }, false);
  dc.defaultTimeout = 180_000;
  const output: string[] = [];
  dc.on('output', (e: DebugProtocol.OutputEvent) => output.push(e.body.output));
  await dc.start();
  return { dc, output };
}

/** Launches and sets breakpoints between `initialized` and `configurationDone`, as VS Code does. */
export async function launchWith(
  dc: DebugClient,
  args: Record<string, unknown>,
  configure: () => Promise<void> = async () => undefined,
): Promise<void> {
  await Promise.all([
    dc.launch(args),
    dc.waitForEvent('initialized').then(async () => {
      await configure();
      await dc.configurationDoneRequest();
    }),
  ]);
}

export async function stopped(dc: DebugClient, action: () => Promise<unknown>): Promise<DebugProtocol.StoppedEvent> {
  const [, e] = await Promise.all([action(), dc.waitForEvent('stopped')]);
  return e as DebugProtocol.StoppedEvent;
}

export async function topFrames(dc: DebugClient, threadId = 1): Promise<DebugProtocol.StackFrame[]> {
  return (await dc.stackTraceRequest({ threadId })).body.stackFrames;
}

export async function evaluate(dc: DebugClient, expression: string, frameId?: number, context = 'watch'): Promise<string> {
  return (await dc.evaluateRequest({ expression, context, ...(frameId !== undefined ? { frameId } : {}) })).body.result;
}

/** Variables of a scope by name (or of a structured value inside it, by `path`), as name -> value string. */
export async function scopeVars(dc: DebugClient, frameId: number, scope: string, ...path: string[]): Promise<Record<string, string>> {
  const scopes = (await dc.scopesRequest({ frameId })).body.scopes;
  const s = scopes.find((x) => x.name === scope);
  if (!s) throw new Error(`no scope ${scope}; scopes: ${scopes.map((x) => x.name).join(', ')}`);
  let vars = (await dc.variablesRequest({ variablesReference: s.variablesReference })).body.variables;
  for (const name of path) {
    const v = vars.find((x) => x.name === name);
    if (!v?.variablesReference) throw new Error(`no expandable ${name} in ${scope}; names: ${vars.map((x) => x.name).join(', ')}`);
    vars = (await dc.variablesRequest({ variablesReference: v.variablesReference })).body.variables;
  }
  return Object.fromEntries(vars.map((v) => [v.name, v.value]));
}

/**
 * Ends a session whether or not its adapter is still running. DebugClient.stop() sends `disconnect` and waits for
 * the answer with no timeout: an adapter that already exited (after an earlier disconnect) never answers, so this
 * also settles when the adapter process exits.
 */
export async function endSession(s: Session): Promise<void> {
  // DebugClient keeps its child private; its exit is the only signal that no answer will come.
  const child = (s.dc as unknown as { _adapterProcess?: ChildProcess | null })._adapterProcess;
  if (!child || child.exitCode !== null || child.signalCode !== null) {
    child?.kill();
    return;
  }
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  await Promise.race([s.dc.stop().catch(() => undefined), exited]);
  child.kill();
}

export function traceEvents(path: string): TraceEvent[] {
  return readTrace(readFileSync(path, 'utf8')).events;
}
