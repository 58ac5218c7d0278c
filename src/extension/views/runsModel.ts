// The Runs tree as plain data (pure): runs grouped by task and variant, groups ordered by their newest run, runs
// newest first (by start time, core's newestFirst), each with a label, an outcome and a tooltip. runsTree.ts maps these onto vscode.TreeItems.
import { newestFirst } from '../../core/runs/runOrder.js';
import type { RunSummary } from '../../core/runs/runStore.js';

export type RunOutcome = 'success' | 'failure' | 'not-started' | 'cancelled' | 'running' | 'incomplete';

export interface RunGroup {
  key: string;
  label: string;
  description: string;
  runs: RunSummary[];
}

export function groupKey(r: RunSummary): string {
  return `${r.task ?? '?'}\u0000${r.variant || 'default'}`;
}

export function groupRuns(runs: readonly RunSummary[]): RunGroup[] {
  const groups = new Map<string, RunGroup>();
  const sorted = [...runs].sort(newestFirst);
  for (const r of sorted) {
    const key = groupKey(r);
    let g = groups.get(key);
    if (!g) {
      g = { key, label: `${r.task ?? 'unknown task'} · ${r.variant || 'default'}`, description: '', runs: [] };
      groups.set(key, g);
    }
    g.runs.push(r);
  }
  for (const g of groups.values()) {
    // A run refused at the start (bad input, a broken prompt) is no attempt at the task: it does not count.
    const done = g.runs.filter((r) => r.success !== undefined && !r.notStarted);
    const ok = done.filter((r) => r.success).length;
    g.description = `${g.runs.length} run${g.runs.length === 1 ? '' : 's'}${done.length ? ` · ${ok}/${done.length} succeeded` : ''}`;
  }
  // Map iteration follows insertion, i.e. the newest run of each group first.
  return [...groups.values()];
}

export function runOutcome(r: RunSummary, running: boolean): RunOutcome {
  if (running) return 'running';
  if (r.success === true) return 'success';
  if (r.reason === 'cancelled') return 'cancelled';
  if (r.notStarted) return 'not-started';
  if (r.success === false) return 'failure';
  return 'incomplete';
}

/** "2026-11-21 21:00:30" from an ISO stamp (UTC, as recorded), or the run id's own stamp. */
export function runTimeLabel(r: RunSummary): string {
  if (r.startedAt && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(r.startedAt)) return r.startedAt.slice(0, 19).replace('T', ' ');
  const m = /^(\d{4})(\d\d)(\d\d)-(\d\d)(\d\d)(\d\d)/.exec(r.runId);
  return m ? `${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}:${m[6]}` : r.runId;
}

export interface RunItemView {
  label: string;
  description: string;
  tooltip: string;
  outcome: RunOutcome;
}

export function runItemView(r: RunSummary, running = false): RunItemView {
  const outcome = runOutcome(r, running);
  const status = outcome === 'running' ? 'running' : outcome === 'incomplete' ? 'no end event (interrupted?)' : `${outcome === 'not-started' ? 'not started' : outcome} · ${r.reason ?? ''}`;
  const parts = [r.arch, r.seed !== undefined ? `seed ${r.seed}` : undefined].filter(Boolean);
  return {
    label: `${runTimeLabel(r)}  ${parts.join(' · ')}`.trim(),
    description: [
      r.turns !== undefined && outcome !== 'not-started' ? `${r.turns} turns` : undefined,
      outcome === 'running' ? 'running' : outcome === 'not-started' ? `not started (${r.reason})` : r.reason,
    ].filter(Boolean).join(' · '),
    tooltip: [
      `Run ${r.runId}`,
      `${r.arch ?? '?'}${r.agentVariant && r.agentVariant !== r.arch ? ` (${r.agentVariant})` : ''} · task ${r.task ?? '?'} · seed ${r.seed ?? '?'} · variant ${r.variant || 'default'}`,
      `model: ${r.model ?? '?'}`,
      `result: ${status}${r.turns !== undefined && outcome !== 'not-started' ? ` · ${r.turns} turns` : ''}`,
      ...(r.warnings ? ['the trace ends mid-line (the run was interrupted while writing)'] : []),
      r.path,
    ].join('\n'),
    outcome,
  };
}
