// The transcript's closing line reports the simulated time of every timeline, not only the one the final state is
// on: each Action Contextualization execution restores the start snapshot, so the clock at the end shows only the
// last execution. And it says what ended the episode, per architecture and end reason.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatEvent } from '../../../src/cli/transcript.js';
import { architectureManifests } from '../../../src/architectures/manifests.js';
import { ENGINE_END_REASONS, isInfrastructureEnd } from '../../../src/protocol/trace.js';
import { projectActctxPlan } from '../../../src/architectures/actctx/view/actctxPlan.js';
import { evalPlan, of, plan, retuneExchange, run, spec } from '../architectures/actctx/scripted.js';

const line = (e: Parameters<typeof formatEvent>[0]) => formatEvent(e, { color: false, verbose: false }) ?? '';

test('two executions from the start snapshot: "simulated" is both of them, and the last one is named apart', async () => {
  const { events } = await retuneExchange();
  const attempts = projectActctxPlan(events).attempts;
  assert.equal(attempts.length, 2);
  const total = attempts.reduce((s, a) => s + a.simSecs, 0);
  const last = attempts[1]!.simSecs;
  const end = of(events, 'episode_end')[0]!;
  // Each execution's simSecs is rounded to the millisecond.
  assert.ok(Math.abs(end.metrics.simTotalSecs! - total) < 0.002, `${end.metrics.simTotalSecs} vs ${total}`);
  assert.ok(Math.abs(end.metrics.simTimeSecs - last) < 0.001);
  assert.ok(total > last + 1);
  assert.match(line(end), new RegExp(` · ${total.toFixed(1)} s simulated, ${last.toFixed(1)} s of it leading to the final state · `));
});

test('one execution: the total is the clock at the end and is given once; a trace from before the total keeps its clock', async () => {
  const { events } = await run(spec(), { 'actctx/task_plan': [plan(0.5)], 'actctx/evaluation_plan': [evalPlan] });
  const end = of(events, 'episode_end')[0]!;
  assert.equal(end.metrics.simTotalSecs, end.metrics.simTimeSecs);
  assert.match(line(end), new RegExp(` · ${end.metrics.simTimeSecs.toFixed(1)} s simulated · `));
  const { simTotalSecs: _, ...older } = end.metrics;
  assert.match(line({ ...end, metrics: older }), new RegExp(` · ${end.metrics.simTimeSecs.toFixed(1)} s simulated · `));
});

test('the closing line says what ended the episode, in the words each architecture declares for its end reasons', () => {
  const metrics = { turns: 3, modelCalls: 3, cachedCalls: 0, promptTokens: 1, completionTokens: 1, codeBlocks: 0, codeErrors: 0, formatErrors: 0, durationMs: 1, simTimeSecs: 1 };
  const end = (reason: string, agentClaimedDone: boolean) => ({ seq: 9, tMs: 1, type: 'episode_end' as const, success: true, reason, agentClaimedDone, metrics });
  const tail = (reason: string, arch: string | undefined, claimed = true) => (formatEvent(end(reason, claimed), { color: false, verbose: false, arch }) ?? '').split('\n')[0]!.split(' · ').at(-1)!;
  const GENERIC = /^agent (claimed|did not claim) completion$/;
  let declared = 0;
  for (const m of architectureManifests.list()) {
    const arch = m.id;
    for (const [reason, description] of Object.entries(m.endReasons)) {
      declared++;
      const said = tail(reason, arch);
      assert.doesNotMatch(said, GENERIC, `${arch}/${reason}`);
      assert.equal(said.toLowerCase(), description.trim().replace(/\.$/, '').toLowerCase(), `${arch}/${reason}`);
    }
  }
  assert.ok(declared >= 12, `${declared} declared end reasons`);
  // Ended by a check, not by any agent's claim (the loops record agentClaimedDone: true for both).
  assert.equal(tail('reward_positive', 'roco'), "the task's reward became positive after an executed plan (the simulator's success check mid-episode)");
  assert.equal(tail('plan_validated', 'actctx'), 'the chosen plan ran with every check as expected');
  // The same id means what its own architecture declares.
  assert.notEqual(tail('format_failure', 'roco'), tail('format_failure', 'actctx'));
  for (const reason of ENGINE_END_REASONS) {
    const said = tail(reason, 'malmm');
    assert.doesNotMatch(said, GENERIC, reason);
    assert.equal(said.endsWith(': an infrastructure failure, not a task failure'), isInfrastructureEnd(reason), reason);
  }
  assert.equal(tail('task_completed', 'malmm'), 'the agent called task_completed()');
  // A reason nobody describes (a newer trace, a workspace's own architecture) falls back to the recorded claim.
  assert.equal(tail('zeno_paradox', 'malmm', false), 'agent did not claim completion');
});
