// The papers' tables as a user runs them (dist/cli.mjs in a fresh folder): every examples/papers file plans with
// `--plan` (episodes per cell, estimated calls and tokens, exit 0) without starting a run or calling a model; and one
// small cell of each runs with the reference model, its matrix showing the paper beside this run, named a fixture.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { parse, stringify } from 'yaml';
import { freshCli } from '../../helpers/dist.js';

const cli = freshCli();
const root = mkdtempSync(join(tmpdir(), 'waypoint-papers-'));
after(() => rmSync(root, { recursive: true, force: true }));
const dir = resolve('examples/papers');
const files = readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort();
const run = (cwd: string, ...args: string[]) => spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

test('every examples/papers file plans with --plan: episodes per cell, estimated calls and tokens, nothing run', () => {
  assert.ok(files.length >= 9, files.join(', '));
  for (const f of files) {
    const spec = parse(readFileSync(join(dir, f), 'utf8')) as { name: string; tasks: string[]; variants: unknown[]; seeds: number; repeats?: number };
    const r = run(root, 'sweep', join(dir, f), '--plan');
    assert.equal(r.status, 0, `${f}: ${r.stderr}`);
    const episodes = spec.tasks.length * spec.variants.length * spec.seeds * (spec.repeats ?? 1);
    assert.match(r.stdout, new RegExp(`^sweep ${spec.name}: .* = ${episodes} episodes \\(plan only: nothing was run, no model was called\\)$`, 'm'), f);
    // One row per task with the count of each column.
    for (const t of spec.tasks) assert.match(r.stdout, new RegExp(`^\\| ${t} \\|( ${spec.seeds * (spec.repeats ?? 1)} \\|){${spec.variants.length}}$`, 'm'), `${f}: ${t}`);
    assert.match(r.stdout, /^estimated model calls: ~[\d,]+$/m, f);
    assert.match(r.stdout, /^estimated tokens: ~[\d,]+$/m, f);
    assert.match(r.stdout, /^how estimated: \d+ episodes x a typical \w+ episode of \d+ calls and \d+ tokens \(the reference model on /m, f);
    assert.match(r.stdout, /^model: reference \(scripted reference model: its rates are a fixture, not a reproduction of the paper\)$/m, f);
  }
  assert.equal(existsSync(join(root, '.waypoint')), false, '--plan wrote no sweep folder and started no run');
});

test('--plan refuses a bad paper block as a run would, with the file and line', () => {
  const bad = join(root, 'bad.yaml');
  writeFileSync(bad, readFileSync(join(dir, 'roco-table2.yaml'), 'utf8').replace('sort_cubes: {central_plan', 'sort_cube: {central_plan'));
  const r = run(root, 'sweep', bad, '--plan');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /bad\.yaml:\d+: paper\.cells: 'sort_cube' is not a task of this sweep \(did you mean 'sort_cubes'\?\)/);
});

// One cell of each file: its first task and column that the paper reports (else the first), one seed; the paper's
// other cells are dropped with the tasks and columns they name.
const SMALL: Record<string, { task: string; column: string }> = {
  'malmm-tables.yaml': { task: 'put_block', column: 'malmm' },
  'malmm-fig5.yaml': { task: 'stack_blocks_2', column: 'malmm' },
  'roco-table2.yaml': { task: 'sort_cubes', column: 'dialog' },
  'actctx-iv-b.yaml': { task: 'ac_single_paper_ball_1', column: 'actctx' },
  'actctx-iv-d.yaml': { task: 'ac_sequential', column: 'actctx' },
  'llamar-table4.yaml': { task: '1_put_bread_lettuce_tomato_fridge', column: 'llamar' },
  'llamar-table5.yaml': { task: '1_put_bread_lettuce_tomato_fridge', column: 'agents_3' },
  'trajgen-ablations.yaml': { task: 'shake_bottle', column: 'no_trajectory_shape' },
  'trajgen-output.yaml': { task: 'draw_shape', column: 'code' },
};

// Measured on the shared 2-core machine (28 Nov, loaded): LLaMAR's cells 6-9 s; MALMM, RoCo and LMTG's 37-56 s
// (Pyodide and MuJoCo start-up plus the episode); IV-B's 8 trials 40-83 s per object (episode time, 28 Nov); IV-D
// 877 s (14 plan runs).
// The default suite runs the fast ones; WAYPOINT_PAPER_CELLS=all runs every file's cell.
const FAST = new Set(['llamar-table4.yaml', 'llamar-table5.yaml']);
const chosen = process.env.WAYPOINT_PAPER_CELLS === 'all' ? files : files.filter((f) => FAST.has(f));

test('one small cell of each paper sweep runs with the reference model; the matrix shows the paper beside this run, a fixture', { timeout: 3_600_000 }, () => {
  assert.deepEqual(Object.keys(SMALL).sort(), files, 'every paper file has its small cell');
  for (const f of chosen) {
    const { task, column } = SMALL[f]!;
    const spec = parse(readFileSync(join(dir, f), 'utf8')) as Record<string, any>;
    spec.name = `small-${spec.name}`;
    spec.tasks = [task];
    spec.variants = spec.variants.filter((v: string | { name?: string; variant: string }) => (typeof v === 'string' ? v : (v.name ?? v.variant)) === column);
    assert.equal(spec.variants.length, 1, `${f}: column ${column}`);
    spec.seeds = 1;
    spec.baseline = column;
    spec.concurrency = 1;
    spec.paper.cells ??= {};
    for (const t of Object.keys(spec.paper.cells)) {
      if (t !== task && t !== 'all_tasks') delete spec.paper.cells[t];
      else for (const c of Object.keys(spec.paper.cells[t])) if (c !== column) delete spec.paper.cells[t][c];
    }
    const ws = mkdtempSync(join(root, 'run-'));
    writeFileSync(join(ws, f), stringify(spec));
    const t0 = Date.now();
    const r = run(ws, 'sweep', f, '--quiet', '--in-process');
    assert.equal(r.status, 0, `${f}: ${r.stderr}`);
    assert.match(r.stdout, /complete: 1 episodes in this sweep/, f);
    const md = readFileSync(join(ws, '.waypoint', 'sweeps', spec.name, 'matrix.md'), 'utf8');
    assert.match(md, new RegExp(`\\*\\*Paper beside this run\\*\\* \\(${spec.paper.citation.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), f);
    const reported = Object.values(spec.paper.cells).some((byCol) => Object.keys(byCol as object).length > 0);
    // One episode: 0/1 or 1/1, or counted in the paper's unit (IV-B: 8 trials, `6/8 executions`).
    const ours = spec.paper.rateOf ? `\\d+/\\d+ ${spec.paper.rateOf.of}` : '[01]/1';
    if (reported) assert.match(md, new RegExp(`\\| ${column} \\| \\d+% .*\\| this run|\\| ${column} \\| \\d+% \\((n=\\d+|n not stated)\\)[^|]* \\| ${ours} \\d+% \\[\\d+%, \\d+%\\] \\| (inside|outside) \\|`), `${f}:\n${md}`);
    else assert.match(md, /The paper prints no number for these cells/, f);
    if (reported) assert.match(md, /this run — fixture \(scripted reference model, not a reproduction\)/, f);
    process.stdout.write(`# ${f}: ${task} / ${column}: ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  }
});
