// Which records of a sweep folder count: one rule for the scheduler's resume, the matrix, the report and the
// comparison view. A record counts when its key is one of the plan's, the prompts its trace ran are the plan's
// (an edit made while the sweep ran is caught here), and it is an outcome rather than a refusal of the
// configuration. Records of older Waypoints (keys without the prompt version, the simulator or the engine's
// behaviour version) have keys no current plan has, so they are simply not counted; they stay on disk.
import { join } from 'node:path';
import { isInfrastructureEnd } from '../../protocol/trace.js';
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
  if (isInfrastructureEnd(r.reason)) return true;
  // Traces recorded before sandbox_error existed ended a sandbox that did not start as an engine_error.
  return r.reason === 'engine_error' && /failed to start|cannot start|start-up took longer/.test(r.message ?? '');
}

/**
 * Whether an episode's record is no outcome of the variant but a refusal of its configuration: an input the run's
 * checks refused (invalid_input: a misspelt limit, a task the simulator does not have) or a broken prompt
 * (prompt_error). Nothing about the variant was measured, so such a record is never kept: the sweep stops and
 * says so, and a resumed sweep runs the episode again. (An engine_error stays an outcome: the engine failed on
 * this episode, which the matrix must show.)
 */
export function refusalOf(r: Pick<EpisodeRecord, 'reason'>): string | undefined {
  return r.reason === 'invalid_input' || r.reason === 'prompt_error' ? r.reason : undefined;
}

/**
 * Whether the trace says the episode ran other prompts than the plan's. A record without a prompt version (its
 * trace had no readable start: a launch that threw) says nothing about its prompts and is taken as it is.
 */
export function ranOtherPrompts(r: Pick<EpisodeRecord, 'promptVersion'>, ep: { promptVersion?: string }): boolean {
  return ep.promptVersion !== undefined && r.promptVersion !== undefined && r.promptVersion !== ep.promptVersion;
}

/** Whether `r` is the finished episode `ep` of the plan (see the file comment). */
export function countsFor(r: EpisodeRecord, ep: { key: string; promptVersion?: string } | undefined): boolean {
  return ep !== undefined && r.key === ep.key && !ranOtherPrompts(r, ep) && refusalOf(r) === undefined;
}

/** The counted records of a sweep folder, in the plan's order. */
export async function countedRecords(io: HostIO, dir: string, plan: PlanFile): Promise<EpisodeRecord[]> {
  const byKey = new Map((await readRecords(io, dir)).map((r) => [r.key, r]));
  return plan.episodes.flatMap((e) => {
    const r = byKey.get(e.key);
    return r && countsFor(r, e) ? [r] : [];
  });
}
