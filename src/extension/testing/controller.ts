// Waypoint's tests in VS Code's Testing view (the Python and Jest extensions' model): a TestController whose items
// are discovered when the view first asks for them (resolveHandler), a Run profile (episodes through the warm run
// process; continuous runs re-run the tests whose prompts were saved), a Debug profile (a `waypoint` debug
// session), diagnostics for a bad tests file, and the last outcomes kept in .waypoint/test-results.json: shown as
// each item's description and re-published as a finished run when the tree is first built after a reload.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import * as vscode from 'vscode';
import { architectureManifests } from '../../architectures/manifests.js';
import { nodeIO } from '../../core/node/nodeHost.js';
import { loadVariants, VARIANTS_FILE } from '../../core/prompt/variants.js';
import { resolvePromptPaths } from '../../core/runs/promptPaths.js';
import type { Ctx } from '../ctx.js';
import type { LmBridge } from '../lm/lmBridge.js';
import { isWaypointPrompt } from '../promptLanguage.js';
import { buildTree, casesUsingPrompt, discoverTests, selectCases, type SweepLike, type TestCase, type TreeNode } from './discovery.js';
import { outcomeSummary, type TestOutcome } from './results.js';
import { fromStored, parseResults, serializeResults, TEST_RESULTS_FILE, toStored, type StoredOutcome } from './resultsStore.js';
import type { RunnerHost } from './runner.js';
import type { FileProblem } from './testsFile.js';
import { TESTS_FILE } from './testsFile.js';

export const TEST_CONTROLLER_ID = 'waypoint';
/** Sweep files: `*.sweep.yaml` anywhere (docs/recipes/ names them so) and the YAML files of a top-level sweeps/ folder. */
const SWEEP_GLOB = '{**/*.sweep.yaml,**/*.sweep.yml,sweeps/*.yaml,sweeps/*.yml}';

/** A plain copy of the tree as VS Code has it (for tests and scripts: the extension's exports). */
export interface TestSnapshot {
  id: string;
  label: string;
  description?: string;
  error?: string;
  /** The outcome of the test's last run in this window. */
  state?: { status: string; reason: string; message?: string };
  file?: string;
  line?: number;
  children: TestSnapshot[];
}

/** "14:05" today, "28 Nov 14:05" before. */
export function whenText(iso: string, now: Date): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const hm = d.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
  return d.toDateString() === now.toDateString() ? hm : `${d.toLocaleDateString('en-GB', { day: 'numeric', month: 'short' })} ${hm}`;
}

export class WaypointTesting implements vscode.Disposable, RunnerHost {
  readonly controller: vscode.TestController;
  private readonly diagnostics: vscode.DiagnosticCollection;
  private readonly disposables: vscode.Disposable[] = [];
  private tree: TreeNode[] = [];
  private readonly items = new Map<string, vscode.TestItem>();
  private readonly cases = new Map<string, TestCase>();
  private results: Map<string, StoredOutcome> | undefined;
  private discovery: Promise<void> | undefined;
  private restored = false;
  private writeChain: Promise<void> = Promise.resolve();
  private rediscoverTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly runProfile: vscode.TestRunProfile;
  /** What each test's last run in this window reported (the snapshot's `state`). */
  private readonly session = new Map<string, { status: string; reason: string; message?: string }>();

  constructor(
    readonly ctx: Ctx,
    readonly bridge: LmBridge,
  ) {
    this.controller = vscode.tests.createTestController(TEST_CONTROLLER_ID, 'Waypoint episodes');
    this.diagnostics = vscode.languages.createDiagnosticCollection('waypoint-tests');
    this.controller.resolveHandler = async (item) => {
      if (!item) await this.ensureDiscovered();
    };
    this.controller.refreshHandler = () => this.discover();
    this.runProfile = this.controller.createRunProfile('Run episodes', vscode.TestRunProfileKind.Run, (request, token) => this.run(request, token), true, undefined, true);
    this.controller.createRunProfile('Debug episode', vscode.TestRunProfileKind.Debug, (request, token) => this.debug(request, token), true);

    // What the tests depend on: the tests file, sweep files, the variants file (variant names are checked).
    const soon = () => {
      if (!this.discovery) return; // not asked for yet: the first resolve reads everything anyway
      clearTimeout(this.rediscoverTimer);
      this.rediscoverTimer = setTimeout(() => void this.discover(), 300);
    };
    for (const glob of [`**/${TESTS_FILE}`, SWEEP_GLOB, `**/${VARIANTS_FILE}`]) {
      const w = vscode.workspace.createFileSystemWatcher(glob);
      this.disposables.push(w, w.onDidCreate(soon), w.onDidChange(soon), w.onDidDelete(soon));
    }
    // A saved prompt makes the last results of the tests that use it outdated (continuous runs re-run them).
    this.disposables.push(vscode.workspace.onDidSaveTextDocument((doc) => void this.promptSaved(doc)));
    this.disposables.push(this.controller, this.diagnostics);
  }

  item(id: string): vscode.TestItem | undefined {
    return this.items.get(id);
  }

  private ensureDiscovered(): Promise<void> {
    this.discovery ??= this.discover();
    return this.discovery;
  }

  /** Reads the tests file, the sweep files and the variants file, and rebuilds the tree and the diagnostics. */
  async discover(): Promise<void> {
    const p = this.doDiscover().catch((err: unknown) => {
      const message = err instanceof Error ? err.message : String(err);
      this.ctx.output.error(`test discovery failed: ${message}`);
      const item = this.controller.createTestItem('discovery-error', 'Test discovery failed');
      item.error = message;
      this.controller.items.replace([item]);
    });
    this.discovery ??= p;
    return p;
  }

  private async doDiscover(): Promise<void> {
    // Tests may name the workspace's own architectures (arch: cap): wait for them to be registered.
    await this.ctx.architectures.ready();
    const root = this.ctx.workspaceRoot();
    if (!root) {
      this.controller.items.replace([]);
      return;
    }
    const testsPath = join(root, TESTS_FILE);
    const testsText = await readFile(testsPath, 'utf8').catch(() => undefined);
    const sweepUris = (await vscode.workspace.findFiles(new vscode.RelativePattern(root, SWEEP_GLOB), '**/{node_modules,.waypoint}/**', 200)).sort((a, b) => a.fsPath.localeCompare(b.fsPath));
    const sweeps = await Promise.all(sweepUris.map(async (u) => ({ path: u.fsPath, text: await readFile(u.fsPath, 'utf8') })));
    // The sweep parser comes with the registry; loaded only for a workspace that has sweep files.
    const parseSweep = sweeps.length > 0 ? ((await import('../../core/sweep/spec.js')).parseSweepSpec as (text: string, file: string) => SweepLike) : undefined;
    let workspaceVariants: string[] = [];
    try {
      workspaceVariants = Object.keys((await loadVariants(nodeIO, join(root, VARIANTS_FILE))).variants);
    } catch (err) {
      // The variants file's own errors show in the prompt views; here only: its variants are unknown.
      this.ctx.output.warn(`tests: the variants file does not load (${err instanceof Error ? err.message : String(err)}); only built-in variants are known`);
    }
    // The task catalogs and the runner load with the first discovery, not with the controller.
    const { testCatalog } = await import('./catalog.js');
    const d = discoverTests({ catalog: testCatalog(), ...(testsText !== undefined ? { testsFile: { path: testsPath, text: testsText } } : {}), sweeps, ...(parseSweep ? { parseSweep } : {}), workspaceVariants });
    const problems = d.problems;
    this.tree = buildTree(d.cases, testCatalog());
    this.cases.clear();
    for (const c of d.cases) this.cases.set(c.id, c);
    // Items that stay keep their objects: a run in progress reports to them.
    const previous = new Map(this.items);
    this.items.clear();
    await this.loadResults(root);
    const roots = this.tree.map((n) => this.toItem(n, previous));
    // A file with problems: one error item (the Testing view shows its message), beside the tests it still gave.
    const byFile = new Map<string, FileProblem[]>();
    for (const p of problems) byFile.set(p.file, [...(byFile.get(p.file) ?? []), p]);
    for (const [file, ps] of byFile) {
      const rel = relative(root, file) || basename(file);
      const item = this.controller.createTestItem(`problem:${rel}`, `${rel}: ${ps.length === 1 ? 'a problem' : `${ps.length} problems`}`, vscode.Uri.file(file));
      item.range = new vscode.Range(ps[0]!.line - 1, 0, ps[0]!.line - 1, 0);
      item.error = new vscode.MarkdownString(ps.map((p) => `line ${p.line}: ${p.message}`).join('\n\n'));
      item.sortText = '~';
      roots.push(item);
    }
    this.controller.items.replace(roots);
    this.diagnostics.clear();
    for (const [file, ps] of byFile) {
      this.diagnostics.set(
        vscode.Uri.file(file),
        ps.map((p) => {
          const diag = new vscode.Diagnostic(new vscode.Range(p.line - 1, 0, p.line - 1, Number.MAX_SAFE_INTEGER), p.message, vscode.DiagnosticSeverity.Error);
          diag.source = 'waypoint tests';
          return diag;
        }),
      );
    }
    this.ctx.output.info(`tests: ${d.cases.length} discovered${d.isDefaultSet ? ' (the default set: no .waypoint/tests.yaml or *.sweep.yaml)' : ''}${problems.length ? `, ${problems.length} problem(s): ${problems.map((p) => `${p.file}:${p.line}: ${p.message}`).join('; ')}` : ''}`);
    if (!this.restored) {
      this.restored = true;
      await this.republish(root);
    }
  }

  private toItem(n: TreeNode, previous: ReadonlyMap<string, vscode.TestItem>): vscode.TestItem {
    const source = n.testCase?.source;
    const uri = source ? vscode.Uri.file(source.file) : undefined;
    const old = previous.get(n.id);
    const item = old && old.uri?.toString() === uri?.toString() ? old : this.controller.createTestItem(n.id, n.label, uri);
    item.label = n.label;
    item.range = source ? new vscode.Range(source.line - 1, 0, source.line - 1, 0) : undefined;
    item.sortText = n.sortText;
    item.error = undefined;
    if (n.testCase) this.describe(item);
    this.items.set(n.id, item);
    item.children.replace(n.children.map((c) => this.toItem(c, previous)));
    return item;
  }

  /** The item's description: its last recorded outcome and when (after a reload VS Code shows only a muted state). */
  private describe(item: vscode.TestItem): void {
    const r = this.results?.get(item.id);
    item.description = r ? `${outcomeSummary(r, false)} · ${whenText(r.finishedAt, new Date())}` : undefined;
  }

  private async loadResults(root: string): Promise<void> {
    if (this.results) return;
    const text = await readFile(join(root, TEST_RESULTS_FILE), 'utf8').catch(() => undefined);
    if (text === undefined) {
      this.results = new Map();
      return;
    }
    const parsed = parseResults(text);
    if (parsed.warning) this.ctx.output.warn(parsed.warning);
    this.results = parsed.results;
  }

  /**
   * VS Code restores only a muted pass/fail state after a reload; the last results with their messages and links
   * come back as a finished run (not persisted by VS Code: the results file is the record), without taking focus.
   */
  private async republish(root: string): Promise<void> {
    const stored = [...(this.results ?? [])].filter(([id, r]) => this.cases.has(id) && this.items.has(id) && r.status !== 'skipped');
    if (stored.length === 0) return;
    const request = new vscode.TestRunRequest(stored.map(([id]) => this.items.get(id)!), undefined, this.runProfile, false, true);
    const newest = stored.map(([, r]) => r.finishedAt).sort().pop() ?? '';
    const run = this.controller.createTestRun(request, `Last results (${TEST_RESULTS_FILE}, ${newest.slice(0, 16).replace('T', ' ')})`, false);
    const { report } = await import('./runner.js');
    for (const [id, r] of stored) await report(run, this.items.get(id)!, this.cases.get(id)!, fromStored(r, root));
    run.end();
  }

  async record(c: TestCase, o: TestOutcome): Promise<void> {
    this.session.set(c.id, { status: o.status, reason: o.reason, ...(o.message ? { message: o.message } : {}) });
    const root = this.ctx.workspaceRoot();
    // A cancelled run (or a debug session stopped midway) says nothing about the test: the last outcome stays. An
    // untrusted workspace ran nothing and gets nothing written.
    if (!root || o.status === 'skipped' || !this.ctx.trusted) return;
    await this.loadResults(root);
    this.results!.set(c.id, toStored(o, new Date().toISOString(), root));
    const item = this.items.get(c.id);
    if (item) this.describe(item);
    // Writes in order; a failed write is logged and the next one carries the state.
    const text = serializeResults(this.results!);
    const file = join(root, TEST_RESULTS_FILE);
    this.writeChain = this.writeChain
      .then(async () => {
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, text, 'utf8');
      })
      .catch((err: unknown) => this.ctx.output.warn(`could not write ${file}: ${err instanceof Error ? err.message : String(err)}`));
    await this.writeChain;
  }

  private casesOf(request: vscode.TestRunRequest): TestCase[] {
    return selectCases(this.tree, request.include?.map((i) => i.id), request.exclude?.map((i) => i.id));
  }

  private async run(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    await this.ensureDiscovered();
    if (request.continuous) return this.watch(request, token);
    const { runEpisodes } = await import('./runner.js');
    const run = this.controller.createTestRun(request);
    try {
      await runEpisodes(this, run, this.casesOf(request), token);
    } finally {
      run.end();
    }
  }

  private async debug(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    await this.ensureDiscovered();
    const { debugEpisodes } = await import('./runner.js');
    const run = this.controller.createTestRun(request);
    try {
      await debugEpisodes(this, run, this.casesOf(request), token);
    } finally {
      run.end();
    }
  }

  /** Prompt paths each architecture's roles resolve to now (workspace overrides over the built-ins). */
  private async promptsByArch(archs: Iterable<string>): Promise<Map<string, string[]>> {
    const root = this.ctx.workspaceRoot();
    const out = new Map<string, string[]>();
    if (!root) return out;
    for (const id of archs) {
      const m = architectureManifests.find(id);
      if (m) out.set(id, Object.values(await resolvePromptPaths(nodeIO, m, { workspace: root, builtInPromptRoot: this.ctx.builtInPromptRoot })));
    }
    return out;
  }

  private readonly promptListeners = new Set<(path: string) => void>();

  /** A continuous run is on: saving a prompt re-runs tests. */
  get watching(): boolean {
    return this.promptListeners.size > 0;
  }

  private async promptSaved(doc: vscode.TextDocument): Promise<void> {
    if (!isWaypointPrompt(doc) || doc.uri.scheme !== 'file' || !this.discovery) return;
    const all = [...this.cases.values()];
    const affected = casesUsingPrompt(all, doc.uri.fsPath, await this.promptsByArch(new Set(all.map((c) => c.arch))));
    const items = affected.map((c) => this.items.get(c.id)).filter((i): i is vscode.TestItem => i !== undefined);
    if (items.length) this.controller.invalidateTestResults(items);
    for (const l of this.promptListeners) l(doc.uri.fsPath);
  }

  /**
   * A continuous run: until its token is cancelled, each save of a prompt file re-runs the requested tests whose
   * architecture uses that file (saves within 300 ms are one run; a newer save cancels a run still going).
   */
  private watch(request: vscode.TestRunRequest, token: vscode.CancellationToken): void {
    const include = request.include?.map((i) => i.id);
    const exclude = request.exclude?.map((i) => i.id);
    const saved = new Set<string>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let current: vscode.CancellationTokenSource | undefined;
    const fire = async () => {
      const paths = [...saved];
      saved.clear();
      const selected = selectCases(this.tree, include, exclude);
      const byArch = await this.promptsByArch(new Set(selected.map((c) => c.arch)));
      const ids = new Set(paths.flatMap((p) => casesUsingPrompt(selected, p, byArch)).map((c) => c.id));
      const cases = selected.filter((c) => ids.has(c.id));
      if (cases.length === 0 || token.isCancellationRequested) return;
      current?.cancel();
      const mine = new vscode.CancellationTokenSource();
      current = mine;
      const items = cases.map((c) => this.items.get(c.id)).filter((i): i is vscode.TestItem => i !== undefined);
      const run = this.controller.createTestRun(new vscode.TestRunRequest(items, undefined, request.profile, true, true), `${paths.map((p) => basename(p)).join(', ')} saved`);
      this.ctx.output.info(`tests (continuous): ${paths.map((p) => basename(p)).join(', ')} saved: re-running ${cases.length} test(s)`);
      const { runEpisodes } = await import('./runner.js');
      try {
        await runEpisodes(this, run, cases, mine.token);
      } finally {
        run.end();
        mine.dispose();
        if (current === mine) current = undefined;
      }
    };
    const listener = (path: string) => {
      saved.add(path);
      clearTimeout(timer);
      timer = setTimeout(() => void fire(), 300);
    };
    this.promptListeners.add(listener);
    token.onCancellationRequested(() => {
      this.promptListeners.delete(listener);
      clearTimeout(timer);
      current?.cancel();
    });
  }

  snapshot(): TestSnapshot[] {
    const snap = (item: vscode.TestItem): TestSnapshot => {
      const children: TestSnapshot[] = [];
      item.children.forEach((c) => void children.push(snap(c)));
      return {
        id: item.id,
        label: item.label,
        ...(item.description ? { description: item.description } : {}),
        ...(item.error ? { error: typeof item.error === 'string' ? item.error : item.error.value } : {}),
        ...(this.session.has(item.id) ? { state: this.session.get(item.id)! } : {}),
        ...(item.uri ? { file: item.uri.fsPath } : {}),
        ...(item.range ? { line: item.range.start.line + 1 } : {}),
        children,
      };
    };
    const out: TestSnapshot[] = [];
    this.controller.items.forEach((i) => void out.push(snap(i)));
    return out;
  }

  dispose(): void {
    clearTimeout(this.rediscoverTimer);
    this.promptListeners.clear();
    for (const d of this.disposables.splice(0).reverse()) d.dispose();
  }
}

/** Creates the controller (activation calls this after it returns, for a window with a folder). */
export function registerTesting(ctx: Ctx, bridge: LmBridge): WaypointTesting {
  return ctx.push(new WaypointTesting(ctx, bridge));
}
