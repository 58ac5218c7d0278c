// The Runs view: runs of the workspace grouped by task and variant, newest first, with outcome icons; sets the
// `waypoint.hasRuns` context key (the view shows a welcome text with a Run button when it is false).
import * as vscode from 'vscode';
import type { RunSummary } from '../../core/runs/runStore.js';
import type { Ctx } from '../ctx.js';
import { groupRuns, runItemView, type RunGroup, type RunOutcome } from './runsModel.js';

export type RunsNode = { kind: 'group'; group: RunGroup } | { kind: 'run'; run: RunSummary };

const ICONS: Record<RunOutcome, vscode.ThemeIcon> = {
  success: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
  failure: new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')),
  'not-started': new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('testing.iconQueued')),
  cancelled: new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('testing.iconSkipped')),
  running: new vscode.ThemeIcon('sync~spin'),
  incomplete: new vscode.ThemeIcon('warning', new vscode.ThemeColor('testing.iconQueued')),
};

export class RunsTreeProvider implements vscode.TreeDataProvider<RunsNode> {
  private readonly emitter = new vscode.EventEmitter<RunsNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private hasRuns: boolean | undefined;

  constructor(private readonly ctx: Ctx) {}

  refresh(): void {
    this.emitter.fire(undefined);
  }

  /** Reads the runs once to set `waypoint.hasRuns` even while the view is collapsed. */
  async updateContextKey(): Promise<void> {
    const root = this.ctx.workspaceRoot();
    const { listRunSummaries } = await import('./runIndex.js');
    this.setHasRuns(root ? (await listRunSummaries(root)).length > 0 : false);
  }

  private setHasRuns(v: boolean): void {
    if (this.hasRuns === v) return;
    this.hasRuns = v;
    void vscode.commands.executeCommand('setContext', 'waypoint.hasRuns', v);
  }

  async getChildren(node?: RunsNode): Promise<RunsNode[]> {
    if (node?.kind === 'group') return node.group.runs.map((run) => ({ kind: 'run', run }));
    if (node) return [];
    const root = this.ctx.workspaceRoot();
    if (!root) return [];
    // Loaded on first use: the trace schema (zod) is not needed to activate.
    const { listRunSummaries } = await import('./runIndex.js');
    const runs = await listRunSummaries(root);
    this.setHasRuns(runs.length > 0);
    return groupRuns(runs).map((group) => ({ kind: 'group', group }));
  }

  getTreeItem(node: RunsNode): vscode.TreeItem {
    if (node.kind === 'group') {
      const item = new vscode.TreeItem(node.group.label, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `group:${node.group.key}`;
      item.description = node.group.description;
      item.iconPath = new vscode.ThemeIcon('folder-library');
      item.contextValue = 'waypoint.runGroup';
      return item;
    }
    const running = this.ctx.liveRuns.has(node.run.path);
    const view = runItemView(node.run, running);
    const item = new vscode.TreeItem(view.label, vscode.TreeItemCollapsibleState.None);
    item.id = `run:${node.run.runId}`;
    item.description = view.description;
    item.tooltip = view.tooltip;
    item.iconPath = ICONS[view.outcome];
    item.contextValue = running ? 'waypoint.run.live' : 'waypoint.run';
    item.command = { command: 'waypoint.openRun', title: 'Open Run', arguments: [node.run.path] };
    return item;
  }
}
