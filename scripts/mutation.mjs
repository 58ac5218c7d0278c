// `npm run test:mutation [filter...]`: applies each mutant of scripts/mutants.mjs, one at a time, to a scratch copy
// of the working tree (never to the tree itself, so a Ctrl-C or a crash cannot leave a mutant behind), runs only
// that mutant's test files there, and prints caught/survived per mutant and a score per folder. Opt-in and slow
// (each mutant runs its test files, sequentially): not part of `npm test`. A filter keeps the mutants whose id or
// folder contains it; `--list` prints the list; `--timeout=<s>` bounds one mutant's test run (default: five times
// its tests' unmutated run, at least 120 s; a mutant that hangs the tests counts as caught, as a test run that never
// ends fails CI).
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { listProblems, MUTANTS } from './mutants.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const fixedTimeoutS = args.find((a) => a.startsWith('--timeout='))?.slice('--timeout='.length);
const filters = args.filter((a) => !a.startsWith('--'));
const chosen = MUTANTS.filter((m) => filters.length === 0 || filters.some((f) => m.id.includes(f) || m.folder.includes(f)));

if (args.includes('--list')) {
  for (const m of chosen) console.log(`${m.id.padEnd(40)} ${m.file}  ${m.what}`);
  process.exit(0);
}
const problems = listProblems(chosen, ROOT);
if (problems.length > 0) {
  console.error(`test:mutation: the mutant list is out of date (scripts/mutants.mjs):\n  ${problems.join('\n  ')}`);
  process.exit(2);
}
if (chosen.length === 0) {
  console.error(`test:mutation: no mutant matches ${filters.join(', ')}`);
  process.exit(2);
}

// ---- the scratch copy: the working tree's files (tracked and new, as they are now) with their times, dist/ with
// its build stamp (so only bundles a mutant touches are rebuilt), node_modules linked.
const t0 = Date.now();
const scratch = mkdtempSync(join(tmpdir(), 'waypoint-mutation-'));
let child;
let cleaned = false;
function cleanup() {
  if (cleaned) return;
  cleaned = true;
  if (child?.pid) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
  }
  rmSync(scratch, { recursive: true, force: true });
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    console.error(`\ntest:mutation: ${sig}; removing the scratch copy (the working tree was never changed)`);
    cleanup();
    process.exit(130);
  });
}
process.on('exit', cleanup);

const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
for (const f of listed.stdout.split('\0').filter(Boolean)) {
  const from = join(ROOT, f);
  if (f === 'node_modules' || !existsSync(from) || statSync(from).isDirectory()) continue;
  mkdirSync(dirname(join(scratch, f)), { recursive: true });
  cpSync(from, join(scratch, f), { preserveTimestamps: true });
}
if (existsSync(join(ROOT, 'dist'))) cpSync(join(ROOT, 'dist'), join(scratch, 'dist'), { recursive: true, preserveTimestamps: true });
symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(scratch, 'node_modules'), 'dir');

/** Brings dist/ up to date in the scratch copy, then runs `files` there; resolves to the outcome. */
function runTests(files, timeoutS = 1800) {
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale', '--quiet'], { cwd: scratch, encoding: 'utf8' });
  if (build.status !== 0) return Promise.resolve({ status: 'build-failed', detail: (build.stderr || '').trim().split('\n').slice(-3).join(' ') });
  return new Promise((done) => {
    const started = Date.now();
    let out = '';
    child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=tap', ...files], { cwd: scratch, env: { ...process.env, WAYPOINT_TEST: '1' }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }, timeoutS * 1000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      child = undefined;
      const failed = [...out.matchAll(/^\s*not ok \d+ - (.*)$/gm)].map((m) => m[1]);
      const secs = (Date.now() - started) / 1000;
      if (signal) return done({ status: 'timeout', secs, failed });
      done({ status: code === 0 ? 'pass' : 'fail', secs, failed, out });
    });
  });
}

const stampPath = join(scratch, 'dist', '.build-inputs.json');
const stampText = () => (existsSync(stampPath) ? readFileSync(stampPath, 'utf8') : '');

// ---- baseline: every test set must pass unmutated, or its mutants say nothing.
const sets = [...new Set(chosen.map((m) => JSON.stringify(m.tests)))];
const baseline = new Map();
console.log(`test:mutation: ${chosen.length} mutant(s), ${sets.length} test set(s); scratch copy ${scratch} (made in ${((Date.now() - t0) / 1000).toFixed(0)} s)`);
for (const s of sets) {
  const r = await runTests(JSON.parse(s));
  baseline.set(s, r.status === 'pass' ? r.secs : undefined);
  console.log(`baseline ${r.status === 'pass' ? 'passes' : 'FAILS'} (${r.secs?.toFixed(0) ?? '?'} s): ${JSON.parse(s).join(' ')}`);
  if (r.status !== 'pass') console.log(`  (${r.status}) ${r.failed?.slice(0, 3).join('; ') ?? r.detail}`);
}

// ---- the mutants
const timeoutOf = (key) => (fixedTimeoutS !== undefined ? Number(fixedTimeoutS) : Math.max(120, Math.ceil(5 * baseline.get(key))));
const results = [];
for (const m of chosen) {
  const key = JSON.stringify(m.tests);
  if (baseline.get(key) === undefined) {
    results.push({ m, status: 'no-baseline' });
    console.log(`${'skipped'.padEnd(9)} ${m.id}  (its tests fail without the mutant)`);
    continue;
  }
  const path = join(scratch, m.file);
  const original = readFileSync(path, 'utf8');
  const { atime, mtime } = statSync(path);
  const stampBefore = stampText();
  writeFileSync(path, original.replace(m.search, () => m.replace));
  let r;
  try {
    r = await runTests(m.tests, timeoutOf(key));
  } finally {
    writeFileSync(path, original);
    // A bundle rebuilt with the mutant must be rebuilt again: leave the file newer than it; otherwise put the time back.
    if (stampText() === stampBefore) utimesSync(path, atime, mtime);
  }
  const status = r.status === 'pass' ? 'SURVIVED' : r.status === 'build-failed' ? 'invalid' : 'caught';
  results.push({ m, status, r });
  const by = r.status === 'timeout' ? `the tests did not finish in ${timeoutOf(key)} s` : r.status === 'build-failed' ? `the build fails: ${r.detail}` : r.failed?.filter((n) => !n.endsWith('.ts'))[0] ?? r.failed?.[0] ?? '';
  console.log(`${status.padEnd(9)} ${m.id}  (${r.secs?.toFixed(0) ?? '?'} s)${status === 'caught' ? `  by: ${by}` : status === 'SURVIVED' ? `  ${m.what}` : `  ${by}`}`);
}

// ---- scores per folder
const folders = [...new Set(chosen.map((m) => m.folder))];
console.log('\n| folder | caught | mutants | score |\n|---|---|---|---|');
let worst = 100;
for (const f of folders) {
  const scored = results.filter((x) => x.m.folder === f && (x.status === 'caught' || x.status === 'SURVIVED'));
  const caught = scored.filter((x) => x.status === 'caught').length;
  const pct = scored.length ? (100 * caught) / scored.length : 0;
  worst = Math.min(worst, pct);
  console.log(`| ${f} | ${caught} | ${scored.length} | ${pct.toFixed(0)} % |`);
}
const survivors = results.filter((x) => x.status === 'SURVIVED');
const unscored = results.filter((x) => x.status !== 'caught' && x.status !== 'SURVIVED');
if (survivors.length) console.log(`\nsurvived: ${survivors.map((x) => x.m.id).join(', ')}`);
if (unscored.length) console.log(`not scored (tests failing without the mutant, or a mutant that does not build): ${unscored.map((x) => x.m.id).join(', ')}`);
process.exitCode = survivors.length || unscored.length ? 1 : 0;
