// LLaMAR on the household simulator over MAP-THOR's 44 tasks, the paper's Table 3/4 shape: for each topology (and
// profile of the reference model), the success rate with its Clopper-Pearson 95 % interval and the means of the
// transport rate, coverage, balance and steps (normal-approximation 95 % intervals, clipped to each metric's
// range), plus the counters that show what the Corrector and the Verifier did; then, per task, the successes, the
// failed actions and the Corrector's corrections of each row. The model is the offline REFERENCE POLICY
// (scripted, not an LLM): these numbers exercise the tool and are no finding about language models.
//   node --import tsx test/bench/llamar.bench.ts [--seeds 1] [--all-plans] [--agents 2] [--topologies llamar,pav]
//     [--profiles reference,reference-flawed] [--tasks 1.1,3_put_all_groceries_fridge]
import { parseArgs } from 'node:util';
import { clopperPearson, meanInterval } from '../../src/core/metrics/clopperPearson.js';
import type { ReferenceProfile } from '../../src/core/llm/reference/policy.js';
import { TASKS } from '../../src/core/sim/household/tasks.js';
import { policyClient, runLlamar } from '../unit/architectures/llamar/helpers.js';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '1' },
    'all-plans': { type: 'boolean', default: false },
    agents: { type: 'string', default: '2' },
    topologies: { type: 'string', default: 'llamar,pav,pac,actor_only,react,central' },
    profiles: { type: 'string', default: 'reference,reference-flawed' },
    tasks: { type: 'string', default: '' },
  },
});
const seeds = Number(values.seeds);
const agents = Number(values.agents);
const only = values.tasks ? values.tasks.split(',') : [];
const tasks = TASKS.filter((t) => only.length === 0 || only.includes(t.id) || only.includes(t.paper));
const episodes = tasks.flatMap((t) => (values['all-plans'] ? t.plans : t.plans.slice(0, 1)).flatMap((p) => Array.from({ length: seeds }, (_, s) => ({ task: t, id: `${t.id}@${p}`, seed: s }))));

const pct = (x: number) => (100 * x).toFixed(0).padStart(3);
const f2 = (x: number | undefined) => (x === undefined ? '   -' : x.toFixed(2));
const ci = (m: ReturnType<typeof meanInterval>, d = f2) => (m ? `${d(m.mean)} [${d(m.low)}, ${d(m.high)}]` : '-');

console.log(`llamar.bench: ${episodes.length} episodes per row (${tasks.length} MAP-THOR tasks, ${values['all-plans'] ? 'all five plans' : 'first plan'}, ${seeds} seed(s)), ${agents} agents; model: reference policy (scripted, not an LLM)`);
console.log(['topology'.padEnd(11), 'profile'.padEnd(17), 'SR [CP 95%]'.padEnd(16), 'TR'.padEnd(19), 'coverage'.padEnd(19), 'balance'.padEnd(19), 'steps'.padEnd(22), 'fails repeat corr followed fmtErr'].join(' '));
/** Per row (topology/profile) and task: episodes, successes, failed actions, corrections. */
const perTask = new Map<string, Map<string, { n: number; ok: number; fails: number; corr: number }>>();
for (const topology of values.topologies.split(',')) {
  for (const profile of values.profiles.split(',') as ReferenceProfile[]) {
    const row = `${topology}/${profile}`;
    const byTask = new Map<string, { n: number; ok: number; fails: number; corr: number }>();
    perTask.set(row, byTask);
    const rows: Record<string, number>[] = [];
    const t0 = performance.now();
    for (const e of episodes) {
      const { result } = await runLlamar({ task: e.id, seed: e.seed, agents, variant: topology, model: policyClient(profile) });
      const m: Record<string, number> = { ...(result.end.archMetrics ?? {}), success: result.success ? 1 : 0 };
      rows.push(m);
      const cell = byTask.get(e.task.id) ?? { n: 0, ok: 0, fails: 0, corr: 0 };
      cell.n += 1;
      cell.ok += m.success!;
      cell.fails += m.failedActions ?? 0;
      cell.corr += m.corrections ?? 0;
      byTask.set(e.task.id, cell);
    }
    const col = (k: string) => rows.map((r) => r[k] ?? 0);
    const sum = (k: string) => col(k).reduce((a, b) => a + b, 0);
    const k = sum('success');
    const cp = clopperPearson(k, rows.length);
    console.log(
      [
        topology.padEnd(11),
        profile.padEnd(17),
        `${pct(k / rows.length)}% [${pct(cp.low)}, ${pct(cp.high)}]`.padEnd(16),
        ci(meanInterval(col('transportRate'), [0, 1])).padEnd(19),
        ci(meanInterval(col('coverage'), [0, 1])).padEnd(19),
        ci(meanInterval(col('balance'), [0, 1])).padEnd(19),
        ci(meanInterval(col('steps'), [0, Infinity]), (x) => (x ?? 0).toFixed(1)).padEnd(22),
        [sum('failedActions'), sum('repeatedFailures'), sum('corrections'), sum('correctionsFollowed'), sum('formatErrors')].map((x) => String(x).padStart(5)).join(' '),
        `(${((performance.now() - t0) / 1000).toFixed(0)} s)`,
      ].join(' '),
    );
  }
}

// Per task: "successes/episodes failedActions/corrections" for each row.
const rowNames = [...perTask.keys()];
console.log(`\nper task (each row: successes/episodes, failed actions/corrections)`);
console.log(['task'.padEnd(50), ...rowNames.map((r) => r.padStart(Math.max(14, r.length)))].join(' '));
for (const t of tasks) {
  const cells = rowNames.map((r) => {
    const c = perTask.get(r)!.get(t.id)!;
    return `${c.ok}/${c.n} ${c.fails}/${c.corr}`.padStart(Math.max(14, r.length));
  });
  console.log([`${t.paper.padEnd(5)} ${t.id}`.slice(0, 50).padEnd(50), ...cells].join(' '));
}
