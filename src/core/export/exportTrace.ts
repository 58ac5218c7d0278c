// Export entry shared by the CLI and the extension: trace text in (read with the tolerant reader, so whatever the
// trace encoding becomes, this stays a projection of its events), file bytes out, plus what could not be
// exported. Hosts read and write the files.
import type { SweepFile } from '../../protocol/sweep.js';
import type { TraceEvent } from '../../protocol/trace.js';
import { readTrace, type TraceWarning } from '../trace/reader.js';
import { toInspectLog, type InspectEpisode } from './inspect/inspectLog.js';
import { exportMcap } from './mcap/mcapExport.js';

export type ExportFormat = 'mcap' | 'mcap-ros2' | 'inspect';

export interface ExportResult {
  bytes: Uint8Array;
  /** One line for the user: what was written. */
  summary: string;
  /** What the file lacks because the input was damaged or missing (empty when complete). */
  lost: string[];
  /** Harmless notes (event types this Waypoint does not know, meshes not drawn, a run still going). */
  notes: string[];
}

/** Warnings that mean events were lost (an unknown event type is only skipped). */
const LOSSY: TraceWarning['kind'][] = ['truncated_last_line', 'corrupt_line', 'invalid_event'];

export function readForExport(text: string, label: string): { events: TraceEvent[]; lost: string[]; notes: string[] } {
  const { events, warnings } = readTrace(text);
  const lost = warnings.filter((w) => LOSSY.includes(w.kind)).map((w) => `${label}: ${w.message}`);
  const unknown = warnings.filter((w) => w.kind === 'unknown_event').length;
  const notes = unknown ? [`${label}: ${unknown} event(s) of types this Waypoint does not know were skipped`] : [];
  if (events.length > 0 && lost.length === 0 && !events.some((e) => e.type === 'episode_end')) notes.push(`${label}: no episode_end (the run was interrupted or is still running); exported the ${events.length} events it holds`);
  if (events.length === 0) lost.push(`${label}: no readable event`);
  return { events, lost, notes };
}

export async function exportTrace(text: string, label: string, format: ExportFormat, waypointVersion: string): Promise<ExportResult> {
  const { events, lost, notes } = readForExport(text, label);
  if (events.length === 0) throw new Error(`${label} holds no readable trace event${lost.length > 1 ? ` (${lost[0]})` : ''}`);
  if (format === 'inspect') {
    const log = toInspectLog([{ events }], { waypointVersion });
    const n = (log.samples as unknown[]).length;
    return { bytes: new TextEncoder().encode(JSON.stringify(log, null, 1)), summary: `Inspect eval log, ${n} sample${n === 1 ? '' : 's'}`, lost, notes };
  }
  const r = await exportMcap(events, { ros2Transforms: format === 'mcap-ros2' });
  if (r.skippedGeoms) notes.push(`${r.skippedGeoms} mesh geom(s) not drawn (mesh data is not in the trace)`);
  if (r.skippedEvents) notes.push(`${r.skippedEvents} event(s) of types this exporter does not know were left out`);
  const topics = Object.entries(r.counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([t, n]) => `${t} ${n}`)
    .join(', ');
  const secs = Number(r.endNs - r.startNs) / 1e9;
  return { bytes: r.bytes, summary: `MCAP${format === 'mcap-ros2' ? ' (ROS 2 transforms)' : ''}, ${secs.toFixed(1)} s of sim time: ${topics}`, lost, notes };
}

/** A paired sweep as one Inspect log: each episode a sample `seed-<n>/<on|off>`; `traceText(path)` is null when missing. */
export async function exportSweepInspect(sweep: SweepFile, traceText: (path: string) => Promise<string | null>, waypointVersion: string): Promise<ExportResult> {
  const episodes: InspectEpisode[] = [];
  const lost: string[] = [];
  const notes: string[] = [];
  for (const p of sweep.comparison.pairs) {
    for (const side of ['on', 'off'] as const) {
      const o = p[side];
      if (!o) {
        lost.push(`seed ${p.seed} ${side}: no episode recorded in the sweep`);
        continue;
      }
      const text = await traceText(o.tracePath);
      if (text === null) {
        lost.push(`seed ${p.seed} ${side}: trace ${o.tracePath} is missing`);
        continue;
      }
      const r = readForExport(text, `seed ${p.seed} ${side}`);
      lost.push(...r.lost);
      notes.push(...r.notes);
      if (r.events.length) episodes.push({ events: r.events, id: `seed-${p.seed}/${side}`, metadata: { sweep_id: sweep.id, ablation: sweep.ablation, ablation_on: side === 'on' } });
    }
  }
  if (episodes.length === 0) throw new Error(`sweep ${sweep.id}: none of its episode traces could be read`);
  const log = toInspectLog(episodes, {
    waypointVersion,
    taskName: `waypoint/${sweep.arch}/${sweep.task}/${sweep.ablation}`,
    taskArgs: { ablation: sweep.ablation, sweep_id: sweep.id },
    status: sweep.status === 'cancelled' ? 'cancelled' : undefined,
    metadata: { sweep: { id: sweep.id, ablation: sweep.ablation, on: sweep.comparison.on, off: sweep.comparison.off, differing: sweep.comparison.differing } },
  });
  return { bytes: new TextEncoder().encode(JSON.stringify(log, null, 1)), summary: `Inspect eval log, ${episodes.length} samples (sweep ${sweep.id}, ablation ${sweep.ablation} on/off)`, lost, notes };
}
