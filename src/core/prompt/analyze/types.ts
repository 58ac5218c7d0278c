// Result types of the .prompt analysis. LSP-shaped (0-based lines, UTF-16 columns) but free of any LSP import,
// so core stays usable from the CLI and tests; src/lsp/server.ts maps them onto vscode-languageserver types.

export interface Pos {
  /** 0-based line. */
  line: number;
  /** 0-based UTF-16 column. */
  character: number;
}
export interface Span {
  start: Pos;
  end: Pos;
}

export type Severity = 'error' | 'warning' | 'information' | 'hint';

export type DiagnosticCode =
  | 'yaml'
  | 'front-matter'
  | 'schema'
  | 'undocumented-variable'
  | 'unused-variable'
  | 'hbs-parse'
  | 'unknown-variable'
  | 'undefined-variable'
  | 'optional-variable'
  | 'never-passed'
  | 'unknown-helper'
  | 'ablation-unclosed'
  | 'ablation-duplicate'
  | 'ablation-invalid-id'
  | 'ablation-not-block'
  | 'missing-role'
  | 'role-marker'
  | 'unknown-arch'
  | 'budget';

export interface PromptDiagnostic {
  range: Span;
  severity: Severity;
  code: DiagnosticCode;
  message: string;
  related?: { range: Span; message: string }[];
  /** Rendered faded by editors (unused declarations). */
  unnecessary?: boolean;
}

export type PromptSymbolKind = 'frontMatter' | 'key' | 'variable' | 'role' | 'history' | 'section' | 'ablation' | 'else';

export interface PromptSymbol {
  name: string;
  detail?: string;
  kind: PromptSymbolKind;
  range: Span;
  selectionRange: Span;
  children: PromptSymbol[];
}

export interface PromptFold {
  startLine: number;
  endLine: number;
  kind?: 'comment' | 'region';
}

export type CompletionKind = 'variable' | 'helper' | 'api' | 'ablation' | 'keyword' | 'property' | 'value';

export interface PromptCompletion {
  label: string;
  kind: CompletionKind;
  detail?: string;
  /** Markdown. */
  documentation?: string;
  /** Text to insert; a snippet (with $1 tab stops) when `snippet` is true. Defaults to the label. */
  insertText?: string;
  snippet?: boolean;
  /** The text the item replaces (the partial word before the cursor). */
  replace?: Span;
  sortText?: string;
}

export interface PromptHover {
  /** Markdown. */
  contents: string;
  range: Span;
  /** Set when the hovered thing is a declared input variable, so the server can add its value in the latest run. */
  variable?: string;
}

/** One input variable declared in front matter `input.schema` (Picoschema or JSON Schema). */
export interface InputVariable {
  name: string;
  optional: boolean;
  /** Display type: string, number, array<string>, object, enum(a|b), ... */
  type: string;
  doc?: string;
  /** Absolute offsets of the declaring key. */
  keyStart: number;
  keyEnd: number;
}

export interface AblationInfo {
  id: string;
  label?: string;
  /** False for `default="off"` blocks (opt-in additions a variant must turn on). */
  defaultOn: boolean;
  /** 0-based line of the opening `{{#ablation ...}}` tag. */
  line: number;
  /** The opening tag. */
  openRange: Span;
  /** The id string literal, quotes included, when present. */
  idRange?: Span;
  /** From the opening tag to the end of the closing tag (or of the file when unclosed). */
  range: Span;
  /** From the start of `{{else}}` to the start of `{{/ablation}}`, when the block has an else part. */
  elseRange?: Span;
  closed: boolean;
  /** Nesting depth among ablation blocks (0 = outermost). */
  depth: number;
}
