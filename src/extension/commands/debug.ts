// `waypoint.debugLiveTest` (the `⏵ Debug live test` CodeLens): one episode under the debugger, with the saved
// prompts, the prompt's architecture, the active variant and the run settings; breakpoints set in the prompt files
// stop before their role is called. The configuration provider adds the model.
import * as vscode from 'vscode';
import type { Ctx } from '../ctx.js';
import { isWaypointPrompt } from '../promptLanguage.js';
import { liveDebugConfig, type DebugRequest } from '../debug/launchConfig.js';
import { promptHeader } from '../prompt/promptLenses.js';

export async function debugLiveTest(ctx: Ctx, promptUri: vscode.Uri | undefined, request: DebugRequest & { stopOnEntry?: boolean }): Promise<boolean> {
  const uri = promptUri ?? (isWaypointPrompt(vscode.window.activeTextEditor?.document) ? vscode.window.activeTextEditor?.document.uri : undefined);
  const root = ctx.workspaceRoot(uri);
  if (!root) throw new Error('Debug Live Test needs an open folder (runs are written to its .waypoint/runs/)');
  let arch: string | undefined;
  if (uri) arch = promptHeader((await vscode.workspace.openTextDocument(uri)).getText()).arch;
  // The debugger reads prompts from disk: save them first, so breakpoints sit on the lines that run.
  for (const d of vscode.workspace.textDocuments) if (isWaypointPrompt(d) && d.isDirty && d.uri.scheme === 'file') await d.save();
  const config = liveDebugConfig(ctx.config.settings, arch, request, root);
  if (request.stopOnEntry) config.stopOnEntry = true;
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(root));
  ctx.output.info(`debug live test: ${String(config.name)}`);
  return vscode.debug.startDebugging(folder, config as vscode.DebugConfiguration);
}
