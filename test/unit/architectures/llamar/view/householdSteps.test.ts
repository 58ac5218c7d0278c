// The household projections on a LLaMAR run made here (reference-flawed, so there are failures and corrections):
// per-step rows agree with the trace's actions and results, the subtask lists follow the Planner and Verifier,
// the floor plan and objects come from the whole-scene observations, and the metrics carry their intervals.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { clopperPearson, meanInterval } from '../../../../../src/core/metrics/clopperPearson.js';
import { aggregateHouseholdRuns, householdMetricsOf } from '../../../../../src/architectures/llamar/view/householdMetrics.js';
import { HOUSEHOLD_PROJECTION, projectHouseholdSteps } from '../../../../../src/architectures/llamar/view/householdSteps.js';
import { projectRun } from '../../../../../src/core/trace/projections/runProjection.js';
import type { EventOf, TraceEvent } from '../../../../../src/protocol/trace.js';
import { policyClient, runLlamar, type LlamarRun } from '../helpers.js';

let run: LlamarRun;
before(async () => {
  run = await runLlamar({ task: 'put_bread_lettuce_tomato_fridge', agents: 2, seed: 0, model: policyClient('reference-flawed') });
});
const of = <T extends TraceEvent['type']>(events: TraceEvent[], type: T) => events.filter((e): e is EventOf<T> => e.type === type);

test('one row per step with each robot\'s matched action, result, feedback line, reason and correction', () => {
  const v = projectHouseholdSteps(run.events);
  assert.deepEqual(v.agents, ['Alice', 'Bob']);
  assert.equal(v.steps.length, run.result.end.metrics.steps);
  assert.equal(v.maxSteps, 30);
  const results = of(run.events, 'action_result');
  for (const r of results) {
    const st = v.steps.find((s) => s.step === r.step)!;
    for (const x of r.results) {
      const a = st.agents.find((y) => y.name === x.agent)!;
      assert.equal(a.ok, x.ok);
      assert.equal(a.feedback, x.ok ? x.output : x.error);
      assert.equal(a.detail, x.value);
      assert.ok(a.action && a.cell && a.path.length >= 1);
    }
  }
  const failed = v.steps.flatMap((s) => s.agents.filter((a) => a.ok === false).map((a) => ({ s, a })));
  assert.ok(failed.length >= 1, 'the flawed run has a failure');
  assert.ok(failed.some(({ s }) => s.agents.some((a) => a.correction)), 'and the Corrector proposed something');
  const first = v.steps[0]!;
  assert.equal(first.turn, 1);
  assert.ok(first.added.length > 0 && first.open.length > 0);
  // The Verifier's closures add up to the final completed list; the checker ends at the episode's numbers.
  const last = v.steps.at(-1)!;
  assert.deepEqual([...new Set(v.steps.flatMap((s) => s.closed))].sort(), [...last.completed].sort());
  assert.equal(last.checker!.done, run.result.end.archMetrics!.completedSubtasks);
  assert.equal(last.checker!.success, run.result.success);
});

test('floor plan, the scene at reset and the objects as the team knows them', () => {
  const v = projectHouseholdSteps(run.events);
  assert.equal(v.plan?.id, 'kitchen');
  assert.ok(v.plan!.rows.length > 5 && v.plan!.rooms.length === 1);
  assert.ok(v.initial && v.initial.objects.length > 20);
  const unseenAtStart = v.initial!.objects.filter((o) => o.label === null).length;
  const unseenAtEnd = v.steps.at(-1)!.objects.filter((o) => o.label === null).length;
  assert.ok(unseenAtEnd <= unseenAtStart);
  const fridge = v.steps.at(-1)!.objects.find((o) => o.type === 'Fridge')!;
  assert.equal(fridge.label, 'Fridge_1');
  assert.ok(fridge.seenBy.length >= 1 && fridge.fixed);
  assert.ok(fridge.states.includes('closed'));
  // The run projection has it too (the viewer reads it there).
  assert.equal(projectRun(run.events, { projections: [HOUSEHOLD_PROJECTION] }).of(HOUSEHOLD_PROJECTION).active, true);
});

test('episode metrics with the checker counts and Clopper-Pearson intervals; aggregates over episodes', () => {
  const v = projectHouseholdSteps(run.events);
  const m = householdMetricsOf(v.end, v.checker, v.maxSteps)!;
  assert.equal(m.success, run.result.success);
  assert.equal(m.transport!.n, run.result.end.archMetrics!.totalSubtasks);
  assert.deepEqual([m.transport!.low, m.transport!.high], Object.values(clopperPearson(m.transport!.k, m.transport!.n)));
  assert.deepEqual(Object.keys(m.balance!.perAgent), ['Alice', 'Bob']);
  assert.equal(m.steps!.cap, 30);
  const agg = aggregateHouseholdRuns([v.end!, { ...v.end!, success: false }]);
  assert.equal(agg.episodes, 2);
  assert.deepEqual([agg.success.k, agg.success.n], [run.result.success ? 1 : 0, 2]);
  assert.equal(agg.steps!.n, 2);
  // A rate's interval stays inside [0, 1] (the normal approximation alone would pass 1 here).
  const tr = meanInterval([1, 1, 1, 0.8], [0, 1])!;
  assert.equal(tr.high, 1);
  assert.ok(meanInterval([1, 1, 1, 0.8])!.high > 1);
  assert.ok(tr.low > 0.8 && tr.low < tr.mean);
});

test('Clopper-Pearson matches the exact binomial interval (values from scipy.stats.beta)', () => {
  const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} vs ${b}`);
  const cases: [number, number, number, number][] = [
    [5, 10, 0.18708602844739855, 0.8129139715526015],
    [0, 10, 0, 0.3084971078187607],
    [10, 10, 0.6915028921812392, 1],
    [30, 45, 0.5104963621416386, 0.799994311989305],
    [3, 20, 0.0320709371854637, 0.37892682654531396],
  ];
  for (const [k, n, lo, hi] of cases) {
    const r = clopperPearson(k, n);
    close(r.low, lo);
    close(r.high, hi);
  }
  assert.deepEqual(clopperPearson(0, 0), { low: 0, high: 1 });
  assert.throws(() => clopperPearson(3, 2), /0 <= k <= n/);
});
