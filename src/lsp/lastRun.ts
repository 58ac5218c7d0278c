// Finds the variable values a prompt's role was rendered with in the newest run, for hovers and the
// `waypoint/lastRunValues` request. Runs are read through HostIO, newest first by run id (ids start with a UTC
// timestamp, see core/runs/runStore.ts), so the order does not depend on directory listing or file times.
import type { HostIO } from '../core/host.js';
import { RUNS_DIR, TRACE_FILE } from '../core/runs/runStore.js';
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
    const ids = (await this.io.list(base)).sort().reverse().slice(0, MAX_RUNS);
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
