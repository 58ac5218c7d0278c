// The .prompt language client: starts dist/lsp.js over stdio (all analysis is in the server) and exposes the
// custom request `waypoint/lastRunValues`. vscode-languageclient is loaded on first start, not at activation.
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import { PROMPT_SELECTOR } from './promptLanguage.js';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { LastRunValuesResult } from '../protocol/lsp.js';

export type ServerState = 'stopped' | 'starting' | 'running' | 'failed';

export class PromptLanguageClient implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private starting: Promise<void> | undefined;
  private stateValue: ServerState = 'stopped';
  private readonly watchers: vscode.FileSystemWatcher[] = [];
  private readonly emitter = new vscode.EventEmitter<ServerState>();
  readonly onDidChangeState = this.emitter.event;

  constructor(
    private readonly serverModule: string,
    private readonly output: vscode.LogOutputChannel,
    /** The `waypoint.architectures.paths` setting, read at each start (a change restarts the server). */
    private readonly architecturePaths: () => readonly string[] = () => [],
  ) {}

  get state(): ServerState {
    return this.stateValue;
  }

  private setState(s: ServerState): void {
    this.stateValue = s;
    this.emitter.fire(s);
  }

  /** Starts the server once; later calls wait for the same start. Failures are logged and shown, not thrown. */
  start(): Promise<void> {
    this.starting ??= this.doStart();
    return this.starting;
  }

  private async doStart(): Promise<void> {
    this.setState('starting');
    const t0 = performance.now();
    try {
      // A separate CommonJS bundle beside the server's (scripts/build.mjs), loaded on first use.
      const require = createRequire(this.serverModule);
      const { LanguageClient, TransportKind } = require(join(dirname(this.serverModule), 'languageClient.js')) as typeof import('./vendor/languageClient.js');
      const module = { module: this.serverModule, transport: TransportKind.stdio, options: { execArgv: [] as string[] } };
      this.client = new LanguageClient(
        'waypoint.prompt',
        'Waypoint Prompt Language Server',
        { run: module, debug: { ...module, options: { execArgv: ['--nolazy', '--inspect=6019'] } } },
        {
          documentSelector: PROMPT_SELECTOR,
          outputChannel: this.output,
          // The workspace's own architectures: the server loads their manifests (only in a trusted workspace, as
          // they are code) and loads them again when a file under their folders changes.
          initializationOptions: { architecturePaths: [...this.architecturePaths()], trusted: vscode.workspace.isTrusted },
          synchronize: { fileEvents: this.architectureWatchers() },
        },
      );
      await this.client.start();
      this.setState('running');
      this.output.info(`language server started in ${Math.round(performance.now() - t0)} ms (${this.serverModule})`);
    } catch (err) {
      this.setState('failed');
      const msg = `The .prompt language server did not start: ${err instanceof Error ? err.message : String(err)}`;
      this.output.error(msg);
      void vscode.window.showErrorMessage(msg, 'Show Output').then((c) => c && this.output.show());
    }
  }

  private architectureWatchers(): vscode.FileSystemWatcher[] {
    this.watchers.splice(0).forEach((w) => w.dispose());
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath;
    const outside = this.architecturePaths().map((p) => (isAbsolute(p) ? p : folder ? join(folder, p) : undefined)).filter((p): p is string => p !== undefined);
    this.watchers.push(vscode.workspace.createFileSystemWatcher('**/.waypoint/architectures/**'), ...outside.map((p) => vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(p), '**'))));
    return this.watchers;
  }

  async stop(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    this.starting = undefined;
    if (c) {
      try {
        await c.stop();
      } catch (err) {
        this.output.warn(`language server did not stop cleanly: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    this.setState('stopped');
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** Variable values of the latest run that called this prompt's role, or null; undefined when the server is down. */
  async lastRunValues(uri: vscode.Uri): Promise<LastRunValuesResult | undefined> {
    if (!this.client || this.stateValue !== 'running') return undefined;
    const { LastRunValues } = await import('../protocol/lsp.js');
    const raw = await this.client.sendRequest(LastRunValues.method, { uri: uri.toString() });
    const parsed = LastRunValues.result.safeParse(raw);
    if (!parsed.success) throw new Error(`language server answered ${LastRunValues.method} with an invalid result: ${parsed.error.issues[0]?.message ?? 'schema mismatch'}`);
    return parsed.data;
  }

  dispose(): void {
    void this.stop();
    this.watchers.splice(0).forEach((w) => w.dispose());
    this.emitter.dispose();
  }
}
