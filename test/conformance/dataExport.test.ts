// Data out, as a user runs it: a small real sweep (RoCo, two topologies x two seeds, the reference-flawed model,
// MuJoCo, through dist/cli.mjs), exported with `waypoint export --csv` and `--parquet`, read back by other code
// than the writers (CSV by this test's RFC 4180 parser, Parquet by arrow-rs compiled to WebAssembly through
// parquet-wasm, a different implementation from hyparquet-writer), each row equal to the sweep's record. Then the
// Python reader (bridges/python/waypoint_trace) on the same sweep and traces, and on a synthetic trace with every
// encoding (messages by hash, an image blob, constant / varint / float64 columns, contacts): the same events as
// src/core/trace/reader.ts, and the same rows as the CSV.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { tableFromIPC, type Table } from 'apache-arrow';
import { readParquet } from 'parquet-wasm';
import { nodeIO } from '../../src/core/node/nodeHost.js';
import type { EpisodeRecord } from '../../src/core/sweep/record.js';
import { readTrace } from '../../src/core/trace/reader.js';
import { JsonlTraceWriter } from '../../src/core/trace/writer.js';
import { TRACE_SCHEMA_VERSION, type EventOf, type PendingEvent, type TrajectorySample } from '../../src/protocol/trace.js';

const cli = join(process.cwd(), 'dist', 'cli.mjs');
const ws = mkdtempSync(join(tmpdir(), 'waypoint-data-'));
after(() => rmSync(ws, { recursive: true, force: true }));
const cliRun = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { cwd: ws, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

const SWEEP = `name: tiny
arch: roco
tasks: [sort_cubes]
variants: [dialog, central_plan]
seeds: 2
model: {name: reference-flawed}
limits: {maxRounds: 2}
`;
const sweepDir = join(ws, '.waypoint', 'sweeps', 'tiny');
let records: EpisodeRecord[] = [];
let edited = '';

before(() => {
  writeFileSync(join(ws, 'tiny.yaml'), SWEEP);
  const r = cliRun('sweep', 'tiny.yaml', '--in-process', '--quiet');
  assert.ok(r.status === 0 || r.status === 1, r.stderr);
  const plan = JSON.parse(readFileSync(join(sweepDir, 'plan.json'), 'utf8')) as { episodes: { key: string }[] };
  records = plan.episodes.map((e) => JSON.parse(readFileSync(join(sweepDir, 'episodes', `${e.key}.json`), 'utf8')) as EpisodeRecord);
  assert.equal(records.length, 4);
  // A hand edit: the export shows the labels in effect, as the matrix counts them.
  edited = records[1].key;
  writeFileSync(join(sweepDir, 'labels.json'), JSON.stringify({ [edited]: [{ label: 'drop', turn: 2, evidence: 'by hand', source: 'manual' }, { label: 'collision', turn: 5, evidence: 'by hand', source: 'manual' }] }));
});

/** RFC 4180, written here rather than shared with the writer: quoted fields, doubled quotes, CRLF. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let f = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (f += '"'), i++;
      else if (c === '"') quoted = false;
      else f += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(f), (f = '');
    else if (c === '\r' && text[i + 1] === '\n') {
      row.push(f), rows.push(row), (row = []), (f = ''), i++;
    } else f += c;
  }
  assert.equal(f + row.join(''), '', 'the file ends with CRLF');
  return rows;
}

function readParquetRows(file: string): { table: Table; rows: Record<string, unknown>[] } {
  const table = tableFromIPC(readParquet(new Uint8Array(readFileSync(file))).intoIPCStream());
  const rows = table.toArray().map((r) => Object.fromEntries(Object.entries(r.toJSON() as Record<string, unknown>).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v])));
  return { table, rows };
}

function simSecs(r: EpisodeRecord): number {
  const end = readTrace(readFileSync(join(ws, r.tracePath), 'utf8')).events.find((e): e is EventOf<'episode_end'> => e.type === 'episode_end')!;
  return end.metrics.simTimeSecs;
}

/** What each row must hold, from the record (and its trace) alone. */
function expectedRow(r: EpisodeRecord, roles: string[]): Record<string, unknown> {
  const labels = r.key === edited ? 'drop;collision' : [...new Set(r.labels.map((l) => l.label))].join(';') || null;
  const turns = r.labels.map((l) => l.turn).filter((t): t is number => typeof t === 'number');
  const row: Record<string, unknown> = {
    sweep: 'tiny', key: r.key, run_id: r.runId, architecture: 'roco', task: 'sort_cubes', cell: r.cell, variant: r.variant, seed: r.seed, repeat: r.repeat,
    model: 'reference-flawed', success: r.success, end_reason: r.reason, failure_labels: labels, failure_turn: r.key === edited ? 2 : turns.length ? Math.min(...turns) : null,
    turns: r.turns, model_calls: r.modelCalls, tokens_in: r.promptTokens, tokens_out: r.completionTokens, cost: 0, wall_secs: r.durationMs / 1000, sim_secs: simSecs(r),
    simulator: 'waypoint-tabletop', run_path: `.waypoint/runs/${r.key}`, trace_path: r.tracePath,
  };
  for (const role of roles) {
    const c = r.callsByRole[role];
    row[`calls.${role}`] = c?.calls ?? 0;
    row[`tokens_in.${role}`] = c?.promptTokens ?? 0;
    row[`tokens_out.${role}`] = c?.completionTokens ?? 0;
  }
  for (const [m, v] of Object.entries(r.archMetrics)) row[`metric.${m}`] = v;
  return row;
}

test('export --csv and --parquet of a real sweep: one row per record, same values, read by other code than the writers', () => {
  const csvFile = join(ws, 'episodes.csv');
  const pqFile = join(ws, 'episodes.parquet');
  for (const [flag, file] of [['--csv', csvFile], ['--parquet', pqFile]]) {
    const r = cliRun('export', 'tiny', flag, file);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /sweep tiny, 4 episodes/);
  }
  // The sweep's folder or its plan.json name it as well as its name (plan.json is not taken for a trace).
  for (const target of [sweepDir, join(sweepDir, 'plan.json')]) {
    const again = join(ws, 'again.csv');
    const r = cliRun('export', target, '--csv', again);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(readFileSync(again, 'utf8'), readFileSync(csvFile, 'utf8'));
  }
  const [header, ...lines] = parseCsv(readFileSync(csvFile, 'utf8'));
  const { table, rows } = readParquetRows(pqFile);
  assert.deepEqual(table.schema.fields.map((f) => f.name), header, 'the same columns in the same order');
  assert.equal(table.schema.metadata.get('waypoint.table'), 'episodes v1');
  const typeOf = (n: string) => String(table.schema.fields.find((f) => f.name === n)!.type);
  assert.deepEqual(['success', 'seed', 'tokens_in.dialog', 'sim_secs', 'metric.replans', 'key', 'failure_labels'].map(typeOf), ['Bool', 'Int64', 'Int64', 'Float64', 'Float64', 'Utf8', 'Utf8']);
  assert.ok(table.schema.fields.every((f) => f.nullable));

  const roles = ['central', 'dialog'];
  assert.deepEqual(roles.map((r) => header.includes(`calls.${r}`)), [true, true], 'the union of the roles of both topologies');
  assert.equal(lines.length, records.length);
  assert.equal(rows.length, records.length);
  records.forEach((r, i) => {
    const want = expectedRow(r, roles);
    for (const [name, v] of Object.entries(want)) {
      assert.ok(header.includes(name), `no column ${name}`);
      assert.deepEqual(rows[i][name], v, `parquet row ${i} (${r.key}) ${name}`);
      const text = lines[i][header.indexOf(name)];
      assert.equal(text, v === null ? '' : String(v), `csv row ${i} (${r.key}) ${name}`);
    }
  });
  // Central-plan episodes call only the central planner: 0 in the dialog columns, not missing.
  assert.ok(rows.some((r) => r['calls.dialog'] === 0 && (r['calls.central'] as number) > 0));
});

test('export of one run: its row equals the sweep row of that episode (no sweep name; only its own roles)', () => {
  const r = records[0];
  const out = join(ws, 'one.csv');
  const res = cliRun('export', r.key, '--csv', out);
  assert.equal(res.status, 0, res.stderr);
  assert.match(res.stdout, /run .*, 1 episode/);
  const [h1, row1] = parseCsv(readFileSync(out, 'utf8'));
  const [h4, ...rows4] = parseCsv(readFileSync(join(ws, 'episodes.csv'), 'utf8'));
  const sweepRow = Object.fromEntries(h4.map((n, i) => [n, rows4[0][i]]));
  const one = Object.fromEntries(h1.map((n, i) => [n, row1[i]]));
  const otherRoles = Object.keys(r.callsByRole).includes('dialog') ? 'central' : 'dialog';
  const expected = Object.fromEntries(Object.entries(sweepRow).filter(([n]) => !n.endsWith(`.${otherRoles}`)));
  assert.deepEqual(one, { ...expected, sweep: '' });
});

test('export refuses with exit 2 and one line: an empty sweep, two formats at once, an unknown target; a truncated trace', () => {
  const empty = join(ws, '.waypoint', 'sweeps', 'empty');
  mkdirSync(empty, { recursive: true });
  writeFileSync(join(empty, 'plan.json'), JSON.stringify({ name: 'empty', spec: { arch: 'roco', model: { name: 'reference' } }, episodes: [{ key: 'never-ran' }] }));
  const cases: [string[], RegExp][] = [
    [['export', 'empty', '--parquet', join(ws, 'e.parquet')], /sweep empty, 0 episodes: no finished episode to export yet/],
    [['export', 'tiny', '--csv', join(ws, 'a.csv'), '--parquet', join(ws, 'a.parquet')], /exactly one of --mcap .*--csv .*--parquet/],
    [['export', 'no-such-sweep', '--csv', join(ws, 'a.csv')], /no run or sweep 'no-such-sweep'/],
  ];
  for (const [args, message] of cases) {
    const r = cliRun(...args);
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.stderr, message);
    assert.equal(r.stderr.trim().split('\n').length, 1);
  }
  // A truncated trace: its row is written as far as it was read (no episode_end: engine_error), exit 2 saying so.
  const cut = join(ws, 'cut.csv');
  const r = cliRun('export', join(process.cwd(), 'test/fixtures/traces/malmm-pick-place.truncated.jsonl'), '--csv', cut);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /line 103 is incomplete/);
  const [h, row] = parseCsv(readFileSync(cut, 'utf8'));
  assert.deepEqual([row[h.indexOf('success')], row[h.indexOf('end_reason')], row[h.indexOf('sim_secs')]], ['false', 'engine_error', '']);
});

/** A trace with every part of the encoding, written by the engine's own writer. */
async function syntheticTrace(path: string): Promise<void> {
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64');
  const sha = createHash('sha256').update(Buffer.from(png, 'base64')).digest('hex');
  const system = { role: 'system' as const, content: 'You are the Coder. Use, "quotes"\nand newlines.' };
  const image = { role: 'user' as const, content: 'Camera [image]', parts: [{ type: 'text' as const, text: 'Camera' }, { type: 'image' as const, mediaType: 'image/png', sha256: sha, dataBase64: png, alt: 'top' }] };
  const samples: TrajectorySample[] = Array.from({ length: 90 }, (_, i) => ({
    tSecs: i / 50,
    // A joint too large to round (float64 column), a constant joint, a smooth one.
    qpos: [Math.sin(i / 9), 0.5, i === 3 ? 1e300 : i],
    ee: [0.3 + 0.01 * i, -0.2, 1.1 - 0.001 * i * i, 0.5236],
    gripperWidth: i < 45 ? 0.08 : 0.05,
    grasped: i < 45 ? null : 'red block',
    bodies: [0, 0, 0, 1, 0, 0, 0, 0.3, -0.2 + i / 1000, 1.1, Math.cos(i / 90), 0, 0, Math.sin(i / 90)],
    ...(i >= 30 ? { contacts: i % 7 === 0 ? [] : [['left finger', 'red block'] as [string, string]] } : {}),
  }));
  const events: PendingEvent[] = [
    { type: 'episode_start', schemaVersion: TRACE_SCHEMA_VERSION, runId: 'synthetic', arch: 'malmm', agentVariant: 'malmm', task: 'stack_blocks', taskDescription: 'Stack', seed: 0, variant: 'default', ablations: {}, model: { provider: 'reference', model: 'reference', label: 'reference (scripted, not an LLM)' }, prompts: [], simulator: { name: 'tabletop' }, options: { maxTurns: 3, maxConsecutiveErrors: 5, persistNamespace: false, codeTimeoutSecs: 5 }, startedAt: '2026-11-27T00:00:00.000Z' },
    { type: 'scene', bodies: ['table', 'red block'], geoms: [] },
    { type: 'role_call', turn: 1, callId: 'c1', role: 'coder', messages: [system, image], model: 'reference', params: {}, promptPath: 'p/coder.prompt', variables: { n: 1 }, futureField: { kept: true } } as PendingEvent,
    { type: 'model_response', turn: 1, callId: 'c1', role: 'coder', ok: true, text: 'ok', usage: { promptTokens: 12, completionTokens: 3 }, latencyMs: 2, cached: false, attempts: 1 },
    { type: 'role_call', turn: 2, callId: 'c2', role: 'coder', messages: [system, image, { role: 'user', content: 'again' }], model: 'reference', params: {}, promptPath: 'p/coder.prompt', variables: {} },
    { type: 'model_response', turn: 2, callId: 'c2', role: 'coder', ok: false, error: { kind: 'timeout', message: 'slow' }, latencyMs: 9, cached: false, attempts: 3 },
    { type: 'trajectory', turn: 2, rateHz: 50, samples },
    { type: 'episode_end', success: false, reason: 'model_error', agentClaimedDone: false, metrics: { turns: 2, modelCalls: 2, cachedCalls: 0, promptTokens: 12, completionTokens: 3, codeBlocks: 0, codeErrors: 0, formatErrors: 0, durationMs: 3, simTimeSecs: 1.78 } },
  ];
  const w = new JsonlTraceWriter(nodeIO, path, { nowMs: () => 0, isoNow: () => '2026-11-27T00:00:00.000Z' }, { summaryPath: null });
  for (const e of events) await w.write(e);
  const text = readFileSync(path, 'utf8');
  // The file really uses the compact forms the Python reader must decode.
  assert.ok(text.includes('"record":"blob"') && /"messages":\["[0-9a-f]{16}"/.test(text));
  const cols = JSON.stringify(JSON.parse(text.split('\n').find((l) => l.includes('"columns"'))!).columns);
  for (const form of ['"f', '"1', '"2', ',0.5,']) assert.ok(cols.includes(form), `column form ${form}`);
}

test('the Python reader (bridges/python/waypoint_trace): the events src/core/trace/reader.ts returns, the rows the CSV holds', async () => {
  const dir = join(ws, 'py');
  mkdirSync(dir, { recursive: true });
  const synthetic = join(dir, 'synthetic.jsonl');
  await syntheticTrace(synthetic);
  const traces = [synthetic, ...records.map((r) => join(ws, r.tracePath))].map((trace, i) => {
    const { events, warnings } = readTrace(readFileSync(trace, 'utf8'));
    const expected = join(dir, `expected-${i}.json`);
    writeFileSync(expected, JSON.stringify({ events, warnings: warnings.map((w) => w.kind) }));
    return { trace, expected };
  });
  const manifest = join(dir, 'manifest.json');
  writeFileSync(manifest, JSON.stringify({ traces, sweep: sweepDir, sweep_name: 'tiny', workspace: ws, csv: join(ws, 'episodes.csv') }));
  assert.ok(readdirSync(ws).includes('episodes.csv'), 'the CSV of the first test');
  // A python3 with pandas, where the machine has one (Debian's python3-pandas goes to /usr/bin/python3), so the
  // DataFrame path is tested too; else the first python3 on PATH, and the DataFrame tests say they were skipped.
  const python = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import pandas']).status === 0) ?? 'python3';
  const r = spawnSync(python, ['-m', 'unittest', '-v', 'test_trace'], { cwd: join(process.cwd(), 'bridges', 'python', 'tests'), encoding: 'utf8', timeout: 120_000, env: { ...process.env, WAYPOINT_TRACE_FIXTURES: manifest } });
  assert.equal(r.error, undefined, `could not run python3: ${r.error?.message}`);
  assert.equal(r.status, 0, `python unittest failed:\n${r.stderr}`);
  assert.match(r.stderr, /Ran \d+ tests/);
  // The tests against these traces ran (they skip only without the manifest); the pandas ones say why if skipped.
  assert.doesNotMatch(r.stderr, /WAYPOINT_TRACE_FIXTURES not set/);
  for (const name of ['test_traces_read_to_the_events_the_typescript_reader_returns', 'test_load_sweep_rows_equal_the_exported_csv', 'test_views_count_what_the_trace_holds']) assert.match(r.stderr, new RegExp(`${name} .*\\.\\.\\. ok`));
  const pandas = /skipped 'pandas is not installed'/.test(r.stderr) ? 'absent: the DataFrame tests were skipped' : 'present: the DataFrame tests ran';
  process.stdout.write(`# ${python}: pandas ${pandas}\n`);
});
