// The `waypoint` CLI as a user runs it: dist/cli.mjs in a fresh folder, exit codes and one-line messages.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

const cli = join(process.cwd(), 'dist', 'cli.mjs');
const ws = mkdtempSync(join(tmpdir(), 'waypoint-cli-'));
after(() => rmSync(ws, { recursive: true, force: true }));
const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { cwd: ws, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

test('run: success exits 0, streams the transcript and prints the trace path; runs lists it', () => {
  const r = run('run', '--arch', 'malmm', '--task', 'stack_blocks_2', '--seed', '1', '--model', 'reference');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /model reference \(scripted, not an LLM\)/);
  // The Coder may say which step it writes before the block.
  assert.match(r.stdout, /\[turn +\d+\] Coder\n(?: +[^`\n].*\n)? +```python/);
  assert.match(r.stdout, /Executor ran coder's block: exit 0/);
  assert.match(r.stdout, /success check: PASS/);
  const trace = /^trace: (.+trace\.jsonl)$/m.exec(r.stdout)?.[1];
  assert.ok(trace && readFileSync(trace, 'utf8').includes('"episode_end"'));
  const runs = run('runs');
  assert.equal(runs.status, 0);
  assert.match(runs.stdout, /success +malmm\/malmm +variant=default +task=stack_blocks_2 +seed=1 +task_completed/);
  const show = run('show');
  assert.equal(show.status, 0);
  assert.match(show.stdout, /SUCCESS · task_completed/);
  const report = run('report', '--out', join(ws, 'r.html'));
  assert.equal(report.status, 0, report.stderr);
  const html = readFileSync(join(ws, 'r.html'), 'utf8');
  assert.match(html, /Content-Security-Policy/);
  assert.ok(html.includes('stack_blocks_2'));
  assert.doesNotMatch(html, /<script[^>]+src="https?:/, 'no remote scripts');
});

test('run: an episode that fails exits 1', () => {
  const r = run('run', '--task', 'stack_blocks_2', '--max-turns', '3');
  assert.equal(r.status, 1);
  assert.match(r.stdout, /FAILURE · turn_cap/);
});

test('bad input exits 2 with a one-line message naming the cause', () => {
  const arch = run('run', '--arch', 'voxposer');
  assert.equal(arch.status, 2);
  assert.match(arch.stdout, /error \(invalid_input\): unknown architecture 'voxposer'; known: .*\bmalmm\b/);
  const task = run('run', '--task', 'juggle');
  assert.equal(task.status, 2);
  assert.match(task.stdout, /unknown task 'juggle'; known: .*stack_blocks/);
  const model = run('run', '--model', 'gpt-4');
  assert.equal(model.status, 2);
  assert.match(model.stderr, /--model must be reference, reference-flawed or openai:<model-name>, got 'gpt-4'/);
  const seed = run('run', '--seed', 'abc');
  assert.equal(seed.status, 2);
  assert.match(seed.stderr, /--seed must be an integer/);
  const flag = run('run', '--colour');
  assert.equal(flag.status, 2);
  assert.match(flag.stderr, /Unknown option '--colour'/);
});

test('a broken prompt folder: exit 2, the message names the file and line, no model call', () => {
  const dir = join(ws, 'myprompts');
  cpSync(join(process.cwd(), 'prompts', 'malmm'), dir, { recursive: true });
  writeFileSync(join(dir, 'planner.prompt'), readFileSync(join(dir, 'planner.prompt'), 'utf8').replace('  temperature: 0', '  temperature: 0\n  temperature: 1'));
  const r = run('run', '--prompts', dir);
  assert.equal(r.status, 2);
  assert.match(r.stdout, /error \(prompt_error\): invalid YAML front matter: .*\[.*planner\.prompt:4\]/);
  assert.doesNotMatch(r.stdout, /\[turn +1\]/);
});

test('tasks lists one task per line, name first', () => {
  const r = run('tasks');
  assert.equal(r.status, 0);
  const lines = r.stdout.trim().split('\n');
  assert.ok(lines.some((l) => /^stack_blocks +single-arm +arms=1 /.test(l)));
  assert.ok(lines.length >= 21, `${lines.length} tasks`);
  const malmm = run('tasks', '--arch', 'malmm').stdout;
  assert.match(malmm, /^stack_blocks /m);
  assert.doesNotMatch(malmm, /^sort_cubes /m, 'a 3-arm RoCo task is not offered to MALMM');
  assert.equal(run('tasks', '--arch', 'nope').status, 2);
});

test('archs lists every architecture with its limits by the seed names; --limit is checked against them; --sim is validated', () => {
  const a = run('archs');
  assert.equal(a.status, 0, a.stderr);
  assert.match(a.stdout, /^malmm — MALMM:/m);
  assert.match(a.stdout, /maxTurns +150 +an integer >= 1; Speaker turns/);
  assert.match(a.stdout, /maxConsecutiveErrors +5 /);
  const json = JSON.parse(run('archs', '--json').stdout) as { architectures: { id: string; limits: { id: string }[] }[] };
  assert.deepEqual(json.architectures.find((x) => x.id === 'malmm')?.limits.map((l) => l.id), ['maxTurns', 'maxConsecutiveErrors']);
  const unknown = run('run', '--task', 'stack_blocks_2', '--limit', 'maxRounds=3');
  assert.equal(unknown.status, 2);
  assert.match(unknown.stdout + unknown.stderr, /unknown limit 'maxRounds' for malmm; its limits: maxTurns, maxConsecutiveErrors/);
  const malformed = run('run', '--limit', 'maxTurns');
  assert.equal(malformed.status, 2);
  assert.match(malformed.stderr, /--limit takes name=value/);
  const sim = run('run', '--sim', 'tcp://localhost:9');
  assert.equal(sim.status, 2);
  assert.match(sim.stderr, /unknown simulator 'tcp:\/\/localhost:9': expected embedded, stdio:<command line> or ws:\/\/host:port/);
});
