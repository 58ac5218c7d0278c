// Warm sweep workers: one worker runs episode after episode on the same Pyodide sandbox and MuJoCo simulator
// (WarmWorkerResources), the sandbox reset in between. The episode a warm worker runs second must be the episode a
// fresh worker runs (same record but for timings), although the first one left names in its Python namespace. Real episodes: MuJoCo, Pyodide, the reference-flawed model over HTTP.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { architectures } from '../../../../src/architectures/registry.js';
import { nodeClock, nodeIO } from '../../../../src/core/node/nodeHost.js';
import { createPyodideSandbox } from '../../../../src/core/sandbox/index.js';
import { connectSimulator } from '../../../../src/core/sim/connect.js';
import { createTabletopSimulator } from '../../../../src/core/sim/mujoco/index.js';
import type { EpisodeRecord } from '../../../../src/core/sweep/record.js';
import { runSweep } from '../../../../src/core/sweep/scheduler.js';
import { parseSweepSpec, planSweep } from '../../../../src/core/sweep/spec.js';
import { WarmWorkerResources } from '../../../../src/core/sweep/warmDeps.js';
import { InProcessWorker } from '../../../../src/core/sweep/workers.js';
import { readTrace } from '../../../../src/core/trace/reader.js';

const dirs: string[] = [];
const tmp = () => (dirs.push(mkdtempSync(join(tmpdir(), 'waypoint-sweep-warm-'))), dirs.at(-1)!);
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const root = join(process.cwd(), 'src', 'architectures');
// One sweep name for both workspaces: the key includes it (two sweeps never share run folders), and the warm and
// cold runs must be the same episode.
const sweepFile = (seeds: number[]) => `name: warm-vs-cold
arch: malmm
tasks: [stack_blocks_2]
variants: [malmm]
seeds: [${seeds.join(', ')}]
model: {name: reference-flawed}
cache: false
limits: {maxTurns: 14}
`;
// Timings and where the run lives differ between any two runs of one episode.
const comparable = (r: EpisodeRecord) => JSON.parse(JSON.stringify(r, (k, v: unknown) => (['latencyMs', 'durationMs', 'tracePath', 'runId'].includes(k) ? undefined : v)));

test('a warm worker\'s second episode equals the same episode on a fresh worker; the first one\'s leftovers are reset', async () => {
  const warm = new WarmWorkerResources({ io: nodeIO, clock: nodeClock, architectures }, { createSandbox: () => createPyodideSandbox(), connect: (spec, o) => connectSimulator(spec, o) });
  const wsWarm = tmp();
  const planWarm = await planSweep(parseSweepSpec(sweepFile([3, 1]), 'warm.yaml'), { io: nodeIO, architectures, workspace: wsWarm, builtInPromptRoot: root, file: 'warm.yaml' });
  const worker = new InProcessWorker(warm);
  const rw = await runSweep({ plan: planWarm, io: nodeIO, clock: nodeClock, workspace: wsWarm, builtInPromptRoot: root, sim: 'embedded', workers: [worker] });
  assert.equal(rw.status, 'complete');
  const stats = warm.stats();
  await worker.close();
  assert.equal(stats.sandboxesStarted, 1, 'one Pyodide for both episodes');
  assert.equal(stats.sandboxReuses, 1);
  assert.equal(stats.simulatorsStarted, 1, 'one MuJoCo simulator for both episodes');
  assert.equal(stats.simulatorReuses, 1);
  assert.equal(stats.sandboxesReplaced, 0);
  // The first episode left Python behind in its namespace (names its code assigned) for the reset to clear.
  const first = rw.records.find((r) => r.seed === 3)!;
  const { events } = readTrace(readFileSync(join(wsWarm, first.tracePath), 'utf8'));
  const code = events.flatMap((e) => (e.type === 'code_execution' ? [e.code] : [])).join('\n');
  assert.match(code, /^\s*(def \w+|\w+\s*=)/m, 'the first episode defined names in its namespace');

  // The same second episode (seed 1) on fresh resources.
  const wsCold = tmp();
  const planCold = await planSweep(parseSweepSpec(sweepFile([1]), 'cold.yaml'), { io: nodeIO, architectures, workspace: wsCold, builtInPromptRoot: root, file: 'cold.yaml' });
  const cold = new InProcessWorker(() => ({ io: nodeIO, clock: nodeClock, architectures, createSimulator: () => createTabletopSimulator(), createSandbox: () => createPyodideSandbox() }));
  const rc = await runSweep({ plan: planCold, io: nodeIO, clock: nodeClock, workspace: wsCold, builtInPromptRoot: root, sim: 'embedded', workers: [cold] });
  const warmSecond = rw.records.find((r) => r.seed === 1)!;
  const coldOnly = rc.records[0]!;
  assert.equal(warmSecond.key, coldOnly.key, 'same key: the same episode');
  assert.ok(warmSecond.turns > 2, `a whole episode (${warmSecond.turns} turns)`);
  assert.deepEqual(comparable(warmSecond), comparable(coldOnly));
});
