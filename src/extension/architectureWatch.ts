// Keeps the workspace architectures loaded in the extension host (workspaceArchitectures.ts): loads them after
// activation, again when a file under a .waypoint/architectures/ folder or a `waypoint.architectures.paths` folder
// changes, when that setting, the folders or the trust change. A refused folder is a diagnostic at its file:line
// (Problems view) and an error item in the Agents view; the rest keeps working.
import { isAbsolute } from 'node:path';
import * as vscode from 'vscode';
import type { Ctx } from './ctx.js';
import { architectureRoots, isUnderAny, reloadLines, type ArchitectureSources } from './workspaceArchitectures.js';

export function localFolders(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

export function architectureSources(c: Ctx): ArchitectureSources {
  return { folders: localFolders(), paths: c.config.settings.architectures.paths, trusted: c.trusted };
}

/** Starts watching and loads once; `changed` runs after every load (views refresh, tests are read again). */
export function watchWorkspaceArchitectures(c: Ctx, changed: () => void): { loadNow(): Promise<void> } {
  const diagnostics = c.push(vscode.languages.createDiagnosticCollection('waypoint-architectures'));
  let timer: ReturnType<typeof setTimeout> | undefined;
  let hadAny = false;

  const loadNow = async (): Promise<void> => {
    const r = await c.architectures.reload(architectureSources(c));
    const lines = reloadLines(r);
    for (const l of lines.info) c.output.info(l);
    for (const l of lines.warn) c.output.warn(l);
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const f of r.refused) {
      const line = Math.max(0, (f.line ?? 1) - 1);
      const d = new vscode.Diagnostic(new vscode.Range(line, 0, line, Number.MAX_SAFE_INTEGER), `architecture '${f.id}' refused: ${f.message}`, vscode.DiagnosticSeverity.Error);
      d.source = 'waypoint';
      byFile.set(f.file, [...(byFile.get(f.file) ?? []), d]);
    }
    diagnostics.clear();
    for (const [file, ds] of byFile) if (isAbsolute(file)) diagnostics.set(vscode.Uri.file(file), ds);
    // Views read the registry: refresh them when this load or the one before had something to show.
    const any = r.loaded.length > 0 || r.refused.length > 0;
    if (any || hadAny) changed();
    hadAny = any;
  };
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void loadNow().catch((err: unknown) => c.output.error(`workspace architectures did not load: ${err instanceof Error ? err.message : String(err)}`)), 300);
  };

  const fileWatchers: vscode.Disposable[] = [];
  const watch = () => {
    for (const d of fileWatchers.splice(0)) d.dispose();
    const w = vscode.workspace.createFileSystemWatcher('**/.waypoint/architectures/**');
    fileWatchers.push(w, w.onDidCreate(soon), w.onDidChange(soon), w.onDidDelete(soon));
    // The setting's folders may lie outside the workspace: one watcher each.
    const { roots } = architectureRoots(architectureSources(c), {});
    for (const root of roots) {
      const rw = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(root), '**'));
      fileWatchers.push(rw, rw.onDidCreate(soon), rw.onDidChange(soon), rw.onDidDelete(soon));
    }
  };
  watch();
  c.push(
    { dispose: () => [clearTimeout(timer), ...fileWatchers.splice(0).map((d) => d.dispose())] },
    c.config.onDidChange((change) => {
      if (!change.changed.includes('architectures.paths')) return;
      watch();
      soon();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => {
      watch();
      soon();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(soon),
    // A file saved in the editor reloads whatever the watcher reports: the workspace's shared watcher can miss edits
    // in a folder created with its contents at once (a recursive copy), which the e2e test met in code-server.
    vscode.workspace.onDidSaveTextDocument((doc) => {
      if (doc.uri.scheme === 'file' && isUnderAny(doc.uri.fsPath, c.architectures.roots())) soon();
    }),
  );
  return { loadNow };
}
