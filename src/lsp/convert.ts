// Maps the analysis's plain data onto LSP types, honouring what the client said it supports.
import {
  CompletionItemKind,
  DiagnosticSeverity,
  DiagnosticTag,
  FoldingRangeKind,
  InsertTextFormat,
  MarkupKind,
  SymbolKind,
  type CompletionItem,
  type Diagnostic,
  type DocumentSymbol,
  type FoldingRange,
  type Hover,
  type SymbolInformation,
} from 'vscode-languageserver/node';
import type { CompletionKind, PromptCompletion, PromptDiagnostic, PromptFold, PromptHover, PromptSymbol, PromptSymbolKind, Severity } from '../core/prompt/analyze.js';

/** What the client supports, read once in onInitialize. */
export interface ClientFeatures {
  hierarchicalSymbols: boolean;
  snippets: boolean;
  markdownHover: boolean;
  markdownCompletionDocs: boolean;
  relatedInformation: boolean;
  diagnosticTags: boolean;
  foldingRangeLimit?: number;
}

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};
const SYMBOL: Record<PromptSymbolKind, SymbolKind> = {
  frontMatter: SymbolKind.Namespace,
  key: SymbolKind.Property,
  variable: SymbolKind.Variable,
  role: SymbolKind.Module,
  history: SymbolKind.Event,
  section: SymbolKind.String,
  ablation: SymbolKind.Boolean,
  else: SymbolKind.Operator,
};
const COMPLETION: Record<CompletionKind, CompletionItemKind> = {
  variable: CompletionItemKind.Variable,
  helper: CompletionItemKind.Function,
  api: CompletionItemKind.Method,
  ablation: CompletionItemKind.EnumMember,
  keyword: CompletionItemKind.Keyword,
  property: CompletionItemKind.Property,
  value: CompletionItemKind.Value,
};

export function toDiagnostic(d: PromptDiagnostic, uri: string, f: ClientFeatures): Diagnostic {
  const out: Diagnostic = { range: d.range, severity: SEVERITY[d.severity], code: d.code, source: 'waypoint', message: d.message };
  if (d.unnecessary && f.diagnosticTags) out.tags = [DiagnosticTag.Unnecessary];
  if (d.related && f.relatedInformation) out.relatedInformation = d.related.map((r) => ({ location: { uri, range: r.range }, message: r.message }));
  return out;
}

export function toDocumentSymbols(symbols: PromptSymbol[]): DocumentSymbol[] {
  return symbols.map((s) => ({
    name: s.name || '(unnamed)',
    detail: s.detail,
    kind: SYMBOL[s.kind],
    range: s.range,
    selectionRange: s.selectionRange,
    children: toDocumentSymbols(s.children),
  }));
}

/** Flat symbols for clients without hierarchical support; the parent goes into containerName. */
export function toSymbolInformation(symbols: PromptSymbol[], uri: string, container?: string): SymbolInformation[] {
  return symbols.flatMap((s) => [
    { name: s.name || '(unnamed)', kind: SYMBOL[s.kind], location: { uri, range: s.range }, containerName: container },
    ...toSymbolInformation(s.children, uri, s.name),
  ]);
}

export function toFoldingRanges(folds: PromptFold[], f: ClientFeatures): FoldingRange[] {
  const out = folds.map((r) => ({
    startLine: r.startLine,
    endLine: r.endLine,
    kind: r.kind === 'comment' ? FoldingRangeKind.Comment : r.kind === 'region' ? FoldingRangeKind.Region : undefined,
  }));
  return f.foldingRangeLimit !== undefined ? out.slice(0, f.foldingRangeLimit) : out;
}

/** Snippet text as plain text, for clients without snippet support: `${1:x}` -> x, `$0` -> ''. */
export function stripSnippet(s: string): string {
  return s.replace(/\$\{\d+:([^}]*)\}/g, '$1').replace(/\$\d+/g, '');
}

export function toCompletionItem(c: PromptCompletion, f: ClientFeatures): CompletionItem {
  const snippet = !!c.snippet && f.snippets;
  const text = c.insertText === undefined ? c.label : c.snippet && !f.snippets ? stripSnippet(c.insertText) : c.insertText;
  const item: CompletionItem = { label: c.label, kind: COMPLETION[c.kind], detail: c.detail, sortText: c.sortText };
  if (c.documentation) item.documentation = f.markdownCompletionDocs ? { kind: MarkupKind.Markdown, value: c.documentation } : c.documentation;
  if (snippet) item.insertTextFormat = InsertTextFormat.Snippet;
  if (c.replace) item.textEdit = { range: c.replace, newText: text };
  else item.insertText = text;
  return item;
}

export function toHover(h: PromptHover, extra: string | undefined, f: ClientFeatures): Hover {
  const value = extra ? `${h.contents}\n\n${extra}` : h.contents;
  return { contents: { kind: f.markdownHover ? MarkupKind.Markdown : MarkupKind.PlainText, value }, range: h.range };
}
