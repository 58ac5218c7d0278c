// `waypoint runs` over 200 runs: each run written by the real trace writer (the MALMM fixture episode, schema v2
// encoding, so each finished run has its summary.json), listed by the CLI as a user runs it (a new node process,
// start-up included), by core's listRuns in-process, and by the extension's Runs view index. Then the same
// workspace with every summary.json removed (runs recorded before summaries, or interrupted), where each trace is
// parsed. Goal: the CLI under 1 s with summaries. Prints one line. Run: node --import tsx test/bench/runs.bench.ts
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeClock, nodeIO } from '../../src/core/node/nodeHost.js';
import { listRuns, runDir, SUMMARY_FILE, tracePath } from '../../src/core/runs/runStore.js';
import { JsonlTraceWriter } from '../../src/core/trace/writer.js';
import { listRunSummaries } from '../../src/extension/views/runIndex.js';
import { TRACE_SCHEMA_VERSION, type PendingEvent } from '../../src/protocol/trace.js';
import { buildMalmmTrace } from '../fixtures/traces/malmmTrace.js';
import { freshCli } from '../helpers/dist.js';

const RUNS = Number(process.argv[2] ?? 200);
const CLI = freshCli();
const ws = mkdtempSync(join(tmpdir(), 'waypoint-bench-runs-'));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function timeCli(): number {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [CLI, 'runs', '--workspace', ws], { encoding: 'utf8' });
    times.push(performance.now() - t0);
    // One row per run under the table's header row.
    const lines = r.stdout.split('\n').filter((l) => l.trim()).length - 1;
    if (r.status !== 0 || lines !== RUNS) throw new Error(`waypoint runs exited ${r.status} with ${lines} rows (expected ${RUNS}): ${r.stderr}`);
  }
  return median(times);
}

async function timeInProcess(f: () => Promise<unknown[]>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const n = (await f()).length;
    times.push(performance.now() - t0);
    if (n !== RUNS) throw new Error(`listed ${n} runs, expected ${RUNS}`);
  }
  return median(times);
}

try {
  const base = buildMalmmTrace();
  for (let i = 0; i < RUNS; i++) {
    const runId = `20261121-${String(100000 + i).padStart(6, '0')}-malmm-pick_place-s${i}-${(i * 7919).toString(16).slice(-4).padStart(4, '0')}`;
    await nodeIO.mkdirp(runDir(ws, runId));
    const w = new JsonlTraceWriter(nodeIO, tracePath(ws, runId), nodeClock);
    for (const e of base) {
      const { seq: _s, tMs: _t, ...rest } = e;
      await w.write((rest.type === 'episode_start' ? { ...rest, runId, seed: i, schemaVersion: TRACE_SCHEMA_VERSION } : rest) as PendingEvent);
    }
  }
  const cli = timeCli();
  const core = await timeInProcess(() => listRuns(nodeIO, ws));
  const view = await timeInProcess(() => listRunSummaries(ws));
  for (const id of await nodeIO.list(join(ws, '.waypoint/runs'))) rmSync(join(ws, '.waypoint/runs', id, SUMMARY_FILE));
  const cliParsed = timeCli();
  const coreParsed = await timeInProcess(() => listRuns(nodeIO, ws));
  console.log(
    `runs listing, ${RUNS} runs (median of 5): waypoint runs ${cli.toFixed(0)} ms (goal < 1000 ms; a new node process, start-up included), ` +
      `listRuns in-process ${core.toFixed(0)} ms, Runs view index ${view.toFixed(0)} ms; ` +
      `without summary files (every trace parsed): waypoint runs ${cliParsed.toFixed(0)} ms, listRuns ${coreParsed.toFixed(0)} ms`,
  );
} finally {
  rmSync(ws, { recursive: true, force: true });
}
