// The RoCo reference model's FIXTURE rates (scripted policies, not a language model): every task, both profiles,
// seeds 0..N-1, dialog variant, default limits, through launchRun as `waypoint run` does. Prints one markdown row
// per task and profile for docs/roco.md. `npx tsx test/bench/rocoRates.ts [--seeds 10] [--only task,...] [--profiles reference,reference-flawed]`.
// move_rope runs with weld grasps, as in test/unit/architectures/roco/rocoReference.test.ts (its rope ends slip out of a friction grip).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { architectures } from '../../src/architectures/registry.js';
import { nodeClock, nodeIO } from '../../src/core/node/nodeHost.js';
import { launchRun } from '../../src/core/runs/launch.js';
import { createPyodideSandbox } from '../../src/core/sandbox/index.js';
import { createTabletopSimulator } from '../../src/core/sim/mujoco/index.js';

const { values: a } = parseArgs({ options: { seeds: { type: 'string', default: '10' }, only: { type: 'string' }, profiles: { type: 'string', default: 'reference,reference-flawed' }, variant: { type: 'string' } } });
const TASKS = ['sort_cubes', 'pack_grocery', 'make_sandwich', 'sweep_floor', 'move_rope', 'arrange_cabinet', 'handover'].filter((t) => !a.only || a.only.split(',').includes(t));
const seeds = Number(a.seeds);
const workspace = mkdtempSync(join(tmpdir(), 'waypoint-roco-rates-'));
const deps = (weld: boolean) => ({ io: nodeIO, clock: nodeClock, architectures, createSimulator: () => createTabletopSimulator(weld ? { grasp: 'weld' } : {}), createSandbox: () => createPyodideSandbox() });
console.log(`RoCo reference FIXTURE rates (scripted, not an LLM), seeds 0-${seeds - 1}, variant ${a.variant ?? 'dialog'}`);
console.log('| task | profile | successes | failed seeds | mean rounds (successes) | re-plans / episode | dialog turns / episode |');
console.log('|---|---|---|---|---|---|---|');
try {
  for (const task of TASKS) {
    for (const profile of a.profiles!.split(',') as ('reference' | 'reference-flawed')[]) {
      let ok = 0, rounds = 0, replans = 0, turns = 0;
      const failed: string[] = [];
      for (let seed = 0; seed < seeds; seed++) {
        const r = await launchRun({ workspace, arch: 'roco', task, seed, ...(a.variant ? { variant: a.variant } : {}), builtInPromptRoot: join(process.cwd(), 'src', 'architectures'), model: { kind: 'reference', profile } }, deps(task === 'move_rope'));
        const m = (r.end as { archMetrics?: Record<string, number> } | undefined)?.archMetrics ?? {};
        if (r.success) (ok++, (rounds += m['rounds'] ?? 0));
        else failed.push(`${seed} (${r.reason})`);
        replans += m['replans'] ?? 0;
        turns += m['dialogTurns'] ?? 0;
      }
      console.log(`| \`${task}\` | ${profile} | ${ok}/${seeds} | ${failed.join(', ') || '-'} | ${ok ? (rounds / ok).toFixed(1) : '-'} | ${(replans / seeds).toFixed(1)} | ${(turns / seeds).toFixed(1)} |`);
    }
  }
} finally {
  rmSync(workspace, { recursive: true, force: true });
}
