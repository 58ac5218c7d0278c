// Host side of the comparison webview (webview/compare): one panel per sweep. The view posts `ready`, the host
// answers `init` with the sweep; `openRun` opens one of the sweep's runs in the run viewer (only those: a message
// from a webview is untrusted input, so it is parsed and the path checked against the sweep file).
import * as vscode from 'vscode';
import { CompareViewToHost, sweepTracePaths, type CompareHostToView, type SweepFile } from '../../protocol/sweep.js';
import type { Ctx } from '../ctx.js';
import { renderCompareHtml } from './compareHtml.js';
import { Disposable } from './disposable.js';
import { makeNonce } from './webviewPage.js';

export const COMPARE_VIEW_TYPE = 'waypoint.compare';

export class ComparePanel extends Disposable {
  private static readonly panels = new Map<string, ComparePanel>();
  private readonly allowed: Set<string>;

  static show(ctx: Ctx, sweep: SweepFile, path: string): ComparePanel {
    const open = ComparePanel.panels.get(path);
    if (open) {
      open.panel.reveal();
      return open;
    }
    const dist = vscode.Uri.file(ctx.asset('dist', 'webview'));
    const panel = vscode.window.createWebviewPanel(COMPARE_VIEW_TYPE, `Compare ${sweep.ablation}`, vscode.ViewColumn.Active, { enableScripts: true, localResourceRoots: [dist] });
    return new ComparePanel(ctx, panel, sweep, path);
  }

  private constructor(
    private readonly ctx: Ctx,
    private readonly panel: vscode.WebviewPanel,
    private readonly sweep: SweepFile,
    private readonly path: string,
  ) {
    super();
    this.allowed = sweepTracePaths(sweep);
    ComparePanel.panels.set(path, this);
    this._register(panel.onDidDispose(() => this.dispose()));
    this._register(panel.webview.onDidReceiveMessage((m: unknown) => void this.onMessage(m)));
    panel.webview.html = renderCompareHtml({
      cspSource: panel.webview.cspSource,
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(vscode.Uri.file(ctx.asset('dist', 'webview')), 'compare.js')).toString(),
      nonce: makeNonce(),
      title: `Compare ${sweep.ablation}`,
    });
  }

  override dispose(): void {
    ComparePanel.panels.delete(this.path);
    super.dispose();
    this.panel.dispose();
  }

  private async onMessage(raw: unknown): Promise<void> {
    const parsed = CompareViewToHost.safeParse(raw);
    if (!parsed.success) {
      this.ctx.output.warn(`compare view sent an invalid message (ignored): ${parsed.error.issues[0]?.message ?? 'schema mismatch'}`);
      return;
    }
    const m = parsed.data;
    if (m.type === 'ready') {
      const init: CompareHostToView = { type: 'init', sweep: this.sweep, path: this.path };
      await this.panel.webview.postMessage(init);
    } else if (m.type === 'openRun') {
      if (!this.allowed.has(m.tracePath)) {
        this.ctx.output.warn(`compare view asked to open a trace that is not part of sweep ${this.sweep.id} (ignored)`);
        return;
      }
      await vscode.commands.executeCommand('waypoint.openRun', m.tracePath);
    } else {
      await vscode.window.showTextDocument(vscode.Uri.file(this.path));
    }
  }
}
