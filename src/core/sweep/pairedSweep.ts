// A paired on/off sweep of one ablation: every seed runs twice through launchRun, once with the ablation on and
// once off (the rest of the base variant unchanged), one episode at a time. Pairing by seed means both sides see
// the same object layouts, so a difference is the ablation's and not the layout's. A failed episode is an
// outcome; only bad input (unknown architecture, variant, task or ablation id) throws, before anything runs (a
// task the simulator does not have is found by the first episode, which is then the only one).
import { join } from 'node:path';
import { SWEEP_SCHEMA_VERSION, SweepFile, type SweepOutcome, type SweepPair } from '../../protocol/sweep.js';
import type { EpisodeOptions } from '../agents/types.js';
import { EpisodeController } from '../engine/controller.js';
import { messageOf } from '../engine/episode.js';
import { ABLATION_ID } from '../prompt/render.js';
import { referenceLabel } from '../llm/reference/policy.js';
import { launchRun, type LaunchDeps, type LaunchOptions, type LaunchResult, type ModelSpec } from '../runs/launch.js';
import { preflightRun, StartError } from '../runs/preflight.js';
import { endedBeforeStart } from '../trace/projections/runSummary.js';
import { compareSides } from './stats.js';

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

async function checkInput(o: PairedSweepOptions, deps: LaunchDeps): Promise<string> {
  if (!Number.isInteger(o.seeds) || o.seeds < 1 || o.seeds > MAX_SWEEP_SEEDS) throw new Error(`seeds must be an integer in 1..${MAX_SWEEP_SEEDS}, got ${o.seeds}`);
  if (!ABLATION_ID.test(o.ablation)) throw new Error(`invalid ablation id '${o.ablation}' (lower-case letters, digits, '_', '.', '-')`);
  // The same checks a run makes before it starts, with the ablation switched: a misspelt id, or one the variant's
  // prompts do not have, would make both sides identical and the comparison silently meaningless.
  const checked = await preflightRun(deps.io, { ...o, ablations: { [o.ablation]: true } });
  return checked.variant.name;
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
  const variant = await checkInput(o, deps);
  const launch = deps.launch ?? launchRun;
  const id = await newSweepId(o, deps);
  const dir = join(o.workspace, SWEEPS_DIR, id);
  await deps.io.mkdirp(dir);
  const startedAt = deps.clock.isoNow();
  const total = o.seeds * 2;
  const pairs: SweepPair[] = [];
  let done = 0;
  let cancelled = false;

  for (let seed = 0; seed < o.seeds && !cancelled; seed++) {
    const pair: SweepPair = { seed, on: null, off: null };
    pairs.push(pair);
    for (const side of ['on', 'off'] as const) {
      if (o.signal?.aborted) {
        cancelled = true;
        break;
      }
      o.onProgress?.({ done, total, seed, side, phase: 'start' });
      const controller = new EpisodeController();
      const onAbort = () => controller.cancel();
      o.signal?.addEventListener('abort', onAbort, { once: true });
      let outcome: SweepOutcome;
      try {
        const r = await launch(
          {
            workspace: o.workspace,
            arch: o.arch,
            task: o.task,
            seed,
            variant,
            ablations: { [o.ablation]: side === 'on' },
            builtInPromptRoot: o.builtInPromptRoot,
            promptDir: o.promptDir,
            model: o.model,
            options: o.options,
            limits: o.limits,
            cache: o.cache,
            controller,
          },
          deps,
        );
        outcome = { seed, runId: r.runId, tracePath: r.tracePath, success: r.success, reason: r.reason, ...(r.message ? { message: r.message } : {}), turns: r.end.metrics.turns, modelCalls: r.end.metrics.modelCalls };
        // The first episode refused at the start (e.g. an unknown task): every other one would be too.
        if (done === 0 && endedBeforeStart(r.end)) {
          await deps.io.remove(dir).catch(() => undefined);
          throw new StartError(r.reason === 'prompt_error' ? 'prompt_error' : 'invalid_input', r.end.message ?? r.reason);
        }
      } catch (err) {
        if (err instanceof StartError) throw err;
        // launchRun records its own failures; a throw is a bug, and still only this episode's outcome.
        outcome = { seed, runId: '', tracePath: '', success: false, reason: 'engine_error', message: messageOf(err), turns: 0, modelCalls: 0 };
      } finally {
        o.signal?.removeEventListener('abort', onAbort);
      }
      // An episode cut short by the cancel says nothing about the ablation: leave its side empty.
      if (o.signal?.aborted && outcome.reason === 'cancelled') {
        cancelled = true;
        break;
      }
      pair[side] = outcome;
      done++;
      o.onProgress?.({ done, total, seed, side, phase: 'end', outcome });
    }
  }

  const file: SweepFile = {
    schemaVersion: SWEEP_SCHEMA_VERSION,
    id,
    kind: 'paired_ablation',
    startedAt,
    endedAt: deps.clock.isoNow(),
    status: cancelled || o.signal?.aborted ? 'cancelled' : 'complete',
    arch: o.arch,
    task: o.task,
    variant,
    ablation: o.ablation,
    seeds: Array.from({ length: o.seeds }, (_, i) => i),
    model: { kind: o.model.kind, label: modelLabel(o.model) },
    comparison: compareSides(pairs.filter((p) => p.on || p.off), o.ablation),
  };
  SweepFile.parse(file);
  const path = sweepPath(o.workspace, id);
  await deps.io.writeText(path, JSON.stringify(file, null, 2) + '\n');
  return { file, path };
}
