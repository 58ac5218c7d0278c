// Fast run listing for the Runs tree: a finished run has a summary.json beside its trace (a few hundred bytes);
// otherwise a run's summary needs only the trace's first event (episode_start) and last event (episode_end), so
// this reads the head and the tail of the trace instead of the whole file (a trace with trajectories runs to
// megabytes). Same RunSummary as core's listRuns, built by its `fromSummaryFile` and `summarize`.
import { open, readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { TraceEvent } from '../../protocol/trace.js';
import { fromSummaryFile, newestFirst, runStartMs, RUNS_DIR, summarize, SUMMARY_FILE, TRACE_FILE, type RunSummary } from '../../core/runs/runStore.js';
import { parseSummaryFile } from '../../core/trace/summaryFile.js';

const CHUNK = 64 * 1024;
const MAX_LINE = 8 * 1024 * 1024;

async function readHeadLine(fd: Awaited<ReturnType<typeof open>>, size: number): Promise<string | undefined> {
  let text = '';
  for (let pos = 0; pos < Math.min(size, MAX_LINE); pos += CHUNK) {
    const buf = Buffer.alloc(Math.min(CHUNK, size - pos));
    const { bytesRead } = await fd.read(buf, 0, buf.length, pos);
    text += buf.subarray(0, bytesRead).toString('utf8');
    const nl = text.indexOf('\n');
    if (nl >= 0) return text.slice(0, nl);
  }
  return text || undefined;
}

/** The last complete line (a file written to the end finishes with '\n'); undefined if the file ends mid-line. */
async function readTailLine(fd: Awaited<ReturnType<typeof open>>, size: number): Promise<{ line?: string; truncated: boolean }> {
  let end = size;
  let text = '';
  while (end > 0 && size - end < MAX_LINE) {
    const start = Math.max(0, end - CHUNK);
    const buf = Buffer.alloc(end - start);
    await fd.read(buf, 0, buf.length, start);
    text = buf.toString('latin1') + text;
    end = start;
    const body = text.endsWith('\n') ? text.slice(0, -1) : text;
    const nl = body.lastIndexOf('\n');
    if (nl >= 0 || end === 0) {
      const truncated = !text.endsWith('\n');
      const last = body.slice(nl + 1);
      return { line: truncated ? undefined : Buffer.from(last, 'latin1').toString('utf8'), truncated };
    }
  }
  return { truncated: !text.endsWith('\n') };
}

function parseEvent(line: string | undefined): TraceEvent | undefined {
  if (!line) return undefined;
  try {
    const r = TraceEvent.safeParse(JSON.parse(line));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}

/** Summary of one run from its summary.json, else from its trace's first and last lines; undefined when the trace is missing or empty. */
export async function readRunSummary(path: string, runId: string): Promise<RunSummary | undefined> {
  const file = parseSummaryFile(await readFile(join(dirname(path), SUMMARY_FILE), 'utf8').catch(() => ''));
  if (file) {
    try {
      if ((await stat(path)).isFile()) return fromSummaryFile(runId, path, file);
    } catch {
      return undefined;
    }
  }
  let fd;
  try {
    fd = await open(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const { size } = await fd.stat();
    if (size === 0) return undefined;
    const first = parseEvent(await readHeadLine(fd, size));
    const tail = await readTailLine(fd, size);
    const last = parseEvent(tail.line);
    const events = [first, last !== undefined && last.seq !== first?.seq ? last : undefined].filter((e): e is TraceEvent => e !== undefined);
    return summarize(runId, path, events, tail.truncated ? 1 : 0);
  } finally {
    await fd.close();
  }
}

/** Every run under <workspace>/.waypoint/runs, newest first by start time (runStartMs, as `waypoint runs`). */
export async function listRunSummaries(workspace: string): Promise<RunSummary[]> {
  const base = join(workspace, RUNS_DIR);
  let ids: string[];
  try {
    ids = await readdir(base);
  } catch {
    return [];
  }
  const out = await Promise.all(
    ids.map(async (runId) => {
      const path = join(base, runId, TRACE_FILE);
      try {
        if (!(await stat(path)).isFile()) return undefined;
      } catch {
        return undefined;
      }
      const r = await readRunSummary(path, runId);
      // No readable start time and no stamped id: order it by when its trace was last written.
      if (r && runStartMs(r) === undefined) r.modifiedAt = await stat(path).then((s) => s.mtime.toISOString(), () => undefined);
      return r;
    }),
  );
  return out.filter((r): r is RunSummary => r !== undefined).sort(newestFirst);
}
