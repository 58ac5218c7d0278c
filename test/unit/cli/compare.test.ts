// `waypoint compare` as a user runs it: dist/cli.mjs in a fresh folder.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { SweepFile } from '../../../src/protocol/sweep.js';

const cli = join(process.cwd(), 'dist', 'cli.mjs');
const ws = mkdtempSync(join(tmpdir(), 'waypoint-compare-'));
after(() => rmSync(ws, { recursive: true, force: true }));
const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { cwd: ws, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

test('compare: a 1-seed paired sweep prints both sides and the sweep.json path', () => {
  const r = run('compare', '--ablation', 'planner.replan_check', '--task', 'stack_blocks_2', '--seeds', '1');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^planner\.replan_check on malmm\/stack_blocks_2, variant default, 1 seeds, model reference/m);
  assert.match(r.stdout, /^on +1\/1 +100% \[21%, 100%\] +\d+\.\d +\d+\.\d$/m);
  assert.match(r.stdout, /^off +1\/1 +100% \[21%, 100%\]/m);
  assert.match(r.stdout, /outcome differs on 0 of 1 seeds/);
  const path = /^sweep: (.+sweep\.json)$/m.exec(r.stdout)?.[1];
  assert.ok(path && path.startsWith(join(ws, '.waypoint', 'sweeps')), r.stdout);
  const file = SweepFile.parse(JSON.parse(readFileSync(path, 'utf8')));
  assert.equal(file.comparison.pairs[0].on?.success, true);
  // Both runs are ordinary runs: `waypoint runs` lists them.
  assert.equal(run('runs').stdout.trim().split('\n').filter((l) => /task=stack_blocks_2 +seed=0/.test(l)).length, 2);
});

test('compare: bad input exits 2 with one line naming the cause', () => {
  const none = run('compare');
  assert.equal(none.status, 2);
  assert.match(none.stderr, /--ablation <id> is required/);
  const typo = run('compare', '--ablation', 'planner.replan_chek');
  assert.equal(typo.status, 2);
  assert.match(typo.stderr, /ablation 'planner\.replan_chek' is not in any malmm prompt/);
  const seeds = run('compare', '--ablation', 'planner.replan_check', '--seeds', 'x');
  assert.equal(seeds.status, 2);
  assert.match(seeds.stderr, /--seeds must be a positive integer/);
  assert.equal(run('compare', '--ablation', 'planner.replan_check', '--seeds', '0').status, 2);
});
