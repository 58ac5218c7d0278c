// Paired sweeps in the child process (src/extension/live/workerEntry.ts with the sweep flag, under tsx): MuJoCo,
// Pyodide and the reference model, progress and the sweep file back over IPC, cancel.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { SweepRun, type SweepProgressMessage, type SweepRunOptions } from '../../../../src/extension/live/sweepRun.js';
import { readTrace } from '../../../../src/core/trace/reader.js';

const ws = mkdtempSync(join(tmpdir(), 'waypoint-sweeprun-'));
after(() => rmSync(ws, { recursive: true, force: true }));
const base = (o: Partial<SweepRunOptions['sweep']> = {}): SweepRunOptions => ({
  modulePath: join(process.cwd(), 'src/extension/live/workerEntry.ts'),
  execArgv: ['--import', 'tsx'],
  sweep: { workspace: ws, arch: 'malmm', task: 'stack_blocks_2', ablation: 'planner.replan_check', seeds: 1, builtInPromptRoot: join(process.cwd(), 'src', 'architectures'), model: { kind: 'reference' }, options: {}, cache: false, ...o },
  simulator: { kind: 'embedded' },
});

test('a 1-seed sweep in the child: progress for both sides, then the parsed sweep file', async () => {
  const run = SweepRun.start(base());
  const progress: SweepProgressMessage[] = [];
  run.onProgress((p) => progress.push(p));
  const r = await run.done;
  assert.ok(r.ok, r.ok ? '' : r.message);
  assert.equal(r.file.status, 'complete');
  assert.deepEqual(JSON.parse(readFileSync(r.path, 'utf8')), r.file);
  assert.equal(r.file.comparison.on.successes + r.file.comparison.off.successes, 2);
  assert.deepEqual(progress.filter((p) => p.phase === 'end').map((p) => [p.side, p.done, p.total, p.success]), [['on', 1, 2, true], ['off', 2, 2, true]]);
});

test('bad input fails with the cause and writes nothing', async () => {
  const r = await SweepRun.start(base({ ablation: 'planner.nope' })).done;
  assert.equal(r.ok, false);
  assert.match(r.ok ? '' : r.message, /ablation 'planner\.nope' is not in the prompts malmm\/malmm runs \(supervisor\.prompt, planner\.prompt, coder\.prompt\); ids there: /);
});

test('cancel during the first episode: the episode ends cancelled and the sweep is recorded as cancelled', async () => {
  // A generous grace: this test is about the graceful path (the engine stops, the sweep file is written), not the kill.
  const run = SweepRun.start({ ...base({ seeds: 3, task: 'stack_blocks' }), cancelGraceMs: 120_000 });
  run.onProgress((p) => {
    if (p.phase === 'start') run.cancel();
  });
  const r = await run.done;
  assert.ok(r.ok, r.ok ? '' : r.message);
  assert.equal(r.file.status, 'cancelled');
  assert.equal(r.file.comparison.pairs.length, 0, JSON.stringify(r.file.comparison.pairs));
  assert.ok(existsSync(r.path));
  // The cancelled episode's own trace says so (it is not counted on either side).
  const runs = join(ws, '.waypoint', 'runs');
  const cancelled = readdirSync(runs).filter((d) => d.includes('-stack_blocks-'));
  assert.equal(cancelled.length, 1);
  const end = readTrace(readFileSync(join(runs, cancelled[0], 'trace.jsonl'), 'utf8')).events.at(-1);
  assert.equal(end?.type === 'episode_end' && end.reason, 'cancelled');
});
