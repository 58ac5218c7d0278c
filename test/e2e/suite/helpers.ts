// Shared by the e2e suite files (each is bundled on its own, so shared state goes through globalThis).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';

export const EXTENSION_ID = 'waypoint-dev.waypoint';

/** What the runner (test/e2e/run.mjs or runElectron.mjs) wrote beside the bundle: where things are on disk. */
export interface E2eEnv {
  repoRoot: string;
  workspace: string;
  /** The code-server user-data-dir (undefined under @vscode/test-electron, which picks its own). */
  userDataDir?: string;
  /** A trace with executor errors and a Coder retry (test/fixtures/traces/malmm-pick-place.jsonl). */
  fixtureTrace: string;
  /** Which phase this is: 'main' (trusted workspace) or 'restricted' (workspace trust on, folder not trusted). */
  phase: 'main' | 'restricted';
  host: 'code-server' | 'electron';
}

export function e2eEnv(): E2eEnv {
  const g = globalThis as { __waypointE2eEnv?: E2eEnv };
  if (!g.__waypointE2eEnv) throw new Error('e2e env not loaded: run the suite through test/e2e/suite/index.ts');
  return g.__waypointE2eEnv;
}

/** Figures for the report (activation time, run length, ...), collected into results.json. */
export function note(key: string, value: unknown): void {
  const g = globalThis as { __waypointE2eNotes?: Record<string, unknown> };
  (g.__waypointE2eNotes ??= {})[key] = value;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Polls `probe` until it returns a value other than undefined/false, or fails with `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, timeoutMs: number, probe: () => T | undefined | false | Promise<T | undefined | false>, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined && v !== false) return v;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() > deadline) {
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}${cause}`);
    }
    await sleep(intervalMs);
  }
}

/** Rejects with `message` when `p` has not settled within `ms` (a missing feature fails, it does not hang). */
export async function within<T>(ms: number, message: string, p: Thenable<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      Promise.resolve(p),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${message} (no answer within ${ms / 1000} s)`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export async function activeExtension(): Promise<vscode.Extension<unknown>> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded: is the repository root the extensionDevelopmentPath, and is dist/extension.js built?`);
  if (!ext.isActive) await within(30_000, `${EXTENSION_ID} did not finish activating`, ext.activate());
  return ext;
}

export function wsUri(...parts: string[]): vscode.Uri {
  return vscode.Uri.file(join(e2eEnv().workspace, ...parts));
}

/** Resolved CodeLenses of a document (titles filled in). */
export async function codeLenses(uri: vscode.Uri): Promise<vscode.CodeLens[]> {
  return (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100)) ?? [];
}

export function lensTitles(lenses: vscode.CodeLens[]): string[] {
  return lenses.map((l) => l.command?.title ?? '(unresolved)');
}

/** Run folders under the workspace's .waypoint/runs. */
export function runFolders(workspace = e2eEnv().workspace): string[] {
  const dir = join(workspace, '.waypoint', 'runs');
  try {
    return readdirSync(dir).filter((n) => statSync(join(dir, n)).isDirectory()).sort();
  } catch {
    return [];
  }
}

/** Files under `root` (skipping node_modules and files over 5 MB) whose bytes contain `needle`. */
export function filesContaining(root: string, needle: string): string[] {
  const hits: string[] = [];
  const walk = (dir: string) => {
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(dir, n);
      let st;
      try {
        st = statSync(p);
      } catch {
        continue;
      }
      if (st.isDirectory()) {
        if (n !== 'node_modules') walk(p);
      } else if (st.isFile() && st.size < 5_000_000) {
        try {
          if (readFileSync(p).includes(needle)) hits.push(p);
        } catch {
          // unreadable (socket, permission): nothing to check
        }
      }
    }
  };
  walk(root);
  return hits;
}

/** Webview tabs whose view type belongs to Waypoint's run viewer. */
export function runViewerTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('waypoint.runViewer'));
}

/** The package.json the extension host loaded (contributes.* as declared). */
export function manifest(ext: vscode.Extension<unknown>): {
  contributes?: { commands?: { command: string }[]; languages?: { id: string; extensions?: string[] }[]; debuggers?: unknown[]; configuration?: unknown };
  capabilities?: { untrustedWorkspaces?: { supported: boolean | 'limited' } };
} {
  return ext.packageJSON as ReturnType<typeof manifest>;
}

/** The language id package.json gives .prompt files (the brief calls it `prompt`). */
export function promptLanguageId(ext: vscode.Extension<unknown>): string | undefined {
  return (manifest(ext).contributes?.languages ?? []).find((l) => l.extensions?.includes('.prompt'))?.id;
}
