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
async function record(io: MemoryHost, id: string, opts: { seed: number; unfinished?: boolean; startedAt?: string }) {
  const events = buildMalmmTrace({ runId: id }).filter((e) => !(opts.unfinished && e.type === 'episode_end'));
  const w = new JsonlTraceWriter(io, tracePath('/ws', id), clock);
  for (const e of events) {
    const { seq: _s, tMs: _t, ...rest } = e;
    const p = (rest.type === 'episode_start' ? { ...rest, schemaVersion: TRACE_SCHEMA_VERSION, seed: opts.seed, ...(opts.startedAt ? { startedAt: opts.startedAt } : {}) } : rest) as PendingEvent;
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

/** A host that knows when each file was last written (as Node's does), for runs whose start cannot be read. */
class TimedHost extends MemoryHost {
  readonly mtimes = new Map<string, number>();
  async modifiedMs(path: string): Promise<number | undefined> {
    return this.mtimes.get(path);
  }
}

test('newest first is by episode start, not by run id: a sweep run named by its key sorts by when it started', async () => {
  const io = new TimedHost();
  // A sweep names run folders by episode key; letters sort after the digits of a timestamped id.
  await record(io, 'roco-sort_cubes-roco-s0-3f2a', { seed: 0, startedAt: '2026-11-21T10:00:00.000Z' });
  await record(io, '20261121-110000-malmm-pick_place-s1-aaaa', { seed: 1, startedAt: '2026-11-21T11:00:00.000Z' });
  await record(io, 'malmm-stack_blocks-malmm-s2-9c1e', { seed: 2, startedAt: '2026-11-21T12:00:00.000Z' });
  assert.deepEqual((await listRuns(io, '/ws')).map((r) => r.runId), ['malmm-stack_blocks-malmm-s2-9c1e', '20261121-110000-malmm-pick_place-s1-aaaa', 'roco-sort_cubes-roco-s0-3f2a']);
});

test('a run whose start cannot be read sorts by its id stamp, else by when its trace was last written', async () => {
  const io = new TimedHost();
  await record(io, '20261121-110000-malmm-pick_place-s1-aaaa', { seed: 1, startedAt: '2026-11-21T11:00:00.000Z' });
  await record(io, '20261121-120000-malmm-pick_place-s2-bbbb', { seed: 2, startedAt: '2026-11-21T12:00:00.000Z' });
  // Two traces cut inside their first line (killed while writing episode_start): no summary, no start time.
  io.files.set(tracePath('/ws', 'roco-sort_cubes-roco-s0-cut1'), '{"seq":0,"tMs":0,"type":"episode_st');
  io.files.set(tracePath('/ws', 'roco-sort_cubes-roco-s1-cut2'), '{"seq":0,"tMs":0,"type":"episode_st');
  io.files.set(tracePath('/ws', '20261121-113000-malmm-pick_place-s3-cccc'), '{"seq":0,"tMs":0,"type":"episode_st');
  io.mtimes.set(tracePath('/ws', 'roco-sort_cubes-roco-s0-cut1'), Date.parse('2026-11-21T11:45:00.000Z'));
  io.mtimes.set(tracePath('/ws', 'roco-sort_cubes-roco-s1-cut2'), Date.parse('2026-11-21T12:30:00.000Z'));
  const runs = await listRuns(io, '/ws');
  assert.deepEqual(runs.map((r) => r.runId), [
    'roco-sort_cubes-roco-s1-cut2',
    '20261121-120000-malmm-pick_place-s2-bbbb',
    'roco-sort_cubes-roco-s0-cut1',
    '20261121-113000-malmm-pick_place-s3-cccc',
    '20261121-110000-malmm-pick_place-s1-aaaa',
  ]);
  assert.equal(runs[0].modifiedAt, '2026-11-21T12:30:00.000Z', 'the fallback time is in the listing (runs --json)');
  assert.equal(runs[1].modifiedAt, undefined, 'read only when the start is unknown');
  // A host without file times: such runs go last, and the rest keep their order.
  const bare = new MemoryHost();
  for (const [k, v] of io.files) bare.files.set(k, v);
  assert.deepEqual((await listRuns(bare, '/ws')).map((r) => r.runId).slice(2), ['20261121-110000-malmm-pick_place-s1-aaaa', 'roco-sort_cubes-roco-s1-cut2', 'roco-sort_cubes-roco-s0-cut1']);
});
