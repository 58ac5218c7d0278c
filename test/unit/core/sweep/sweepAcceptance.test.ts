// The acceptance sweep (80 real episodes, about 30 s on two cores): docs/recipes/malmm-topologies.sweep.yaml
// through the product path (planSweep, runSweep, `waypoint sweep-worker` processes with warm sandboxes), then the
// matrix and the failure inspector's grouping. What it asserts: every cell has its 20 episodes, the paired and
// unpaired tests of every pair agree with the discordant pairs counted here from the records, at least one pair
// differs on the exact McNemar test (the reference-flawed fixture is deterministic: SA without feedback cannot
// recover from its mistakes, so if no pair differs the fixture or the statistics changed), and failures fall under
// at least three labels. It prints every pair's p-values. Run alone: node scripts/test.mjs sweepAcceptance
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { architectures } from '../../../../src/architectures/registry.js';
import { nodeClock, nodeIO } from '../../../../src/core/node/nodeHost.js';
import { ChildProcessWorker } from '../../../../src/core/sweep/childWorker.js';
import { buildMatrix, matrixMarkdown } from '../../../../src/core/sweep/matrix.js';
import { runSweep } from '../../../../src/core/sweep/scheduler.js';
import { parseSweepSpec, planSweep } from '../../../../src/core/sweep/spec.js';
import { fisherExact, mcnemarExact } from '../../../../src/core/sweep/stats.js';
import { freshCli } from '../../../helpers/dist.js';

const FILE = 'docs/recipes/malmm-topologies.sweep.yaml';
const CLI = freshCli();

test('acceptance sweep: MALMM topologies x stack_blocks x 20 seeds, reference-flawed', { timeout: 20 * 60_000 }, async () => {
  const ws = mkdtempSync(join(tmpdir(), 'waypoint-acceptance-'));
  try {
    const plan = await planSweep(parseSweepSpec(readFileSync(FILE, 'utf8'), FILE), { io: nodeIO, architectures, workspace: ws, builtInPromptRoot: join(process.cwd(), 'src', 'architectures'), file: FILE });
    const workers = Array.from({ length: plan.spec.concurrency }, () => new ChildProcessWorker(CLI));
    const t0 = performance.now();
    const r = await runSweep({ plan, io: nodeIO, clock: nodeClock, workspace: ws, builtInPromptRoot: join(process.cwd(), 'src', 'architectures'), sim: 'embedded', workers });
    await Promise.all(workers.map((w) => w.close()));
    assert.equal(r.status, 'complete');
    assert.equal(r.records.length, 80);
    const cells = plan.cells.map((c) => c.name);
    const m = buildMatrix(r.records, { tasks: ['stack_blocks'], cells, baseline: 'malmm' });
    for (const c of m.rows[0]!) assert.equal(c.n, 20, c.cell);
    console.log(matrixMarkdown(m, { title: `malmm-topologies (${((performance.now() - t0) / 1000).toFixed(0)} s)`, model: plan.spec.model }));
    // Every pair, both ways of testing it, from the records directly.
    let significant = 0;
    const bySeed = (cell: string) => new Map(r.records.filter((x) => x.cell === cell).map((x) => [x.seed, x.success]));
    for (let i = 0; i < cells.length; i++)
      for (let j = i + 1; j < cells.length; j++) {
        const [a, b] = [bySeed(cells[i]!), bySeed(cells[j]!)];
        let onlyA = 0;
        let onlyB = 0;
        for (const [s, ok] of a) (ok && !b.get(s) && onlyA++, !ok && b.get(s) && onlyB++);
        const sa = [...a.values()].filter(Boolean).length;
        const sb = [...b.values()].filter(Boolean).length;
        const mc = mcnemarExact(onlyA, onlyB).p;
        const fi = fisherExact(sa, 20, sb, 20);
        const against = buildMatrix(r.records, { tasks: ['stack_blocks'], cells, baseline: cells[i]! }).rows[0]![j]!.vsBaseline!;
        assert.equal(against.mcnemarP, mc);
        assert.deepEqual([against.onlyBaseline, against.onlyThis], [onlyA, onlyB]);
        if (mc < 0.05) significant++;
        console.log(`${cells[i]} ${sa}/20 vs ${cells[j]} ${sb}/20: McNemar p=${mc.toFixed(4)} (${onlyA}<->${onlyB} discordant), Fisher p=${fi.toFixed(4)}${mc < 0.05 || fi < 0.05 ? ' (p < 0.05)' : ''}`);
      }
    assert.ok(significant >= 1, 'no pair of topologies differs on the exact McNemar test');
    const labels = Object.keys(m.labelTotals);
    assert.ok(labels.length >= 3, `failures grouped under ${labels.join(', ')}`);
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});
