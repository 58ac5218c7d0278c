import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { summarize } from '../../../src/core/runs/runStore.js';
import { readTrace } from '../../../src/core/trace/reader.js';
import { listRunSummaries, readRunSummary } from '../../../src/extension/views/runIndex.js';

const fixture = readFileSync(join(process.cwd(), 'test/fixtures/traces/malmm-pick-place.jsonl'), 'utf8');
const truncated = readFileSync(join(process.cwd(), 'test/fixtures/traces/malmm-pick-place.truncated.jsonl'), 'utf8');
const ws = mkdtempSync(join(tmpdir(), 'waypoint-runindex-'));
after(() => rmSync(ws, { recursive: true, force: true }));

function put(id: string, text: string): string {
  const dir = join(ws, '.waypoint/runs', id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'trace.jsonl'), text);
  return join(dir, 'trace.jsonl');
}

test('head/tail summary equals the whole-file summary of core', async () => {
  const path = put('20260101-000000-a', fixture);
  const full = readTrace(fixture);
  const expected = summarize('20260101-000000-a', path, full.events, full.warnings.length);
  assert.deepEqual(await readRunSummary(path, '20260101-000000-a'), expected);
});

test('a trace cut mid-line has no result and counts one warning', async () => {
  const path = put('20260102-000000-b', truncated);
  const s = await readRunSummary(path, '20260102-000000-b');
  assert.equal(s?.success, undefined);
  assert.equal(s?.warnings, 1);
  assert.equal(s?.arch, 'malmm');
});

test('a run in progress (no episode_end yet) lists with its start only; a missing or empty trace is skipped', async () => {
  const firstTwo = fixture.split('\n').slice(0, 2).join('\n') + '\n';
  put('20260103-000000-c', firstTwo);
  put('20260104-000000-d', '');
  mkdirSync(join(ws, '.waypoint/runs/20260105-000000-e'), { recursive: true });
  const runs = await listRunSummaries(ws);
  assert.deepEqual(runs.map((r) => r.runId), ['20260103-000000-c', '20260102-000000-b', '20260101-000000-a']);
  assert.equal(runs[0].success, undefined);
  assert.equal(runs[0].warnings, 0);
  assert.deepEqual(await listRunSummaries(join(ws, 'nowhere')), []);
});

test('a run with a summary.json lists from it without opening the trace; a broken one falls back to the trace', async () => {
  const path = put('20260106-000000-f', fixture);
  const full = readTrace(fixture);
  const fromTrace = summarize('20260106-000000-f', path, full.events, 0);
  // A summary that disagrees with the trace on purpose, to see which one was read.
  const summary = { summaryVersion: 1, runId: '20260106-000000-f', arch: 'malmm', agentVariant: 'sa', variant: 'v2', task: 'pick_place', seed: 9, model: 'm', startedAt: '2026-01-06T00:00:00.000Z', success: false, reason: 'turn_cap', turns: 60, events: 99, schemaVersion: 2 };
  writeFileSync(join(ws, '.waypoint/runs/20260106-000000-f/summary.json'), JSON.stringify(summary));
  const s = await readRunSummary(path, '20260106-000000-f');
  assert.deepEqual([s?.agentVariant, s?.variant, s?.seed, s?.success, s?.reason, s?.turns, s?.warnings], ['sa', 'v2', 9, false, 'turn_cap', 60, 0]);
  writeFileSync(join(ws, '.waypoint/runs/20260106-000000-f/summary.json'), '{"summaryVersion":1');
  assert.deepEqual(await readRunSummary(path, '20260106-000000-f'), fromTrace);
});

test('the Runs view lists newest first by start time; a trace with no readable start by when it was last written', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'waypoint-runindex-order-'));
  try {
    const at = (id: string, text: string) => {
      mkdirSync(join(dir, '.waypoint/runs', id), { recursive: true });
      writeFileSync(join(dir, '.waypoint/runs', id, 'trace.jsonl'), text);
      return join(dir, '.waypoint/runs', id, 'trace.jsonl');
    };
    const started = (iso: string) => fixture.replace(/"startedAt":"[^"]*"/, `"startedAt":"${iso}"`);
    at('roco-sort_cubes-roco-s0-3f2a', started('2026-11-21T10:00:00.000Z'));
    at('20261121-110000-malmm-pick_place-s0-aaaa', started('2026-11-21T11:00:00.000Z'));
    // Killed while writing its first line: no start time; last written at 11:30.
    const cut = at('malmm-pick_place-malmm-s1-cut0', '{"seq":0,"tMs":0,"type":"episode_st');
    utimesSync(cut, new Date('2026-11-21T11:30:00.000Z'), new Date('2026-11-21T11:30:00.000Z'));
    const runs = await listRunSummaries(dir);
    assert.deepEqual(runs.map((r) => r.runId), ['malmm-pick_place-malmm-s1-cut0', '20261121-110000-malmm-pick_place-s0-aaaa', 'roco-sort_cubes-roco-s0-3f2a']);
    assert.equal(runs[0].modifiedAt, '2026-11-21T11:30:00.000Z');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
