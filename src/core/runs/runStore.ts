// Runs live under <workspace>/.waypoint/runs/<run-id>/trace.jsonl. The trace alone describes a run; listing
// reads the small summary.json the writer leaves beside a finished trace, and parses the trace only for a run
// without one (interrupted, still running, or recorded before summaries existed).
import { randomBytes } from 'node:crypto';
import type { TraceEvent } from '../../protocol/trace.js';
import type { HostIO } from '../host.js';
import { endedBeforeStart } from '../trace/projections/runSummary.js';
import { readTrace } from '../trace/reader.js';
import { parseSummaryFile, SUMMARY_FILE, TRACE_FILE, type RunSummaryFile } from '../trace/summaryFile.js';
import { newestFirst, runStartMs } from './runOrder.js';

export { SUMMARY_FILE, TRACE_FILE };
export { newestFirst, runStartMs };
export const RUNS_DIR = '.waypoint/runs';

export function runDir(workspace: string, runId: string): string {
  return `${workspace}/${RUNS_DIR}/${runId}`;
}

export function tracePath(workspace: string, runId: string): string {
  return `${runDir(workspace, runId)}/${TRACE_FILE}`;
}

/** Sortable, readable and unique: 20261121-203640-malmm-stack_blocks-s0-3fa2. */
export function newRunId(isoNow: string, arch: string, task: string, seed: number): string {
  const stamp = isoNow.replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_.]/g, '_');
  return `${stamp}-${safe(arch)}-${safe(task)}-s${seed}-${randomBytes(2).toString('hex')}`;
}

export interface RunSummary {
  runId: string;
  path: string;
  arch?: string;
  agentVariant?: string;
  variant?: string;
  task?: string;
  seed?: number;
  model?: string;
  startedAt?: string;
  /** When the trace was last written (ISO): read only for a run whose start time is unknown (see runStartMs). */
  modifiedAt?: string;
  /** undefined while running or when the run was killed before its end. */
  success?: boolean;
  reason?: string;
  /** Refused before its first model call or code block (see endedBeforeStart). */
  notStarted?: boolean;
  turns?: number;
  warnings: number;
}

export async function listRuns(io: HostIO, workspace: string): Promise<RunSummary[]> {
  const base = `${workspace}/${RUNS_DIR}`;
  const ids = await io.list(base);
  const out: RunSummary[] = [];
  for (const runId of ids) {
    const path = `${base}/${runId}/${TRACE_FILE}`;
    if (!(await io.exists(path))) continue;
    const summaryPath = `${base}/${runId}/${SUMMARY_FILE}`;
    const file = (await io.exists(summaryPath)) ? parseSummaryFile(await io.readText(summaryPath).catch(() => '')) : undefined;
    if (file) {
      out.push(fromSummaryFile(runId, path, file));
      continue;
    }
    const { events, warnings } = readTrace(await io.readText(path));
    out.push(summarize(runId, path, events, warnings.length));
  }
  for (const r of out) {
    if (runStartMs(r) !== undefined || !io.modifiedMs) continue;
    const ms = await io.modifiedMs(r.path);
    if (ms !== undefined) r.modifiedAt = new Date(ms).toISOString();
  }
  return out.sort(newestFirst);
}

/** A run's listing from its summary file: the same fields `summarize` reads from the trace (a finished trace). */
export function fromSummaryFile(runId: string, path: string, s: RunSummaryFile): RunSummary {
  return {
    runId,
    path,
    arch: s.arch,
    agentVariant: s.agentVariant,
    variant: s.variant,
    task: s.task,
    seed: s.seed,
    model: s.model,
    startedAt: s.startedAt,
    success: s.success,
    reason: s.reason,
    // A summary written before the field existed: a run refused at the start never reached turn 1.
    notStarted: s.notStarted ?? (s.turns === 0 && endedBeforeStart({ reason: s.reason, metrics: { modelCalls: 0, codeBlocks: 0 } })),
    turns: s.turns,
    warnings: 0,
  };
}

export function summarize(runId: string, path: string, events: TraceEvent[], warnings: number): RunSummary {
  const start = events.find((e) => e.type === 'episode_start');
  const end = [...events].reverse().find((e) => e.type === 'episode_end');
  return {
    runId,
    path,
    arch: start?.type === 'episode_start' ? start.arch : undefined,
    agentVariant: start?.type === 'episode_start' ? start.agentVariant : undefined,
    variant: start?.type === 'episode_start' ? start.variant : undefined,
    task: start?.type === 'episode_start' ? start.task : undefined,
    seed: start?.type === 'episode_start' ? start.seed : undefined,
    model: start?.type === 'episode_start' ? start.model.label : undefined,
    startedAt: start?.type === 'episode_start' ? start.startedAt : undefined,
    success: end?.type === 'episode_end' ? end.success : undefined,
    reason: end?.type === 'episode_end' ? end.reason : undefined,
    notStarted: end?.type === 'episode_end' ? endedBeforeStart(end) : undefined,
    turns: end?.type === 'episode_end' ? end.metrics.turns : undefined,
    warnings,
  };
}
