// Entry of dist/extension.js in VS Code's extension host: `activate` loads the host code (activate.ts) and
// measures activation. Live episodes run in a child process from a bundle of their own (live/workerEntry.ts ->
// dist/runWorker.js), so the engine never loads here.
import type * as vscode from 'vscode';

const moduleEvaluatedAtMs = performance.now();

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
