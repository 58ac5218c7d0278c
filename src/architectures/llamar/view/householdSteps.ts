// LLaMAR runs step by step, from the trace alone: per high-level step each robot's pose and path, the action the
// Actor wrote and what it was matched to, the simulator's result (the robots' feedback line and its own reason),
// the Corrector's proposal, the subtask lists as the Planner and the Verifier left them, and the checker's ground
// truth. Also the floor plan and the objects (as the team knows them and as they are). Pure; fed incrementally.
import { householdOf, type CheckerState, type FloorPlan, type HouseholdExtra, type HouseholdObjectProps } from '../../../protocol/household.js';
import type { EventOf, TraceEvent } from '../../../protocol/trace.js';
import type { ViewEvent } from '../../../protocol/webview.js';

export interface HouseholdObjectView {
  name: string;
  type: string;
  /** The team's label, or null when no robot has seen it. */
  label: string | null;
  cells: [number, number][];
  parent: string;
  room?: string;
  fixed: boolean;
  states: string[];
  seenBy: string[];
}

export interface HouseholdAgentStep {
  name: string;
  cell?: [number, number];
  heading: string;
  holding: string | null;
  /** Cells walked in this step, start included. */
  path: [number, number][];
  /** What the Actor wrote for this robot, and the admissible action it was matched to. */
  said?: string;
  action?: string;
  matchScore?: number;
  ok?: boolean;
  /** The feedback line the robots read next step. */
  feedback?: string;
  /** The simulator's own account (why it failed, what it did). */
  detail?: string;
  /** The Corrector's proposal for the next step. */
  correction?: string;
}

export interface HouseholdStep {
  step: number;
  /** First turn of the step (the Planner's, or the Actor's). */
  turn?: number;
  agents: HouseholdAgentStep[];
  /** Open subtasks after the Planner; `added` are new this step. */
  open: string[];
  added: string[];
  /** Completed subtasks after the Verifier; `closed` were moved this step. */
  completed: string[];
  closed: string[];
  failureReason?: string;
  checker?: { done: number; total: number; newlyDone: string[]; success: boolean };
  objects: HouseholdObjectView[];
  formatErrors: number;
}

export interface HouseholdRunView {
  plan?: FloorPlan;
  agents: string[];
  /** Before the first step (the reset scene). */
  initial?: { agents: HouseholdAgentStep[]; objects: HouseholdObjectView[] };
  steps: HouseholdStep[];
  checker?: CheckerState;
  maxSteps?: number;
  end?: EventOf<'episode_end'>;
}

type AnyEvent = TraceEvent | ViewEvent;

function objectsOf(e: EventOf<'observation'>, h: HouseholdExtra): HouseholdObjectView[] {
  const seenBy = new Map<string, string[]>();
  for (const [agent, ids] of Object.entries(h.seenBy ?? {})) for (const id of ids) seenBy.set(id, [...(seenBy.get(id) ?? []), agent]);
  return e.state.objects.map((o) => {
    const p = (o.props ?? {}) as HouseholdObjectProps & { fixed?: string };
    const states: string[] = [];
    if (p.isOpen !== undefined) states.push(p.isOpen ? 'open' : 'closed');
    if (p.isToggled !== undefined) states.push(p.isToggled ? 'on' : 'off');
    if (p.isSliced) states.push('sliced');
    if (p.isDirty) states.push('dirty');
    if (p.isCooked) states.push('cooked');
    if (p.filledWith) states.push(`filled with ${p.filledWith}`);
    return {
      name: o.name,
      type: p.type ?? o.name,
      label: p.label ?? null,
      cells: (p.cells ?? []) as [number, number][],
      parent: p.parent ?? 'Floor',
      room: p.room,
      fixed: p.fixed !== undefined,
      states,
      seenBy: seenBy.get(o.name) ?? [],
    };
  });
}

function agentsOf(h: HouseholdExtra, names: readonly string[]): HouseholdAgentStep[] {
  return names.map((name) => {
    const a = h.agents[name];
    return { name, cell: a?.cell, heading: a?.heading ?? 'north', holding: a?.holding ?? null, path: (h.paths?.[name] ?? (a?.cell ? [a.cell] : [])) as [number, number][] };
  });
}

export class HouseholdStepsBuilder {
  private view: HouseholdRunView = { agents: [], steps: [] };
  private byStep = new Map<number, HouseholdStep>();
  private prevOpen: string[] = [];
  private prevCompleted: string[] = [];
  private prevDone = new Set<string>();
  private cached: HouseholdRunView | undefined;

  /** Whether an observation carried household state (LLaMAR on a household simulator). */
  private household = false;

  /**
   * Whether the run has household state. Step counters alone do not tell: RoCo's events carry steps too (its
   * environment steps), and its runs have no floor plan.
   */
  get active(): boolean {
    return this.household;
  }

  add(e: AnyEvent): void {
    if (e.type === 'episode_start') {
      this.view.agents = e.agents ?? [];
      const cap = e.limits?.maxSteps;
      if (typeof cap === 'number') this.view.maxSteps = cap;
      return;
    }
    if (e.type === 'episode_end') {
      this.cached = undefined;
      this.view.end = e;
      if (e.finalState && this.active) {
        const h = householdOf(e.finalState.extra);
        if (h?.checker) this.view.checker = h.checker;
      }
      return;
    }
    if (e.type === 'observation') {
      if (e.agent !== undefined) return;
      const h = householdOf(e.state.extra);
      if (!h) return;
      this.household = true;
      this.cached = undefined;
      if (h.plan) this.view.plan = h.plan;
      if (this.view.agents.length === 0) this.view.agents = Object.keys(h.agents);
      if (h.checker) this.view.checker = h.checker;
      if (e.step === undefined) {
        this.view.initial = { agents: agentsOf(h, this.view.agents), objects: objectsOf(e, h) };
        return;
      }
      const s = this.stepOf(e.step, e.turn);
      const said = new Map(s.agents.map((a) => [a.name, a]));
      s.agents = agentsOf(h, this.view.agents).map((a) => ({ ...said.get(a.name), ...a }));
      s.objects = objectsOf(e, h);
      if (h.checker) {
        const done = h.checker.subtasks.filter((x) => x.done);
        s.checker = { done: done.length, total: h.checker.subtasks.length, newlyDone: done.filter((x) => !this.prevDone.has(x.id)).map((x) => x.text), success: h.checker.success };
        this.prevDone = new Set(done.map((x) => x.id));
      }
      return;
    }
    const step = 'step' in e ? e.step : undefined;
    if (step === undefined) return;
    if (e.type === 'role_call') {
      const s = this.stepOf(step, e.turn);
      if (s.turn === undefined || e.turn < s.turn) s.turn = e.turn;
      return;
    }
    if (e.type === 'parsed_output') {
      this.cached = undefined;
      const s = this.stepOf(step, e.turn);
      if (!e.ok) {
        s.formatErrors++;
        return;
      }
      const v = e.value as Record<string, unknown>;
      if (e.role === 'planner' && Array.isArray(v.plan)) {
        s.open = (v.plan as string[]).filter((x) => !this.prevCompleted.includes(x));
        s.added = s.open.filter((x) => !this.prevOpen.includes(x));
        this.prevOpen = s.open;
      } else if (e.kind === 'actions' && v.actions && typeof v.actions === 'object') {
        for (const [name, m] of Object.entries(v.actions as Record<string, { text: string; action: { text: string }; score?: number }>)) {
          const a = this.agentIn(s, name);
          a.said = m.text;
          a.action = m.action.text;
          a.matchScore = m.score;
        }
      } else if (e.role === 'corrector') {
        const c = (v.corrections ?? {}) as Record<string, string>;
        for (const [name, fix] of Object.entries(c)) this.agentIn(s, name).correction = fix;
        if (typeof v.failureReason === 'string' && v.failureReason !== 'None') s.failureReason = v.failureReason;
      } else if (e.role === 'verifier' && Array.isArray(v.completed)) {
        s.completed = v.completed as string[];
        s.closed = s.completed.filter((x) => !this.prevCompleted.includes(x));
        this.prevCompleted = s.completed;
        s.open = s.open.filter((x) => !s.completed.includes(x));
        this.prevOpen = s.open;
      }
      return;
    }
    if (e.type === 'action_result') {
      this.cached = undefined;
      const s = this.stepOf(step, e.turn);
      for (const r of e.results) {
        const a = this.agentIn(s, r.agent);
        a.ok = r.ok;
        a.feedback = r.ok ? r.output : r.error;
        a.detail = typeof r.value === 'string' ? r.value : r.ok ? undefined : r.output;
      }
    }
  }

  private agentIn(s: HouseholdStep, name: string): HouseholdAgentStep {
    let a = s.agents.find((x) => x.name === name);
    if (!a) {
      a = { name, heading: 'north', holding: null, path: [] };
      s.agents.push(a);
    }
    return a;
  }

  private stepOf(step: number, turn: number | undefined): HouseholdStep {
    let s = this.byStep.get(step);
    if (!s) {
      s = { step, turn, agents: [], open: [...this.prevOpen], added: [], completed: [...this.prevCompleted], closed: [], objects: [], formatErrors: 0 };
      this.byStep.set(step, s);
      this.view.steps.push(s);
      this.view.steps.sort((a, b) => a.step - b.step);
    }
    return s;
  }

  result(): HouseholdRunView {
    if (!this.cached) this.cached = { ...this.view, steps: [...this.view.steps] };
    return this.cached;
  }
}

export function projectHouseholdSteps(events: readonly AnyEvent[]): HouseholdRunView {
  const b = new HouseholdStepsBuilder();
  for (const e of events) b.add(e);
  return b.result();
}

/** The steps projection as a run projection of its own (src/core/trace/projections/runProjection.ts). */
export const HOUSEHOLD_PROJECTION = { id: 'llamar.household', create: () => new HouseholdStepsBuilder() };
