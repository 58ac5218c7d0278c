// `waypoint compare` as a user runs it: dist/cli.mjs in a fresh folder.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { SweepFile } from '../../../src/protocol/sweep.js';
import { freshCli } from '../../helpers/dist.js';

const cli = freshCli();
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
  assert.match(r.stdout, /^Clopper-Pearson 95% \(the paper's interval for LLaMAR\): on \[3%, 100%\], off \[3%, 100%\]$/m);
  const path = /^sweep: (.+sweep\.json)$/m.exec(r.stdout)?.[1];
  assert.ok(path && path.startsWith(join(ws, '.waypoint', 'sweeps')), r.stdout);
  const file = SweepFile.parse(JSON.parse(readFileSync(path, 'utf8')));
  assert.equal(file.comparison.pairs[0].on?.success, true);
  // Both runs are ordinary runs: `waypoint runs` lists them.
  assert.equal(run('runs').stdout.trim().split('\n').filter((l) => / stack_blocks_2 +0 /.test(l)).length, 2);
});

test('compare --vision: both sides run with the vision switch on, as `waypoint run --vision` does', () => {
  const runs = join(ws, '.waypoint', 'runs');
  const before = new Set(existsSync(runs) ? readdirSync(runs) : []);
  const r = run('compare', '--ablation', 'planner.replan_check', '--task', 'stack_blocks_2', '--seeds', '1', '--vision');
  assert.equal(r.status, 0, r.stderr);
  const fresh = readdirSync(runs).filter((d) => !before.has(d) && existsSync(join(runs, d, 'trace.jsonl')));
  assert.equal(fresh.length, 2, fresh.join(', '));
  for (const d of fresh) {
    const start = JSON.parse(readFileSync(join(runs, d, 'trace.jsonl'), 'utf8').split('\n')[0]!) as { type: string; options: Record<string, unknown> };
    assert.equal(start.type, 'episode_start');
    assert.equal(start.options.vision, true, d);
  }
});

test('compare: bad input exits 2 with one line naming the cause', () => {
  const refused = (r: ReturnType<typeof run>, re: RegExp) => {
    assert.equal(r.status, 2, r.stdout + r.stderr);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, re);
  };
  refused(run('compare'), /^waypoint compare: --ablation <id> is required/);
  refused(run('compare', '--ablation', 'planner.replan_chek'), /ablation 'planner\.replan_chek' is not in the prompts malmm\/malmm runs .*; ids there: .*planner\.replan_check/);
  // The id exists in the Planner's prompt, but SA runs only sa.prompt: an error, not "differs on 0 of 1 seeds".
  refused(run('compare', '--ablation', 'planner.replan_check', '--variant', 'sa'), /ablation 'planner\.replan_check' is not in the prompts malmm\/sa runs \(sa\.prompt\); ids there: sa\./);
  refused(run('compare', '--ablation', 'planner.replan_check', '--seeds', 'x'), /--seeds must be an integer from 1 to 100, got 'x'/);
  refused(run('compare', '--ablation', 'planner.replan_check', '--seeds', '0'), /--seeds must be an integer from 1 to 100, got '0'/);
  // An unknown task is found by the first episode; the sweep stops there instead of running every seed.
  refused(run('compare', '--ablation', 'planner.replan_check', '--task', 'juggle', '--seeds', '3'), /^waypoint compare: unknown task 'juggle'/);
  assert.ok(!existsSync(join(ws, '.waypoint', 'sweeps')) || readdirSync(join(ws, '.waypoint', 'sweeps')).every((d) => !d.includes('juggle')), 'no sweep folder for a sweep that did not run');
});
