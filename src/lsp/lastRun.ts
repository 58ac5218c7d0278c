// Finds the variable values a prompt's role was rendered with in the newest run, for hovers and the
// `waypoint/lastRunValues` request. Runs are read through HostIO, newest first by start time (core/runs/runOrder.ts,
// the order of `waypoint runs`): a sweep's runs are named by key, not by a timestamp.
import type { HostIO } from '../core/host.js';
import { newestFirst, type RunTimes } from '../core/runs/runOrder.js';
import { RUNS_DIR, SUMMARY_FILE, TRACE_FILE } from '../core/runs/runStore.js';
import { parseSummaryFile } from '../core/trace/summaryFile.js';
import { readTrace } from '../core/trace/reader.js';
import type { TraceEvent } from '../protocol/trace.js';
import type { LastRunValuesResult } from '../protocol/lsp.js';

/** How many of the newest runs to search for a call of the role. */
const MAX_RUNS = 20;

export class LastRunFinder {
  /** Finished traces never change, so their events are kept. */
  private readonly finished = new Map<string, TraceEvent[]>();

  constructor(private readonly io: HostIO) {}

  async find(workspaceRoot: string, role: string, arch: string | undefined): Promise<LastRunValuesResult> {
    const base = `${workspaceRoot}/${RUNS_DIR}`;
    const all = await Promise.all((await this.io.list(base)).map(async (runId): Promise<RunTimes> => ({ runId, startedAt: await this.startedAt(`${base}/${runId}`) })));
    const ids = all.sort(newestFirst).slice(0, MAX_RUNS).map((r) => r.runId);
    for (const runId of ids) {
      const path = `${base}/${runId}/${TRACE_FILE}`;
      const events = await this.events(path);
      if (!events) continue;
      const start = events.find((e) => e.type === 'episode_start');
      if (arch && start && start.type === 'episode_start' && start.arch !== arch) continue;
      for (let i = events.length - 1; i >= 0; i--) {
        const e = events[i];
        if (e.type === 'role_call' && e.role === role) return { runId, tracePath: path, role, turn: e.turn, variables: e.variables };
      }
    }
    return null;
  }

  /** The run's episode_start time: from its summary file (a few hundred bytes), else from its trace. */
  private async startedAt(dir: string): Promise<string | undefined> {
    const summaryPath = `${dir}/${SUMMARY_FILE}`;
    const fromSummary = (await this.io.exists(summaryPath)) ? parseSummaryFile(await this.io.readText(summaryPath).catch(() => ''))?.startedAt : undefined;
    if (fromSummary !== undefined) return fromSummary;
    const start = (await this.events(`${dir}/${TRACE_FILE}`))?.find((e) => e.type === 'episode_start');
    return start?.type === 'episode_start' ? start.startedAt : undefined;
  }

  private async events(path: string): Promise<TraceEvent[] | undefined> {
    const cached = this.finished.get(path);
    if (cached) return cached;
    if (!(await this.io.exists(path))) return undefined;
    const { events } = readTrace(await this.io.readText(path));
    if (events.some((e) => e.type === 'episode_end')) this.finished.set(path, events);
    return events;
  }
}

/** One line of a value for a hover: JSON, cut to `max` characters. */
export function previewValue(value: unknown, max = 300): string {
  let s: string;
  try {
    s = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  } catch {
    s = String(value);
  }
  return s.length > max ? `${s.slice(0, max)}… (${s.length} chars)` : s;
}
