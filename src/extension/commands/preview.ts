// `waypoint.previewPrompt`: the prompt as a role call sends it, for a chosen turn of a chosen run (the recorded
// role_call messages), or rendered from the current text with placeholder or last-run values.
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { isWaypointPrompt } from '../promptLanguage.js';
import { readTrace } from '../../core/trace/reader.js';
import type { Ctx } from '../ctx.js';
import { estimateTokens, roleCalls } from '../prompt/previewModel.js';
import type { PromptPreviewProvider } from '../prompt/previewProvider.js';
import { promptHeader } from '../prompt/promptLenses.js';
import { listRunSummaries } from '../views/runIndex.js';
import { runItemView } from '../views/runsModel.js';
import { toUri } from './args.js';

type Source = vscode.QuickPickItem & { source: 'placeholder' | 'lastRun' | 'run' };

export async function previewPrompt(ctx: Ctx, previews: PromptPreviewProvider, arg?: unknown): Promise<vscode.Uri | undefined> {
  const uri = toUri(arg) ?? (isWaypointPrompt(vscode.window.activeTextEditor?.document) ? vscode.window.activeTextEditor!.document.uri : undefined);
  if (!uri) throw new Error('Preview Prompt needs a .prompt file: open one, or use the Preview lens on its first line');
  const doc = await vscode.workspace.openTextDocument(uri);
  const { arch, role } = promptHeader(doc.getText());
  const name = `${arch ?? 'prompt'}-${role ?? 'role'}`;
  const sources: Source[] = [
    { label: 'Placeholder values', description: '«name» for each variable', source: 'placeholder' },
    { label: 'Values from the last run', description: ctx.lsp.state === 'running' ? 'the latest role call of this role (language server)' : 'needs the language server', source: 'lastRun' },
    { label: 'A turn of a run…', description: 'the messages recorded in the trace', source: 'run' },
  ];
  const pick = await vscode.window.showQuickPick(sources, { title: `Waypoint: Preview ${name}` });
  if (!pick) return undefined;
  let preview: vscode.Uri | undefined;
  if (pick.source === 'placeholder') {
    preview = previews.add(name, { kind: 'render', promptUri: uri.toString(), values: {}, valuesLabel: 'placeholders' });
  } else if (pick.source === 'lastRun') {
    const last = await ctx.lsp.lastRunValues(uri);
    if (last === undefined) throw new Error('the language server is not running, so last-run values are not available (pick a run turn instead)');
    if (last === null) throw new Error(`no run has called role '${role ?? '?'}' yet: run a live test first, or preview with placeholders`);
    preview = previews.add(name, { kind: 'render', promptUri: uri.toString(), values: last.variables, valuesLabel: `run ${last.runId}, turn ${last.turn}` });
  } else {
    preview = await pickRunTurn(ctx, previews, name, role);
  }
  if (!preview) return undefined;
  const shown = await vscode.workspace.openTextDocument(preview);
  await vscode.window.showTextDocument(shown, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: false });
  return preview;
}

async function pickRunTurn(ctx: Ctx, previews: PromptPreviewProvider, name: string, role: string | undefined): Promise<vscode.Uri | undefined> {
  const root = ctx.workspaceRoot();
  const runs = root ? await listRunSummaries(root) : [];
  if (runs.length === 0) throw new Error('no runs in this workspace yet: run a live test first');
  const run = await vscode.window.showQuickPick(
    runs.map((r) => ({ label: runItemView(r).label, description: `${r.task ?? ''} · ${r.variant || 'default'}`, path: r.path, runId: r.runId })),
    { title: 'Waypoint: Preview — pick a run' },
  );
  if (!run) return undefined;
  const { events } = readTrace(await readFile(run.path, 'utf8'));
  let calls = roleCalls(events, role);
  if (calls.length === 0) calls = roleCalls(events);
  if (calls.length === 0) throw new Error(`run ${run.runId} has no role calls`);
  const call = await vscode.window.showQuickPick(
    calls.map((c) => ({ label: `turn ${c.turn} · ${c.role}`, description: `${c.messages.length} messages · ~${estimateTokens(c.messages)} tokens`, call: c })),
    { title: `Waypoint: Preview — pick a turn of ${run.runId}` },
  );
  if (!call) return undefined;
  const c = call.call;
  return previews.add(`${name}-turn${c.turn}`, {
    kind: 'recorded',
    header: [`${c.role} at turn ${c.turn} of run ${run.runId} (call ${c.callId}), as recorded in the trace`, `prompt: ${c.promptPath}`],
    messages: c.messages,
  });
}
