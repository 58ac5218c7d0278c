// `waypoint sweep` as a new user runs it (dist/cli.mjs in a fresh folder), on LLaMAR's household (no sandbox, so
// episodes take about a second): a sweep of any architecture runs; a prompt edit re-runs exactly the episodes that
// use the edited file; two sweeps never share run folders; a misspelt limit or key is refused with its line before
// anything runs; the matrix names the model, says a reference model's rates are a fixture, and has Fisher's p and
// each column's prompt version; `export --inspect` takes any sweep; Ctrl-C prints the command that resumes.
// Also `run`: a task another architecture's robot API needs is refused before the run starts.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { freshCli } from '../../helpers/dist.js';

// Refuses (or rebuilds) a dist/cli.mjs older than its sources, so these tests never run a stale build.
const cli = freshCli();
const root = mkdtempSync(join(tmpdir(), 'waypoint-sweep-cli-'));
after(() => rmSync(root, { recursive: true, force: true }));

const fresh = (name: string) => {
  const d = join(root, name);
  mkdirSync(d, { recursive: true });
  return d;
};
const run = (cwd: string, ...args: string[]) => spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
const runsIn = (ws: string) => (existsSync(join(ws, '.waypoint', 'runs')) ? readdirSync(join(ws, '.waypoint', 'runs')) : []);

const HOUSEHOLD = (name: string, extra = '') => `name: ${name}
arch: llamar
tasks: [put_bread_lettuce_tomato_fridge]
variants: [llamar, central]
seeds: 2
model: {name: reference}
limits: {maxSteps: 12}
${extra}`;

test('a LLaMAR sweep runs; the matrix names the model, the fixture, Fisher p and each prompt version; export --inspect takes it', () => {
  const ws = fresh('household');
  writeFileSync(join(ws, 'house.yaml'), HOUSEHOLD('house'));
  const r = run(ws, 'sweep', 'house.yaml', '--quiet');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /complete: 4 episodes in this sweep \(4 run now, 0 already finished\)/);
  const md = readFileSync(join(ws, '.waypoint', 'sweeps', 'house', 'matrix.md'), 'utf8');
  assert.ok(r.stdout.startsWith(md), 'the printed matrix is matrix.md');
  assert.match(md, /^model: reference \(scripted, not an LLM\)\. Its rates are a fixture of a scripted policy for exercising the tool, not results about language models\.$/m);
  const header = md.split('\n').find((l) => l.startsWith('| task |'))!;
  const plan = JSON.parse(readFileSync(join(ws, '.waypoint', 'sweeps', 'house', 'plan.json'), 'utf8')) as { cells: { name: string; promptVersion: string }[] };
  assert.equal(header, `| task | llamar (baseline) · prompts ${plan.cells[0]!.promptVersion} | central · prompts ${plan.cells[1]!.promptVersion} |`);
  assert.match(md, /\| put_bread_lettuce_tomato_fridge \| \d\/2 \d+% \[\d+%, \d+%\] \| \d\/2 \d+% \[\d+%, \d+%\] · McNemar p=[\d.<]+ \(\d↔\d discordant\) · Fisher p=[\d.<]+/);
  // export --inspect of a sweep that is not a paired compare.
  const out = join(ws, 'house.json');
  const e = run(ws, 'export', 'house', '--inspect', out);
  assert.equal(e.status, 0, e.stderr);
  assert.match(e.stdout, /Inspect eval log, 4 samples \(sweep house\)/);
  const log = JSON.parse(readFileSync(out, 'utf8')) as { eval: { task: string }; samples: { id: string; metadata: Record<string, unknown> }[] };
  assert.equal(log.eval.task, 'waypoint/llamar/sweep/house');
  assert.deepEqual(log.samples.map((s) => s.id), ['put_bread_lettuce_tomato_fridge/llamar/seed-0', 'put_bread_lettuce_tomato_fridge/llamar/seed-1', 'put_bread_lettuce_tomato_fridge/central/seed-0', 'put_bread_lettuce_tomato_fridge/central/seed-1']);
  assert.equal(log.samples[2]!.metadata.prompt_version, plan.cells[1]!.promptVersion);
});

test('a prompt edit re-runs exactly the episodes that use the edited file; another sweep name never shares run folders', () => {
  const ws = fresh('edit');
  writeFileSync(join(ws, 'a.yaml'), HOUSEHOLD('first'));
  assert.equal(run(ws, 'sweep', 'a.yaml', '--quiet').status, 0);
  const before = runsIn(ws);
  assert.equal(before.length, 4);
  // The workspace's own copy of the central prompt, edited: only the `central` column reads it.
  mkdirSync(join(ws, 'prompts', 'llamar'), { recursive: true });
  writeFileSync(join(ws, 'prompts', 'llamar', 'central.prompt'), readFileSync(join(process.cwd(), 'src', 'architectures', 'llamar', 'prompts', 'central.prompt'), 'utf8') + '\nPrefer the closest robot.\n');
  const again = run(ws, 'sweep', 'a.yaml', '--quiet');
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stdout, /complete: 4 episodes in this sweep \(2 run now, 2 already finished\)/);
  const added = runsIn(ws).filter((d) => !before.includes(d));
  assert.equal(added.length, 2);
  assert.ok(added.every((d) => d.includes('-central-')), added.join(', '));
  assert.match(run(ws, 'sweep', 'a.yaml', '--quiet').stdout, /\(0 run now, 4 already finished\)/);
  // The same settings under another name: its own episodes and run folders.
  writeFileSync(join(ws, 'b.yaml'), HOUSEHOLD('second'));
  const other = run(ws, 'sweep', 'b.yaml', '--quiet');
  assert.match(other.stdout, /\(4 run now, 0 already finished\)/);
  assert.equal(runsIn(ws).filter((d) => d.startsWith('second-')).length, 4);
  assert.equal(runsIn(ws).filter((d) => d.startsWith('first-')).length, 6);
});

test('a misspelt limit, an unknown key or a task the architecture cannot run exits 2 with the line, before any episode', () => {
  const ws = fresh('refused');
  writeFileSync(join(ws, 'limit.yaml'), 'arch: malmm\ntasks: [stack_blocks_2]\nvariants: [sa]\nseeds: 1\nlimits: {maxTurn: 10}\n');
  const l = run(ws, 'sweep', 'limit.yaml');
  assert.equal(l.status, 2);
  assert.equal(l.stderr, "waypoint sweep: limit.yaml:5: limits.maxTurn: unknown limit 'maxTurn' for malmm (did you mean 'maxTurns'?); its limits: maxTurns, maxConsecutiveErrors, maxWallSecs, maxSimSecs\n");
  writeFileSync(join(ws, 'key.yaml'), 'arch: malmm\ntasks: [stack_blocks_2]\nvariant: [sa]\nseeds: 1\n');
  const k = run(ws, 'sweep', 'key.yaml');
  assert.equal(k.status, 2);
  assert.match(k.stderr, /^waypoint sweep: key\.yaml:3: unknown key 'variant' \(did you mean 'variants'\?\); valid keys: name, arch, tasks, variants, /);
  writeFileSync(join(ws, 'task.yaml'), 'arch: roco\ntasks: [sort_cubes, stack_blocks]\nvariants: [dialog]\nseeds: 1\n');
  const t = run(ws, 'sweep', 'task.yaml');
  assert.equal(t.status, 2);
  assert.match(t.stderr, /task\.yaml:2: tasks\[1\]: task 'stack_blocks' \(1 arm\) works with the robot API malmm, not roco's 'roco'/);
  assert.deepEqual(runsIn(ws), [], 'nothing ran');
  // `run` refuses the same before it starts: one line, no transcript; a typo lists that architecture's tasks only.
  const r = run(ws, 'run', '--arch', 'roco', '--task', 'stack_blocks');
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^waypoint run: task 'stack_blocks' \(1 arm\) works with the robot API malmm, not roco's 'roco'; roco's tasks on waypoint-tabletop: sort_cubes, pack_grocery, make_sandwich, move_rope, sweep_floor, arrange_cabinet, handover\n$/);
  const typo = run(ws, 'run', '--arch', 'roco', '--task', 'sort_cube');
  assert.equal(typo.status, 2);
  assert.match(typo.stderr, /unknown task 'sort_cube' \(did you mean 'sort_cubes'\?\); roco's tasks on waypoint-tabletop: sort_cubes, pack_grocery, make_sandwich, move_rope, sweep_floor, arrange_cabinet, handover\n$/);
});

test('--workers and --concurrency: bad values and more processes than episodes in flight exit 2 with one line, before any episode', () => {
  const ws = fresh('workers');
  writeFileSync(join(ws, 'w.yaml'), 'arch: malmm\ntasks: [stack_blocks_2]\nvariants: [sa]\nseeds: 1\nconcurrency: 4\n');
  for (const [args, line] of [
    [['--workers', '0'], "waypoint sweep: --workers must be an integer from 1 to 64, got '0'\n"],
    [['--workers', 'two'], "waypoint sweep: --workers must be an integer from 1 to 64, got 'two'\n"],
    [['--workers', '5'], 'waypoint sweep: --workers 5 is more than concurrency: 4 (the episodes in flight, spread over the worker processes): a process would have no episode to run; lower --workers or raise concurrency:\n'],
    [['--workers', '3', '--concurrency', '2'], 'waypoint sweep: --workers 3 is more than --concurrency 2 (the episodes in flight, spread over the worker processes): a process would have no episode to run; lower --workers or raise --concurrency\n'],
  ] as const) {
    const r = run(ws, 'sweep', 'w.yaml', ...args);
    assert.equal(r.status, 2, args.join(' '));
    assert.equal(r.stderr, line);
  }
  writeFileSync(join(ws, 'f.yaml'), 'arch: malmm\ntasks: [stack_blocks_2]\nvariants: [sa]\nseeds: 1\nconcurrency: 2\nworkers: 3\n');
  const f = run(ws, 'sweep', 'f.yaml');
  assert.equal(f.status, 2);
  assert.equal(f.stderr, 'waypoint sweep: f.yaml:6: workers 3 is more than concurrency 2 (the episodes in flight, spread over the worker processes): a process would have no episode to run; lower workers or raise concurrency\n');
  // A file's workers within its concurrency is accepted (--plan checks everything and runs nothing).
  assert.equal(run(ws, 'sweep', 'w.yaml', '--workers', '2', '--plan').status, 0);
  assert.deepEqual(runsIn(ws), [], 'nothing ran');
});

test('Ctrl-C: the sweep stops, keeps what finished, and prints the command that resumes it', { timeout: 240_000 }, async () => {
  const ws = fresh('sigint');
  writeFileSync(join(ws, 'long.yaml'), 'name: long\narch: llamar\ntasks: [put_bread_lettuce_tomato_fridge]\nvariants: [llamar]\nseeds: 200\nmodel: {name: reference}\n');
  const p = spawn(process.execPath, [cli, 'sweep', 'long.yaml', '--concurrency', '1'], { cwd: ws });
  let stderr = '';
  let stdout = '';
  p.stdout.on('data', (d) => (stdout += d));
  const code = await new Promise<number | null>((resolve) => {
    p.stderr.on('data', (d) => {
      stderr += d;
      // The first finished episode's progress line (a log gets one per finished episode): stop the sweep.
      if (/\] [1-9]\d*\/200/.test(stderr) && !p.killed) p.kill('SIGINT');
    });
    p.on('close', (c) => resolve(c));
  });
  assert.equal(code, 130, stderr);
  const kept = readdirSync(join(ws, '.waypoint', 'sweeps', 'long', 'episodes')).length;
  assert.ok(kept >= 1 && kept < 200, `${kept} records`);
  assert.match(stdout, /^cancelled: \d+ episodes in this sweep/m);
  assert.match(stderr, new RegExp(`waypoint sweep: interrupted: ${kept} of 200 episodes finished and kept; the ones in flight run again\\. Resume with:\\n  node \\S*cli\\.mjs sweep long\\.yaml --concurrency 1\\n`));
});

test('a sweep on a protocol simulator checks its tasks against that simulator, and its plan names it', () => {
  const ws = fresh('external');
  const toy = join(process.cwd(), 'bridges', 'python', 'examples', 'toy_tabletop.py');
  writeFileSync(join(ws, 'toy.yaml'), 'name: toy\narch: malmm\ntasks: [stak]\nvariants: [sa]\nseeds: 1\n');
  const bad = run(ws, 'sweep', 'toy.yaml', '--sim', `stdio:python3 ${toy}`);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /^waypoint sweep: toy\.yaml:3: tasks\[0\]: unknown task 'stak' \(did you mean 'stack'\?\); malmm's tasks on toy-tabletop-py: pick_place, stack\n$/);
  writeFileSync(join(ws, 'toy.yaml'), 'name: toy\narch: malmm\ntasks: [stack]\nvariants: [sa]\nseeds: 1\n');
  const ok = run(ws, 'sweep', 'toy.yaml', '--sim', `stdio:python3 ${toy}`, '--quiet');
  assert.equal(ok.status, 0, ok.stderr);
  const plan = JSON.parse(readFileSync(join(ws, '.waypoint', 'sweeps', 'toy', 'plan.json'), 'utf8')) as { simulator: unknown; episodes: { key: string }[] };
  assert.deepEqual(plan.simulator, { spec: `stdio:python3 ${toy}`, name: 'toy-tabletop-py', version: '1.0' });
  assert.match(ok.stdout, /complete: 1 episodes in this sweep \(1 run now/);
});

test('a sweep on embedded:grasp=weld,motion=straight runs every episode on that tabletop; a bad setting is refused before anything runs', () => {
  const ws = fresh('tabletop-settings');
  writeFileSync(join(ws, 'weld.yaml'), 'name: weld\narch: malmm\ntasks: [stack_blocks_2]\nvariants: [default]\nseeds: 1\nmodel: {name: reference}\n');
  const bad = run(ws, 'sweep', 'weld.yaml', '--sim', 'embedded:grasp=glue', '--quiet');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /grasp is one of friction, weld/);
  assert.deepEqual(runsIn(ws), []);
  const r = run(ws, 'sweep', 'weld.yaml', '--sim', 'embedded:grasp=weld,motion=straight', '--in-process', '--quiet');
  assert.equal(r.status, 0, r.stderr);
  const runs = runsIn(ws);
  assert.equal(runs.length, 1);
  const start = JSON.parse(readFileSync(join(ws, '.waypoint', 'runs', runs[0]!, 'trace.jsonl'), 'utf8').split('\n')[0]!) as { simulator: { version: string } };
  assert.match(start.simulator.version, /weld grasps, straight-line execute_trajectory/);
  // The setup is part of each episode's key: the same file on the default tabletop is another episode, not a resume.
  const plain = run(ws, 'sweep', 'weld.yaml', '--in-process', '--quiet');
  assert.equal(plain.status, 0, plain.stderr);
  assert.match(plain.stdout, /\(1 run now, 0 already finished\)/);
  assert.equal(runsIn(ws).length, 2);
});
