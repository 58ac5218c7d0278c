// The extension-test entry VS Code loads from `extensionTestsPath` (code-server through test/e2e/run.mjs, or
// Electron through test/e2e/runElectron.mjs): mocha's BDD runner over the bundled suite files, with the real
// `vscode` API. It prints mocha's spec report (the workbench forwards it to the runner) and writes results.json
// beside itself, so the runner does not depend on log forwarding.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { E2eEnv } from './helpers.js';

/** Suite files in run order: later files use what earlier ones proved (activation before features). */
const FILES = ['activation', 'walkthrough', 'promptLanguage', 'webviewTransport', 'liveRun', 'debugger', 'export', 'compare', 'testing', 'workspaceArchs', 'secrets', 'restrictedMode'];

interface TestResult {
  title: string;
  state: 'passed' | 'failed' | 'pending';
  durationMs?: number;
  error?: string;
}

export async function run(): Promise<void> {
  const env = JSON.parse(readFileSync(join(__dirname, 'env.json'), 'utf8')) as E2eEnv & { grep?: string; invert?: boolean };
  (globalThis as { __waypointE2eEnv?: E2eEnv }).__waypointE2eEnv = env;
  // mocha 12 is an ES module: load it from the repository's node_modules by URL (a bundler must not inline it).
  const req = createRequire(join(env.repoRoot, 'package.json'));
  const mochaUrl = pathToFileURL(req.resolve('mocha')).href;
  const { default: Mocha } = (await import(mochaUrl)) as { default: typeof import('mocha') };
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 30_000, reporter: 'spec' });
  if (env.grep) {
    mocha.grep(env.grep);
    if (env.invert) mocha.invert();
  }
  for (const f of FILES) {
    const file = join(__dirname, `${f}.test.cjs`);
    if (!existsSync(file)) throw new Error(`suite file missing: ${file} (bundle test/e2e/suite first)`);
    mocha.addFile(file);
  }
  const results: TestResult[] = [];
  const started = Date.now();
  const failures = await new Promise<number>((resolve) => {
    const runner = mocha.run((n) => resolve(n));
    runner.on('pass', (t) => results.push({ title: t.fullTitle(), state: 'passed', durationMs: t.duration }));
    runner.on('fail', (t, err: Error) => results.push({ title: t.fullTitle(), state: 'failed', durationMs: t.duration, error: err?.message ?? String(err) }));
    runner.on('pending', (t) => results.push({ title: t.fullTitle(), state: 'pending' }));
  });
  const notes = (globalThis as { __waypointE2eNotes?: Record<string, unknown> }).__waypointE2eNotes ?? {};
  writeFileSync(join(__dirname, `results-${env.phase}.json`), JSON.stringify({ phase: env.phase, host: env.host, durationMs: Date.now() - started, failures, results, notes }, null, 2));
  if (failures > 0) throw new Error(`${failures} e2e test(s) failed`);
}
