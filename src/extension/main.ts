// Entry of dist/extension.js, which has two roles (scripts/build.mjs has one CommonJS entry for the extension):
// - in VS Code's extension host: `activate` loads the host code (activate.ts) lazily and measures activation;
// - started by Node with WORKER_FLAG: the child process that runs one live episode (live/workerMain.ts).
// Nothing here imports `vscode` at module level, so the child can load this file with plain Node.
import type * as vscode from 'vscode';
import { WORKER_FLAG } from './live/flag.js';

const moduleEvaluatedAtMs = performance.now();

if (process.argv.includes(WORKER_FLAG)) {
  void import('./live/workerMain.js').then((m) => m.runWorkerMain());
}

let deactivateHook: (() => Promise<void>) | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<unknown> {
  const activateCalledAtMs = performance.now();
  const { activateWaypoint } = await import('./activate.js');
  const result = await activateWaypoint(context, { moduleEvaluatedAtMs, activateCalledAtMs, hostCodeLoadedAtMs: performance.now() });
  deactivateHook = result.deactivate;
  return result.api;
}

export async function deactivate(): Promise<void> {
  await deactivateHook?.();
}
