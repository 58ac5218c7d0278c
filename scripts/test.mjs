// Runs every *.test.ts under test/ (except the real-VS-Code e2e suite) with Node's test runner through tsx.
// First brings dist/ up to date (`build.mjs --if-stale`: only bundles older than one of their sources): many tests
// run the CLI, the sandbox worker, the language server or a webview from dist/, and a stale one tests old code.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const roots = ['test/unit', 'test/lsp', 'test/dap', 'test/conformance', 'test/webview', 'test/faults'];
const only = process.argv.slice(2);
function walk(dir, out) {
  let names = [];
  try { names = readdirSync(dir).sort(); } catch { return out; }
  for (const n of names) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (n.endsWith('.test.ts')) out.push(p);
  }
  return out;
}
const files = roots.flatMap((r) => walk(r, [])).filter((f) => only.length === 0 || only.some((o) => f.includes(o)));
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { stdio: 'inherit' });
if (build.status !== 0) {
  console.error('test: the build failed; the tests that run dist/ would test old bundles, so none run (fix the build first)');
  process.exit(1);
}
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
  env: { ...process.env, WAYPOINT_TEST: '1' },
});
process.exit(r.status ?? 1);
