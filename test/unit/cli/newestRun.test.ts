// "Newest" is the run that started last, in every command: after a sweep (whose run folders are named by episode
// key, e.g. roco-sort_cubes-…, sorting after every timestamped id by name), `runs`, `show` and `report` with no
// argument pick the run made last.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, test } from 'node:test';

const cli = join(process.cwd(), 'dist', 'cli.mjs');
const ws = mkdtempSync(join(tmpdir(), 'waypoint-newest-'));
after(() => rmSync(ws, { recursive: true, force: true }));
const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { cwd: ws, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
const traceOf = (r: ReturnType<typeof run>) => /^trace: (.+trace\.jsonl)$/m.exec(r.stdout)?.[1] ?? assert.fail(`no trace path in: ${r.stdout}${r.stderr}`);

test('after a sweep-named run, runs / show / report with no argument take the run started last', () => {
  const older = run('run', '--task', 'stack_blocks_2', '--max-turns', '3', '--quiet');
  assert.equal(older.status, 1, older.stderr);
  // The folder a sweep would have written: named by its key, not by a timestamp.
  const keyDir = join(dirname(dirname(traceOf(older))), 'roco-sort_cubes-roco-s0-3f2a');
  renameSync(dirname(traceOf(older)), keyDir);
  const newer = run('run', '--task', 'put_block', '--max-turns', '3', '--quiet');
  assert.equal(newer.status, 1, newer.stderr);
  const newId = basename(dirname(traceOf(newer)));

  const rows = run('runs').stdout.trim().split('\n').slice(1);
  assert.deepEqual(rows.map((l) => l.split(/\s+/)[0]), [newId, 'roco-sort_cubes-roco-s0-3f2a']);
  assert.match(run('show').stdout, /task put_block · seed 0/);
  const report = run('report');
  assert.equal(report.status, 0, report.stderr);
  assert.equal(report.stdout.trim(), `report: ${join(dirname(traceOf(newer)), 'report.html')}`);
  assert.ok(!existsSync(join(keyDir, 'report.html')));
});
