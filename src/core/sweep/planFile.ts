// Which records of a sweep folder count: one rule for the scheduler's resume, the matrix, the report and the
// comparison view. A record counts when its key is one of the plan's, the prompts its trace ran are the plan's
// (an edit made while the sweep ran is caught here), and it is an outcome rather than a refusal of the
// configuration. Records of older Waypoints (keys without the prompt version, the simulator or the engine's
// behaviour version) have keys no current plan has, so they are simply not counted; they stay on disk.
import { join } from 'node:path';
import type { HostIO } from '../host.js';
import type { EpisodeRecord } from './record.js';
import type { SimulatorIdentity } from './spec.js';
import { readRecords } from './workers.js';

export const PLAN_FILE = 'plan.json';

/** plan.json as the views, merge and export read it (written by scheduler.ts's planFileOf). */
export interface PlanFile {
  schemaVersion?: number;
  name: string;
  spec: { arch: string; tasks: string[]; model: { name: string } };
  cells: { name: string; variant?: string; promptVersion?: string }[];
  baseline: string;
  seeds?: number[];
  episodes: { key: string; task?: string; cell?: string; seed?: number; repeat?: number; promptVersion?: string }[];
  simulator?: SimulatorIdentity;
}

export async function readPlanFile(io: HostIO, dir: string): Promise<PlanFile> {
  const path = join(dir, PLAN_FILE);
  if (!(await io.exists(path))) throw new Error(`not a sweep folder (no ${PLAN_FILE}): ${dir}`);
  return JSON.parse(await io.readText(path)) as PlanFile;
}

/**
 * A failure of the machinery, not of the agent: the endpoint down, a simulator or sandbox that could not start
 * (Pyodide's start-up timing out on an overloaded machine). Counting these as the variant's failures would make
 * the statistics lie, so the scheduler pauses and runs the episode again; only past its patience is it recorded.
 */
export function isInfrastructureFailure(r: { reason: string; message?: string }): boolean {
  if (r.reason === 'model_error' || r.reason === 'simulator_error') return true;
  return r.reason === 'engine_error' && /failed to start|cannot start|start-up took longer/.test(r.message ?? '');
}

/**
 * Why an episode's record is no outcome of the variant but a refusal of what it was given (an input the run
 * checks refused, a broken prompt, an engine that failed before the first model call for a reason other than the
 * machinery): undefined for an outcome. Such a record is never kept: the sweep stops and says so, and a resumed
 * sweep runs the episode again.
 */
export function refusalOf(r: Pick<EpisodeRecord, 'reason' | 'message' | 'turns' | 'modelCalls'>): string | undefined {
  if (r.reason === 'invalid_input' || r.reason === 'prompt_error') return r.reason;
  if (r.reason === 'engine_error' && r.turns === 0 && r.modelCalls === 0 && !isInfrastructureFailure(r)) return r.reason;
  return undefined;
}

/** Whether `r` is the finished episode `ep` of the plan (see the file comment). */
export function countsFor(r: EpisodeRecord, ep: { key: string; promptVersion?: string } | undefined): boolean {
  if (!ep || r.key !== ep.key) return false;
  if (ep.promptVersion !== undefined && r.promptVersion !== ep.promptVersion) return false;
  return refusalOf(r) === undefined;
}

/** The counted records of a sweep folder, in the plan's order. */
export async function countedRecords(io: HostIO, dir: string, plan: PlanFile): Promise<EpisodeRecord[]> {
  const byKey = new Map((await readRecords(io, dir)).map((r) => [r.key, r]));
  return plan.episodes.flatMap((e) => {
    const r = byKey.get(e.key);
    return r && countsFor(r, e) ? [r] : [];
  });
}
