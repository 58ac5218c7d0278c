// A sweep from a file (`waypoint sweep`: plan.json and episode records) as one Inspect AI eval log: each counted
// episode a sample `<task>/<column>/seed-<n>` (and `/r<k>` for repeats) scored by the simulator's check, with the
// sweep's column, variant, ablations and prompt version as sample metadata. Paired compare sweeps keep their own
// on/off form (exportSweepInspect).
import type { EpisodeRecord } from '../sweep/record.js';
import { readForExport, type ExportResult } from './exportTrace.js';
import { toInspectLog, type InspectEpisode } from './inspect/inspectLog.js';

export interface PlanSweepForExport {
  name: string;
  arch: string;
  model: string;
  baseline: string;
  /** Episodes in the plan (finished or not). */
  planned: number;
  promptVersions: Record<string, string>;
}

export async function exportPlanSweepInspect(sweep: PlanSweepForExport, records: readonly EpisodeRecord[], traceText: (tracePath: string) => Promise<string | null>, waypointVersion: string): Promise<ExportResult> {
  const episodes: InspectEpisode[] = [];
  const lost: string[] = [];
  const notes: string[] = [];
  for (const r of records) {
    const id = `${r.task}/${r.cell}/seed-${r.seed}${r.repeat > 0 ? `/r${r.repeat}` : ''}`;
    const text = await traceText(r.tracePath);
    if (text === null) {
      lost.push(`${id}: trace ${r.tracePath} is missing`);
      continue;
    }
    const read = readForExport(text, id);
    lost.push(...read.lost);
    notes.push(...read.notes);
    if (read.events.length > 0) {
      episodes.push({ events: read.events, id, metadata: { sweep: sweep.name, task: r.task, column: r.cell, variant: r.variant, ablations: r.ablations, seed: r.seed, repeat: r.repeat, ...(r.promptVersion ? { prompt_version: r.promptVersion } : {}) } });
    }
  }
  if (episodes.length === 0) throw new Error(records.length === 0 ? `sweep ${sweep.name} has no finished episode to export` : `sweep ${sweep.name}: none of its episode traces could be read`);
  if (records.length < sweep.planned) notes.push(`${records.length} of the sweep's ${sweep.planned} episodes are finished; exported those`);
  const log = toInspectLog(episodes, {
    waypointVersion,
    taskName: `waypoint/${sweep.arch}/sweep/${sweep.name}`,
    taskArgs: { sweep: sweep.name, baseline: sweep.baseline },
    status: records.length < sweep.planned ? 'started' : undefined,
    metadata: { sweep: { name: sweep.name, arch: sweep.arch, model: sweep.model, baseline: sweep.baseline, planned: sweep.planned, prompt_versions: sweep.promptVersions } },
  });
  return { bytes: new TextEncoder().encode(JSON.stringify(log, null, 1)), summary: `Inspect eval log, ${episodes.length} samples (sweep ${sweep.name})`, lost, notes };
}
