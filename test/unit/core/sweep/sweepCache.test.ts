// The response cache across a sweep's cells: two variants that differ only in the Coder prompt. The second makes no
// Planner or Supervisor request whose rendered messages the first already sent; every uncached call of theirs has
// messages the first cell never rendered (its history diverged after the Coder's answer changed). Real episodes:
// MuJoCo, Pyodide, the reference model over HTTP with its answers cached, through runSweep.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { architectures } from '../../../../src/architectures/registry.js';
import { canonicalJson } from '../../../../src/core/llm/cache.js';
import { nodeClock, nodeIO } from '../../../../src/core/node/nodeHost.js';
import { createPyodideSandbox } from '../../../../src/core/sandbox/index.js';
import { createTabletopSimulator } from '../../../../src/core/sim/mujoco/index.js';
import { runSweep } from '../../../../src/core/sweep/scheduler.js';
import { parseSweepSpec, planSweep } from '../../../../src/core/sweep/spec.js';
import { InProcessWorker } from '../../../../src/core/sweep/workers.js';
import { readTrace } from '../../../../src/core/trace/reader.js';

const ws = mkdtempSync(join(tmpdir(), 'waypoint-sweep-cache-'));
after(() => rmSync(ws, { recursive: true, force: true }));

test('a Coder-only variant re-asks the Planner and Supervisor nothing the first variant already asked', async () => {
  const spec = parseSweepSpec(
    `arch: malmm
tasks: [stack_blocks_2]
variants:
  - malmm
  - {name: coder_off, variant: malmm, ablations: {coder.define_in_same_block: false}}
seeds: [0]
model: {name: reference}
limits: {maxTurns: 12}
`,
    'cache.yaml',
  );
  const plan = await planSweep(spec, { io: nodeIO, architectures, workspace: ws, builtInPromptRoot: join(process.cwd(), 'src', 'architectures'), file: 'cache.yaml' });
  const worker = new InProcessWorker(() => ({ io: nodeIO, clock: nodeClock, architectures, createSimulator: () => createTabletopSimulator(), createSandbox: () => createPyodideSandbox() }));
  const r = await runSweep({ plan, io: nodeIO, clock: nodeClock, workspace: ws, builtInPromptRoot: join(process.cwd(), 'src', 'architectures'), sim: 'embedded', workers: [worker] });
  assert.equal(r.status, 'complete');
  const calls = (cell: string) => {
    const rec = r.records.find((x) => x.cell === cell)!;
    const { events } = readTrace(readFileSync(join(ws, rec.tracePath), 'utf8'));
    const asked = new Map<string, string>();
    for (const e of events) if (e.type === 'role_call') asked.set(e.callId, `${e.role}|${canonicalJson(e.messages)}`);
    return events.flatMap((e) => (e.type === 'model_response' ? [{ role: e.role, cached: e.cached, key: asked.get(e.callId)! }] : []));
  };
  const first = calls('malmm');
  const second = calls('coder_off');
  const firstKeys = new Set(first.map((c) => c.key));
  const upstream = second.filter((c) => c.role === 'planner' || c.role === 'supervisor');
  assert.ok(upstream.some((c) => c.cached), 'the second variant replays the shared opening from the cache');
  for (const c of upstream) {
    // Cached exactly when the first variant rendered the same messages: nothing re-asked, nothing stale.
    assert.equal(c.cached, firstKeys.has(c.key), `${c.role} call cached=${c.cached} but first-variant match=${firstKeys.has(c.key)}`);
  }
  const rec = r.records.find((x) => x.cell === 'coder_off')!;
  assert.ok((rec.callsByRole.planner?.uncached ?? 0) < (rec.callsByRole.planner?.calls ?? 0));
});
