// Runs every *.test.ts under test/ (except the real-VS-Code e2e suite) with Node's test runner through tsx.
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
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
  env: { ...process.env, WAYPOINT_TEST: '1' },
});
process.exit(r.status ?? 1);
