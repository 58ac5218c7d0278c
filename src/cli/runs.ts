// `waypoint runs`: past runs, newest first by start time (core/runs/runOrder.ts), one aligned row each under a header row.
import { resolve } from 'node:path';
import { nodeIO } from '../core/node/nodeHost.js';
import { listRuns, type RunSummary } from '../core/runs/runStore.js';
import { WORKSPACE_OPTIONS } from './commonOptions.js';
import { defineCommand } from './options.js';
import { formatTable } from './table.js';

/** What a run came to, in one word or two. */
export function verdictOf(r: RunSummary): string {
  if (r.arch === undefined) return 'unreadable';
  if (r.success === undefined) return r.reason ? 'ended' : 'incomplete';
  if (r.notStarted) return 'not started';
  return r.success ? 'success' : 'failure';
}

const or = (v: string | number | undefined, fallback = '?') => (v === undefined || v === '' ? fallback : String(v));

/** Architecture, task and seed as a run id spells them (newRunId), for a trace whose first line cannot be read. */
function fromRunId(runId: string): { arch: string; task: string; seed: string } | undefined {
  const m = /^\d{8}-\d{6}-([A-Za-z0-9_.]+)-([A-Za-z0-9_.]+)-s(-?\d+)-[0-9a-f]{4}$/.exec(runId);
  return m ? { arch: m[1], task: m[2], seed: m[3] } : undefined;
}

/** The table `waypoint runs` prints (pure, for tests). */
export function formatRuns(runs: readonly RunSummary[]): string {
  const rows = runs.map((r) => {
    const guess = r.arch === undefined ? fromRunId(r.runId) : undefined;
    const arch = r.arch === undefined ? (guess?.arch ?? '?') : r.agentVariant ? `${r.arch}/${r.agentVariant}` : r.arch;
    const unreadable = r.arch === undefined ? `no readable episode_start${guess ? ' (arch, task, seed from the run id)' : ''}` : '';
    const notes = [r.warnings ? `${r.warnings} trace warning${r.warnings > 1 ? 's' : ''}` : '', unreadable].filter(Boolean).join('; ');
    return [r.runId, verdictOf(r), arch, or(r.variant, '-'), or(r.task ?? guess?.task), or(r.seed ?? guess?.seed), or(r.reason, '-'), r.notStarted ? '-' : or(r.turns), or(r.model, '-'), notes];
  });
  return formatTable(['run', 'result', 'arch', 'variant', 'task', 'seed', 'reason', 'turns', 'model', 'notes'], rows, { right: [5, 7] });
}

export async function runsCommand(a: { workspace?: string; json?: boolean }, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const runs = await listRuns(nodeIO, resolve(a.workspace ?? process.cwd()));
  if (a.json) {
    out.write(JSON.stringify(runs, null, 2) + '\n');
    return 0;
  }
  if (runs.length === 0) {
    out.write('no runs yet under .waypoint/runs (start one with `waypoint run` or `npm run demo`)\n');
    return 0;
  }
  out.write(formatRuns(runs) + '\n');
  return 0;
}

export const runsCmd = defineCommand({
  name: 'runs',
  summary: 'list past runs, newest first',
  description:
    "Newest first means by when each episode started (its trace's episode_start time), as `show` and `report` pick \"the newest run\" and the Runs view orders them; a sweep's runs, named by their episode key, sort among the others by that time. A trace whose start cannot be read (cut inside its first line) sorts by the timestamp its run id starts with, else by when the trace was last written.",
  options: {
    json: { type: 'boolean', help: 'print the list as JSON (one object per run) instead of a table' },
    ...WORKSPACE_OPTIONS,
  },
  exitStatus: '0 (also when there are no runs), 2 bad input.',
  run: ({ values }) => runsCommand(values),
});
