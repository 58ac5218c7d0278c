// `waypoint sweep` as a Kubernetes Indexed Job runs it: two processes, each with JOB_COMPLETION_INDEX set and
// `--shard env/2`, in their own workspaces (as on two machines), then `waypoint merge`; the merged folder equals an
// unsharded run of the same file. Real episodes (MuJoCo, Pyodide, the reference model over HTTP), kept short with
// a turn cap. Also: a bad sweep file fails before any model call, naming the id.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { freshCli } from '../../helpers/dist.js';

const cli = freshCli();
const root = mkdtempSync(join(tmpdir(), 'waypoint-shards-'));
after(() => rmSync(root, { recursive: true, force: true }));

const SWEEP = `name: tiny
arch: malmm
tasks: [stack_blocks_2]
variants: [sa]
seeds: 2
model: {name: reference-flawed}
limits: {maxTurns: 3}
`;

function run(args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [cli, ...args], { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

const ws = (name: string) => {
  const d = join(root, name);
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, 'tiny.yaml'), SWEEP);
  return d;
};

/** Outcome fields of each record (durations differ run to run). */
function outcomes(dir: string): unknown[] {
  return readdirSync(join(dir, 'episodes'))
    .sort()
    .map((f) => {
      const r = JSON.parse(readFileSync(join(dir, 'episodes', f), 'utf8'));
      return { key: r.key, success: r.success, reason: r.reason, turns: r.turns, modelCalls: r.modelCalls, labels: r.labels.map((l: { label: string; turn?: number }) => [l.label, l.turn]) };
    });
}

test('two shards as two processes with JOB_COMPLETION_INDEX, merged, equal the unsharded sweep', async () => {
  const [w0, w1, wAll] = [ws('shard0'), ws('shard1'), ws('all')];
  const [s0, s1, all] = await Promise.all([
    run(['sweep', 'tiny.yaml', '--shard', 'env/2', '--quiet'], w0, { JOB_COMPLETION_INDEX: '0' }),
    run(['sweep', 'tiny.yaml', '--shard', 'env/2', '--quiet'], w1, { JOB_COMPLETION_INDEX: '1' }),
    // One worker process serving both episodes in turn (it must stay up between jobs).
    run(['sweep', 'tiny.yaml', '--quiet', '--concurrency', '1'], wAll),
  ]);
  for (const r of [s0, s1, all]) assert.equal(r.code === 0 || r.code === 1, true, r.stderr);
  assert.match(s0.stdout, /complete: 1 episodes in this shard 0\/2/);
  assert.match(s1.stdout, /complete: 1 episodes in this shard 1\/2/);
  assert.match(all.stdout, /complete: 2 episodes in this sweep/);
  const d = (w: string) => join(w, '.waypoint', 'sweeps', 'tiny');
  const out = join(root, 'merged', '.waypoint', 'sweeps', 'tiny');
  const m = await run(['merge', d(w0), d(w1), '--out', out], root);
  assert.equal(m.code, 0, m.stderr + m.stdout);
  assert.match(m.stdout, /merged 2 folders: 2\/2 episodes/);
  assert.deepEqual(outcomes(out), outcomes(d(wAll)));
  assert.equal(readFileSync(join(out, 'matrix.md'), 'utf8').split('\n').slice(1).join('\n'), readFileSync(join(d(wAll), 'matrix.md'), 'utf8').split('\n').slice(1).join('\n'));
  // Resume: the same command again runs nothing.
  const again = await run(['sweep', 'tiny.yaml', '--quiet', '--in-process'], wAll);
  assert.match(again.stdout, /\(0 run now, 2 already finished\)/);
});

test('a sweep file naming an unknown ablation fails before any model call, naming it', async () => {
  const w = ws('bad');
  writeFileSync(join(w, 'bad.yaml'), SWEEP.replace('variants: [sa]', 'variants: [sa, {variant: ma, ablations: {planner.no_such_rule: false}}]'));
  const r = await run(['sweep', 'bad.yaml'], w);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /waypoint sweep: bad.yaml:\d+: variants\[\d\]: ablation 'planner.no_such_rule' is not in the prompts malmm\/\w+ runs/);
  assert.equal(existsSync(join(w, '.waypoint', 'runs')), false, 'no episode started');
});
