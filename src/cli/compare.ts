// `waypoint compare --ablation <id>`: a small paired sweep (every seed with the ablation on and off), a table of
// both sides and the path of the sweep.json it wrote.
import { resolve } from 'node:path';
import { nodeClock, nodeIO } from '../core/node/nodeHost.js';
import { findPackageRoot } from '../core/node/packageRoot.js';
import type { ModelSpec } from '../core/runs/launch.js';
import { createPyodideSandbox } from '../core/sandbox/index.js';
import { connectSimulator, simulatorSpecProblem } from '../core/sim/connect.js';
import { runPairedSweep } from '../core/sweep/pairedSweep.js';
import type { SweepFile, SweepSideStats } from '../protocol/sweep.js';
import { limitsFromArgs, modelSpecFromArgs } from './run.js';

export const COMPARE_OPTIONS = {
  ablation: { type: 'string' },
  arch: { type: 'string', default: 'malmm' },
  task: { type: 'string', default: 'stack_blocks' },
  variant: { type: 'string' },
  seeds: { type: 'string', default: '5' },
  model: { type: 'string', default: 'reference' },
  'base-url': { type: 'string' },
  'api-key-env': { type: 'string', default: 'OPENAI_API_KEY' },
  prompts: { type: 'string' },
  'max-turns': { type: 'string' },
  limit: { type: 'string', multiple: true },
  sim: { type: 'string', default: 'embedded' },
  'no-cache': { type: 'boolean', default: false },
  workspace: { type: 'string' },
} as const;

export type CompareArgs = { [K in keyof typeof COMPARE_OPTIONS]?: (typeof COMPARE_OPTIONS)[K] extends { multiple: true } ? string[] : (typeof COMPARE_OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

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
  return lines.join('\n');
}

export async function compareCommand(a: CompareArgs, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const fail = (m: string) => {
    process.stderr.write(`waypoint compare: ${m}\n`);
    return 2;
  };
  if (!a.ablation) return fail('--ablation <id> is required (an id from an {{#ablation}} block)');
  if (!/^\d+$/.test(a.seeds ?? '5')) return fail(`--seeds must be a positive integer, got '${a.seeds}'`);
  if (a['max-turns'] !== undefined && !/^\d+$/.test(a['max-turns'])) return fail(`--max-turns must be a positive integer, got '${a['max-turns']}'`);
  let model: ModelSpec;
  let limits: Record<string, string>;
  try {
    model = modelSpecFromArgs(a, process.env);
    limits = limitsFromArgs(a);
  } catch (err) {
    return fail(err instanceof Error ? err.message : String(err));
  }
  const simSpec = a.sim ?? 'embedded';
  const simProblem = simulatorSpecProblem(simSpec);
  if (simProblem) return fail(simProblem);
  const ac = new AbortController();
  const onSigint = () => ac.abort();
  process.once('SIGINT', onSigint);
  const progress = Boolean(process.stderr.isTTY);
  try {
    const { file, path } = await runPairedSweep(
      {
        workspace: resolve(a.workspace ?? process.cwd()),
        arch: a.arch ?? 'malmm',
        task: a.task ?? 'stack_blocks',
        variant: a.variant,
        ablation: a.ablation,
        seeds: Number(a.seeds ?? '5'),
        builtInPromptRoot: resolve(findPackageRoot(), 'prompts'),
        promptDir: a.prompts ? resolve(a.prompts) : undefined,
        model,
        limits,
        cache: !a['no-cache'],
        signal: ac.signal,
        onProgress: (p) => {
          if (progress && p.phase === 'start') process.stderr.write(`\r\x1b[K  … seed ${p.seed} ${p.side} (${p.done}/${p.total} done)`);
        },
      },
      { io: nodeIO, clock: nodeClock, createSimulator: () => connectSimulator(simSpec, { cwd: process.cwd() }), createSandbox: () => createPyodideSandbox() },
    ).catch((err: unknown) => {
      throw new CompareInputError(err instanceof Error ? err.message : String(err));
    });
    if (progress) process.stderr.write('\r\x1b[K');
    out.write(formatComparison(file) + '\n');
    out.write(`sweep: ${path}\n`);
    return file.status === 'cancelled' ? 1 : 0;
  } catch (err) {
    if (err instanceof CompareInputError) return fail(err.message);
    throw err;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

class CompareInputError extends Error {}
