// Motion scores per robot action (Action Contextualization, Sec. III-D): each `code_execution` API call and each
// structured action's result (`action_result`) that carries `metrics` becomes one row (M_I dexterity, M_E clearance, M_T = M_I + M_E, clearance, collisions, tilt),
// and the run gets Q = mean M_T over its actions. "Plan" = the episode for now (one trace, one plan).
// Actions that never moved carry the simulator's sentinel (M_I = M_E = -1, M_T = -2); they count in Q, as in
// src/core/metrics/motionMetrics.ts (an infeasible action makes the plan worse), but not in min M_I / clearance.
import type { ActionMetrics, TraceEvent } from '../../../protocol/trace.js';
import type { ViewEvent } from '../../../protocol/webview.js';

export interface MotionAction {
  /** 0-based position among the run's scored actions (the chart's x). */
  index: number;
  /** Turn of the code_execution or action_result event. */
  turn: number;
  seq: number;
  /** Position of the call inside the execution's apiCalls. */
  callIndex: number;
  fn: string;
  /** Arguments, compact (numbers to 3 decimals), cut at 60 characters. */
  args: string;
  ok: boolean;
  /** False for the no-motion sentinel (no samples or zero duration). */
  moved: boolean;
  startSecs: number;
  durationSecs: number;
  mI: number;
  mE: number;
  mT: number;
  minClearanceM: number;
  closestPair: [string, string] | null;
  collisionCount: number;
  maxHeldTiltRad: number | null;
  pathLengthM: number;
}

export interface MotionPlanScore {
  /** 'episode' until the trace carries a finer plan grouping. */
  id: string;
  label: string;
  actions: number;
  /** Q = mean M_T over the plan's actions; null with none. */
  q: number | null;
}

export interface MotionSummary {
  actions: number;
  /** Actions that moved (not the no-motion sentinel). */
  moved: number;
  q: number | null;
  /** Smallest M_I over actions that moved; null if none moved. */
  minMI: number | null;
  minMIAction: number | null;
  /** Smallest clearance (m) over actions that moved, with the pair; null if none moved. */
  minClearanceM: number | null;
  minClearancePair: [string, string] | null;
  minClearanceAction: number | null;
  collisions: number;
  maxHeldTiltRad: number | null;
  plans: MotionPlanScore[];
}

export class MotionScoreBuilder {
  readonly actions: MotionAction[] = [];
  /** Bumped on every new action, so views can skip rebuilding. */
  version = 0;

  add(e: TraceEvent | ViewEvent): void {
    if (e.type === 'action') {
      this.pendingActions.set(e.actionId, e.actions);
      return;
    }
    if (e.type === 'action_result') {
      // Structured actions (ctx.act): each agent's result with metrics is one action.
      const asked = this.pendingActions.get(e.actionId);
      this.pendingActions.delete(e.actionId);
      e.results.forEach((r, i) => {
        if (!r.metrics) return;
        this.actions.push(toAction(this.actions.length, e.turn, e.seq, i, r.name, asked?.[i]?.args ?? [], r.ok, r.metrics));
        this.version++;
      });
      return;
    }
    if (e.type !== 'code_execution') return;
    e.apiCalls.forEach((c, callIndex) => {
      if (!c.metrics) return;
      this.actions.push(toAction(this.actions.length, e.turn, e.seq, callIndex, c.fn, c.args, c.ok, c.metrics));
      this.version++;
    });
  }

  /** Arguments of structured actions waiting for their result. */
  private readonly pendingActions = new Map<string, { args: unknown[] }[]>();

  forTurn(turn: number): MotionAction[] {
    return this.actions.filter((a) => a.turn === turn);
  }

  summary(): MotionSummary {
    return summarizeMotion(this.actions);
  }
}

export function summarizeMotion(actions: readonly MotionAction[]): MotionSummary {
  const q = meanMT(actions);
  const s: MotionSummary = {
    actions: actions.length, moved: 0, q, minMI: null, minMIAction: null, minClearanceM: null, minClearancePair: null,
    minClearanceAction: null, collisions: 0, maxHeldTiltRad: null,
    plans: actions.length ? [{ id: 'episode', label: 'episode', actions: actions.length, q }] : [],
  };
  for (const a of actions) {
    s.collisions += a.collisionCount;
    if (a.maxHeldTiltRad !== null) s.maxHeldTiltRad = Math.max(s.maxHeldTiltRad ?? 0, a.maxHeldTiltRad);
    if (!a.moved) continue;
    s.moved++;
    if (s.minMI === null || a.mI < s.minMI) { s.minMI = a.mI; s.minMIAction = a.index; }
    if (s.minClearanceM === null || a.minClearanceM < s.minClearanceM) {
      s.minClearanceM = a.minClearanceM; s.minClearancePair = a.closestPair; s.minClearanceAction = a.index;
    }
  }
  return s;
}

function meanMT(actions: readonly MotionAction[]): number | null {
  if (actions.length === 0) return null;
  return actions.reduce((sum, a) => sum + a.mT, 0) / actions.length;
}

function toAction(index: number, turn: number, seq: number, callIndex: number, fn: string, args: unknown[], ok: boolean, m: ActionMetrics): MotionAction {
  return {
    index, turn, seq, callIndex, fn, args: argsSummary(args), ok,
    moved: m.samples > 0 && m.durationSecs > 0,
    startSecs: m.startSecs, durationSecs: m.durationSecs,
    mI: m.mI, mE: m.mE, mT: m.mT,
    minClearanceM: m.minClearanceM, closestPair: m.closestPair, collisionCount: m.collisionCount,
    maxHeldTiltRad: m.maxHeldTiltRad, pathLengthM: m.pathLengthM,
  };
}

/** `[0.1, [0.2, 0.3]]` style text with numbers to 3 decimals, at most `max` characters. */
export function argsSummary(args: readonly unknown[], max = 60): string {
  const text = JSON.stringify(args, (_k, v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 1000) / 1000 : v)) ?? '';
  const inner = text.slice(1, -1).replace(/,/g, ', ');
  return inner.length > max ? `${inner.slice(0, max - 1)}…` : inner;
}

export function projectMotionScores(events: readonly (TraceEvent | ViewEvent)[]): { actions: MotionAction[]; summary: MotionSummary } {
  const b = new MotionScoreBuilder();
  for (const e of events) b.add(e);
  return { actions: b.actions, summary: b.summary() };
}
