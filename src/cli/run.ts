// `waypoint run`: one episode from the command line, with a live transcript and the trace path at the end.
import { resolve } from 'node:path';
import { EpisodeController } from '../core/engine/controller.js';
import { nodeClock, nodeIO } from '../core/node/nodeHost.js';
import { findPackageRoot } from '../core/node/packageRoot.js';
import { launchRun, type ModelSpec } from '../core/runs/launch.js';
import { createPyodideSandbox } from '../core/sandbox/index.js';
import { REFERENCE_PROFILES, type ReferenceProfile } from '../core/llm/reference/policy.js';
import { connectSimulator, simulatorSpecProblem } from '../core/sim/connect.js';
import { ARCH_MANIFESTS } from '../core/agents/manifests.js';
import { formatEvent } from './transcript.js';
import { terminalSeat } from './humanSeat.js';

export const RUN_OPTIONS = {
  arch: { type: 'string', default: 'malmm' },
  task: { type: 'string', default: 'stack_blocks' },
  seed: { type: 'string', default: '0' },
  variant: { type: 'string' },
  model: { type: 'string', default: 'reference' },
  'base-url': { type: 'string' },
  'api-key-env': { type: 'string', default: 'OPENAI_API_KEY' },
  temperature: { type: 'string' },
  'max-tokens': { type: 'string' },
  'model-seed': { type: 'string' },
  prompts: { type: 'string' },
  'max-turns': { type: 'string' },
  'max-errors': { type: 'string' },
  limit: { type: 'string', multiple: true },
  human: { type: 'string', multiple: true },
  sim: { type: 'string', default: 'embedded' },
  'code-timeout': { type: 'string' },
  'persist-namespace': { type: 'boolean', default: false },
  'no-cache': { type: 'boolean', default: false },
  workspace: { type: 'string' },
  verbose: { type: 'boolean', default: false },
  quiet: { type: 'boolean', default: false },
} as const;

export type RunArgs = { [K in keyof typeof RUN_OPTIONS]?: (typeof RUN_OPTIONS)[K] extends { multiple: true } ? string[] : (typeof RUN_OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

/**
 * `--limit name=value` (repeatable) plus the MALMM shorthands `--max-turns` and `--max-errors`. Names and values are
 * checked against the architecture's declared limits when the run starts.
 */
export function limitsFromArgs(a: { limit?: string[]; 'max-turns'?: string; 'max-errors'?: string }): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of a.limit ?? []) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new UsageError(`--limit takes name=value (e.g. --limit maxTurns=30), got '${item}'`);
    out[item.slice(0, eq).trim()] = item.slice(eq + 1).trim();
  }
  if (a['max-turns'] !== undefined) out.maxTurns = a['max-turns'];
  if (a['max-errors'] !== undefined) out.maxConsecutiveErrors = a['max-errors'];
  return out;
}

class UsageError extends Error {}

function int(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!/^-?\d+$/.test(v)) throw new UsageError(`--${name} must be an integer, got '${v}'`);
  return Number(v);
}
function num(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new UsageError(`--${name} must be a number, got '${v}'`);
  return n;
}

export function modelSpecFromArgs(a: RunArgs, env: NodeJS.ProcessEnv): ModelSpec {
  const m = a.model ?? 'reference';
  if ((REFERENCE_PROFILES as readonly string[]).includes(m)) return { kind: 'reference', baseUrl: a['base-url'], profile: m as ReferenceProfile };
  if (!m.startsWith('openai:') || m.length <= 'openai:'.length) {
    throw new UsageError(`--model must be ${REFERENCE_PROFILES.join(', ')} or openai:<model-name>, got '${m}'`);
  }
  const baseUrl = a['base-url'] ?? 'https://api.openai.com/v1';
  const keyVar = a['api-key-env'] ?? 'OPENAI_API_KEY';
  return {
    kind: 'openai',
    model: m.slice('openai:'.length),
    baseUrl,
    apiKey: env[keyVar],
    temperature: num('temperature', a.temperature),
    maxTokens: int('max-tokens', a['max-tokens']),
    seed: int('model-seed', a['model-seed']),
  };
}

export async function runCommand(a: RunArgs, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  let spec: ModelSpec;
  let seed: number;
  let options;
  let limits: Record<string, string>;
  const simSpec = a.sim ?? 'embedded';
  try {
    spec = modelSpecFromArgs(a, process.env);
    seed = int('seed', a.seed) ?? 0;
    options = {
      ...(a['code-timeout'] !== undefined ? { codeTimeoutSecs: num('code-timeout', a['code-timeout']) } : {}),
      persistNamespace: a['persist-namespace'] ?? false,
    };
    limits = limitsFromArgs(a);
    const simProblem = simulatorSpecProblem(simSpec);
    if (simProblem) throw new UsageError(simProblem);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`waypoint run: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  const color = Boolean((out as NodeJS.WriteStream).isTTY) && !process.env.NO_COLOR;
  const write = (s: string) => out.write(s + '\n');
  const controller = new EpisodeController();
  const progress = Boolean(process.stderr.isTTY) && !a.quiet;
  let turns = 0;
  controller.on((e) => {
    if (e.type !== 'trace_event') return;
    if (a.quiet && e.event.type !== 'episode_end' && e.event.type !== 'error') return;
    const text = formatEvent(e.event, { color, verbose: a.verbose ?? false });
    if (progress) process.stderr.write('\r\x1b[K');
    if (text) write(text);
    if ('turn' in e.event && typeof e.event.turn === 'number') turns = Math.max(turns, e.event.turn);
    if (progress && e.event.type !== 'episode_end') process.stderr.write(`  … turn ${turns}`);
  });
  const onSigint = () => controller.cancel();
  process.once('SIGINT', onSigint);
  const root = findPackageRoot();
  // People in robots' seats type at this terminal; the transcript goes to `out` as usual.
  const seat = a.human && a.human.length > 0 ? terminalSeat(a.human, process.stdin, process.stderr) : undefined;
  try {
    const result = await launchRun(
      {
        workspace: resolve(a.workspace ?? process.cwd()),
        arch: a.arch ?? 'malmm',
        task: a.task ?? 'stack_blocks',
        seed,
        variant: a.variant,
        promptDir: a.prompts ? resolve(a.prompts) : undefined,
        builtInPromptRoot: resolve(root, 'prompts'),
        model: spec,
        options,
        limits,
        cache: !a['no-cache'],
        controller,
        ...(seat ? { human: seat } : {}),
      },
      {
        io: nodeIO,
        clock: nodeClock,
        createSimulator: () => connectSimulator(simSpec, { cwd: process.cwd(), family: ARCH_MANIFESTS.get(a.arch ?? 'malmm')?.simulator }),
        createSandbox: () => createPyodideSandbox(),
      },
    );
    // Listeners run on setImmediate; let the last events print before the summary.
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    if (progress) process.stderr.write('\r\x1b[K');
    write(`trace: ${result.tracePath}`);
    if (result.reason === 'invalid_input' || result.reason === 'prompt_error') return 2;
    return result.success ? 0 : 1;
  } finally {
    seat?.close();
    process.off('SIGINT', onSigint);
  }
}
