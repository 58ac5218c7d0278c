// `waypoint compare --ablation <id>`: a small paired sweep (every seed with the ablation on and off), a table of
// both sides and the path of the sweep.json it wrote.
import { resolve } from 'node:path';
import { architectures } from '../architectures/registry.js';
import { nodeClock, nodeIO } from '../core/node/nodeHost.js';
import { builtInPromptRoot } from '../core/node/packageRoot.js';
import { StartError } from '../core/runs/preflight.js';
import { WarmPool } from '../core/runs/warmPool.js';
import { createPyodideSandbox } from '../core/sandbox/index.js';
import { architectureManifests } from '../architectures/manifests.js';
import { connectSimulator, isEmbeddedSpec } from '../core/sim/connect.js';
import { runPairedSweep } from '../core/sweep/pairedSweep.js';
import type { SweepFile, SweepSideStats } from '../protocol/sweep.js';
import { EPISODE_OPTIONS, LIMIT_OPTIONS, MODEL_OPTIONS, SEEDS_OPTION, VISION_OPTION, WORKSPACE_OPTIONS } from './commonOptions.js';
import { shutdownExitStatus, whileCleaningUp } from './lifecycle.js';
import { defineCommand, UsageError, type OptionValues } from './options.js';
import { displayPath, episodeOptionsFromArgs, limitsFromArgs, modelSpecFromArgs } from './run.js';

export const COMPARE_OPTIONS = {
  ablation: { type: 'string', metavar: 'id', help: 'the ablation to switch: an id from an {{#ablation}} block of the prompts the variant runs (required)', group: 'Episode' },
  ...EPISODE_OPTIONS,
  ...VISION_OPTION,
  ...SEEDS_OPTION,
  ...LIMIT_OPTIONS,
  ...MODEL_OPTIONS,
  ...WORKSPACE_OPTIONS,
} as const;

export type CompareArgs = OptionValues<typeof COMPARE_OPTIONS>;

const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
const num = (x: number | null) => (x === null ? '-' : x.toFixed(1));

function row(label: string, s: SweepSideStats): string {
  const rate = s.rate === null ? '-' : `${pct(s.rate)} [${pct(s.ci95.low)}, ${pct(s.ci95.high)}]`;
  return [label.padEnd(5), `${s.successes}/${s.n}`.padEnd(10), rate.padEnd(20), num(s.meanTurns).padEnd(11), num(s.meanModelCalls)].join(' ');
}

/** The table `waypoint compare` prints (pure, for tests). */
export function formatComparison(f: SweepFile): string {
  const c = f.comparison;
  const lines = [
    `${f.ablation} on ${f.arch}/${f.task}, variant ${f.variant}, ${f.seeds.length} seeds, model ${f.model.label}${f.status === 'cancelled' ? ' (cancelled)' : ''}`,
    ['side'.padEnd(5), 'successes'.padEnd(10), 'rate [95% CI]'.padEnd(20), 'mean turns'.padEnd(11), 'mean calls'].join(' '),
    row('on', c.on),
    row('off', c.off),
    `seeds    ${c.pairs.map((p) => String(p.seed).padStart(3)).join('')}`,
    `on       ${c.pairs.map((p) => (p.on ? (p.on.success ? '  ✓' : '  ✗') : '  ·')).join('')}`,
    `off      ${c.pairs.map((p) => (p.off ? (p.off.success ? '  ✓' : '  ✗') : '  ·')).join('')}`,
    `outcome differs on ${c.differing} of ${c.pairs.length} seeds`,
  ];
  if (c.on.exact95 && c.off.exact95) {
    const iv = (x: { low: number; high: number }) => `[${pct(x.low)}, ${pct(x.high)}]`;
    lines.splice(4, 0, `Clopper-Pearson 95% (the paper's interval for LLaMAR): on ${iv(c.on.exact95)}, off ${iv(c.off.exact95)}`);
  }
  return lines.join('\n');
}

export async function compareCommand(a: CompareArgs, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  if (!a.ablation) throw new UsageError('--ablation <id> is required (an id from an {{#ablation}} block; see the prompt files)');
  const model = modelSpecFromArgs(a, process.env, (l) => process.stderr.write(l + '\n'));
  const progress = Boolean(process.stderr.isTTY);
  // Every episode after the first reuses the Pyodide sandbox (reset between episodes) and, for the embedded one,
  // the simulator (a protocol simulator's connection belongs to one episode).
  const pool = new WarmPool({
    createSandbox: () => createPyodideSandbox(),
    createSimulator: (needs) => connectSimulator(a.sim, { cwd: process.cwd(), family: needs?.family ?? architectureManifests.find(a.arch)?.simulator }),
    reuseSimulators: isEmbeddedSpec(a.sim),
    family: architectureManifests.find(a.arch)?.simulator,
  });
  return whileCleaningUp(async (signal) => {
    let result;
    try {
      result = await runPairedSweep(
        {
          workspace: resolve(a.workspace ?? process.cwd()),
          arch: a.arch,
          task: a.task,
          variant: a.variant,
          ablation: a.ablation!,
          seeds: a.seeds,
          builtInPromptRoot: builtInPromptRoot(),
          promptDir: a.prompts ? resolve(a.prompts) : undefined,
          model,
          options: episodeOptionsFromArgs(a),
          limits: limitsFromArgs(a),
          cache: !a['no-cache'],
          signal,
          onProgress: (p) => {
            if (progress && p.phase === 'start') process.stderr.write(`\r\x1b[K  … seed ${p.seed} ${p.side} (${p.done}/${p.total} done)`);
          },
        },
        pool.deps({ io: nodeIO, clock: nodeClock, architectures }),
      );
    } catch (err) {
      // runPairedSweep throws only for bad input, before any episode runs.
      if (err instanceof StartError) throw new UsageError(notStartedMessage(err));
      throw new UsageError(err instanceof Error ? err.message : String(err));
    } finally {
      await pool.close();
    }
    if (progress) process.stderr.write('\r\x1b[K');
    out.write(formatComparison(result.file) + '\n');
    out.write(`sweep: ${result.path}\n`);
    return shutdownExitStatus() ?? (result.file.status === 'cancelled' ? 1 : 0);
  });
}

function notStartedMessage(err: StartError): string {
  return `${err.reason === 'prompt_error' ? 'prompt error: ' : ''}${err.message}${err.file ? ` (${displayPath(err.file)}${err.line !== undefined ? `:${err.line}` : ''})` : ''}`;
}

export const compareCmd = defineCommand({
  name: 'compare',
  summary: 'paired sweep of one ablation: every seed with it on and off, then a table of both sides',
  options: COMPARE_OPTIONS,
  examples: ['waypoint compare --ablation planner.replan_check --seeds 5', 'waypoint compare --ablation sa.step_feedback --variant sa --seeds 3'],
  exitStatus: '0 the sweep ran (whatever the episodes did), 1 cancelled, 2 bad input (nothing ran).',
  run: ({ values }) => compareCommand(values),
});
