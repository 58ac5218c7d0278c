// `.waypoint/test-results.json`: the last outcome of each test, by test id, so the Testing view shows it after a
// reload (VS Code keeps only a muted pass/fail state across reloads, without messages). Pure parse and serialise;
// a file that does not parse is reported and treated as empty, never thrown.
import * as z from 'zod';
import type { TestOutcome } from './results.js';

export const TEST_RESULTS_FILE = '.waypoint/test-results.json';

const StoredOutcome = z.object({
  status: z.enum(['passed', 'failed', 'errored', 'skipped']),
  reason: z.string(),
  /** ISO time the test finished. */
  finishedAt: z.string(),
  durationMs: z.number().optional(),
  runId: z.string().optional(),
  /** Relative to the workspace folder when inside it. */
  tracePath: z.string().optional(),
  turns: z.number().int().optional(),
  label: z.string().optional(),
  evidence: z.string().optional(),
  check: z.object({ name: z.string(), message: z.string() }).optional(),
  turn: z.number().int().optional(),
  role: z.string().optional(),
  promptPath: z.string().optional(),
  labels: z.array(z.object({ label: z.string(), turn: z.number().int().optional(), evidence: z.string() })).optional(),
  message: z.string().optional(),
  problemAt: z.object({ path: z.string(), line: z.number().int() }).optional(),
});
export type StoredOutcome = z.infer<typeof StoredOutcome>;

const ResultsFile = z.object({ version: z.literal(1), results: z.record(z.string(), StoredOutcome) });

export function parseResults(text: string): { results: Map<string, StoredOutcome>; warning?: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { results: new Map(), warning: `${TEST_RESULTS_FILE} is not JSON (${err instanceof Error ? err.message : String(err)}); last results start empty` };
  }
  const r = ResultsFile.safeParse(raw);
  if (!r.success) return { results: new Map(), warning: `${TEST_RESULTS_FILE}: ${r.error.issues[0]?.path.join('.') || '(top level)'}: ${r.error.issues[0]?.message}; last results start empty` };
  return { results: new Map(Object.entries(r.data.results)) };
}

export function serializeResults(results: ReadonlyMap<string, StoredOutcome>): string {
  const sorted = [...results].sort(([a], [b]) => a.localeCompare(b));
  return `${JSON.stringify({ version: 1, results: Object.fromEntries(sorted) }, null, 2)}\n`;
}

/** An outcome as stored: paths inside the workspace made relative (the folder can move). */
export function toStored(o: TestOutcome, finishedAt: string, workspace: string): StoredOutcome {
  const rel = (p: string | undefined) => {
    if (!p) return undefined;
    const w = workspace.replace(/[\\/]+$/, '');
    return p.startsWith(`${w}/`) || p.startsWith(`${w}\\`) ? p.slice(w.length + 1) : p;
  };
  const { tracePath, promptPath, ...rest } = o;
  return { ...rest, finishedAt, ...(tracePath ? { tracePath: rel(tracePath) } : {}), ...(promptPath ? { promptPath: rel(promptPath) } : {}) };
}

/** Back to absolute paths. */
export function fromStored(s: StoredOutcome, workspace: string): TestOutcome & { finishedAt: string } {
  const abs = (p: string | undefined) => (!p ? undefined : /^([\\/]|[A-Za-z]:)/.test(p) ? p : `${workspace.replace(/[\\/]+$/, '')}/${p}`);
  const { tracePath, promptPath, ...rest } = s;
  return { ...rest, ...(tracePath ? { tracePath: abs(tracePath) } : {}), ...(promptPath ? { promptPath: abs(promptPath) } : {}) };
}
