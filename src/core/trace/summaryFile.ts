// The run summary: a small JSON file written beside the trace when the episode ends, so listing hundreds of runs
// (`waypoint runs`, the Runs view) reads a few hundred bytes per run instead of parsing every trace. A run without
// one (interrupted, still running, or recorded before summaries existed) is listed from its trace instead.
import * as z from 'zod';
import type { EventOf } from '../../protocol/trace.js';
import { endedBeforeStart } from './projections/runSummary.js';

export const TRACE_FILE = 'trace.jsonl';
export const SUMMARY_FILE = 'summary.json';
export const SUMMARY_VERSION = 1;

export const RunSummaryFile = z.looseObject({
  summaryVersion: z.number().int(),
  runId: z.string(),
  arch: z.string(),
  agentVariant: z.string(),
  variant: z.string(),
  task: z.string(),
  seed: z.number().int(),
  /** The model's label (e.g. "reference (scripted, not an LLM)"). */
  model: z.string(),
  startedAt: z.string(),
  success: z.boolean(),
  reason: z.string(),
  /** Refused before its first model call or code block (endedBeforeStart); absent in summaries written before it. */
  notStarted: z.boolean().optional(),
  turns: z.number().int(),
  /** Events in the trace (the episode_end's seq + 1). */
  events: z.number().int(),
  schemaVersion: z.number().int(),
});
export type RunSummaryFile = z.infer<typeof RunSummaryFile>;

export function summaryOf(start: EventOf<'episode_start'>, end: EventOf<'episode_end'>): RunSummaryFile {
  return {
    summaryVersion: SUMMARY_VERSION,
    runId: start.runId,
    arch: start.arch,
    agentVariant: start.agentVariant,
    variant: start.variant,
    task: start.task,
    seed: start.seed,
    model: start.model.label,
    startedAt: start.startedAt,
    success: end.success,
    reason: end.reason,
    notStarted: endedBeforeStart(end),
    turns: end.metrics.turns,
    events: end.seq + 1,
    schemaVersion: start.schemaVersion,
  };
}

/** The summary file's path for a trace named trace.jsonl (a run folder); undefined for any other file name. */
export function defaultSummaryPath(tracePath: string): string | undefined {
  const m = /^(.*[/\\])trace\.jsonl$/.exec(tracePath);
  return m ? `${m[1]}${SUMMARY_FILE}` : undefined;
}

/** Parses a summary file's text; undefined when it is not a summary this version reads (list from the trace). */
export function parseSummaryFile(text: string): RunSummaryFile | undefined {
  try {
    const r = RunSummaryFile.safeParse(JSON.parse(text));
    return r.success && r.data.summaryVersion === SUMMARY_VERSION ? r.data : undefined;
  } catch {
    return undefined;
  }
}
