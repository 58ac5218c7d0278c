// Action Contextualization's plan views, projected from the trace: every simulated execution of a plan (the
// `plan_execution` check events carry it whole: the plan's actions with their arguments, each action's checks
// with expected and observed values, its motion scores, and the failure), the parameter changes from one
// execution to the next (a retune's diff; a replan's added, removed and moved actions), each run's Q and trial count
// and the run the multi-run selection kept (`plan_run`, `plan_selection`). Pure; no I/O.
import type { TraceEvent } from '../../../protocol/trace.js';
import type { ViewEvent } from '../../../protocol/webview.js';

export interface AcCheckCell {
  name: string;
  args: string;
  expected: string;
  observed: string;
  ok: boolean;
}

export interface AcStepRow {
  index: number;
  action: string;
  label: string;
  /** The arguments as written, and by parameter name. */
  args: string;
  named: Record<string, string>;
  checks: AcCheckCell[];
  mI: number | null;
  mE: number | null;
  mT: number | null;
  dBarM: number | null;
  failed: boolean;
  /** Parameters whose value differs from the previous execution of the same action in this run. */
  changed: string[];
}

export interface AcParamChange {
  index: number;
  action: string;
  param: string;
  before: string;
  after: string;
}

export interface AcAttemptRow {
  seq: number;
  turn: number;
  run: number;
  label: string;
  kind: string;
  success: boolean;
  failedIndex: number | null;
  failureReason: string | null;
  q: number | null;
  simSecs: number;
  steps: AcStepRow[];
  /** Parameter-level changes against the previous execution in the run. */
  changes: AcParamChange[];
  /** A replan's sequence changes against the previous plan: actions added, removed, and moved. */
  sequence: { added: string[]; removed: string[]; moved: string[] } | null;
}

export interface AcRunRow {
  run: number;
  success: boolean;
  q: number | null;
  retunes: number;
  replans: number;
  trials: number;
  chosen: boolean;
  /** Why the run ended early: an answer stayed unreadable after its repairs (it was left out of the selection). */
  formatFailure: string | null;
}

interface RawStep {
  index: number;
  action: string;
  label?: string;
  args: string;
  named?: Record<string, string>;
  metrics?: { mI: number; mE: number; mT: number; dBarM?: number };
  checks?: AcCheckCell[];
}
interface RawAttempt {
  run: number;
  label: string;
  kind: string;
  success: boolean;
  failedIndex: number | null;
  failureReason: string | null;
  q: number | null;
  simSecs?: number;
  steps: RawStep[];
}

const key = (s: { action: string; label?: string; args: string }) => `${s.action}${s.args}`;

export class ActctxPlanBuilder {
  readonly attempts: AcAttemptRow[] = [];
  private readonly runRows = new Map<number, AcRunRow>();
  chosenRun: number | null = null;
  version = 0;

  add(e: TraceEvent | ViewEvent): void {
    if (e.type !== 'check') return;
    const x = e as unknown as Record<string, unknown>;
    if (e.name === 'plan_execution' && isAttempt(x.actctx)) this.addAttempt(e.seq, e.turn, x.actctx);
    else if (e.name === 'plan_run' && x.actctxRun && typeof x.actctxRun === 'object') {
      const r = x.actctxRun as { run: number; success: boolean; q: number | null; retunes: number; replans: number; trials: number; formatFailure?: string };
      this.runRows.set(r.run, { run: r.run, success: r.success, q: r.q, retunes: r.retunes, replans: r.replans, trials: r.trials, chosen: false, formatFailure: r.formatFailure ?? null });
      this.version++;
    } else if (e.name === 'plan_selection' && x.actctxSelection && typeof x.actctxSelection === 'object') {
      this.chosenRun = (x.actctxSelection as { chosen: number }).chosen;
      this.version++;
    }
  }

  private addAttempt(seq: number, turn: number, a: RawAttempt): void {
    const prev = [...this.attempts].reverse().find((p) => p.run === a.run);
    const steps: AcStepRow[] = a.steps.map((s) => ({
      index: s.index,
      action: s.action,
      label: s.label ?? '',
      args: s.args,
      named: s.named ?? {},
      checks: s.checks ?? [],
      mI: s.metrics?.mI ?? null,
      mE: s.metrics?.mE ?? null,
      mT: s.metrics?.mT ?? null,
      dBarM: s.metrics?.dBarM ?? null,
      failed: a.failedIndex === s.index,
      changed: [],
    }));
    const changes: AcParamChange[] = [];
    let sequence: AcAttemptRow['sequence'] = null;
    if (prev) {
      const before = prev.steps;
      if (a.kind !== 'replan') {
        for (const s of steps) {
          const p = before.find((b) => b.index === s.index && b.action === s.action);
          if (!p) continue;
          for (const [name, v] of Object.entries(s.named)) {
            if (p.named[name] !== undefined && p.named[name] !== v) {
              s.changed.push(name);
              changes.push({ index: s.index, action: s.action, param: name, before: p.named[name]!, after: v });
            }
          }
        }
      } else {
        // A replan: which actions are new, gone, or at another position (compared by action and arguments).
        const oldKeys = before.map(key);
        const newKeys = steps.map(key);
        sequence = {
          added: newKeys.filter((k) => !oldKeys.includes(k)),
          removed: oldKeys.filter((k) => !newKeys.includes(k)),
          moved: newKeys.filter((k, i) => oldKeys.includes(k) && oldKeys.indexOf(k) !== i),
        };
      }
    }
    this.attempts.push({ seq, turn, run: a.run, label: a.label, kind: a.kind, success: a.success, failedIndex: a.failedIndex, failureReason: a.failureReason, q: a.q, simSecs: a.simSecs ?? 0, steps, changes, sequence });
    this.version++;
  }

  /** One row per run (from its plan_run event, or what its executions show while it is still going). */
  runs(): AcRunRow[] {
    const nums = [...new Set([...this.attempts.map((a) => a.run), ...this.runRows.keys()])].sort((x, y) => x - y);
    return nums.map((run) => {
      const done = this.runRows.get(run);
      const mine = this.attempts.filter((a) => a.run === run);
      const last = mine[mine.length - 1];
      const base = done ?? {
        run,
        success: last?.success ?? false,
        q: last?.q ?? null,
        retunes: mine.filter((a) => a.kind === 'retune' || a.kind === 'improve').length,
        replans: mine.filter((a) => a.kind === 'replan').length,
        trials: Math.max(0, mine.length - 1),
        chosen: false,
        formatFailure: null,
      };
      const chosen = this.chosenRun !== null ? run === this.chosenRun : nums.length === 1 && done !== undefined;
      return { ...base, chosen };
    });
  }

  /** The Fig. 5 / Fig. 7 series: every execution in order with its label, Q, and whether it failed. */
  series(): { label: string; run: number; q: number | null; success: boolean; turn: number }[] {
    const multi = new Set(this.attempts.map((a) => a.run)).size > 1;
    return this.attempts.map((a) => ({ label: multi ? `r${a.run} ${a.label}` : a.label, run: a.run, q: a.q, success: a.success, turn: a.turn }));
  }
}

function isAttempt(v: unknown): v is RawAttempt {
  if (!v || typeof v !== 'object') return false;
  const a = v as Partial<RawAttempt>;
  return typeof a.run === 'number' && typeof a.label === 'string' && Array.isArray(a.steps);
}

export function projectActctxPlan(events: readonly (TraceEvent | ViewEvent)[]): ActctxPlanBuilder {
  const b = new ActctxPlanBuilder();
  for (const e of events) b.add(e);
  return b;
}

/** The plan projection as a run projection of its own (src/core/trace/projections/runProjection.ts). */
export const PLAN_PROJECTION = { id: 'actctx.plan', create: () => new ActctxPlanBuilder() };
