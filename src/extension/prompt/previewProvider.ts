// Virtual documents (scheme `waypoint-preview`) showing what a role call sends: the messages recorded in a run's
// role_call event, or the current prompt text rendered with placeholder or last-run values and the active
// variant's ablations (re-rendered as the prompt is edited).
import * as vscode from 'vscode';
import { isWaypointPrompt } from '../promptLanguage.js';
import type { ChatMessage } from '../../protocol/trace.js';
import { architectures } from '../../architectures/registry.js';
import type { Ctx } from '../ctx.js';
import { formatPreview, placeholderValues } from './previewModel.js';

export const PREVIEW_SCHEME = 'waypoint-preview';

export type PreviewSpec =
  | { kind: 'recorded'; header: string[]; messages: ChatMessage[] }
  | { kind: 'render'; promptUri: string; values: Record<string, unknown>; valuesLabel: string };

export class PromptPreviewProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly specs = new Map<string, PreviewSpec>();
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  private next = 1;
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly sub: vscode.Disposable;

  constructor(private readonly ctx: Ctx) {
    this.sub = vscode.workspace.onDidChangeTextDocument((e) => {
      if (!isWaypointPrompt(e.document)) return;
      const changed = e.document.uri.toString();
      for (const [path, spec] of this.specs) if (spec.kind === 'render' && spec.promptUri === changed) this.scheduleRefresh(path);
    });
  }

  /** Registers a preview and returns its URI (a new one each time, so several previews can stay open). */
  add(name: string, spec: PreviewSpec): vscode.Uri {
    const path = `/${name.replace(/[^\w.-]+/g, '_')}-${this.next++}.md`;
    this.specs.set(path, spec);
    return vscode.Uri.from({ scheme: PREVIEW_SCHEME, path });
  }

  private scheduleRefresh(path: string): void {
    if (this.timers.has(path)) return;
    this.timers.set(
      path,
      setTimeout(() => {
        this.timers.delete(path);
        this.emitter.fire(vscode.Uri.from({ scheme: PREVIEW_SCHEME, path }));
      }, 250),
    );
  }

  refreshAll(): void {
    for (const [path, spec] of this.specs) if (spec.kind === 'render') this.scheduleRefresh(path);
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const spec = this.specs.get(uri.path);
    if (!spec) return '> This preview is gone (it was opened before a reload). Run "Waypoint: Preview Prompt" again.\n';
    if (spec.kind === 'recorded') return formatPreview(spec.header, spec.messages);
    return this.render(spec);
  }

  private async render(spec: Extract<PreviewSpec, { kind: 'render' }>): Promise<string> {
    const promptUri = vscode.Uri.parse(spec.promptUri);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === spec.promptUri) ?? (await vscode.workspace.openTextDocument(promptUri));
    const text = doc.getText();
    const [{ promptHeader }, { ablationStates }, { loadVariantsAt }] = await Promise.all([import('./promptLenses.js'), import('./variantsFile.js'), import('./variantsIo.js')]);
    const header = promptHeader(text);
    const variants = await loadVariantsAt(this.ctx.workspaceRoot(promptUri));
    let builtIns = {};
    try {
      if (header.arch) builtIns = architectures.get(header.arch).builtInVariants;
    } catch {
      // unknown architecture: no built-in variants
    }
    const states = ablationStates(variants.set, builtIns);
    const title = [`${header.arch ?? '?'}/${header.role ?? '?'} rendered from ${vscode.workspace.asRelativePath(promptUri)} (unsaved edits included)`, `values: ${spec.valuesLabel}; variant '${states.variant}'; history left empty`];
    try {
      // Loaded on first preview: dotprompt and Handlebars are not needed at activation.
      const { parsePromptFile, renderPrompt } = await import('../../core/prompt/render.js');
      const file = parsePromptFile(promptUri.fsPath, text);
      const { findAblations } = await import('../../core/prompt/analyze.js');
      const ablations: Record<string, boolean> = {};
      for (const ab of findAblations(text)) if (ab.id) ablations[ab.id] = states.isOn(ab.id, ab.defaultOn);
      const values = { ...placeholderValues(file.variables), ...spec.values };
      const rendered = await renderPrompt(file, { variables: values, ablations, history: [] });
      return formatPreview(title, rendered.messages);
    } catch (err) {
      return formatPreview([...title, `render failed: ${err instanceof Error ? err.message : String(err)}`], []);
    }
  }

  dispose(): void {
    this.sub.dispose();
    for (const t of this.timers.values()) clearTimeout(t);
    this.emitter.dispose();
  }
}
