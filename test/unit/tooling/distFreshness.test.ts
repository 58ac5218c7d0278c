// A bundle in dist/ older than one of its sources is refused (or rebuilt), never tested: the record
// scripts/build.mjs keeps per bundle, the check every dist-based test makes (test/helpers/dist.ts), and
// `build --if-stale` / `--only` rebuilding exactly the stale bundle. Everything here runs in temporary folders with
// their own mtimes: the real tree is only read.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { readStamp, recordOutputs, staleBecause } from '../../../scripts/buildStamp.mjs';
import { assertDistFresh, PACKAGE_ROOT, rebuildIfStale } from '../../helpers/dist.js';

const temps: string[] = [];
after(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});
function tempRoot(): string {
  const d = mkdtempSync(join(tmpdir(), 'waypoint-dist-'));
  temps.push(d);
  return d;
}
function write(root: string, rel: string, text: string, mtimeMs: number): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
  utimesSync(join(root, rel), mtimeMs / 1000, mtimeMs / 1000);
}
const touch = (root: string, rel: string, mtimeMs: number) => utimesSync(join(root, rel), mtimeMs / 1000, mtimeMs / 1000);

test('the check: current until an input, the manifest or the build script is newer than the build; gone inputs and unrecorded bundles are stale', () => {
  const root = tempRoot();
  const built = Date.now() - 60_000;
  for (const f of ['package.json', 'scripts/build.mjs', 'src/a.ts', 'src/b.ts']) write(root, f, f, built - 10_000);
  write(root, 'dist/x.js', 'bundle', built + 1_000);
  write(root, 'dist/y.js', 'bundle', built + 1_000);
  recordOutputs(root, { 'dist/x.js': { builtAtMs: built, production: false, inputs: ['src/a.ts', 'src/b.ts'] } });
  assert.equal(staleBecause(root, 'dist/x.js'), undefined);
  assert.doesNotThrow(() => assertDistFresh('dist/x.js', root));

  touch(root, 'src/b.ts', built + 5_000);
  assert.equal(staleBecause(root, 'dist/x.js'), 'dist/x.js is older than src/b.ts');
  assert.throws(() => assertDistFresh('dist/x.js', root), /^Error: dist\/x\.js is older than src\/b\.ts: run `npm run build` before this test$/);
  touch(root, 'src/b.ts', built - 1);
  touch(root, 'package.json', built + 1);
  assert.equal(staleBecause(root, 'dist/x.js'), 'dist/x.js is older than package.json');
  touch(root, 'package.json', built - 1);
  touch(root, 'scripts/build.mjs', built + 1);
  assert.equal(staleBecause(root, 'dist/x.js'), 'dist/x.js is older than scripts/build.mjs');
  touch(root, 'scripts/build.mjs', built - 1);
  assert.equal(staleBecause(root, 'dist/x.js'), undefined, 'an input dated exactly before the build start is current again');

  // The other build mode matters to build --if-stale, not to a test.
  assert.match(staleBecause(root, 'dist/x.js', { production: true }) ?? '', /^dist\/x\.js was built in the other mode/);
  assert.match(staleBecause(root, 'dist/y.js') ?? '', /^dist\/y\.js has no record of its sources in dist\/\.build-inputs\.json$/);
  assert.equal(staleBecause(root, 'dist/z.js'), 'dist/z.js is missing');
  rmSync(join(root, 'src/a.ts'));
  assert.equal(staleBecause(root, 'dist/x.js'), 'dist/x.js was built from src/a.ts, which is gone');
});

test('the record keeps other bundles when one is rebuilt, and drops the ones the build no longer has', () => {
  const root = tempRoot();
  const r = (builtAtMs: number) => ({ builtAtMs, production: false, inputs: [] });
  recordOutputs(root, { 'dist/a.js': r(1), 'dist/b.js': r(1), 'dist/old.js': r(1) });
  recordOutputs(root, { 'dist/b.js': r(2) }, (out) => out !== 'dist/old.js');
  assert.deepEqual(readStamp(root)?.outputs, { 'dist/a.js': r(1), 'dist/b.js': r(2) });
});

test('the sandbox worker as recorded by the real build: a copy whose harden.ts is newer than the bundle is refused', () => {
  // The real record of dist/sandboxWorker.mjs (npm test and scripts/test.mjs build before this runs).
  const record = readStamp(PACKAGE_ROOT)?.outputs['dist/sandboxWorker.mjs'];
  assert.ok(record, 'the build recorded the sandbox worker');
  assert.ok(record.inputs.includes('src/core/sandbox/harden.ts'), `the record names the file the escape tests depend on: ${record.inputs.join(', ')}`);
  assertDistFresh('dist/sandboxWorker.mjs');
  const root = tempRoot();
  for (const f of [...record.inputs, 'package.json', 'scripts/build.mjs', 'dist/sandboxWorker.mjs']) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    copyFileSync(join(PACKAGE_ROOT, f), join(root, f));
    touch(root, f, record.builtAtMs - 1_000);
  }
  recordOutputs(root, { 'dist/sandboxWorker.mjs': record });
  assertDistFresh('dist/sandboxWorker.mjs', root);
  touch(root, 'src/core/sandbox/harden.ts', Date.now() + 1_000);
  assert.throws(() => assertDistFresh('dist/sandboxWorker.mjs', root), /dist\/sandboxWorker\.mjs is older than src\/core\/sandbox\/harden\.ts: run `npm run build`/);
});

test('the real scripts/build.mjs in a scratch package: builds, is then up to date, rebuilds only the bundle whose source is newer, and --only rebuilds it for a test', () => {
  const root = tempRoot();
  mkdirSync(join(root, 'scripts'));
  for (const f of ['build.mjs', 'buildStamp.mjs']) copyFileSync(join(PACKAGE_ROOT, 'scripts', f), join(root, 'scripts', f));
  symlinkSync(join(PACKAGE_ROOT, 'node_modules'), join(root, 'node_modules'));
  const past = Date.now() - 60_000;
  write(root, 'package.json', '{"type":"module"}\n', past);
  // Two of build.mjs's entries exist here, so only those two are built.
  write(root, 'src/core/sandbox/worker.ts', "import { answer } from './harden.js';\nconsole.log(answer);\n", past);
  write(root, 'src/core/sandbox/harden.ts', 'export const answer = 41;\n', past);
  write(root, 'webview/compare/main.ts', "document.title = 'compare';\n", past);
  for (const f of ['scripts/build.mjs', 'scripts/buildStamp.mjs']) touch(root, f, past);
  const build = (...args: string[]) => spawnSync(process.execPath, ['scripts/build.mjs', ...args], { cwd: root, encoding: 'utf8' });

  let r = build('--if-stale');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /^build: \d+ ms \(2 of 2 bundles; dist\/sandboxWorker\.mjs is missing\)$/m);
  assert.doesNotThrow(() => assertDistFresh('dist/sandboxWorker.mjs', root));
  r = build('--if-stale');
  assert.match(r.stderr, /^build: up to date$/m);

  // A source saved after the build began (dated in the past, so a rebuild starting now is newer): the check
  // refuses, --if-stale rebuilds that bundle only.
  const builtAt = (out: string) => readStamp(root)!.outputs[out].builtAtMs;
  write(root, 'src/core/sandbox/harden.ts', 'export const answer = 42;\n', builtAt('dist/sandboxWorker.mjs') + 1);
  assert.throws(() => assertDistFresh('dist/sandboxWorker.mjs', root), /dist\/sandboxWorker\.mjs is older than src\/core\/sandbox\/harden\.ts/);
  assert.doesNotThrow(() => assertDistFresh('dist/webview/compare.js', root));
  const compareBuiltAt = builtAt('dist/webview/compare.js');
  r = build('--if-stale');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /^build: \d+ ms \(1 of 2 bundles; dist\/sandboxWorker\.mjs is older than src\/core\/sandbox\/harden\.ts\)$/m);
  assert.match(readFileSync(join(root, 'dist/sandboxWorker.mjs'), 'utf8'), /42/, 'the rebuilt worker has the edit');
  assert.equal(builtAt('dist/webview/compare.js'), compareBuiltAt, 'the current bundle was not rebuilt');
  assertDistFresh('dist/sandboxWorker.mjs', root);

  // The webview tests' way: rebuild the stale bundle they need (build --only), then check.
  write(root, 'webview/compare/main.ts', "document.title = 'compare 2';\n", compareBuiltAt + 1);
  assert.throws(() => assertDistFresh('dist/webview/compare.js', root), /older than webview\/compare\/main\.ts/);
  rebuildIfStale(['dist/webview/compare.js'], root);
  assert.match(readFileSync(join(root, 'dist/webview/compare.js'), 'utf8'), /compare 2/);
});

test('scripts/test.mjs brings dist/ up to date before any test, and runs none when that build fails', () => {
  const root = tempRoot();
  mkdirSync(join(root, 'scripts'));
  copyFileSync(join(PACKAGE_ROOT, 'scripts/test.mjs'), join(root, 'scripts/test.mjs'));
  symlinkSync(join(PACKAGE_ROOT, 'node_modules'), join(root, 'node_modules'));
  const log = join(root, 'log');
  // A stand-in build (the real one is tested above) and a test that notes when it ran.
  writeFileSync(join(root, 'scripts/build.mjs'), `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(log)}, 'build ' + process.argv.slice(2).join(' ') + '\\n');\nprocess.exit(Number(process.env.FAKE_BUILD_EXIT));\n`);
  write(root, 'test/unit/a.test.ts', `import { appendFileSync } from 'node:fs';\nimport { test } from 'node:test';\ntest('a', () => appendFileSync(${JSON.stringify(log)}, 'test ran\\n'));\n`, Date.now());
  // Without NODE_TEST_CONTEXT: that variable makes the nested runner report to this one instead of running.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const run = (buildExit: number) => spawnSync(process.execPath, ['scripts/test.mjs'], { cwd: root, encoding: 'utf8', env: { ...env, FAKE_BUILD_EXIT: String(buildExit) } });

  let r = run(0);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.equal(readFileSync(log, 'utf8'), 'build --if-stale\ntest ran\n');
  rmSync(log);
  r = run(1);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /test: the build failed; the tests that run dist\/ would test old bundles, so none run/);
  assert.equal(readFileSync(log, 'utf8'), 'build --if-stale\n', 'no test ran');
});
