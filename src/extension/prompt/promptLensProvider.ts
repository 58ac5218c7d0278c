// CodeLens on .prompt files: Run live test, Preview, and one ablation toggle per {{#ablation}} line showing its
// state in the active variant. Specs come from promptLenses.ts (pure); this only maps them and refreshes when
// the variants file or a document changes.
import * as vscode from 'vscode';
import { architectures } from '../../architectures/registry.js';
import type { Ctx } from '../ctx.js';

export class PromptLensProvider implements vscode.CodeLensProvider {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.emitter.event;

  constructor(private readonly ctx: Ctx) {}

  refresh(): void {
    this.emitter.fire();
  }

  async provideCodeLenses(doc: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    // Loaded on first use (analysis, YAML, variants): not needed to activate.
    const [{ computePromptLenses, promptHeader }, { loadVariantsAt }, { ablationStates }] = await Promise.all([import('./promptLenses.js'), import('./variantsIo.js'), import('./variantsFile.js')]);
    const text = doc.getText();
    const root = this.ctx.workspaceRoot(doc.uri);
    const variants = await loadVariantsAt(root);
    const arch = promptHeader(text).arch;
    let builtIns = {};
    try {
      if (arch) builtIns = architectures.get(arch).builtInVariants;
    } catch {
      // An unknown architecture has no built-in variants; the language server reports the unknown id.
    }
    const states = ablationStates(variants.set, builtIns);
    return computePromptLenses(text, doc.uri.toString(), states).map((spec) => {
      const range = new vscode.Range(spec.line, 0, spec.line, 0);
      return new vscode.CodeLens(range, { title: spec.title, tooltip: spec.tooltip, command: spec.command, arguments: spec.args });
    });
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
