// `waypoint export <sweep | run> --csv out.csv | --parquet out.parquet`: one row per episode (docs/data.md). A sweep's
// rows come from its records (what its matrix counts, hand-edited labels in effect) and the two ends of each trace;
// a run on its own becomes one row through the same record a sweep would have kept for it.
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { EventOf } from '../protocol/trace.js';
import { episodeTable, type EpisodeRowSource, type EpisodeTable } from '../core/export/table/episodeTable.js';
import { traceEnds } from '../core/export/table/traceEnds.js';
import { nodeIO } from '../core/node/nodeHost.js';
import type { FailureLabel } from '../core/sweep/failureLabels.js';
import { effectiveLabels } from '../core/sweep/matrix.js';
import { recordFromTrace, type EpisodeRecord } from '../core/sweep/record.js';
import { PLAN_FILE } from '../core/sweep/scheduler.js';
import { SWEEPS_DIR } from '../core/sweep/pairedSweep.js';
import { readRecords } from '../core/sweep/workers.js';
import { readTrace } from '../core/trace/reader.js';
import { loadPrices } from './sweep.js';

export interface LoadedTable {
  table: EpisodeTable;
  /** What the rows are, for the summary line ("sweep tiny, 4 episodes"). */
  what: string;
  /** Things the table lacks (a trace that is gone: its simulated time is empty). */
  notes: string[];
}

const isFile = (p: string) => existsSync(p) && statSync(p).isFile();

/** A sweep folder (one with plan.json) that `target` names: a folder, its plan.json or sweep.json, or a sweep name. */
export function sweepFolderOf(target: string, workspace: string): string | undefined {
  const p = resolve(target);
  const candidates = isFile(p) ? [dirname(p)] : [p];
  if (/^[\w.-]+$/.test(target)) candidates.push(join(workspace, SWEEPS_DIR, target));
  return candidates.find((d) => isFile(join(d, PLAN_FILE)));
}

/** The workspace a sweep folder belongs to (<ws>/.waypoint/sweeps/<name>): record paths are relative to it. */
const workspaceOfSweep = (dir: string) => resolve(dir, '..', '..', '..');

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

export async function sweepTable(dir: string): Promise<LoadedTable> {
  const plan = (await readJson(join(dir, PLAN_FILE))) as { name?: string; spec?: { arch?: string; model?: { name?: string } }; episodes?: { key: string }[] } | undefined;
  if (!plan || !Array.isArray(plan.episodes) || typeof plan.spec?.arch !== 'string') throw new Error(`${join(dir, PLAN_FILE)} is not a sweep plan (no spec.arch or episodes)`);
  const order = new Map(plan.episodes.map((e, i) => [e.key, i]));
  // Only the plan's keys, in the plan's order: what the matrix counts.
  const records = (await readRecords(nodeIO, dir)).filter((r) => order.has(r.key)).sort((a, b) => order.get(a.key)! - order.get(b.key)!);
  const manual = (await readJson(join(dir, 'labels.json'))) as Record<string, FailureLabel[]> | undefined;
  const ws = workspaceOfSweep(dir);
  const notes: string[] = [];
  const missing: string[] = [];
  const sources: EpisodeRowSource[] = [];
  for (const r of records) {
    const path = join(ws, r.tracePath);
    const ends = isFile(path) ? traceEnds(await readFile(path, 'utf8')) : undefined;
    if (!ends?.end) missing.push(r.key);
    sources.push({
      record: r as EpisodeRecord & Record<string, unknown>,
      sweep: plan.name ?? dir.split(sep).pop(),
      arch: plan.spec.arch,
      // The sweep file's name for it (e.g. openai:gpt-4o-mini), the same on every row.
      model: plan.spec.model?.name ?? ends?.start?.model.model ?? '',
      labels: effectiveLabels(r, manual && typeof manual === 'object' ? manual : undefined),
      ...ends,
    });
  }
  if (missing.length) notes.push(`${missing.length} episode(s) without a readable trace end (sim_secs and simulator left empty): ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', ...' : ''}`);
  const unfinished = plan.episodes.length - records.length;
  if (unfinished > 0) notes.push(`${unfinished} of the plan's ${plan.episodes.length} episodes have no record yet (not run, or in flight): not in the table`);
  return { table: episodeTable(sources), what: `sweep ${plan.name ?? dir}, ${records.length} episode${records.length === 1 ? '' : 's'}`, notes };
}

/** One run as one row: the record a sweep would have kept for it, from its trace. */
export async function runTable(tracePath: string, workspace: string): Promise<LoadedTable & { lost: string[] }> {
  const { events, warnings } = readTrace(await readFile(tracePath, 'utf8'));
  const start = events.find((e): e is EventOf<'episode_start'> => e.type === 'episode_start');
  if (!start) throw new Error(`${tracePath} has no readable episode_start`);
  const end = [...events].reverse().find((e): e is EventOf<'episode_end'> => e.type === 'episode_end');
  const lost = warnings.filter((w) => w.kind === 'truncated_last_line' || w.kind === 'corrupt_line' || w.kind === 'invalid_event').map((w) => w.message);
  const rel = relative(workspace, tracePath);
  const shown = rel.startsWith('..') || isAbsolute(rel) ? tracePath : rel;
  const ep = { key: start.runId, task: start.task, cell: start.variant, variant: start.variant, ablations: start.ablations, seed: start.seed, repeat: 0 };
  const record = recordFromTrace(ep, start.runId, shown, events, await loadPrices(workspace));
  const notes = end ? [] : ['the run has no episode_end (interrupted or still running): its row shows it as engine_error'];
  return {
    table: episodeTable([{ record: record as EpisodeRecord & Record<string, unknown>, arch: start.arch, model: start.model.model, labels: record.labels, start, ...(end ? { end } : {}) }]),
    what: `run ${start.runId}, 1 episode`,
    notes,
    lost,
  };
}
