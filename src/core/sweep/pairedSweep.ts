// A paired on/off sweep of one ablation (`waypoint compare`, the ⇄ compare lens): every seed runs twice, once with
// the ablation on and once off (the rest of the base variant unchanged). It is a two-column sweep on the sweep
// scheduler (scheduler.ts: records per episode, the same statistics, endpoint pauses and retries; its folder also
// opens in the sweep comparison view), plus sweep.json, the paired summary the compare panel and the CLI print.
// Pairing by seed means both sides see the same object layouts, so a difference is the ablation's and not the
// layout's. A failed episode is an outcome; only bad input (unknown architecture, variant, task or ablation id)
// throws, before anything runs (a task the simulator does not have is found by the first episode, which is then
// the only one).
import { join } from 'node:path';
import { SWEEP_SCHEMA_VERSION, SweepFile, type SweepOutcome, type SweepPair } from '../../protocol/sweep.js';
import { resolveLimits } from '../architecture/limits.js';
import type { EpisodeOptions } from '../architecture/types.js';
import { ABLATION_ID } from '../prompt/render.js';
import { referenceLabel } from '../llm/reference/policy.js';
import { launchRun, type LaunchDeps, type LaunchOptions, type LaunchResult, type ModelSpec } from '../runs/launch.js';
import { preflightRun, StartError } from '../runs/preflight.js';
import type { EpisodeRecord } from './record.js';
import { runSweep } from './scheduler.js';
import { promptIdentityOf, promptVersion } from './promptVersion.js';
import { episodeKey, SweepSpecSchema, type PlannedSweep, type ResolvedCell, type SweepCell, type SweepEpisode } from './spec.js';
import { compareSides } from './stats.js';
import { InProcessWorker, type EpisodeWorker } from './workers.js';

export const SWEEPS_DIR = '.waypoint/sweeps';
export const SWEEP_FILE = 'sweep.json';
export const MAX_SWEEP_SEEDS = 100;

export interface PairedSweepOptions {
  workspace: string;
  arch: string;
  task: string;
  /** Base variant; default: the variants file's `active`. */
  variant?: string;
  ablation: string;
  /** Seeds 0 .. seeds-1. */
  seeds: number;
  builtInPromptRoot: string;
  promptDir?: string;
  model: ModelSpec;
  options?: Partial<Omit<EpisodeOptions, 'limits'>>;
  /** The architecture's limits by name (e.g. { maxTurns: 30 }). */
  limits?: Readonly<Record<string, unknown>>;
  cache?: boolean;
  /** Aborting cancels the episode in flight and starts no more; the sweep is then recorded 'cancelled'. */
  signal?: AbortSignal;
  onProgress?(p: SweepProgress): void;
}

export interface SweepProgress {
  /** Episodes finished so far, of `total`. */
  done: number;
  total: number;
  seed: number;
  side: 'on' | 'off';
  phase: 'start' | 'end';
  outcome?: SweepOutcome;
}

export interface PairedSweepDeps extends LaunchDeps {
  /** Defaults to launchRun; tests inject a fake. */
  launch?: (options: LaunchOptions, deps: LaunchDeps) => Promise<LaunchResult>;
}

export interface PairedSweepResult {
  file: SweepFile;
  /** Absolute path of sweep.json. */
  path: string;
}

export function sweepPath(workspace: string, id: string): string {
  return join(workspace, SWEEPS_DIR, id, SWEEP_FILE);
}

function modelLabel(spec: ModelSpec): string {
  return spec.kind === 'reference' ? referenceLabel(spec.profile ?? 'reference') : (spec.label ?? `${spec.model} @ ${spec.baseUrl}`);
}

/** The base variant's name and what each side runs (prompt version inputs, limits), after the run's own checks. */
async function checkInput(o: PairedSweepOptions, deps: LaunchDeps): Promise<{ variant: string; sides: Record<'on' | 'off', ResolvedCell> }> {
  if (!Number.isInteger(o.seeds) || o.seeds < 1 || o.seeds > MAX_SWEEP_SEEDS) throw new Error(`seeds must be an integer in 1..${MAX_SWEEP_SEEDS}, got ${o.seeds}`);
  if (!ABLATION_ID.test(o.ablation)) throw new Error(`invalid ablation id '${o.ablation}' (lower-case letters, digits, '_', '.', '-')`);
  // The same checks a run makes before it starts, with the ablation switched: a misspelt id, or one the variant's
  // prompts do not have, would make both sides identical and the comparison silently meaningless.
  const checked = await preflightRun(deps.io, { ...o, architectures: deps.architectures, ablations: { [o.ablation]: true } });
  const limits = resolveLimits(checked.arch, { ...(checked.variant.limits ?? {}), ...(o.limits ?? {}) });
  const on = await promptIdentityOf(deps.io, checked);
  const side = (value: boolean): ResolvedCell => ({ prompt: { ...on, ablations: { ...on.ablations, [o.ablation]: value } }, limits: limits.ok ? limits.limits : {}, ...(checked.variant.agents !== undefined ? { agents: checked.variant.agents } : {}) });
  return { variant: checked.variant.name, sides: { on: side(true), off: side(false) } };
}

async function newSweepId(o: PairedSweepOptions, deps: LaunchDeps): Promise<string> {
  const stamp = deps.clock.isoNow().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const base = `${stamp}-${o.ablation.replace(/[^A-Za-z0-9_.-]/g, '_')}-${o.task.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
  for (let i = 1; ; i++) {
    const id = i === 1 ? base : `${base}-${i}`;
    if (!(await deps.io.exists(join(o.workspace, SWEEPS_DIR, id)))) return id;
  }
}

export async function runPairedSweep(o: PairedSweepOptions, deps: PairedSweepDeps): Promise<PairedSweepResult> {
  const { variant, sides } = await checkInput(o, deps);
  const id = await newSweepId(o, deps);
  const dir = join(o.workspace, SWEEPS_DIR, id);
  await deps.io.mkdirp(dir);
  const startedAt = deps.clock.isoNow();
  const plan = pairedPlan(o, id, variant, sides);
  const total = plan.episodes.length;
  // The first episode refused at its start (e.g. an unknown task) means every other one would be: stop there.
  const stop = new AbortController();
  const signal = o.signal ? AbortSignal.any([o.signal, stop.signal]) : stop.signal;
  let refused: EpisodeRecord | undefined;
  let done = 0;
  const side = (cell: string) => (cell === 'on' ? 'on' : 'off') as 'on' | 'off';
  const outcomeOf = (r: EpisodeRecord): SweepOutcome => ({ seed: r.seed, runId: r.runId, tracePath: r.tracePath ? join(o.workspace, r.tracePath) : '', success: r.success, reason: r.reason, ...(r.message ? { message: r.message } : {}), turns: r.turns, modelCalls: r.modelCalls });
  const inner = new InProcessWorker(() => deps, deps.launch ?? launchRun);
  const worker: EpisodeWorker = {
    run: (job, meter, sig) => {
      o.onProgress?.({ done, total, seed: job.episode.seed, side: side(job.episode.cell), phase: 'start' });
      return inner.run(job, meter, sig);
    },
    close: () => inner.close(),
  };
  const result = await runSweep({
    plan,
    io: deps.io,
    clock: deps.clock,
    workspace: o.workspace,
    builtInPromptRoot: o.builtInPromptRoot,
    promptDir: o.promptDir,
    sim: 'embedded',
    ...(o.options ? { options: o.options } : {}),
    workers: [worker],
    signal,
    onProgress: (p) => {
      const r = p.last;
      if (!r) return;
      done = p.done;
      if (p.done === 1 && START_FAILURES.has(r.reason) && r.modelCalls === 0 && r.turns === 0) {
        refused = r;
        stop.abort();
        return;
      }
      o.onProgress?.({ done, total, seed: r.seed, side: side(r.cell), phase: 'end', outcome: outcomeOf(r) });
    },
  });
  // An episode refused for its configuration (the scheduler stops there and keeps no record of it).
  refused ??= result.refusal;
  if (refused) {
    await deps.io.remove(dir).catch(() => undefined);
    if (refused.tracePath) await deps.io.remove(join(o.workspace, refused.tracePath, '..')).catch(() => undefined);
    throw new StartError(refused.reason === 'prompt_error' ? 'prompt_error' : 'invalid_input', refused.message ?? refused.reason);
  }
  const pairs: SweepPair[] = [];
  for (const seed of plan.seeds) {
    // A cancelled episode is no outcome: it counts on neither side (its trace still says it was cancelled).
    const on = result.records.find((r) => r.seed === seed && r.cell === 'on' && r.reason !== 'cancelled');
    const off = result.records.find((r) => r.seed === seed && r.cell === 'off' && r.reason !== 'cancelled');
    if (on || off) pairs.push({ seed, on: on ? outcomeOf(on) : null, off: off ? outcomeOf(off) : null });
  }
  const file: SweepFile = {
    schemaVersion: SWEEP_SCHEMA_VERSION,
    id,
    kind: 'paired_ablation',
    startedAt,
    endedAt: deps.clock.isoNow(),
    status: result.status === 'complete' && !o.signal?.aborted ? 'complete' : 'cancelled',
    arch: o.arch,
    task: o.task,
    variant,
    ablation: o.ablation,
    seeds: plan.seeds,
    model: { kind: o.model.kind, label: modelLabel(o.model) },
    comparison: compareSides(pairs, o.ablation),
  };
  SweepFile.parse(file);
  const path = sweepPath(o.workspace, id);
  await deps.io.writeText(path, JSON.stringify(file, null, 2) + '\n');
  return { file, path };
}

/** End reasons that can mean "refused at the start". */
const START_FAILURES: ReadonlySet<string> = new Set(['invalid_input', 'prompt_error', 'simulator_error', 'sandbox_error', 'engine_error']);

/**
 * The paired sweep as a scheduler plan: two columns (the ablation on and off over the same base variant), seeds
 * 0..n-1, one episode per seed and side, in seed order (on, then off) so that a stop leaves whole pairs. Keys
 * carry the sweep's id: every `compare` is its own sweep, and never reuses or removes another one's run folders.
 */
function pairedPlan(o: PairedSweepOptions, id: string, variant: string, sides: Record<'on' | 'off', ResolvedCell>): PlannedSweep {
  const cells: SweepCell[] = (['on', 'off'] as const).map((side) => ({ name: side, variant, ablations: { [o.ablation]: side === 'on' }, promptVersion: promptVersion(sides[side].prompt) }));
  const seeds = Array.from({ length: o.seeds }, (_, i) => i);
  const limits = o.limits as Record<string, number | string | boolean> | undefined;
  const spec = SweepSpecSchema.parse({
    name: id,
    arch: o.arch,
    tasks: [o.task],
    variants: cells.map((c) => ({ name: c.name, variant: c.variant, ablations: c.ablations })),
    seeds: seeds.map((s) => s),
    model: { name: o.model.kind === 'reference' ? (o.model.profile ?? 'reference') : `openai:${o.model.model}` },
    ...(limits ? { limits } : {}),
    cache: o.cache ?? true,
    baseline: 'on',
  });
  const episodes: SweepEpisode[] = seeds.flatMap((seed) =>
    cells.map((c) => ({
      key: `${id}-${c.name}-s${seed}-${episodeKey({ sweep: id, arch: o.arch, task: o.task, seed, repeat: 0, cell: c.name, variant, resolved: sides[c.name as 'on' | 'off'], model: o.model, simulator: 'embedded' }).slice(-10)}`,
      task: o.task,
      cell: c.name,
      variant,
      ablations: c.ablations,
      seed,
      repeat: 0,
      promptVersion: c.promptVersion,
    })),
  );
  return { name: id, spec, cells, seeds, model: o.model, episodes, baseline: 'on' };
}
