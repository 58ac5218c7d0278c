// Run commands: open (by run id, trace path, tree item or picker; any trace, a colleague's included), delete,
// export (the trace itself, MCAP for Foxglove / Lichtblick / Rerun, or an Inspect AI log) and cancel.
import { copyFile, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { RUNS_DIR, TRACE_FILE, type RunSummary } from '../../core/runs/runStore.js';
import type { Ctx } from '../ctx.js';
import { RunViewerPanel } from '../panels/runViewerPanel.js';
import { listRunSummaries } from '../views/runIndex.js';
import { runItemView } from '../views/runsModel.js';

function runFromArg(arg: unknown): RunSummary | undefined {
  if (arg && typeof arg === 'object' && (arg as { kind?: unknown }).kind === 'run') return (arg as { run: RunSummary }).run;
  return undefined;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** A trace path from a run id (this workspace's runs), a path or URI to a trace file or run folder, or a tree item. */
export async function resolveTrace(ctx: Ctx, arg: unknown): Promise<string | undefined> {
  const run = runFromArg(arg);
  if (run) return run.path;
  let s: string | undefined;
  if (arg instanceof vscode.Uri) s = arg.fsPath;
  else if (typeof arg === 'string' && arg.trim()) s = arg.trim();
  if (!s) return undefined;
  if (s.startsWith('file:')) s = vscode.Uri.parse(s).fsPath;
  const root = ctx.workspaceRoot();
  const candidates = [s, join(s, TRACE_FILE)];
  if (root && /^[\w.-]+$/.test(s)) candidates.unshift(join(root, RUNS_DIR, s, TRACE_FILE));
  for (const c of candidates) if (await isFile(c)) return c;
  throw new Error(`no trace found for '${s}': give a run id of this workspace, a trace.jsonl path or a run folder`);
}

export async function openRun(ctx: Ctx, arg?: unknown): Promise<string | undefined> {
  let path = await resolveTrace(ctx, arg);
  if (!path) {
    const root = ctx.workspaceRoot();
    const runs = root ? await listRunSummaries(root) : [];
    type Pick = vscode.QuickPickItem & { path?: string; browse?: boolean };
    const items: Pick[] = [
      { label: '$(folder-opened) Open a trace file…', description: 'a trace.jsonl from anywhere (e.g. a colleague\'s run)', browse: true },
      ...runs.map((r) => {
        const v = runItemView(r, ctx.liveRuns.has(r.path));
        return { label: v.label, description: `${r.task ?? ''} · ${r.variant || 'default'} · ${v.description}`, path: r.path };
      }),
    ];
    const choice = await vscode.window.showQuickPick(items, { title: 'Waypoint: Open Run', placeHolder: runs.length ? 'Pick a run (newest first)' : 'No runs in this workspace yet' });
    if (!choice) return undefined;
    if (choice.browse) {
      const picked = await vscode.window.showOpenDialog({ canSelectMany: false, openLabel: 'Open Trace', filters: { 'Waypoint trace': ['jsonl'] } });
      if (!picked?.[0]) return undefined;
      path = picked[0].fsPath;
    } else path = choice.path;
  }
  if (!path) return undefined;
  RunViewerPanel.createOrShow(ctx, path, ctx.liveRuns.get(path));
  return path;
}

export async function deleteRun(ctx: Ctx, arg?: unknown): Promise<void> {
  const path = await resolveTrace(ctx, arg);
  if (!path) throw new Error('Delete Run needs a run (use the Runs view context menu)');
  if (ctx.liveRuns.has(path)) throw new Error('this run is still in progress: cancel it first');
  const dir = dirname(path);
  const root = ctx.workspaceRoot();
  // Only run folders of this workspace are deleted, never an arbitrary folder a path argument names.
  if (!root || dirname(dir) !== join(root, RUNS_DIR)) throw new Error(`not a run folder of this workspace: ${dir}`);
  const ok = await vscode.window.showWarningMessage(`Delete run ${dir.split(/[\\/]/).pop()}? Its trace is removed from disk.`, { modal: true }, 'Delete');
  if (ok !== 'Delete') return;
  await rm(dir, { recursive: true, force: true });
  ctx.fireRunsChanged();
}

type ExportChoice = 'trace' | 'mcap' | 'mcap-ros2' | 'inspect';

const EXPORT_CHOICES: { id: ExportChoice; label: string; detail: string; ext: string; filter: string }[] = [
  { id: 'mcap', label: 'MCAP for Foxglove / Lichtblick', detail: 'frame transforms, scene, transcript, role calls, API calls, checks, motion metrics', ext: 'mcap', filter: 'MCAP' },
  { id: 'mcap-ros2', label: 'MCAP with ROS 2 transforms (Rerun)', detail: 'the same, with /tf as tf2_msgs/msg/TFMessage in CDR, which Rerun draws', ext: 'mcap', filter: 'MCAP' },
  { id: 'inspect', label: 'Inspect AI eval log', detail: 'opens in inspect view and the Inspect extension: role calls as model events, API calls as tool events', ext: 'json', filter: 'Inspect log' },
  { id: 'trace', label: 'Waypoint trace (JSONL)', detail: 'a copy of the trace file: every view of the run, anywhere Waypoint runs', ext: 'trace.jsonl', filter: 'Waypoint trace' },
];

/**
 * Export a run (Runs view context menu, or a run id / trace path). `options` lets tests and scripts skip the two
 * pickers: `{format, target}`. Returns the written path.
 */
export async function exportRun(ctx: Ctx, arg?: unknown, options?: { format?: ExportChoice; target?: string }): Promise<string | undefined> {
  const path = await resolveTrace(ctx, arg);
  if (!path) throw new Error('Export Run needs a run (use the Runs view context menu)');
  if (options?.format && !EXPORT_CHOICES.some((c) => c.id === options.format)) throw new Error(`unknown export format '${options.format}'; one of ${EXPORT_CHOICES.map((c) => c.id).join(', ')}`);
  const id = dirname(path).split(/[\\/]/).pop() ?? 'run';
  const choice = options?.format
    ? EXPORT_CHOICES.find((c) => c.id === options.format)!
    : await vscode.window.showQuickPick(EXPORT_CHOICES.map((c) => ({ ...c, description: `.${c.ext}` })), { title: `Export run ${id}`, placeHolder: 'Format' });
  if (!choice) return undefined;
  let target = options?.target;
  if (!target) {
    const picked = await vscode.window.showSaveDialog({
      title: `Export run as ${choice.label}`,
      defaultUri: vscode.Uri.file(join(ctx.workspaceRoot() ?? dirname(path), `${id}.${choice.ext}`)),
      filters: { [choice.filter]: [choice.ext.split('.').pop()!] },
    });
    if (!picked) return undefined;
    target = picked.fsPath;
  }
  if (ctx.liveRuns.has(path)) void vscode.window.showWarningMessage('Waypoint: this run is still in progress; the export holds the events written so far.');
  if (choice.id === 'trace') {
    await copyFile(path, target);
    void vscode.window.showInformationMessage(`Waypoint: trace exported to ${target}`);
    return target;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a bundle of its own (see vendor/exporter.ts)
  const { exportTrace } = require(ctx.asset('dist', 'exporter.js')) as typeof import('../vendor/exporter.js');
  const result = await exportTrace(await readFile(path, 'utf8'), path, choice.id, String((ctx.context.extension.packageJSON as { version?: string }).version ?? 'unknown'));
  await writeFile(target, result.bytes);
  ctx.output.info(`export: ${target} (${result.summary})${result.notes.map((n) => `\n  note: ${n}`).join('')}`);
  if (result.lost.length) void vscode.window.showWarningMessage(`Waypoint: exported what was read to ${target}, but not everything: ${result.lost.join('; ')}`);
  else void vscode.window.showInformationMessage(`Waypoint: exported ${choice.label} to ${target}`);
  return target;
}

export function cancelLiveRuns(ctx: Ctx): number {
  const n = ctx.liveRuns.size;
  for (const run of ctx.liveRuns.values()) run.cancel();
  if (n === 0) void vscode.window.showInformationMessage('Waypoint: no live run in progress.');
  return n;
}
