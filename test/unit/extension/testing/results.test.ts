// Result mapping: a trace becomes a test outcome (status, label where the failure began, the check's detail, the
// turn, the role and its prompt), a Markdown message with the link, and a stored record that round-trips.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { failureMarkdown, outcomeFromTrace, outcomeSummary, promptBodyLine } from '../../../../src/extension/testing/results.js';
import { fromStored, parseResults, serializeResults, toStored } from '../../../../src/extension/testing/resultsStore.js';
import type { TraceEvent } from '../../../../src/protocol/trace.js';
import { buildMalmmTrace } from '../../../fixtures/traces/malmmTrace.js';

/** The fixture episode, ended differently: the agent claims done while the red block is not in the container. */
function failedTrace(): TraceEvent[] {
  return buildMalmmTrace().map((e): TraceEvent => {
    if (e.type === 'check' && e.name === 'task_success') return { ...e, ok: false, message: 'red block is 0.1200 m (xy) from the yellow container' };
    if (e.type === 'episode_end') return { ...e, success: false, agentClaimedDone: true };
    return e;
  });
}

test('a successful episode passes, with its duration and the success check', () => {
  const events = buildMalmmTrace();
  const o = outcomeFromTrace(events, { tracePath: '/ws/.waypoint/runs/r1/trace.jsonl' });
  const end = events.find((e) => e.type === 'episode_end')!;
  assert.equal(o.status, 'passed');
  assert.equal(o.durationMs, end.type === 'episode_end' ? end.metrics.durationMs : NaN);
  assert.equal(o.check?.name, 'task_success');
  assert.equal(o.runId, '2026-03-14T10-22-05-malmm-pick_place-s7');
  assert.equal(o.label, undefined);
  assert.match(outcomeSummary(o), /^✔ passed · \d+\.\d s$/);
  assert.equal(outcomeSummary(o, false), '✔ passed');
});

test('a failed episode: the first label by evidence, its turn, the role whose turn it was and that role’s prompt, the check’s detail', () => {
  const o = outcomeFromTrace(failedTrace(), { tracePath: '/ws/.waypoint/runs/r1/trace.jsonl' });
  assert.equal(o.status, 'failed');
  assert.equal(o.reason, 'task_completed');
  // The NameError at turn 14 (the Coder's block run by the Executor) is where it began; the premature claim came later.
  assert.equal(o.label, 'name_error');
  assert.equal(o.turn, 14);
  assert.equal(o.role, 'coder');
  assert.equal(o.promptPath, 'prompts/malmm/coder.prompt');
  assert.match(o.evidence!, /position_above_container/);
  assert.deepEqual(o.check, { name: 'task_success', message: 'red block is 0.1200 m (xy) from the yellow container' });
  assert.deepEqual(o.labels!.map((l) => l.label), ['name_error', 'failed_check', 'premature_completion']);
  assert.equal(outcomeSummary(o).split(' · ')[0], '✖ name_error at turn 14');
  const md = failureMarkdown(o, 'command:waypoint.openRunAtTurn?x');
  assert.match(md, /^\*\*name_error\*\* \(NameError/);
  assert.match(md, /`task_success`: red block is 0\.1200 m \(xy\) from the yellow container/);
  assert.match(md, /Also: failed_check \(turn 18\), premature_completion \(turn 26\)/);
  assert.match(md, /Failure began at turn 14 · coder; ended task_completed after \d+ turns\. \[Open the run at turn 14\]\(command:waypoint\.openRunAtTurn\?x\)$/);
});

test('a premature claim with nothing else wrong: the label is at the turn that wrote the claim (the Coder\'s turn 26, run at 28), on that role', () => {
  const events = failedTrace().filter((e) => !(e.type === 'code_execution' && !e.ok) && !(e.type === 'check' && e.name === 'collision'));
  const o = outcomeFromTrace(events);
  assert.equal(o.label, 'premature_completion');
  assert.equal(o.turn, 26);
  assert.equal(o.role, 'coder');
  assert.equal(o.promptPath, 'prompts/malmm/coder.prompt');
});

test('errored, skipped and unfinished episodes', () => {
  const base = buildMalmmTrace();
  const withEnd = (reason: string) => base.map((e): TraceEvent => (e.type === 'episode_end' ? { ...e, success: false, agentClaimedDone: false, reason, message: `${reason} happened` } : e));
  for (const reason of ['model_error', 'prompt_error', 'simulator_error', 'invalid_input', 'engine_error']) {
    const o = outcomeFromTrace(withEnd(reason));
    assert.equal(o.status, 'errored', reason);
    assert.ok(failureMarkdown(o).startsWith(`**${reason}**: ${reason} happened`), reason);
  }
  assert.equal(outcomeFromTrace(withEnd('turn_cap')).status, 'failed');
  assert.equal(outcomeFromTrace(withEnd('cancelled')).status, 'skipped');
  const noEnd = base.filter((e) => e.type !== 'episode_end');
  assert.deepEqual(outcomeFromTrace(noEnd, { reason: 'engine_error', message: 'the run process exited', wallMs: 12 }), { status: 'errored', reason: 'engine_error', runId: '2026-03-14T10-22-05-malmm-pick_place-s7', durationMs: 12, message: 'the run process exited' });
  assert.equal(outcomeFromTrace([], { reason: 'cancelled' }).status, 'skipped');
});

test('a failure’s prompt location is the first template line after the front matter', () => {
  assert.equal(promptBodyLine('---\nmodel: x\nwaypoint:\n  role: coder\n---\n\nYou are the Coder.\n'), 7);
  assert.equal(promptBodyLine('No front matter here.\n'), 1);
  assert.equal(promptBodyLine('---\nmodel: x\n---\nBody'), 4);
});

test('the results file: stored paths are workspace-relative and come back absolute; a bad file is empty with a warning', () => {
  const o = outcomeFromTrace(failedTrace(), { tracePath: '/ws/.waypoint/runs/r1/trace.jsonl' });
  const stored = toStored({ ...o, promptPath: '/ws/prompts/malmm/coder.prompt' }, '2026-11-28T00:00:00.000Z', '/ws');
  assert.equal(stored.tracePath, '.waypoint/runs/r1/trace.jsonl');
  assert.equal(stored.promptPath, 'prompts/malmm/coder.prompt');
  const text = serializeResults(new Map([['malmm/stack_blocks/s1@reference-flawed', stored]]));
  const back = parseResults(text);
  assert.equal(back.warning, undefined);
  const again = fromStored(back.results.get('malmm/stack_blocks/s1@reference-flawed')!, '/ws');
  assert.equal(again.tracePath, '/ws/.waypoint/runs/r1/trace.jsonl');
  assert.equal(again.promptPath, '/ws/prompts/malmm/coder.prompt');
  assert.equal(again.label, 'name_error');
  assert.equal(again.turn, 14);
  const outside = toStored({ ...o, tracePath: '/elsewhere/trace.jsonl' }, 'x', '/ws');
  assert.equal(outside.tracePath, '/elsewhere/trace.jsonl');
  assert.match(parseResults('{').warning!, /test-results\.json is not JSON/);
  assert.match(parseResults('{"version":2,"results":{}}').warning!, /version/);
  assert.equal(parseResults('{"version":2,"results":{}}').results.size, 0);
});
