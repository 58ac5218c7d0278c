// The .prompt language server: wiring only. Analysis lives in core/prompt/analyze.ts; this file negotiates
// capabilities, keeps the open documents, pushes diagnostics (lightly debounced on change) and answers requests.
import { fileURLToPath } from 'node:url';
import { TextDocuments, TextDocumentSyncKind, type Connection, type InitializeParams, type InitializeResult } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Architectures } from '../core/architecture/registry.js';
import type { ArchitectureManifest } from '../core/architecture/types.js';
import type { HostIO } from '../core/host.js';
import { analyzePrompt, completePrompt, hoverPrompt, rolePromptAt, type PromptAnalysis } from '../core/prompt/analyze.js';
import { LastRunValues, type LastRunValuesResult } from '../protocol/lsp.js';
import { toCompletionItem, toDiagnostic, toDocumentSymbols, toFoldingRanges, toHover, toSymbolInformation, type ClientFeatures } from './convert.js';
import { LastRunFinder, previewValue } from './lastRun.js';

export interface ServerOptions {
  io: HostIO;
  /** The architectures prompts may belong to (their roles, variables and robot APIs). */
  architectures: Architectures<ArchitectureManifest>;
  /** Delay after the last edit before diagnostics are recomputed; open documents are checked at once. */
  debounceMs?: number;
  /**
   * Loads (again) the architectures the workspace brings into `architectures` (main.ts: the CLI's loader), from
   * the workspace folders and the client's `initializationOptions.architecturePaths`; returns the refusals as
   * `file:line: ...` lines. Not called when the client says the workspace is untrusted (an architecture is code).
   */
  loadArchitectures?: (o: { folders: string[]; paths: string[] }) => Promise<string[]>;
}

/** What the extension's client sends in `initializationOptions` (other clients may send nothing). */
interface InitOptions {
  architecturePaths?: unknown;
  trusted?: unknown;
}

export const COMPLETION_TRIGGERS = ['{', '#', '/', '"', '(', '@'];

/** A file under prompts/<arch>/ is that role's prompt even when its front matter does not say so. */
function roleAt(uri: string, architectures: Architectures<ArchitectureManifest>) {
  return uri.startsWith('file:') ? rolePromptAt(fileURLToPath(uri), architectures) : undefined;
}

export function startServer(connection: Connection, options: ServerOptions): void {
  const documents = new TextDocuments(TextDocument);
  const debounceMs = options.debounceMs ?? 60;
  const lastRun = new LastRunFinder(options.io);
  const cache = new Map<string, { version: number; analysis: PromptAnalysis }>();
  const published = new Map<string, number>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  let features: ClientFeatures = { hierarchicalSymbols: false, snippets: false, markdownHover: false, markdownCompletionDocs: false, relatedInformation: false, diagnosticTags: false };
  let workspaceRoot: string | undefined;
  let folders: string[] = [];
  let architecturePaths: string[] = [];
  let loadAllowed = true;
  // Diagnostics and answers wait for the workspace's architectures (a prompt of one is checked against its manifest).
  let ready: Promise<void> = Promise.resolve();
  let markReady: () => void = () => undefined;
  if (options.loadArchitectures) ready = new Promise((r) => (markReady = r));

  const loadArchitectures = async () => {
    if (!options.loadArchitectures || !loadAllowed) return;
    try {
      for (const line of await options.loadArchitectures({ folders, paths: architecturePaths })) connection.console.warn(line);
    } catch (err) {
      connection.console.error(`workspace architectures did not load: ${err instanceof Error ? err.message : String(err)}`);
    }
    // The manifests changed: every open prompt is checked again.
    cache.clear();
    for (const doc of documents.all()) publish(doc);
  };

  const analysisOf = (doc: TextDocument): PromptAnalysis => {
    const hit = cache.get(doc.uri);
    if (hit && hit.version === doc.version) return hit.analysis;
    const analysis = analyzePrompt(doc.getText(), { architectures: options.architectures, roleByPath: roleAt(doc.uri, options.architectures) });
    cache.set(doc.uri, { version: doc.version, analysis });
    return analysis;
  };
  const publish = (doc: TextDocument) => {
    const a = analysisOf(doc);
    published.set(doc.uri, doc.version);
    void connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics: a.diagnostics.map((d) => toDiagnostic(d, doc.uri, features)) });
  };
  const cancelTimer = (uri: string) => {
    const t = timers.get(uri);
    if (t) clearTimeout(t);
    timers.delete(uri);
  };

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const td = params.capabilities.textDocument;
    features = {
      hierarchicalSymbols: td?.documentSymbol?.hierarchicalDocumentSymbolSupport === true,
      snippets: td?.completion?.completionItem?.snippetSupport === true,
      markdownHover: td?.hover?.contentFormat?.includes('markdown') === true,
      markdownCompletionDocs: td?.completion?.completionItem?.documentationFormat?.includes('markdown') === true,
      relatedInformation: td?.publishDiagnostics?.relatedInformation === true,
      diagnosticTags: td?.publishDiagnostics?.tagSupport !== undefined,
      foldingRangeLimit: td?.foldingRange?.rangeLimit,
    };
    const rootUri = params.workspaceFolders?.[0]?.uri ?? params.rootUri ?? undefined;
    workspaceRoot = rootUri && rootUri.startsWith('file:') ? fileURLToPath(rootUri) : undefined;
    const uris = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
    folders = uris.filter((u) => u.startsWith('file:')).map((u) => fileURLToPath(u));
    const init = (params.initializationOptions ?? {}) as InitOptions;
    architecturePaths = Array.isArray(init.architecturePaths) ? init.architecturePaths.filter((p): p is string => typeof p === 'string') : [];
    loadAllowed = init.trusted !== false;
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        completionProvider: { triggerCharacters: COMPLETION_TRIGGERS, resolveProvider: false },
        hoverProvider: true,
        documentSymbolProvider: { label: 'Waypoint prompt' },
        foldingRangeProvider: true,
      },
      serverInfo: { name: 'waypoint-prompt' },
    };
  });

  connection.onInitialized(() => void loadArchitectures().finally(markReady));
  // A file under an architecture folder changed (the client watches them): load them again.
  connection.onDidChangeWatchedFiles(() => {
    ready = ready.then(loadArchitectures);
  });

  documents.onDidOpen((e) => {
    void ready.then(() => {
      const doc = documents.get(e.document.uri);
      if (doc && published.get(doc.uri) !== doc.version) publish(doc);
    });
  });
  documents.onDidChangeContent((e) => {
    const doc = e.document;
    if (published.get(doc.uri) === doc.version || !published.has(doc.uri)) return; // just published, or onDidOpen's to come
    cancelTimer(doc.uri);
    timers.set(
      doc.uri,
      setTimeout(() => {
        timers.delete(doc.uri);
        const current = documents.get(doc.uri);
        if (current) publish(current);
      }, debounceMs),
    );
  });
  documents.onDidClose((e) => {
    cancelTimer(e.document.uri);
    cache.delete(e.document.uri);
    published.delete(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  const withDoc = async <T>(uri: string, f: (a: PromptAnalysis) => T): Promise<T | null> => {
    await ready;
    const doc = documents.get(uri);
    return doc ? f(analysisOf(doc)) : null;
  };
  connection.onCompletion((p) => withDoc(p.textDocument.uri, (a) => ({ isIncomplete: false, items: completePrompt(a, p.position).map((c) => toCompletionItem(c, features)) })));
  connection.onDocumentSymbol((p) =>
    withDoc(p.textDocument.uri, (a) => (features.hierarchicalSymbols ? toDocumentSymbols(a.symbols) : toSymbolInformation(a.symbols, p.textDocument.uri))),
  );
  connection.onFoldingRanges((p) => withDoc(p.textDocument.uri, (a) => toFoldingRanges(a.folds, features)));
  connection.onHover(async (p) => {
    await ready;
    const doc = documents.get(p.textDocument.uri);
    if (!doc) return null;
    const a = analysisOf(doc);
    const h = hoverPrompt(a, p.position);
    if (!h) return null;
    let extra: string | undefined;
    if (h.variable && workspaceRoot && a.frontMatter.role) {
      const run = await lastRun.find(workspaceRoot, a.frontMatter.role, a.frontMatter.arch);
      if (run) {
        extra = Object.prototype.hasOwnProperty.call(run.variables, h.variable)
          ? `Value in the latest run (\`${run.runId}\`, turn ${run.turn}):\n\`\`\`text\n${previewValue(run.variables[h.variable])}\n\`\`\``
          : `Not set in the latest run (\`${run.runId}\`, turn ${run.turn}).`;
      }
    }
    return toHover(h, extra, features);
  });

  connection.onRequest(LastRunValues.method, async (raw: unknown): Promise<LastRunValuesResult> => {
    const parsed = LastRunValues.params.safeParse(raw);
    if (!parsed.success) throw new Error(`${LastRunValues.method}: invalid params: ${parsed.error.issues[0]?.message ?? 'expected {uri}'}`);
    const { uri } = parsed.data;
    if (!workspaceRoot) return null;
    const doc = documents.get(uri);
    const text = doc ? doc.getText() : uri.startsWith('file:') ? await options.io.readText(fileURLToPath(uri)) : undefined;
    if (text === undefined) throw new Error(`waypoint/lastRunValues: cannot read ${uri} (not open and not a file: URI)`);
    const a = doc ? analysisOf(doc) : analyzePrompt(text, { architectures: options.architectures });
    if (!a.frontMatter.role) return null;
    return lastRun.find(workspaceRoot, a.frontMatter.role, a.frontMatter.arch);
  });

  documents.listen(connection);
  connection.listen();
}
