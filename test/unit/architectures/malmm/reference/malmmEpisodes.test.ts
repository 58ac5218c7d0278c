// Acceptance of the reference model v2 on the real parts (MuJoCo tabletop, Pyodide sandbox, the reference model over
// HTTP through the openai SDK), all episodes in one process sharing the simulator, the sandbox and the server.
// About 30 s on a 2-core machine, most of it the eleven single-arm episodes.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { architectures } from '../../../../../src/architectures/registry.js';
import { formatComparison } from '../../../../../src/cli/compare.js';
import { FLAWED_DEMO } from '../../../../../src/cli/demo.js';
import { nodeClock, nodeIO } from '../../../../../src/core/node/nodeHost.js';
import type { LaunchOptions } from '../../../../../src/core/runs/launch.js';
import { runPairedSweep } from '../../../../../src/core/sweep/pairedSweep.js';
import { projectRetryDiffs } from '../../../../../src/core/trace/projections/retryDiffs.js';
import type { TraceEvent } from '../../../../../src/protocol/trace.js';
import { InProcessRunner } from '../../../core/llm/reference/helpers/inProcess.js';

let runner: InProcessRunner;
before(async () => {
  runner = await InProcessRunner.start();
});
after(async () => {
  await runner.close();
});

const texts = (events: TraceEvent[]) => events.flatMap((e) => (e.type === 'model_response' ? [e.text ?? ''] : []));

test('reference: MALMM solves every single-arm task at seed 0', async () => {
  const tasks = runner.tasks().filter((t) => t.suite === 'single-arm');
  assert.ok(tasks.length >= 11, tasks.map((t) => t.id).join(', '));
  const failed: string[] = [];
  for (const t of tasks) {
    const { result, events } = await runner.run({ task: t.id, seed: 0 });
    const check = events.filter((e) => e.type === 'check' && e.name === 'task_success').at(-1);
    if (!result.success || result.reason !== 'task_completed') failed.push(`${t.id}: ${result.reason} ${check?.type === 'check' ? check.message : ''}`);
    // It never had to say it cannot continue.
    assert.ok(!texts(events).some((x) => /cannot continue/.test(x)), t.id);
  }
  assert.deepEqual(failed, []);
});

test('reference-flawed: the same seed makes the same mistakes, another seed others; the flawed demo episode shows a fixed retry', async () => {
  const run = (seed: number) => runner.run({ task: FLAWED_DEMO.task, seed, profile: FLAWED_DEMO.model });
  const a = await run(FLAWED_DEMO.seed);
  const b = await run(FLAWED_DEMO.seed);
  assert.deepEqual(texts(a.events), texts(b.events));
  assert.equal(a.result.reason, b.result.reason);
  // The flawed answers differ from the competent ones on the same seed (it did make mistakes) ...
  const competent = await runner.run({ task: FLAWED_DEMO.task, seed: FLAWED_DEMO.seed });
  assert.notDeepEqual(texts(a.events), texts(competent.events));
  // ... and another seed makes other ones.
  const other = await run(FLAWED_DEMO.seed + 1);
  assert.notDeepEqual(texts(other.events), texts(a.events));
  // `waypoint demo --flawed`: a block fails with a NameError, the retry fixes it (the run viewer's retry diff), and
  // the episode still succeeds.
  const diffs = projectRetryDiffs(a.events);
  assert.ok(diffs.some((d) => d.fixed && d.before.error?.type === 'NameError'), JSON.stringify(diffs.map((d) => d.before.error)));
  assert.equal(a.result.success, true, a.result.reason);
});

// Without the rule the flawed Coder reuses names and pays for the NameErrors in turns or in lost episodes. (It used to lose episodes
// too, at a cap that counted the Supervisor's routing calls and at the loop's five-error stop; the cap now counts
// chat messages only, and the paper default stops on errors only through the Coder's prompt rule.)
test('compare coder.define_in_same_block with reference-flawed: the rule off costs episodes or turns (paired sweep, 3 seeds)', async () => {
  const ws = mkdtempSync(join(tmpdir(), 'waypoint-refcompare-'));
  try {
    // The paired sweep as `waypoint compare` runs it, each episode through the shared in-process runner.
    const launch = async (o: LaunchOptions) => {
      const off = Object.entries(o.ablations ?? {}).filter(([, on]) => !on).map(([id]) => id);
      const { result } = await runner.run({ task: o.task, seed: o.seed, profile: 'reference-flawed', off, ...(o.variant ? { variant: o.variant } : {}) });
      return { ...result, runId: `${o.seed}-${off.length ? 'off' : 'on'}`, tracePath: '' };
    };
    const unused = () => Promise.reject(new Error('not used: episodes run in process'));
    const { file } = await runPairedSweep(
      { workspace: ws, arch: 'malmm', task: 'stack_blocks', ablation: 'coder.define_in_same_block', seeds: 3, builtInPromptRoot: join(process.cwd(), 'src', 'architectures'), model: { kind: 'reference', profile: 'reference-flawed' } },
      { io: nodeIO, clock: nodeClock, architectures, createSimulator: unused, createSandbox: unused as never, launch },
    );
    const c = file.comparison;
    const table = formatComparison(file);
    assert.match(table, /model reference-flawed \(scripted, not an LLM; seeded mistakes\)/);
    // Worse without the rule: episodes lost, or the same successes bought with more turns (the NameError retries).
    const worse = c.off.successes < c.on.successes || (c.off.successes === c.on.successes && (c.off.meanTurns ?? 0) > (c.on.meanTurns ?? 0) + 5);
    assert.ok(worse, table);
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});
