// The papers' numbers beside a sweep's: the `paper:` block is checked against the sweep's tasks and columns (a typo
// is refused with its line and the near name), each cell the paper reports gets the paper's rate and n beside this
// run's Wilson interval with whether the rate lies inside it, pooled over all tasks where the paper reports only
// averages, and a reference model's run is named a fixture in the Markdown matrix and the HTML report. Also the
// --plan estimate: episodes per cell, and calls scaled by the limit the architecture says they grow with.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { architectures } from '../../../../src/architectures/registry.js';
import { estimateSweep } from '../../../../src/core/sweep/estimate.js';
import { buildMatrix, matrixMarkdown } from '../../../../src/core/sweep/matrix.js';
import type { PaperBlock } from '../../../../src/core/sweep/paper.js';
import type { EpisodeRecord } from '../../../../src/core/sweep/record.js';
import { renderSweepReport } from '../../../../src/core/sweep/reportHtml.js';
import { parseSweepSpec, planSweep, SweepSpecError, type PlannedSweep } from '../../../../src/core/sweep/spec.js';
import { nodeIO } from '../../../../src/core/node/nodeHost.js';
import { wilson95 } from '../../../../src/core/sweep/stats.js';

const BASE = `name: p
arch: malmm
tasks: [stack_blocks, put_block]
variants:
  - sa
  - {name: full, variant: malmm}
seeds: 4
`;

const refused = (text: string, re: RegExp) =>
  assert.throws(
    () => parseSweepSpec(BASE + text, 's.yaml'),
    (e: unknown) => e instanceof SweepSpecError && re.test(e.message),
  );

test('paper: a task or column the sweep does not have is refused with its line, the near name and the valid ones', () => {
  refused('paper:\n  citation: T\n  cells:\n    stack_block: {sa: 0.2}\n', /^s\.yaml:11: paper\.cells: 'stack_block' is not a task of this sweep \(did you mean 'stack_blocks'\?\); its tasks: stack_blocks, put_block, all_tasks$/);
  refused('paper:\n  citation: T\n  cells:\n    stack_blocks:\n      sa: 0.2\n      ful: 0.5\n', /^s\.yaml:13: paper\.cells\.stack_blocks: 'ful' is not a column of this sweep \(did you mean 'full'\?\); its columns: sa, full$/);
  // A variant id is not a column when the cell is named: the matrix shows `full`, not `malmm`.
  refused('paper:\n  citation: T\n  cells:\n    put_block: {malmm: 0.5}\n', /^s\.yaml:11: paper\.cells\.put_block: 'malmm' is not a column/);
  refused('paper:\n  citation: T\n  cells:\n    put_block: {sa: 56}\n', /^s\.yaml:11: paper\.cells\.put_block\.sa: a rate is a fraction from 0 to 1 \(56% is 0\.56\)$/);
  refused('paper:\n  citation: T\n  cells:\n    put_block: {sa: {rate: 0.5, sorce: T2}}\n', /^s\.yaml:11: unknown key 'sorce' in paper\.cells\.put_block\.sa \(did you mean 'source'\?\); valid keys: rate, n, ci, source, note$/);
  refused('paper:\n  citation: T\n  cells:\n    put_block:\n      sa: {rate: 0.5, ci: [0.6, 0.9]}\n', /^s\.yaml:12: paper\.cells\.put_block\.sa: the interval \[0\.6, 0\.9\] does not contain the rate 0\.5$/);
  refused('paper:\n  cells: {}\n', /^s\.yaml:9: paper\.citation: missing \(required\)$/);
  refused('paper:\n  citation: T\n  cell: {}\n', /^s\.yaml:10: unknown key 'cell' in paper \(did you mean 'cells'\?\)/);
  const ok = parseSweepSpec(BASE + 'paper:\n  citation: T\n  n: 25\n  cells:\n    all_tasks: {full: 0.5}\n    put_block: {sa: 0.92}\n', 's.yaml');
  assert.deepEqual(ok.paper!.cells, { all_tasks: { full: 0.5 }, put_block: { sa: 0.92 } });
});

function rec(task: string, cell: string, seed: number, success: boolean): EpisodeRecord {
  return { key: `${task}-${cell}-${seed}`, task, cell, variant: cell, ablations: {}, seed, repeat: 0, runId: `${task}-${cell}-${seed}`, tracePath: '', success, reason: success ? 'task_completed' : 'turn_cap', agentClaimedDone: success, turns: 10, modelCalls: 5, cachedCalls: 0, promptTokens: 100, completionTokens: 50, cost: 0, callsByRole: {}, latencyMs: 10, durationMs: 100, codeErrors: 0, archMetrics: {}, labels: success ? [] : [{ label: 'failed_check', evidence: '', source: 'auto' }] };
}

// stack_blocks: sa 2/10, full 9/10; put_block: sa 10/10, full 5/10.
const records: EpisodeRecord[] = [];
for (let s = 0; s < 10; s++) {
  records.push(rec('stack_blocks', 'sa', s, s < 2), rec('stack_blocks', 'full', s, s < 9));
  records.push(rec('put_block', 'sa', s, true), rec('put_block', 'full', s, s < 5));
}
const paper: PaperBlock = {
  citation: 'Singh et al., Table I',
  n: 25,
  cells: { stack_blocks: { sa: 0.2, full: { rate: 0.56, source: 'Table II', note: 'n inferred' } }, put_block: { sa: { rate: 0.92, n: 30 } }, all_tasks: { full: 0.7 } },
};

test('the matrix puts the paper beside this run: rate, n, our Wilson interval, inside or outside; pooled over all tasks', () => {
  const m = buildMatrix(records, { tasks: ['stack_blocks', 'put_block'], cells: ['sa', 'full'], baseline: 'sa', paper, fixture: true });
  const [[sbSa, sbFull], [pbSa, pbFull]] = m.rows as [[any, any], [any, any]];
  // 0.2 lies in Wilson(2/10) = [0.057, 0.510]; 0.56 lies outside Wilson(9/10) = [0.596, 0.982].
  assert.deepEqual(sbSa.paper, { rate: 0.2, n: 25, source: 'Singh et al., Table I', inside: true });
  assert.ok(wilson95(9, 10).low > 0.56);
  assert.deepEqual(sbFull.paper, { rate: 0.56, n: 25, source: 'Table II', note: 'n inferred', inside: false });
  assert.deepEqual(pbSa.paper, { rate: 0.92, n: 30, source: 'Singh et al., Table I', inside: true }, "a cell's own n overrides the block's");
  assert.equal(pbFull.paper, undefined, 'no number where the paper reports none');
  // The pooled row: full 14/20 over both tasks against the paper's 0.7, paired per task and seed against sa.
  const pooled = m.paper!.pooled!;
  assert.equal(pooled[1]!.task, 'all_tasks');
  assert.equal(`${pooled[1]!.successes}/${pooled[1]!.n}`, '14/20');
  assert.equal(pooled[1]!.paper!.inside, true);
  assert.equal(pooled[1]!.vsBaseline!.pairs, 20);
  assert.equal(`${pooled[1]!.vsBaseline!.onlyBaseline}↔${pooled[1]!.vsBaseline!.onlyThis}`, '5↔7');
  assert.equal(m.labelTotals.failed_check!.full, 6, 'the pooled row does not count a failure twice');
  // Before any episode of a cell finished, there is nothing to be inside of.
  const empty = buildMatrix([], { tasks: ['stack_blocks'], cells: ['sa'], baseline: 'sa', paper });
  assert.equal(empty.rows[0]![0]!.paper!.inside, null);
  // Without a paper block, nothing of it.
  assert.equal(buildMatrix(records, { tasks: ['stack_blocks'], cells: ['sa'], baseline: 'sa' }).paper, undefined);

  const md = matrixMarkdown(m, { model: { name: 'reference' } });
  assert.match(md, /\*\*Paper beside this run\*\* \(Singh et al\., Table I\)/);
  assert.match(md, /\| task \| column \| paper \| this run — fixture \(scripted reference model, not a reproduction\) \| paper's rate in our 95% interval \|/);
  assert.match(md, /\| stack_blocks \| sa \| 20% \(n=25\) \| 2\/10 20% \[6%, 51%\] \| inside \|/);
  assert.match(md, /\| stack_blocks \| full \| 56% \(n=25\) · Table II \| 9\/10 90% \[60%, 98%\] \| outside \|/);
  assert.match(md, /\| all tasks \(pooled\) \| full \| 70% \(n=25\) \| 14\/20 70% \[48%, 85%\] \| inside \|/);
  // A language model's run is "this run", not a fixture.
  const real = matrixMarkdown(buildMatrix(records, { tasks: ['stack_blocks', 'put_block'], cells: ['sa', 'full'], baseline: 'sa', paper, fixture: false }));
  assert.match(real, /\| task \| column \| paper \| this run \| paper's rate/);
  assert.doesNotMatch(real, /fixture/);
});

test('the HTML report shows the paper per cell and in its own table, and names a reference run a fixture', () => {
  const m = buildMatrix(records, { tasks: ['stack_blocks', 'put_block'], cells: ['sa', 'full'], baseline: 'sa', paper, fixture: true });
  const html = renderSweepReport({ title: 't', subtitle: 's', matrix: m, records, nonce: 'abcdefghijklmnopqrstuvwx', linkOf: () => '#' });
  assert.match(html, /<div class="paper">paper 56% \(n=25\) · Table II · outside<\/div>/);
  assert.match(html, /<div class="paper">paper 20% \(n=25\) · inside<\/div>/);
  assert.match(html, /<p class="fixture">This run's rates come from the scripted reference model: a fixture/);
  const table = /<table id="paper">(.*?)<\/table>/s.exec(html)![1]!;
  assert.match(table, /<th>this run — fixture \(scripted reference model, not a reproduction\)<\/th>/);
  assert.match(table, /<tr><th>all tasks \(pooled\)<\/th><th>full<\/th><td>70% \(n=25\)<\/td><td>14\/20 · 70% \[48%, 85%\]<\/td><td class="in-inside">inside<\/td><\/tr>/);
  assert.equal((table.match(/<tr>/g) ?? []).length, 1 + 4, 'a header and the four cells the paper reports');
  const without = renderSweepReport({ title: 't', subtitle: 's', matrix: buildMatrix(records, { tasks: ['stack_blocks'], cells: ['sa'], baseline: 'sa' }), records, nonce: 'abcdefghijklmnopqrstuvwx', linkOf: () => '#' });
  assert.doesNotMatch(without, /id="paper"|class="paper"/);
});

test('--plan estimate: episodes per cell, calls and tokens from the typical episode, scaled by the limit calls grow with', () => {
  const actctx = architectures.get('actctx');
  const typical = actctx.modelNeeds!.typicalEpisode!;
  assert.equal(typical.scalesWith, 'planRuns');
  const plan = (limits: Record<string, number>) =>
    ({
      name: 'x',
      spec: { arch: 'actctx', tasks: ['ac_sequential'], limits, repeats: 1 },
      cells: [{ name: 'actctx', variant: 'actctx', ablations: {} }],
      seeds: [0, 1, 2],
      episodes: [0, 1, 2].map((seed) => ({ key: `k${seed}`, task: 'ac_sequential', cell: 'actctx', variant: 'actctx', ablations: {}, seed, repeat: 0 })),
    }) as unknown as PlannedSweep;
  const one = estimateSweep(plan({}), actctx);
  assert.deepEqual(one.cells, [{ task: 'ac_sequential', cell: 'actctx', episodes: 3 }]);
  assert.equal(one.calls, 3 * typical.calls);
  assert.equal(one.tokens, 3 * typical.tokens);
  const fourteen = estimateSweep(plan({ planRuns: 14 }), actctx);
  assert.equal(fourteen.calls, 3 * typical.calls * 14);
  assert.match(fourteen.basis, /times 14 for planRuns=14 \(measured at 1\)/);
  assert.equal(fourteen.caps.planRuns, 14);
  // IV-B's fixed protocol runs every retune and replan: its own typical episode, still scaled by planRuns.
  const fixed = typical.whenOn!.fixedTrials!;
  assert.ok(fixed.calls > typical.calls, 'the fixed protocol makes more calls than a typical episode that stops at success');
  const ivb = estimateSweep(plan({ fixedTrials: true } as never), actctx);
  assert.deepEqual([ivb.calls, ivb.tokens], [3 * fixed.calls, 3 * fixed.tokens]);
  assert.match(ivb.basis, /with fixedTrials on/);
  assert.equal(estimateSweep(plan({ fixedTrials: false } as never), actctx).calls, 3 * typical.calls);
  assert.equal(estimateSweep(plan({ fixedTrials: true, planRuns: 2 } as never), actctx).calls, 3 * fixed.calls * 2);
  // Every built-in architecture declares its typical episode, so every paper sweep gets an estimate.
  for (const id of architectures.ids()) assert.ok(architectures.get(id).modelNeeds?.typicalEpisode, id);
});

test('every examples/papers file parses, and each paper cell names one of its tasks and columns', () => {
  const dir = 'examples/papers';
  const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
  assert.ok(files.length >= 9, files.join(', '));
  for (const f of files) {
    const spec = parseSweepSpec(readFileSync(join(dir, f), 'utf8'), f);
    assert.ok(spec.paper?.citation, `${f} has a paper block with its citation`);
    for (const byCol of Object.values(spec.paper!.cells)) for (const c of Object.values(byCol)) assert.ok((typeof c === 'number' ? c : c.rate) <= 1, f);
  }
});

// IV-B scores trials, not episodes: `rateOf` sums two of the architecture's metrics over a cell's episodes, and the
// paper's rate is compared with that count's interval.
test('paper.rateOf: this run counted in the paper\'s unit (trials summed from each episode\'s metrics), named in every view', () => {
  const ivb: PaperBlock = { citation: 'IV-B', n: 8, rateOf: { successes: 'executionsPassed', of: 'executions' }, cells: { t: { actctx: 0.5 } } };
  const ep = (seed: number, success: boolean, passed: number) => ({ ...rec('t', 'actctx', seed, success), archMetrics: { executions: 8, executionsPassed: passed } });
  // Two episodes: 3 and 7 of 8 trials passed; as episodes, 1 of 2 succeeded.
  const rs = [ep(0, false, 3), ep(1, true, 7)];
  const m = buildMatrix(rs, { tasks: ['t'], cells: ['actctx'], baseline: 'actctx', paper: ivb, fixture: true });
  const c = m.rows[0]![0]!;
  assert.equal(`${c.successes}/${c.n}`, '1/2', 'the matrix cell itself still counts episodes');
  assert.deepEqual(c.paper!.ours, { unit: 'executions', successes: 10, n: 16, rate: 10 / 16, ci95: wilson95(10, 16) });
  // 0.5 lies inside Wilson(10/16) = [0.39, 0.82]; judged on the trials, not on the episodes' [0.09, 0.91].
  assert.equal(c.paper!.inside, true);
  const narrow = buildMatrix([ep(0, true, 8), ep(1, true, 8)], { tasks: ['t'], cells: ['actctx'], baseline: 'actctx', paper: ivb });
  assert.equal(narrow.rows[0]![0]!.paper!.inside, false, '16 of 16 trials: 0.5 is outside [0.81, 1]');
  assert.match(matrixMarkdown(m), /\| t \| actctx \| 50% \(n=8\) \| 10\/16 executions 63% \[39%, 82%\] \| inside \|/);
  const html = renderSweepReport({ title: 't', subtitle: 's', matrix: m, records: rs, nonce: 'abcdefghijklmnopqrstuvwx', linkOf: () => '#' });
  assert.match(/<table id="paper">(.*?)<\/table>/s.exec(html)![1]!, /<td>10\/16 executions · 63% \[39%, 82%\]<\/td>/);
  // Without rateOf the same records compare per episode.
  const { rateOf: _, ...perEpisode } = ivb;
  assert.equal(buildMatrix(rs, { tasks: ['t'], cells: ['actctx'], baseline: 'actctx', paper: perEpisode }).rows[0]![0]!.paper!.ours, undefined);
});

test('paper.rateOf names metrics of the architecture: a typo is refused before anything runs, with its line', async () => {
  const text = readFileSync('examples/papers/actctx-iv-b.yaml', 'utf8').replace('successes: executionsPassed', 'successes: executionPassed');
  const spec = parseSweepSpec(text, 'ivb.yaml');
  await assert.rejects(
    planSweep(spec, { io: nodeIO, architectures, workspace: process.cwd(), builtInPromptRoot: join(process.cwd(), 'src', 'architectures'), file: 'ivb.yaml' }),
    (e: unknown) => e instanceof SweepSpecError && /^ivb\.yaml:\d+: paper\.rateOf\.successes: 'executionPassed' is not a metric of actctx \(did you mean 'executionsPassed'\?\); its metrics: .*executions/.test(e.message),
  );
});

// The IV-B file is the paper's protocol: a change of the trial count, the retune limit or the scoring fails here.
test('actctx-iv-b.yaml runs IV-B as the paper: fixed trials, 3 retunes per plan, 1 replan, scored per trial, Table IV beside', async () => {
  const spec = parseSweepSpec(readFileSync('examples/papers/actctx-iv-b.yaml', 'utf8'), 'actctx-iv-b.yaml');
  assert.deepEqual(spec.limits, { fixedTrials: true, retunesPerAction: 3, maxReplans: 1 });
  // (1 + 3 retunes) x (1 + 1 replan) = the paper's 8 trials per object, each scored.
  assert.equal((1 + (spec.limits!.retunesPerAction as number)) * (1 + (spec.limits!.maxReplans as number)), spec.paper!.n);
  assert.deepEqual(spec.paper!.rateOf, { successes: 'executionsPassed', of: 'executions' });
  // Table IV's SR per object, and its overall 81.25 % = 39 of 48 trials.
  const sr = Object.fromEntries(Object.entries(spec.paper!.cells).map(([t, c]) => [t, c.actctx]));
  assert.deepEqual(sr, { ac_single_whole_apple: 0.875, ac_single_half_eaten_apple: 0.625, ac_single_empty_glass: 0.875, ac_single_full_glass: 1, ac_single_paper_ball_1: 1, ac_single_paper_ball_2: 0.5 });
  assert.equal(Object.values(sr).reduce((s, r) => s + (r as number) * 8, 0), 39);
  const plan = await planSweep(spec, { io: nodeIO, architectures, workspace: process.cwd(), builtInPromptRoot: join(process.cwd(), 'src', 'architectures'), file: 'actctx-iv-b.yaml' });
  assert.equal(plan.episodes.length, 6);
});

test('actctx-iv-d.yaml runs IV-D as the paper: 14 independent runs from one start, the best Q kept, 3 retunes before a replan', () => {
  const spec = parseSweepSpec(readFileSync('examples/papers/actctx-iv-d.yaml', 'utf8'), 'actctx-iv-d.yaml');
  assert.deepEqual([spec.tasks, spec.limits], [['ac_sequential'], { planRuns: 14, retunesPerAction: 3 }]);
  // The paper prints no success rate for IV-D (Fig. 8 plots the scores), so no cell carries a number.
  assert.deepEqual(spec.paper!.cells, {});
  assert.equal(spec.paper!.rateOf, undefined);
});
