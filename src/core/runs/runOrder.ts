// The one notion of "newest" for every list of runs (`waypoint runs`, `show` and `report` without an argument, the
// Runs view, the debugger's run picker, prompt hovers): the episode's start time. Pure and import-free, so the
// extension's activation chunk can sort without loading the trace reader.

/** What ordering needs of a run's listing (RunSummary in runStore.ts). */
export interface RunTimes {
  runId: string;
  startedAt?: string;
  modifiedAt?: string;
}

/** The UTC stamp a run id made by newRunId starts with (20261121-203640-…), in epoch ms. */
function idStampMs(runId: string): number | undefined {
  const m = /^(\d{4})(\d\d)(\d\d)-(\d\d)(\d\d)(\d\d)-/.exec(runId);
  if (!m) return undefined;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  return Number.isFinite(ms) ? ms : undefined;
}

/**
 * When a run started: the episode's own start time (episode_start.startedAt). A run id cannot order runs: a
 * sweep names its runs by episode key (malmm-…, roco-…). For a trace whose start cannot be read (its first line cut
 * or corrupt): the UTC stamp of a timestamped run id, else the time the trace was last written (`modifiedAt`).
 */
export function runStartMs(r: RunTimes): number | undefined {
  const started = r.startedAt === undefined ? NaN : Date.parse(r.startedAt);
  if (Number.isFinite(started)) return started;
  const stamp = idStampMs(r.runId);
  if (stamp !== undefined) return stamp;
  const modified = r.modifiedAt === undefined ? NaN : Date.parse(r.modifiedAt);
  return Number.isFinite(modified) ? modified : undefined;
}

/** Sort comparator: newest start first (runStartMs), runs with no time at all last; equal times by run id, descending. */
export function newestFirst(a: RunTimes, b: RunTimes): number {
  const ta = runStartMs(a) ?? -Infinity;
  const tb = runStartMs(b) ?? -Infinity;
  if (ta !== tb) return tb > ta ? 1 : -1;
  return a.runId < b.runId ? 1 : a.runId > b.runId ? -1 : 0;
}
