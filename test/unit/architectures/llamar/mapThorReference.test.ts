// The reference model (scripted, NOT an LLM) on MAP-THOR's 44 tasks: each task is solved with two robots and seed
// 0 on at least one of its five floor plans (tried in order), judged by the simulator's checker; and across the
// list the household pushes back: NavigateTo walks stop short, doors and other robots get in the way, things are
// out of view, so actions fail and the Corrector proposes corrections that are followed. The whole list runs here
// in well under a minute (each episode is capped at 30 steps and takes about half a second); `npm run
// bench:llamar` runs every plan and topology.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { TASKS } from '../../../../src/core/sim/household/tasks.js';
import { policyClient, runLlamar } from './helpers.js';

const totals = { failedActions: 0, corrections: 0, correctionsFollowed: 0, episodes: 0 };
const solvedOn: Record<string, string> = {};

for (const t of TASKS) {
  test(`MAP-THOR ${t.paper} "${t.instruction}": the reference policy solves it on one of its plans`, { timeout: 30_000 }, async () => {
    const tried: string[] = [];
    for (const plan of t.plans) {
      const { result } = await runLlamar({ task: `${t.id}@${plan}`, seed: 0, agents: 2, model: policyClient('reference') });
      const m = result.end.archMetrics ?? {};
      totals.episodes += 1;
      totals.failedActions += m.failedActions ?? 0;
      totals.corrections += m.corrections ?? 0;
      totals.correctionsFollowed += m.correctionsFollowed ?? 0;
      if (result.success) {
        assert.equal(m.success, 1);
        assert.equal(m.transportRate, 1, 'every checker subtask done');
        solvedOn[t.id] = plan;
        return;
      }
      tried.push(`${plan}: ${result.reason} (${m.completedSubtasks}/${m.totalSubtasks} subtasks)`);
    }
    assert.fail(`not solved on any plan: ${tried.join('; ')}`);
  });
}

test('across the list the environment pushes back: failed actions, the Corrector\'s corrections, and corrections followed', () => {
  assert.equal(Object.keys(solvedOn).length, TASKS.length, `solved: ${Object.keys(solvedOn).length} of ${TASKS.length}`);
  assert.ok(totals.failedActions > 0, 'the competent policy meets failures');
  assert.ok(totals.corrections > 0 && totals.correctionsFollowed > 0, JSON.stringify(totals));
});

after(() => {
  if (process.env.WAYPOINT_VERBOSE) console.log(JSON.stringify({ totals, solvedOn }));
});
