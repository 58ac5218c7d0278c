// `npm run test:e2e`: installs what it needs (scripts/e2e/install.sh), builds the extension, bundles the mocha
// suite, starts code-server on loopback in its own process group and drives it with Debian Chromium:
//   1. mocha suite in the extension host (extensionTestsPath), trusted workspace
//   2. Playwright UI scenarios (test/e2e/ui/scenarios.ts)
//   3. mocha "Restricted Mode" tests on a second server with workspace trust on
// then stops everything and checks that no process is left. Exit code 1 on any failure.
// Options: --skip-install, --skip-build, --only=mocha,ui,restricted, --grep=<mocha title filter>, --ui-grep=<UI step
// name filter>, --keep (keep the run folder), --bench-activation[=N] (only: N fresh extension hosts on an empty
// folder, cold ext.activate()).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { E2E_DIR, processesMentioning, reapStale, startCodeServer, workbenchUrl, type CodeServer } from '../../scripts/e2e/codeServer.mjs';
import { runMochaPhase, type MochaOutcome } from './mochaPhase.js';
import { bundleSuite, FIXTURE_RUN_ID, FIXTURE_RUN_LABEL, FIXTURE_TRACE, OUT, REPO, sh, stageWorkspace, SUITE_OUT } from './prepare.js';
import { descendants, formatSummary, type Summary } from './report.js';
import { runUiScenarios } from './ui/scenarios.js';
import { assertDistFresh } from '../helpers/dist.js';
import { CHROMIUM_ARGS } from './ui/workbench.js';

const MOCHA_MAIN_TIMEOUT_MS = 8 * 60_000;
const MOCHA_RESTRICTED_TIMEOUT_MS = 2 * 60_000;
const CHROMIUM = process.env.WAYPOINT_E2E_CHROMIUM || '/usr/bin/chromium';
// The extension under test: the repository (package.json + dist/). Another folder only to try a manifest change.
const EXT_DIR = resolve(process.env.WAYPOINT_E2E_EXTENSION_DIR || REPO);

/** Every bundle the extension loads (scripts/build.mjs entries other than the CLI). */
const EXTENSION_BUNDLES = [
  'dist/extension.mjs', 'dist/runWorker.js', 'dist/languageClient.js', 'dist/exporter.js', 'dist/lsp.js', 'dist/dap.js', 'dist/sandboxWorker.mjs',
  'dist/webview/runViewer.js', 'dist/webview/runViewer.monaco.js', 'dist/webview/runViewer.replay3d.js', 'dist/webview/compare.js', 'dist/webview/sweepMatrix.js',
];

function timed<T>(fn: () => T): [T, number] {
  const t0 = Date.now();
  return [fn(), Date.now() - t0];
}

export async function main(argv: string[]): Promise<number> {
  const only = (argv.find((a) => a.startsWith('--only='))?.slice(7) ?? 'mocha,ui,restricted').split(',');
  const grep = argv.find((a) => a.startsWith('--grep='))?.slice(7);
  const uiGrep = argv.find((a) => a.startsWith('--ui-grep='))?.slice(10);
  const benchArg = argv.find((a) => a.startsWith('--bench-activation'));
  const benchRuns = benchArg ? Math.max(1, Number(benchArg.split('=')[1] ?? 5) || 5) : 0;
  if (benchRuns > 0) only.splice(0, only.length, 'bench');
  const summary: Summary = { timings: {}, mocha: [], ui: undefined, leftovers: [], warnings: [], errors: [] };
  const tAll = Date.now();
  const log = (l: string) => console.log(l);
  mkdirSync(OUT, { recursive: true });
  // Screenshots and logs of the previous run would pass for this run's.
  if (benchRuns === 0) for (const f of readdirSync(OUT)) if (/\.(png|log)$/.test(f)) rmSync(join(OUT, f));

  if (!argv.includes('--skip-install') && process.env.WAYPOINT_E2E_SKIP_INSTALL !== '1') {
    summary.timings.installMs = timed(() => sh('bash', [join(REPO, 'scripts', 'e2e', 'install.sh')], 'e2e install'))[1];
  }
  if (!argv.includes('--skip-build')) summary.timings.buildMs = timed(() => sh('npm', ['run', 'build', '--silent'], 'npm run build'))[1];
  // With --skip-build (or a build that left a bundle behind) the extension would run yesterday's code.
  if (EXT_DIR === REPO) for (const out of EXTENSION_BUNDLES) assertDistFresh(out, REPO);
  const main = (JSON.parse(readFileSync(join(EXT_DIR, 'package.json'), 'utf8')) as { main: string }).main;
  if (!existsSync(join(EXT_DIR, main))) throw new Error(`${main} is missing after the build (src/extension/main.ts not there yet?)`);
  const t0 = Date.now();
  await bundleSuite();
  summary.timings.bundleSuiteMs = Date.now() - t0;

  mkdirSync(E2E_DIR, { recursive: true });
  for (const k of await reapStale()) summary.warnings.push(`ended a process group an earlier, interrupted run left: ${k}`);
  const runDir = mkdtempSync(join(E2E_DIR, 'run-'));
  writeFileSync(join(runDir, 'owner.pid'), String(process.pid)); // reapStale in a concurrent run leaves this one alone
  const servers: CodeServer[] = [];
  let browser: Browser | undefined;
  let profileDir: string | undefined;
  const stopAll = async () => {
    if (browser) {
      await browser.close().catch((e: Error) => summary.errors.push(`browser.close: ${e.message}`));
      browser = undefined;
    }
    for (const s of servers.splice(0)) await s.stop().catch((e: Error) => summary.errors.push(e.message));
  };
  const onSignal = (sig: NodeJS.Signals) => {
    console.error(`e2e: ${sig}: stopping code-server and the browser`);
    void stopAll().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    const tBrowser = Date.now();
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: apt-get install -y chromium (scripts/e2e/install.sh does)`);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    profileDir = descendants(process.pid).map((p) => /--user-data-dir=(\S+)/.exec(p.cmd)?.[1]).find(Boolean);
    summary.timings.browserLaunchMs = Date.now() - tBrowser;

    const tServer = Date.now();
    const main = await startCodeServer({ runDir, label: 'main' });
    servers.push(main);
    summary.timings.serverStartMs = Date.now() - tServer;
    if (EXT_DIR !== REPO) summary.warnings.push(`extension loaded from WAYPOINT_E2E_EXTENSION_DIR=${EXT_DIR}, not the repository`);
    log(`e2e: code-server at ${main.origin} (process group ${main.pgid}), run folder ${runDir}`);

    if (only.includes('bench')) summary.activationBench = await activationBench(browser, main, runDir, benchRuns, log);

    if (only.includes('mocha')) {
      const ws = await stageWorkspace(runDir, 'ws-mocha');
      log('\n== mocha suite in the extension host (code-server, trusted workspace) ==');
      const outcome: MochaOutcome = await runMochaPhase({
        browser, server: main, extensionDir: EXT_DIR, suiteDir: SUITE_OUT, timeoutMs: MOCHA_MAIN_TIMEOUT_MS, log,
        env: { repoRoot: REPO, workspace: ws, userDataDir: main.userDataDir, fixtureTrace: FIXTURE_TRACE, phase: 'main', host: 'code-server', ...(grep ? { grep } : { grep: 'Restricted Mode', invert: true }) },
      });
      summary.mocha.push(outcome);
    }

    if (only.includes('ui')) {
      // The UI's live run uses the flawed reference profile, so its run viewer has a real retry to show: the flawed
      // demo's episode (stack_blocks seed 9 in MALMM's paper default: a NameError, then the fixed block). The mocha
      // suite keeps the competent default.
      const ws = await stageWorkspace(runDir, 'ws-ui', { fixtureRun: true, settings: { 'waypoint.model.provider': 'reference-flawed', 'waypoint.run.seed': 9 } });
      log('\n== UI scenarios (Playwright, headless Chromium) ==');
      const t = Date.now();
      const url = workbenchUrl(main.origin, ws, [['extensionDevelopmentPath', EXT_DIR]]);
      summary.ui = await runUiScenarios({ browser, url, workspace: ws, fixtureRunId: FIXTURE_RUN_ID, fixtureRunLabel: FIXTURE_RUN_LABEL, outDir: OUT, log, ...(uiGrep ? { grep: uiGrep } : {}) });
      summary.timings.uiMs = Date.now() - t;
    }

    if (only.includes('restricted')) {
      const t = Date.now();
      const trust = await startCodeServer({ runDir, trust: true, label: 'trust' });
      servers.push(trust);
      const ws = await stageWorkspace(runDir, 'ws-restricted');
      log('\n== mocha "Restricted Mode" tests (code-server with workspace trust on, folder not trusted) ==');
      summary.mocha.push(await runMochaPhase({
        browser, server: trust, extensionDir: EXT_DIR, suiteDir: SUITE_OUT, timeoutMs: MOCHA_RESTRICTED_TIMEOUT_MS, log,
        env: { repoRoot: REPO, workspace: ws, userDataDir: trust.userDataDir, fixtureTrace: FIXTURE_TRACE, phase: 'restricted', host: 'code-server', grep: 'Restricted Mode' },
      }));
      summary.timings.restrictedMs = Date.now() - t;
    }
  } catch (e) {
    summary.errors.push(e instanceof Error ? e.message : String(e));
  } finally {
    const t = Date.now();
    await stopAll();
    summary.timings.stopMs = Date.now() - t;
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }

  // Nothing may outlive the run: no child of ours, nothing started from the run folder, no Chromium on our profile.
  summary.leftovers = [
    // tsx's esbuild service (which loaded this harness) is a child that ends with this process: not a leftover.
    ...descendants(process.pid).filter((p) => !/esbuild --service/.test(p.cmd)).map((p) => `${p.pid} ${p.cmd.slice(0, 120)}`),
    ...processesMentioning(runDir),
    ...(profileDir ? processesMentioning(profileDir) : []),
  ];
  summary.timings.totalMs = Date.now() - tAll;
  if (!argv.includes('--keep') && summary.leftovers.length === 0) rmSync(runDir, { recursive: true, force: true });
  writeFileSync(join(OUT, 'summary.json'), JSON.stringify(summary, null, 2));
  const { text, failed } = formatSummary(summary);
  console.log(text);
  return failed ? 1 : 0;
}

/**
 * Cold activation in code-server: a fresh extension host per page load, on an empty folder (no activation event
 * fires), where the suite's first test times ext.activate(): loading dist/extension.mjs (and the chunks it imports) plus activate(). Median of
 * `runs`, printed as the line `npm run bench` reads.
 */
async function activationBench(browser: Browser, server: CodeServer, runDir: string, runs: number, log: (l: string) => void): Promise<NonNullable<Summary['activationBench']>> {
  const cold: number[] = [];
  const cpu: number[] = [];
  const inside: number[] = [];
  const ws = await stageWorkspace(runDir, 'ws-empty', { empty: true });
  for (let i = 0; i < runs; i++) {
    const o = await runMochaPhase({
      browser, server, extensionDir: EXT_DIR, suiteDir: SUITE_OUT, timeoutMs: 60_000, log: () => {},
      env: { repoRoot: REPO, workspace: ws, userDataDir: server.userDataDir, fixtureTrace: FIXTURE_TRACE, phase: 'main', host: 'code-server', grep: 'loads from the development path and activates' },
    });
    const a = o.results?.notes.activation as { activateCallMs?: number; activateCpuMs?: number; self?: { activateMs: number } } | undefined;
    if (o.error || o.exitCode !== 0 || a?.activateCallMs === undefined) throw new Error(`activation benchmark run ${i + 1} failed: ${o.error ?? JSON.stringify(o.results?.results ?? a)}`);
    cold.push(a.activateCallMs);
    if (a.activateCpuMs !== undefined) cpu.push(a.activateCpuMs);
    if (a.self) inside.push(a.self.activateMs);
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const result = { runs, coldMs: cold, medianColdMs: median(cold), medianCpuMs: cpu.length ? median(cpu) : undefined, medianInsideActivateMs: inside.length ? median(inside) : undefined };
  log(`activation: ${result.medianColdMs.toFixed(1)} ms (code-server 4.100.3, cold ext.activate() = load dist/extension.mjs + activate(), median of ${runs}: ${cold.map((x) => x.toFixed(0)).join(', ')} ms; extension host CPU meanwhile ${result.medianCpuMs?.toFixed(1) ?? '?'} ms; inside activate(): ${result.medianInsideActivateMs?.toFixed(1) ?? '?'} ms)`);
  return result;
}
