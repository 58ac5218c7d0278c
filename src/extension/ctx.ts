// Ctx owns what lives as long as the extension: disposables, config, output channel, the language client, API
// keys, the runs in progress and the change events views listen to (rust-analyzer's Ctx, minus the views,
// which are features of their own).
import { join } from 'node:path';
import * as vscode from 'vscode';
import { builtInPromptRoot } from '../core/node/packageRoot.js';
import type { GateState } from './commandGate.js';
import { Config } from './config.js';
import type { LiveRun } from './live/liveRun.js';
import type { RunProcesses } from './live/runProcess.js';
import { PromptLanguageClient } from './lspClient.js';
import { ApiKeyStore } from './secrets.js';
import { WorkspaceArchitectureHost } from './workspaceArchitectures.js';

export interface ActivationTimes {
  /** Time inside activate(): loading the host code and registering everything (ms). */
  activateMs: number;
  /** Part of activateMs spent initialising the host modules (the lazily loaded part of the bundle). */
  hostCodeMs: number;
  /** Between the bundle's evaluation and VS Code calling activate (ms). */
  loadToActivateMs: number;
}

export class Ctx implements vscode.Disposable {
  readonly output: vscode.LogOutputChannel;
  readonly config: Config;
  readonly keys: ApiKeyStore;
  readonly lsp: PromptLanguageClient;
  readonly extensionPath: string;
  /** Runs in progress, by trace path. */
  readonly liveRuns = new Map<string, LiveRun>();
  /** The warm live-run process (created with the first live run or prompt opened; commands/live.ts). */
  runProcesses: RunProcesses | undefined;
  activation: ActivationTimes | undefined;
  /** The workspace's own architectures, registered beside the built-ins (architectureWatch.ts keeps them loaded). */
  readonly architectures = new WorkspaceArchitectureHost();
  /** The Testing view's controller (testing/controller.ts), created after activation for a window with a folder. */
  testing: { snapshot(): unknown[]; discover(): Promise<void>; readonly watching: boolean } | undefined;

  private readonly runsChanged = new vscode.EventEmitter<void>();
  /** Fired when runs appear, end or are deleted. */
  readonly onDidChangeRuns = this.runsChanged.event;
  private readonly variantsChanged = new vscode.EventEmitter<void>();
  /** Fired when .waypoint/variants.yaml changes (on disk or through a toggle). */
  readonly onDidChangeVariants = this.variantsChanged.event;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(readonly context: vscode.ExtensionContext) {
    this.extensionPath = context.extensionPath;
    this.output = this.push(vscode.window.createOutputChannel('Waypoint', { log: true }));
    this.config = this.push(new Config());
    this.keys = new ApiKeyStore(context.secrets);
    this.lsp = this.push(new PromptLanguageClient(this.asset('dist', 'lsp.js'), this.output, () => this.config.settings.architectures.paths));
    this.push(this.runsChanged, this.variantsChanged);
  }

  push<T extends vscode.Disposable>(...items: [T, ...vscode.Disposable[]]): T {
    this.disposables.push(...items);
    return items[0];
  }

  asset(...parts: string[]): string {
    return join(this.extensionPath, ...parts);
  }

  get builtInPromptRoot(): string {
    return builtInPromptRoot(this.extensionPath);
  }

  /** The folder that holds .waypoint/ for a file (its workspace folder), else the first local folder. */
  workspaceRoot(forUri?: vscode.Uri): string | undefined {
    const folder = forUri ? vscode.workspace.getWorkspaceFolder(forUri) : undefined;
    if (folder?.uri.scheme === 'file') return folder.uri.fsPath;
    return vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath;
  }

  get trusted(): boolean {
    return vscode.workspace.isTrusted;
  }

  gateState(): GateState {
    return { trusted: this.trusted, hasFolder: this.workspaceRoot() !== undefined, serverRunning: this.lsp.state === 'running' };
  }

  fireRunsChanged(): void {
    this.runsChanged.fire();
  }

  fireVariantsChanged(): void {
    this.variantsChanged.fire();
  }

  dispose(): void {
    for (const run of this.liveRuns.values()) run.cancel();
    for (const d of this.disposables.splice(0).reverse()) {
      try {
        d.dispose();
      } catch (err) {
        // One failing disposable must not keep the others alive; say which.
        console.error(`waypoint: dispose failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }
}
