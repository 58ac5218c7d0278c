// Run listing reads each finished run's summary.json and parses the trace only for a run without one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { listRuns, summarize, SUMMARY_FILE, tracePath } from '../../../../src/core/runs/runStore.js';
import { readTrace } from '../../../../src/core/trace/reader.js';
import { JsonlTraceWriter } from '../../../../src/core/trace/writer.js';
import { TRACE_SCHEMA_VERSION, type PendingEvent, type TraceEvent } from '../../../../src/protocol/trace.js';
import { buildMalmmTrace } from '../../../fixtures/traces/malmmTrace.js';
import { MemoryHost } from '../llm/helpers/memoryHost.js';

const clock = { t: 0, nowMs() { return (this.t += 1); }, isoNow: () => '2026-11-21T00:00:00.000Z' };

/** Writes the fixture run through the real writer as run `id` (v2), optionally without its episode_end. */
async function record(io: MemoryHost, id: string, opts: { seed: number; unfinished?: boolean }) {
  const events = buildMalmmTrace({ runId: id }).filter((e) => !(opts.unfinished && e.type === 'episode_end'));
  const w = new JsonlTraceWriter(io, tracePath('/ws', id), clock);
  for (const e of events) {
    const { seq: _s, tMs: _t, ...rest } = e;
    const p = (rest.type === 'episode_start' ? { ...rest, schemaVersion: TRACE_SCHEMA_VERSION, seed: opts.seed } : rest) as PendingEvent;
    await w.write(p);
  }
}

/** Counts whole-trace reads, to tell a listing from summaries from one that parses traces. */
class CountingHost extends MemoryHost {
  traceReads = 0;
  override async readText(path: string): Promise<string> {
    if (path.endsWith('trace.jsonl')) this.traceReads++;
    return super.readText(path);
  }
}

test('finished runs list from their summary files, with the same fields as from the trace', async () => {
  const io = new CountingHost();
  await record(io, '20261121-100000-malmm-pick_place-s1-aaaa', { seed: 1 });
  await record(io, '20261121-110000-malmm-pick_place-s2-bbbb', { seed: 2 });
  assert.ok(io.files.has(`/ws/.waypoint/runs/20261121-100000-malmm-pick_place-s1-aaaa/${SUMMARY_FILE}`));
  io.traceReads = 0;
  const runs = await listRuns(io, '/ws');
  assert.equal(io.traceReads, 0, 'no trace parsed');
  assert.deepEqual(runs.map((r) => [r.runId, r.seed, r.success, r.reason, r.turns]), [
    ['20261121-110000-malmm-pick_place-s2-bbbb', 2, true, 'task_completed', 28],
    ['20261121-100000-malmm-pick_place-s1-aaaa', 1, true, 'task_completed', 28],
  ]);
  for (const r of runs) {
    const { events, warnings } = readTrace(io.files.get(r.path)!);
    assert.deepEqual(r, summarize(r.runId, r.path, events as TraceEvent[], warnings.length));
  }
});

test('a run without a summary (interrupted, or recorded before summaries) or with a broken one is listed from its trace', async () => {
  const io = new CountingHost();
  await record(io, '20261121-100000-a', { seed: 1, unfinished: true });
  await record(io, '20261121-110000-b', { seed: 2 });
  await record(io, '20261121-120000-c', { seed: 3 });
  assert.ok(!io.files.has(`/ws/.waypoint/runs/20261121-100000-a/${SUMMARY_FILE}`), 'no summary without an episode_end');
  io.files.set(`/ws/.waypoint/runs/20261121-110000-b/${SUMMARY_FILE}`, '{"summaryVersion":1,"runId":');
  io.files.delete(`/ws/.waypoint/runs/20261121-120000-c/${SUMMARY_FILE}`);
  io.traceReads = 0;
  const runs = await listRuns(io, '/ws');
  assert.equal(io.traceReads, 3);
  assert.deepEqual(runs.map((r) => [r.runId, r.success, r.turns]), [['20261121-120000-c', true, 28], ['20261121-110000-b', true, 28], ['20261121-100000-a', undefined, undefined]]);
});

test('a summary whose trace is gone is not listed', async () => {
  const io = new MemoryHost();
  await record(io, '20261121-100000-a', { seed: 1 });
  io.files.delete(tracePath('/ws', '20261121-100000-a'));
  assert.deepEqual(await listRuns(io, '/ws'), []);
});
