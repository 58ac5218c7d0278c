// Status bar item with the active variant of the workspace; a click opens the variant picker.
import * as vscode from 'vscode';
import type { Ctx } from '../ctx.js';

export class VariantStatusItem implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor(private readonly ctx: Ctx) {
    this.item = vscode.window.createStatusBarItem('waypoint.variant', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'Waypoint Variant';
    this.item.command = 'waypoint.selectVariant';
  }

  async update(): Promise<void> {
    const root = this.ctx.workspaceRoot();
    if (!root) {
      this.item.hide();
      return;
    }
    const { loadVariantsAt } = await import('./variantsIo.js');
    const read = await loadVariantsAt(root);
    this.item.text = `$(beaker) ${read.set.active}`;
    this.item.tooltip = read.error ? `Waypoint variant: the variants file has a problem: ${read.error}` : `Waypoint: active prompt variant '${read.set.active}' (click to switch)`;
    this.item.backgroundColor = read.error ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
