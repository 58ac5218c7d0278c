// A minimal LSP client for tests: starts `node dist/lsp.js --stdio`, speaks JSON-RPC over the child's pipes, and
// waits for responses and notifications (never for time).
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializeRequest,
  InitializedNotification,
  LogMessageNotification,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  createProtocolConnection,
  type ClientCapabilities,
  type InitializeResult,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver/node';
import { assertDistFresh } from '../helpers/dist.js';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
const BUNDLE = join(REPO, 'dist/lsp.js');

/** Fails clearly when the bundle is missing or older than any file it was built from. */
export function assertBundleFresh(): void {
  assertDistFresh('dist/lsp.js', REPO);
}

export const FULL_CAPABILITIES: ClientCapabilities = {
  textDocument: {
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    completion: { completionItem: { snippetSupport: true, documentationFormat: ['markdown', 'plaintext'] } },
    hover: { contentFormat: ['markdown', 'plaintext'] },
    publishDiagnostics: { relatedInformation: true, tagSupport: { valueSet: [1, 2] } },
    foldingRange: {},
  },
};

export class LspClient {
  readonly conn: ProtocolConnection;
  private readonly child: ChildProcess;
  private readonly latest = new Map<string, PublishDiagnosticsParams>();
  private waiters: { uri: string; ok: (p: PublishDiagnosticsParams) => boolean; resolve: (p: PublishDiagnosticsParams) => void }[] = [];
  readonly stderr: string[] = [];
  /** window/logMessage texts (the server's console). */
  readonly logs: string[] = [];
  private readonly exited: Promise<number | null>;

  constructor() {
    assertBundleFresh();
    this.child = spawn(process.execPath, [BUNDLE, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr!.on('data', (d: Buffer) => this.stderr.push(d.toString()));
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
    this.conn = createProtocolConnection(this.child.stdout!, this.child.stdin!);
    this.conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
      this.latest.set(p.uri, p);
      this.waiters = this.waiters.filter((w) => {
        if (w.uri !== p.uri || !w.ok(p)) return true;
        w.resolve(p);
        return false;
      });
    });
    this.conn.onNotification(LogMessageNotification.type, (p) => {
      this.logs.push(p.message);
    });
    this.conn.listen();
  }

  async initialize(rootUri: string | null, capabilities: ClientCapabilities = FULL_CAPABILITIES, initializationOptions?: unknown): Promise<InitializeResult> {
    const r = await this.conn.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri, capabilities, workspaceFolders: null, ...(initializationOptions !== undefined ? { initializationOptions } : {}) });
    await this.conn.sendNotification(InitializedNotification.type, {});
    return r;
  }

  /** Resolves with the first diagnostics for `uri` (already received or coming) that satisfy `ok`. */
  diagnostics(uri: string, ok: (p: PublishDiagnosticsParams) => boolean = () => true): Promise<PublishDiagnosticsParams> {
    const have = this.latest.get(uri);
    if (have && ok(have)) return Promise.resolve(have);
    return new Promise((resolve) => this.waiters.push({ uri, ok, resolve }));
  }

  async open(uri: string, text: string, version = 1): Promise<PublishDiagnosticsParams> {
    this.latest.delete(uri);
    await this.conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'waypoint-prompt', version, text } });
    return this.diagnostics(uri, (p) => p.version === version);
  }

  async change(uri: string, version: number, text: string): Promise<PublishDiagnosticsParams> {
    await this.conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
    return this.diagnostics(uri, (p) => p.version === version);
  }

  async close(uri: string): Promise<PublishDiagnosticsParams> {
    this.latest.delete(uri);
    await this.conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
    return this.diagnostics(uri);
  }

  async stop(): Promise<number | null> {
    await this.conn.sendRequest(ShutdownRequest.type);
    await this.conn.sendNotification(ExitNotification.type);
    const code = await this.exited;
    this.conn.dispose();
    return code;
  }
}
