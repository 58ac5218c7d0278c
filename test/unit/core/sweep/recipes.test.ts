// The scale-out recipes are checked, not just written: the Indexed Job manifest against the Kubernetes Job schema
// (kubernetes-models validates against the API's OpenAPI schema), and both recipes' sweep commands against the CLI.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { parse } from 'yaml';
import { architectures } from '../../../../src/architectures/registry.js';
import { nodeIO } from '../../../../src/core/node/nodeHost.js';
import { parseShard, parseSweepSpec, planSweep } from '../../../../src/core/sweep/spec.js';

test('the Indexed Job manifest is a valid batch/v1 Job whose pods each run their own shard against their own simulator', () => {
  const doc = parse(readFileSync('docs/recipes/sweep-indexed-job.yaml', 'utf8'));
  const job = new Job(doc);
  job.validate();
  assert.equal(job.spec!.completionMode, 'Indexed');
  const n = job.spec!.completions!;
  const main = job.spec!.template.spec!.containers[0]!;
  const cmd = [...(main.command ?? []), ...(main.args ?? [])].join(' ');
  const shard = /--shard (\S+)/.exec(cmd)![1]!;
  for (let i = 0; i < n; i++) assert.deepEqual(parseShard(shard, { JOB_COMPLETION_INDEX: String(i) }), { index: i, count: n });
  const sim = job.spec!.template.spec!.initContainers![0]!;
  assert.equal(sim.restartPolicy, 'Always', 'a native sidecar: the Job completes when the sweep container does');
  const port = sim.command![sim.command!.indexOf('--port') + 1];
  assert.match(cmd, new RegExp(`--sim ws://127\\.0\\.0\\.1:${port}`));
  assert.match(cmd, /--workspace \/results\/shard-\$JOB_COMPLETION_INDEX/);
  // A broken manifest is caught by the same check.
  assert.throws(() => new Job({ ...doc, spec: { ...doc.spec, completions: 'four' } }).validate());
});

test('the CI matrix recipe shards by the matrix index and merges every shard', () => {
  const wf = parse(readFileSync('docs/recipes/sweep-ci-matrix.yml', 'utf8'));
  const idx: number[] = wf.jobs.shard.strategy.matrix.index;
  const run = wf.jobs.shard.steps.map((s: { run?: string }) => s.run ?? '').join('\n');
  const m = /--shard \$\{\{ matrix.index \}\}\/(\d+)/.exec(run)!;
  assert.equal(Number(m[1]), idx.length);
  assert.deepEqual(idx, [...idx.keys()]);
  assert.match(wf.jobs.merge.steps.map((s: { run?: string }) => s.run ?? '').join('\n'), /cli\.mjs merge shards\/shard-\*/);
});

// The README's and the docs' sweep commands name files that exist and pass every check a sweep makes before it runs
// (the README once pointed at a topologies sweep file under sweeps/ that did not exist).
test('every sweep file the README, the docs and the recipes name exists and plans', async () => {
  const docs = ['README.md', ...readdirSync('docs').filter((f) => f.endsWith('.md')).map((f) => join('docs', f)), ...readdirSync('docs/recipes').map((f) => join('docs/recipes', f))];
  const named = new Set<string>();
  for (const d of docs) for (const m of readFileSync(d, 'utf8').matchAll(/\bsweep\s+([\w./-]+\.ya?ml)\b/g)) if (!m[1]!.startsWith('/')) named.add(m[1]!);
  assert.ok(named.has('docs/recipes/malmm-topologies.sweep.yaml') && named.has('docs/recipes/llamar-household.sweep.yaml'), [...named].join(', '));
  const ws = mkdtempSync(join(tmpdir(), 'waypoint-recipes-'));
  try {
    for (const file of named) {
      assert.ok(existsSync(file), `${file} is named in the docs but does not exist`);
      const plan = await planSweep(parseSweepSpec(readFileSync(file, 'utf8'), file), { io: nodeIO, architectures, workspace: ws, builtInPromptRoot: join(process.cwd(), 'src', 'architectures'), file });
      assert.ok(plan.episodes.length > 0, file);
    }
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});
