#!/usr/bin/env node
// `npm run test:vscode`: the same mocha suite as `npm run test:e2e`, under @vscode/test-electron, which downloads
// VS Code (the minimum engine, 1.100.3) and runs it in Electron. Where VS Code cannot be downloaded it fails at
// once with a message instead of hanging; `npm run test:e2e` runs the suite offline in code-server.
import { lookup } from 'node:dns/promises';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { register } from 'tsx/esm/api';

const VSCODE_VERSION = process.env.WAYPOINT_VSCODE_VERSION || '1.100.3';
const DOWNLOAD_HOST = 'update.code.visualstudio.com';

function fail(message) {
  console.error(`test:vscode: ${message}`);
  console.log('test:vscode: 0 passed, 1 failed');
  process.exit(1);
}

let testElectron;
try {
  testElectron = await import('@vscode/test-electron');
} catch {
  fail('@vscode/test-electron is not installed: add "@vscode/test-electron": "^2.5.2" to devDependencies (3.x needs node 22), or run the suite offline with npm run test:e2e');
}
try {
  await Promise.race([lookup(DOWNLOAD_HOST), new Promise((_, reject) => setTimeout(() => reject(new Error('DNS timeout')), 5000))]);
} catch (e) {
  fail(`cannot reach ${DOWNLOAD_HOST} (${e instanceof Error ? e.message : e}): @vscode/test-electron downloads VS Code ${VSCODE_VERSION} from there. Offline, run the same suite in code-server: npm run test:e2e`);
}
if (process.platform === 'linux' && !process.env.DISPLAY) fail('Electron needs a display on Linux: run it as xvfb-run -a npm run test:vscode');

register();
const { REPO, SUITE_OUT, FIXTURE_TRACE, bundleSuite, sh, stageWorkspace } = await import('./prepare.ts');
const { writeFileSync } = await import('node:fs');
sh('npm', ['run', 'build', '--silent'], 'npm run build');
await bundleSuite();
const ws = await stageWorkspace(mkdtempSync(join(tmpdir(), 'waypoint-vscode-')), 'ws');
// The Restricted Mode tests need a second window with workspace trust on: they run under test:e2e only.
writeFileSync(join(SUITE_OUT, 'env.json'), JSON.stringify({ repoRoot: REPO, workspace: ws, fixtureTrace: FIXTURE_TRACE, phase: 'main', host: 'electron', grep: 'Restricted Mode', invert: true }, null, 2));
try {
  const code = await testElectron.runTests({
    version: VSCODE_VERSION,
    extensionDevelopmentPath: REPO,
    extensionTestsPath: join(SUITE_OUT, 'index.cjs'),
    launchArgs: [ws, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
  });
  process.exit(code);
} catch (e) {
  fail(`VS Code ${VSCODE_VERSION} did not run the suite: ${e instanceof Error ? e.message : e}`);
}
