// Host side of the sweep comparison webview (webview/sweepMatrix): one panel per sweep folder. The view posts
// `ready`; the host answers `init` (core/sweep/view.ts: matrix against every baseline, records with their labels).
// `openRun` opens one of the sweep's episodes in the run viewer at a turn (where a failure began); `pair` asks for
// two of its episodes side by side. Keys not in the sweep are refused (a webview's message is untrusted).
import * as vscode from 'vscode';
import { resolve } from 'node:path';
import { nodeIO } from '../../core/node/nodeHost.js';
import { loadSweepView, sweepPair, traceOfKey, type SweepViewData } from '../../core/sweep/view.js';
import { SweepMatrixViewToHost, type SweepMatrixHostToView } from '../../protocol/sweepMatrixView.js';
import type { Ctx } from '../ctx.js';
import { Disposable } from './disposable.js';
import { RunViewerPanel } from './runViewerPanel.js';
import { renderSweepMatrixHtml } from './sweepMatrixHtml.js';
import { makeNonce } from './webviewPage.js';

export const SWEEP_VIEW_TYPE = 'waypoint.sweep';

export class SweepMatrixPanel extends Disposable {
  private static readonly panels = new Map<string, SweepMatrixPanel>();
  private data: SweepViewData | undefined;
  /** The workspace the sweep's trace paths are relative to (<ws>/.waypoint/sweeps/<name>). */
  private readonly workspace: string;

  static async show(ctx: Ctx, dir: string): Promise<SweepMatrixPanel> {
    const open = SweepMatrixPanel.panels.get(dir);
    if (open) {
      open.panel.reveal();
      return open;
    }
    const data = await loadSweepView(nodeIO, dir);
    const dist = vscode.Uri.file(ctx.asset('dist', 'webview'));
    const panel = vscode.window.createWebviewPanel(SWEEP_VIEW_TYPE, `Sweep ${data.name}`, vscode.ViewColumn.Active, { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [dist] });
    return new SweepMatrixPanel(ctx, panel, dir, data);
  }

  private constructor(
    private readonly ctx: Ctx,
    private readonly panel: vscode.WebviewPanel,
    private readonly dir: string,
    data: SweepViewData,
  ) {
    super();
    this.data = data;
    this.workspace = resolve(dir, '..', '..', '..');
    SweepMatrixPanel.panels.set(dir, this);
    this._register(panel.onDidDispose(() => this.dispose()));
    this._register(panel.webview.onDidReceiveMessage((m: unknown) => void this.onMessage(m)));
    panel.webview.html = renderSweepMatrixHtml({
      cspSource: panel.webview.cspSource,
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(vscode.Uri.file(ctx.asset('dist', 'webview')), 'sweepMatrix.js')).toString(),
      nonce: makeNonce(),
      title: `Sweep ${data.name}`,
    });
  }

  override dispose(): void {
    SweepMatrixPanel.panels.delete(this.dir);
    super.dispose();
    this.panel.dispose();
  }

  private post(m: SweepMatrixHostToView | SweepViewData): Thenable<boolean> {
    return this.panel.webview.postMessage(m);
  }

  private async onMessage(raw: unknown): Promise<void> {
    const parsed = SweepMatrixViewToHost.safeParse(raw);
    if (!parsed.success) {
      this.ctx.output.warn(`sweep view sent an invalid message (ignored): ${parsed.error.issues[0]?.message ?? 'schema mismatch'}`);
      return;
    }
    const m = parsed.data;
    if (m.type === 'ready') {
      // A reload of the view (or records added since) reads the folder again.
      this.data = await loadSweepView(nodeIO, this.dir).catch(() => this.data);
      if (this.data) await this.post(this.data);
    } else if (m.type === 'openRun') {
      const path = this.data && traceOfKey(this.data, this.workspace, m.key);
      if (!path) return this.ctx.output.warn(`sweep view asked to open '${m.key}', which is not an episode of this sweep (ignored)`);
      const viewer = RunViewerPanel.createOrShow(this.ctx, path);
      if (m.turn !== undefined) viewer.showTurn(m.turn);
    } else if (this.data) {
      try {
        await this.post({ type: 'pair', leftKey: m.leftKey, rightKey: m.rightKey, view: (await sweepPair(nodeIO, this.data, this.workspace, m.leftKey, m.rightKey)) as unknown as Record<string, unknown> });
      } catch (err) {
        await this.post({ type: 'pair', leftKey: m.leftKey, rightKey: m.rightKey, error: err instanceof Error ? err.message : String(err) });
      }
    }
  }
}
