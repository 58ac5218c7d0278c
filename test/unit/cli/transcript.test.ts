// The transcript's closing line reports the simulated time of every timeline, not only the one the final state is
// on: each Action Contextualization execution restores the start snapshot, so the clock at the end shows only the
// last execution.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatEvent } from '../../../src/cli/transcript.js';
import { projectActctxPlan } from '../../../src/core/trace/projections/actctxPlan.js';
import { evalPlan, of, plan, retuneExchange, run, spec } from '../core/agents/actctx/scripted.js';

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
