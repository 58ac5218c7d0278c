// Activation: build the Ctx, register commands, views, CodeLens, the preview provider, the webview serializer
// and the status bar, then return. Work that can wait (language server, run listing) starts after activation
// returns. A failure is shown (VS Code would only log it) and rethrown.
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { isWaypointPrompt, PROMPT_SELECTOR } from './promptLanguage.js';
import { createCommands, registerCommands } from './commands/table.js';
import { registerDebugger } from './debug/register.js';
import { Ctx, type ActivationTimes } from './ctx.js';
import { LmBridge } from './lm/lmBridge.js';
import { RUN_VIEWER_VIEW_TYPE } from './panels/viewType.js';
import { PREVIEW_SCHEME, PromptPreviewProvider } from './prompt/previewProvider.js';
import { PromptLensProvider } from './prompt/promptLensProvider.js';
import { VariantStatusItem } from './prompt/variantStatus.js';
import { RESUME_WALKTHROUGH_KEY } from './walkthrough.js';
import { AgentsTreeProvider } from './views/agentsTree.js';
import { watchWorkspaceArchitectures } from './architectureWatch.js';
import { RunsTreeProvider } from './views/runsTree.js';
import { SimulatorTreeProvider } from './views/simulatorTree.js';

export interface WaypointApi {
  /** Activation timings, also printed to the "Waypoint" output channel. */
  readonly activation: ActivationTimes | undefined;
  /** The Testing view's tests as plain data (`snapshot()`), and `discover()` to read the tests files again. */
  readonly testing: { snapshot(): unknown[]; discover(): Promise<void> } | undefined;
  /** The workspace's own architectures after the last load: the ones registered and the refused folders. */
  readonly architectures: { loaded: string[]; refused: { id: string; file: string; line?: number; message: string }[] };
}

export async function activateWaypoint(
  context: vscode.ExtensionContext,
  t: { moduleEvaluatedAtMs: number; activateCalledAtMs: number; hostCodeLoadedAtMs: number },
): Promise<{ api: WaypointApi; deactivate(): Promise<void> }> {
  let ctx: Ctx | undefined;
  try {
    ctx = new Ctx(context);
    const c = ctx;
    context.subscriptions.push(c);
    for (const issue of c.config.issues) c.output.warn(issue.message);

    const runs = new RunsTreeProvider(c);
    const agents = new AgentsTreeProvider(c);
    const simulator = new SimulatorTreeProvider(c);
    const lenses = new PromptLensProvider(c);
    const previews = c.push(new PromptPreviewProvider(c));
    const bridge = c.push(new LmBridge((l) => c.output.info(l)));
    const status = c.push(new VariantStatusItem(c));
    registerCommands(c, createCommands({ runs, agents, lenses, previews, bridge }));
    registerDebugger(c, bridge);

    c.push(
      vscode.window.createTreeView('waypoint.runs', { treeDataProvider: runs, showCollapseAll: true }),
      vscode.window.createTreeView('waypoint.agents', { treeDataProvider: agents, showCollapseAll: true }),
      vscode.window.createTreeView('waypoint.simulator', { treeDataProvider: simulator }),
      vscode.languages.registerCodeLensProvider(PROMPT_SELECTOR, lenses),
      lenses,
      vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, previews),
      vscode.window.registerWebviewPanelSerializer(RUN_VIEWER_VIEW_TYPE, {
        deserializeWebviewPanel: async (panel, state) => (await import('./panels/runViewerPanel.js')).RunViewerPanel.revive(c, panel, state),
      }),
    );

    // Files on disk change under us (CLI runs, git checkouts, hand edits): refresh what depends on them.
    let runsTimer: ReturnType<typeof setTimeout> | undefined;
    const runsSoon = () => {
      if (runsTimer) return;
      runsTimer = setTimeout(() => {
        runsTimer = undefined;
        c.fireRunsChanged();
      }, 300);
    };
    const runWatcher = c.push(vscode.workspace.createFileSystemWatcher('**/.waypoint/runs/*/trace.jsonl', false, true, false));
    const variantWatcher = c.push(vscode.workspace.createFileSystemWatcher('**/.waypoint/variants.yaml'));
    const promptWatcher = c.push(vscode.workspace.createFileSystemWatcher('**/prompts/*/*.prompt', false, true, false));
    c.push(
      runWatcher.onDidCreate(runsSoon),
      runWatcher.onDidDelete(runsSoon),
      variantWatcher.onDidCreate(() => c.fireVariantsChanged()),
      variantWatcher.onDidChange(() => c.fireVariantsChanged()),
      variantWatcher.onDidDelete(() => c.fireVariantsChanged()),
      promptWatcher.onDidCreate(() => agents.refresh()),
      promptWatcher.onDidDelete(() => agents.refresh()),
      c.onDidChangeRuns(() => {
        runs.refresh();
        simulator.refresh();
        void runs.updateContextKey();
      }),
      c.onDidChangeVariants(() => {
        lenses.refresh();
        agents.refresh();
        previews.refreshAll();
        void status.update();
      }),
      c.config.onDidChange((change) => {
        simulator.refresh();
        for (const issue of c.config.issues) c.output.warn(issue.message);
        if (change.needsServerRestart) void (c.config.settings.languageServer.enabled ? c.lsp.restart() : c.lsp.stop());
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        simulator.refresh();
        // The language server loads the workspace's architectures only in a trusted workspace.
        if (c.lsp.state === 'running') void c.lsp.restart();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        c.fireRunsChanged();
        c.fireVariantsChanged();
      }),
      vscode.workspace.onDidSaveTextDocument((doc) => void offerRerun(c, doc)),
    );

    // The language server starts with the first .prompt document, not before; so does the warm run process
    // (a moment later, after the server), so the first live run does not wait for Pyodide and MuJoCo.
    let prewarmTimer: ReturnType<typeof setTimeout> | undefined;
    const startServerFor = (doc: vscode.TextDocument) => {
      if (!isWaypointPrompt(doc)) return;
      if (c.config.settings.languageServer.enabled && c.lsp.state === 'stopped') void c.lsp.start();
      if (!prewarmTimer && c.trusted && c.config.settings.run.keepWarm) {
        prewarmTimer = setTimeout(() => {
          prewarmTimer = undefined;
          import('./commands/live.js').then((m) => m.prewarmLiveRuns(c)).catch((err: unknown) => c.output.warn(`run process prewarm failed: ${String(err)}`));
        }, 1000);
      }
    };
    c.push(vscode.workspace.onDidOpenTextDocument(startServerFor));

    const activateMs = performance.now() - t.activateCalledAtMs;
    c.activation = { activateMs, hostCodeMs: t.hostCodeLoadedAtMs - t.activateCalledAtMs, loadToActivateMs: t.activateCalledAtMs - t.moduleEvaluatedAtMs };
    c.output.info(`Waypoint activated in ${activateMs.toFixed(1)} ms (host code ${c.activation.hostCodeMs.toFixed(1)} ms; extension ${context.extension.packageJSON.version as string}, VS Code ${vscode.version}, ${c.trusted ? 'trusted' : 'Restricted Mode'})`);

    // The workspace's own architectures: registered like the built-ins, loaded again when their files change.
    const workspaceArchs = watchWorkspaceArchitectures(c, () => {
      agents.refresh();
      lenses.refresh();
      previews.refreshAll();
      void c.testing?.discover();
    });

    // After activation returns: things that read files or start processes.
    setTimeout(() => {
      void workspaceArchs.loadNow().catch((err: unknown) => c.output.error(`workspace architectures did not load: ${err instanceof Error ? err.message : String(err)}`));
      for (const doc of vscode.workspace.textDocuments) startServerFor(doc);
      void runs.updateContextKey();
      void status.update();
      // The Testing view's controller: its tests are read when the view first asks for them, not now.
      if (c.workspaceRoot()) {
        const t0 = performance.now();
        import('./testing/controller.js')
          .then((m) => {
            c.testing = m.registerTesting(c, bridge);
            c.output.info(`Testing view: controller ready ${(performance.now() - t0).toFixed(1)} ms after activation (tests are read when the view asks for them)`);
          })
          .catch((err: unknown) => c.output.warn(`the Testing view's controller did not start: ${err instanceof Error ? err.message : String(err)}`));
      }
      // The window the walkthrough's "Open the example workspace" opened: carry on with the walkthrough.
      if (context.globalState.get(RESUME_WALKTHROUGH_KEY)) void import('./commands/example.js').then((m) => m.resumeWalkthrough(c)).catch((err: unknown) => c.output.warn(`could not reopen the walkthrough: ${String(err)}`));
    }, 0);

    return {
      api: {
        get activation() {
          return c.activation;
        },
        get testing() {
          return c.testing;
        },
        get architectures() {
          return { loaded: c.architectures.last.loaded.map((l) => l.id), refused: c.architectures.last.refused.map(({ id, file, line, message }) => ({ id, file, ...(line !== undefined ? { line } : {}), message })) };
        },
      },
      deactivate: async () => {
        await c.lsp.stop();
      },
    };
  } catch (err) {
    const message = `Waypoint failed to activate: ${err instanceof Error ? err.message : String(err)}`;
    ctx?.output.error(message);
    void vscode.window.showErrorMessage(message);
    throw err;
  }
}

/** After a prompt is saved while a finished run that used it is open: offer the same run again. */
async function offerRerun(ctx: Ctx, doc: vscode.TextDocument): Promise<void> {
  if (!isWaypointPrompt(doc) || doc.uri.scheme !== 'file' || !ctx.trusted) return;
  // While debugging, an edit is for Restart Frame (or the next turn), not for a re-run; a continuous test run
  // re-runs by itself.
  if (vscode.debug.activeDebugSession?.type === 'waypoint' || ctx.testing?.watching) return;
  const { RunViewerPanel } = await import('./panels/runViewerPanel.js');
  const panel = RunViewerPanel.usingPrompt(doc.uri.fsPath).find((p) => !p.isLive);
  const start = panel?.start;
  if (!start) return;
  const label = `${start.arch} · ${start.task} · seed ${start.seed} · variant ${start.variant || 'default'}`;
  const choice = await vscode.window.showInformationMessage(`Waypoint: ${basename(doc.uri.fsPath)} saved. Re-run ${label} with it? Unchanged turns are answered from the response cache.`, 'Re-run');
  if (choice === 'Re-run') {
    await vscode.commands.executeCommand('waypoint.runLiveTest', doc.uri, { arch: start.arch, task: start.task, seed: start.seed, variant: start.variant || undefined });
  }
}
