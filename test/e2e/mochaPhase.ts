// One mocha phase: a workbench page whose payload names the repository as extensionDevelopmentPath and the bundled
// suite as extensionTestsPath. The workbench runs the suite's run() in the extension host, forwards its console to
// window.codeAutomationLog and reports the exit code through window.codeAutomationExit (as @vscode/test-web does).
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';
import type { Browser } from 'playwright-core';
import { workbenchUrl, type CodeServer } from '../../scripts/e2e/codeServer.mjs';

const NOISE = /^(Resolving connection token|Resolved connection token|Creating a socket|Updating additional builtin|\[Service Worker\]|ChatSessionStore|\[lifecycle\])|ENOTFOUND open-vsx\.org/;

export interface SuiteResults {
  phase: string;
  durationMs: number;
  failures: number;
  results: { title: string; state: 'passed' | 'failed' | 'pending'; durationMs?: number; error?: string }[];
  notes: Record<string, unknown>;
}

export interface MochaOutcome {
  phase: string;
  exitCode?: number;
  /** Page load to exit code. */
  wallMs: number;
  results?: SuiteResults;
  error?: string;
}

export interface MochaPhaseOptions {
  browser: Browser;
  server: CodeServer;
  /** extensionDevelopmentPath: the folder with package.json and dist/extension.js. */
  extensionDir: string;
  suiteDir: string;
  timeoutMs: number;
  log(line: string): void;
  env: { repoRoot: string; workspace: string; userDataDir?: string; fixtureTrace: string; phase: 'main' | 'restricted'; host: 'code-server'; grep?: string; invert?: boolean };
}

export async function runMochaPhase(o: MochaPhaseOptions): Promise<MochaOutcome> {
  const resultsFile = join(o.suiteDir, `results-${o.env.phase}.json`);
  rmSync(resultsFile, { force: true });
  writeFileSync(join(o.suiteDir, 'env.json'), JSON.stringify(o.env, null, 2));
  const context = await o.browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const t0 = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const outcome: MochaOutcome = { phase: o.env.phase, wallMs: 0 };
  const raw: string[] = [];
  try {
    let exit!: (code: number) => void;
    const exited = new Promise<number>((r) => (exit = r));
    await page.exposeFunction('codeAutomationLog', (_type: string, args: unknown) => {
      // The extension host forwards console calls as printf-style argument lists ('%s passing', n).
      const text = Array.isArray(args) ? format(...(args as unknown[])) : String(args);
      raw.push(text);
      // Workbench chatter (connection set-up, the offline marketplace's ENOTFOUND and its stack) stays in the log file.
      if (NOISE.test(text)) return;
      for (const line of text.replace(/\s+$/, '').split('\n')) o.log(`  ${line}`);
    });
    await page.exposeFunction('codeAutomationExit', (code: number) => exit(code));
    const crashed = new Promise<never>((_, reject) => page.on('crash', () => reject(new Error('the workbench page crashed'))));
    const url = workbenchUrl(o.server.origin, o.env.workspace, [
      ['extensionDevelopmentPath', o.extensionDir],
      ['extensionTestsPath', join(o.suiteDir, 'index.cjs')],
    ]);
    await page.goto(url);
    outcome.exitCode = await Promise.race([
      exited,
      crashed,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`mocha phase '${o.env.phase}' did not finish within ${o.timeoutMs / 1000} s (code-server log: ${o.server.logFile})`)), o.timeoutMs))),
    ]);
  } catch (e) {
    outcome.error = e instanceof Error ? e.message : String(e);
    await page.screenshot({ path: join(o.env.repoRoot, 'test', 'output', 'e2e', `FAILED-mocha-${o.env.phase}.png`) }).catch(() => {});
  } finally {
    clearTimeout(timer);
    outcome.wallMs = Date.now() - t0;
    // about:blank first: the server then ends this window's extension host instead of keeping it for reconnection.
    await page.goto('about:blank').catch(() => {});
    await context.close().catch(() => {});
    writeFileSync(join(o.env.repoRoot, 'test', 'output', 'e2e', `mocha-${o.env.phase}.log`), raw.join('\n') + '\n');
  }
  if (existsSync(resultsFile)) outcome.results = JSON.parse(readFileSync(resultsFile, 'utf8')) as SuiteResults;
  else outcome.error ??= `the suite wrote no ${resultsFile} (exit code ${outcome.exitCode}): it failed before or while loading; see the log above`;
  return outcome;
}
