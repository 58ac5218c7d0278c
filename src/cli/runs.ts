// `waypoint runs`: past runs, newest first, one line each.
import { resolve } from 'node:path';
import { nodeIO } from '../core/node/nodeHost.js';
import { listRuns } from '../core/runs/runStore.js';

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
  for (const r of runs) {
    const verdict = r.success === undefined ? (r.reason ? 'ended' : 'incomplete') : r.success ? 'success' : 'failure';
    const cols = [r.runId, verdict.padEnd(10), `${r.arch}/${r.agentVariant}`, `variant=${r.variant}`, `task=${r.task}`, `seed=${r.seed}`, r.reason ?? '-', `${r.turns ?? '?'} turns`, r.model ?? ''];
    out.write(cols.join('  ') + (r.warnings ? `  (${r.warnings} trace warnings)` : '') + '\n');
  }
  return 0;
}
