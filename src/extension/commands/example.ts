// `waypoint.openExampleWorkspace` and the getting-started walkthrough (package.json `contributes.walkthroughs`):
// write the example workspace into a folder the user picks (core/runs/exampleWorkspace.ts) and open it. Opening a
// folder reloads the window; the walkthrough and the first prompt are reopened there (`resumeWalkthrough`, called
// after activation), so the user carries on with the next step.
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { nodeIO } from '../../core/node/nodeHost.js';
import { writeExampleWorkspace } from '../../core/runs/exampleWorkspace.js';
import type { Ctx } from '../ctx.js';
import { RESUME_WALKTHROUGH_KEY, WALKTHROUGH_ID } from '../walkthrough.js';


function walkthroughRef(ctx: Ctx): string {
  return `${ctx.context.extension.id}#${WALKTHROUGH_ID}`;
}

async function chooseFolder(): Promise<string | undefined> {
  const suggested = join(homedir(), 'waypoint-example');
  const isExample = existsSync(join(suggested, '.waypoint', 'variants.yaml'));
  const choice = await vscode.window.showQuickPick(
    [
      { label: `$(folder) ${suggested}`, description: isExample ? 'the example from before (your edits are kept)' : existsSync(suggested) ? 'existing folder' : 'new folder', folder: suggested },
      { label: '$(folder-opened) Choose a folder…', description: '', folder: undefined },
    ],
    { title: 'Waypoint: Open Example Workspace', placeHolder: 'Where to put the example (MALMM prompts and a variants file)' },
  );
  if (!choice) return undefined;
  if (choice.folder) return choice.folder;
  const picked = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, canSelectMany: false, openLabel: 'Put the example here', title: 'Waypoint: folder for the example workspace' });
  return picked?.[0]?.fsPath;
}

/**
 * Writes the example into `folderArg` (else a folder the user picks) and opens it, unless `{open: false}` (tests).
 * Files that exist already are kept, so a second run keeps the user's edits. Returns the folder and what was written.
 */
export async function openExampleWorkspace(ctx: Ctx, folderArg?: unknown, options?: { open?: boolean }): Promise<{ folder: string; written: string[] } | undefined> {
  const folder = typeof folderArg === 'string' && folderArg ? folderArg : await chooseFolder();
  if (!folder) return undefined;
  const foreign = existsSync(folder) && readdirSync(folder).length > 0 && !existsSync(join(folder, '.waypoint', 'variants.yaml'));
  if (foreign && options?.open !== false) {
    const go = await vscode.window.showWarningMessage(`Waypoint: ${folder} is not empty. Add the example's files to it (existing files are not overwritten)?`, { modal: true }, 'Add');
    if (go !== 'Add') return undefined;
  }
  const example = await writeExampleWorkspace(nodeIO, ctx.extensionPath, folder);
  ctx.output.info(`example workspace in ${folder}: ${example.written.length ? `wrote ${example.written.join(', ')}` : 'all files were there already'}`);
  if (options?.open === false) return { folder, written: example.written };
  if (ctx.workspaceRoot() === folder) {
    await showFirstPrompt(example.firstPrompt);
  } else {
    await ctx.context.globalState.update(RESUME_WALKTHROUGH_KEY, folder);
    await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(folder), { forceNewWindow: false });
  }
  return { folder, written: example.written };
}

async function showFirstPrompt(path: string): Promise<void> {
  if (existsSync(path)) await vscode.window.showTextDocument(vscode.Uri.file(path), { preview: false });
}

/** In the window the example folder opened in: the first prompt, and the walkthrough at its next step. */
export async function resumeWalkthrough(ctx: Ctx): Promise<void> {
  const folder = ctx.context.globalState.get<string>(RESUME_WALKTHROUGH_KEY);
  if (!folder || folder !== ctx.workspaceRoot()) return;
  await ctx.context.globalState.update(RESUME_WALKTHROUGH_KEY, undefined);
  await showFirstPrompt(join(folder, 'prompts', 'malmm', 'coder.prompt'));
  await vscode.commands.executeCommand('workbench.action.openWalkthrough', walkthroughRef(ctx), true);
}
