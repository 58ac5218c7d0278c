// The episode table behind `waypoint export --csv / --parquet` (src/core/export/table/): its columns and their
// rules (per-role columns, metrics as a union with nulls, labels in effect, fields of a newer record kept), the
// CSV quoting of RFC 4180, and the two ends of a trace read without decoding the rest.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { toCsv } from '../../../../src/core/export/table/csv.js';
import { episodeTable, FIXED_COLUMNS, type EpisodeRowSource } from '../../../../src/core/export/table/episodeTable.js';
import { traceEnds } from '../../../../src/core/export/table/traceEnds.js';
import type { EpisodeRecord } from '../../../../src/core/sweep/record.js';

function record(over: Partial<EpisodeRecord> & Record<string, unknown> = {}): EpisodeRecord & Record<string, unknown> {
  return {
    key: 'k0', task: 'stack_blocks', cell: 'malmm', variant: 'malmm', ablations: { 'planner.b': false, 'coder.a': true }, seed: 3, repeat: 1, runId: 'k0',
    tracePath: '.waypoint/runs/k0/trace.jsonl', success: false, reason: 'turn_cap', message: 'stopped, "at" the cap\nline 2', agentClaimedDone: false,
    turns: 12, modelCalls: 9, cachedCalls: 1, promptTokens: 900, completionTokens: 90, cost: 0.25,
    callsByRole: { planner: { calls: 3, uncached: 3, tokens: 330, promptTokens: 300, completionTokens: 30, cost: 0.1 } },
    latencyMs: 1500, durationMs: 2500, codeErrors: 2, archMetrics: { replans: 2 }, labels: [{ label: 'drop', turn: 7, evidence: 'e', source: 'auto' }],
    ...over,
  };
}

const source = (r: EpisodeRecord & Record<string, unknown>, over: Partial<EpisodeRowSource> = {}): EpisodeRowSource => ({ record: r, sweep: 's', arch: 'malmm', model: 'reference-flawed', labels: r.labels, ...over });
const col = (t: ReturnType<typeof episodeTable>, name: string) => {
  const c = t.columns.find((x) => x.name === name);
  assert.ok(c, `no column ${name}; have ${t.columns.map((x) => x.name).join(', ')}`);
  return c;
};

test('fixed columns first, in the documented order, then roles (sorted) x calls/tokens_in/tokens_out/cost, then metrics', () => {
  const a = record();
  const b = record({ key: 'k1', runId: 'k1', callsByRole: { coder: { calls: 6, uncached: 5, tokens: 660, promptTokens: 600, completionTokens: 60, cost: 0.15 } }, archMetrics: { transportRate: 0.5 } });
  const t = episodeTable([source(a), source(b)]);
  const names = t.columns.map((c) => c.name);
  assert.deepEqual(names.slice(0, FIXED_COLUMNS.length), FIXED_COLUMNS.map((c) => c[0]));
  assert.deepEqual(names.slice(FIXED_COLUMNS.length), [
    'calls.coder', 'tokens_in.coder', 'tokens_out.coder', 'cost.coder',
    'calls.planner', 'tokens_in.planner', 'tokens_out.planner', 'cost.planner',
    'metric.replans', 'metric.transportRate',
  ]);
  // A role the episode never called is 0 there; a metric it did not report is missing (null), not 0.
  assert.deepEqual(col(t, 'calls.planner').values, [3, 0]);
  assert.deepEqual(col(t, 'tokens_in.coder').values, [0, 600]);
  assert.deepEqual(col(t, 'metric.replans').values, [2, null]);
  assert.deepEqual(col(t, 'metric.transportRate').values, [null, 0.5]);
  assert.equal(col(t, 'metric.replans').type, 'double');
  assert.equal(col(t, 'calls.coder').type, 'int');
});

test('values: seconds from milliseconds, ablations as sorted JSON, labels in effect joined, first labelled turn, run folder', () => {
  const manual = [{ label: 'collision', turn: 4, evidence: 'by hand', source: 'manual' as const }, { label: 'drop', turn: 9, evidence: 'x', source: 'manual' as const }];
  const t = episodeTable([source(record(), { labels: manual })]);
  const v = (n: string) => col(t, n).values[0];
  assert.equal(v('wall_secs'), 2.5);
  assert.equal(v('model_latency_secs'), 1.5);
  assert.equal(v('ablations'), '{"coder.a":true,"planner.b":false}');
  assert.equal(v('failure_labels'), 'collision;drop');
  assert.equal(v('failure_turn'), 4);
  assert.equal(v('run_path'), '.waypoint/runs/k0');
  assert.equal(v('tokens_in'), 900);
  assert.equal(v('end_message'), 'stopped, "at" the cap\nline 2');
  // No trace ends given: what only the trace holds is missing, not invented.
  assert.equal(v('sim_secs'), null);
  assert.equal(v('simulator'), null);
  assert.equal(v('prompt_version'), null);
  assert.equal(col(t, 'success').type, 'boolean');
  assert.equal(col(t, 'seed').type, 'int');
});

test('a newer record: its prompt version is used, other unknown fields become snake_case columns (objects as JSON)', () => {
  const r = record({ promptHash: 'ab12cd', engineVersion: 3, simulatorSpec: { kind: 'embedded' }, flaky: true, key: 'k9' });
  const t = episodeTable([source(r), source(record())]);
  assert.deepEqual(col(t, 'prompt_version').values, ['ab12cd', null]);
  assert.equal(t.columns.some((c) => c.name === 'prompt_hash'), false, 'the prompt hash is not shown twice');
  assert.deepEqual(col(t, 'engine_version').values, [3, null]);
  assert.equal(col(t, 'engine_version').type, 'int');
  assert.deepEqual(col(t, 'simulator_spec').values, ['{"kind":"embedded"}', null]);
  assert.equal(col(t, 'flaky').type, 'boolean');
  // A field whose name is taken by a fixed column is kept under record.<name>.
  const clash = episodeTable([source(record({ simulator: 'mine' }))]);
  assert.deepEqual(col(clash, 'record.simulator').values, ['mine']);
});

test('a count with a fraction (a hand-edited record) makes its column double instead of failing', () => {
  const t = episodeTable([source(record({ turns: 12.5 })), source(record())]);
  assert.equal(col(t, 'turns').type, 'double');
  assert.deepEqual(col(t, 'turns').values, [12.5, 12]);
});

test('CSV (RFC 4180): header, CRLF, fields with comma, quote or newline quoted with quotes doubled, null empty', () => {
  const t = { rows: 2, columns: [
    { name: 'a', type: 'string' as const, values: ['plain', 'x,"y"\nz'] },
    { name: 'b,c', type: 'double' as const, values: [0.1 + 0.2, null] },
    { name: 'ok', type: 'boolean' as const, values: [true, false] },
  ] };
  assert.equal(toCsv(t), 'a,"b,c",ok\r\nplain,0.30000000000000004,true\r\n"x,""y""\nz",,false\r\n');
});

test('trace ends: the first episode_start and the last episode_end, other lines (and a torn last line) not parsed', () => {
  const start = { seq: 0, tMs: 0, type: 'episode_start', schemaVersion: 2, runId: 'r', arch: 'malmm', agentVariant: 'malmm', task: 't', taskDescription: 'd', seed: 0, variant: 'default', ablations: {}, model: { provider: 'reference', model: 'reference', label: 'l' }, prompts: [], simulator: { name: 'sim', version: '1' }, options: { persistNamespace: false, codeTimeoutSecs: 5 }, startedAt: '2026-11-27T00:00:00.000Z' };
  const end = (success: boolean, seq: number) => ({ seq, tMs: 5, type: 'episode_end', success, reason: 'task_completed', agentClaimedDone: true, metrics: { turns: 1, modelCalls: 1, cachedCalls: 0, promptTokens: 1, completionTokens: 1, codeBlocks: 0, codeErrors: 0, formatErrors: 0, durationMs: 5, simTimeSecs: 1.25 } });
  // A message record whose text mentions an episode_end is content, not an event.
  const rec = { record: 'message', hash: '0123456789abcdef', message: { role: 'user', content: '{"type":"episode_end"}' } };
  const text = ['\ufeff' + JSON.stringify(start), JSON.stringify(rec), JSON.stringify(end(false, 2)), JSON.stringify(end(true, 3)), '{"seq":4,"ty'].join('\n');
  const e = traceEnds(text);
  assert.equal(e.start?.simulator.name, 'sim');
  assert.equal(e.end?.seq, 3);
  assert.equal(e.end?.metrics.simTimeSecs, 1.25);
  assert.deepEqual(traceEnds('{"not":"a trace"}\n'), {});
});

test('docs/data.md documents every fixed column with its type, in the table order', () => {
  const doc = readFileSync('docs/data.md', 'utf8');
  const rows = [...doc.matchAll(/^\| `([a-z_]+)` \| (string|int|double|boolean) \|/gm)].map((m) => [m[1], m[2]]);
  assert.deepEqual(rows, FIXED_COLUMNS.map(([name, type]) => [name, type]));
});
