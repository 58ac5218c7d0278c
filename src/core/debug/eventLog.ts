// The debugger's view of one run: its trace events in order, with the lookups threads, frames, scopes and
// conditions need ("the latest observation before event i", "the role call of this turn"). Built only from trace
// events (a live episode's as they are written, or a recorded trace's), never from live engine objects, so live
// and replay debugging show the same things.
import type { EventOf, TraceEvent, WorldState } from '../../protocol/trace.js';

export class EventLog {
  readonly events: TraceEvent[] = [];
  /** Agents in order of first appearance on an event (threads). */
  readonly agents: string[] = [];
  /** Failures in a row after each event (see consecutiveErrorsAt). */
  private readonly consecutive: number[] = [];
  /** Role calls so far. */
  roleCallCount = 0;

  get start(): EventOf<'episode_start'> | undefined {
    const e = this.events[0];
    return e?.type === 'episode_start' ? e : undefined;
  }

  get length(): number {
    return this.events.length;
  }

  get head(): number {
    return this.events.length - 1;
  }

  /** Adds the next event; an event already in the log (same or lower seq) is ignored. Returns whether it was added. */
  append(e: TraceEvent): boolean {
    const last = this.events[this.events.length - 1];
    if (last && e.seq <= last.seq) return false;
    this.events.push(e);
    if (e.agent !== undefined && !this.agents.includes(e.agent)) this.agents.push(e.agent);
    if (e.type === 'role_call') this.roleCallCount++;
    const before = this.consecutive[this.consecutive.length - 1] ?? 0;
    this.consecutive.push(nextConsecutive(before, e));
    return true;
  }

  at(i: number): TraceEvent | undefined {
    return this.events[i];
  }

  indexOfSeq(seq: number): number {
    // Sequence numbers are dense from 0 in one trace; search anyway for traces with gaps.
    const guess = this.events[seq];
    if (guess?.seq === seq) return seq;
    return this.events.findIndex((e) => e.seq === seq);
  }

  /** Failed code blocks, unparseable answers, failed actions and failed checks in a row, up to event i. */
  consecutiveErrorsAt(i: number): number {
    return this.consecutive[i] ?? 0;
  }

  /** The latest index j <= i whose event satisfies `pred`, or -1. */
  findBack(i: number, pred: (e: TraceEvent) => boolean): number {
    for (let j = Math.min(i, this.events.length - 1); j >= 0; j--) if (pred(this.events[j]!)) return j;
    return -1;
  }

  /** The first index j >= i whose event satisfies `pred`, or -1. */
  findForward(i: number, pred: (e: TraceEvent) => boolean): number {
    for (let j = Math.max(0, i); j < this.events.length; j++) if (pred(this.events[j]!)) return j;
    return -1;
  }

  /** The role call of the turn event i belongs to (same agent when the event has one), at or before i. */
  roleCallOfTurn(i: number): number {
    const e = this.events[i];
    if (!e) return -1;
    if (e.type === 'role_call') return i;
    const turn = turnOf(e);
    if (turn === undefined || turn === 0) return -1;
    return this.findBack(i, (x) => x.type === 'role_call' && x.turn === turn && (e.agent === undefined || x.agent === undefined || x.agent === e.agent));
  }

  /** The latest observation at or before i: the agent's own view when it has one, else the whole scene. */
  observationAt(i: number, agent?: string): EventOf<'observation'> | undefined {
    if (agent !== undefined) {
      const own = this.findBack(i, (e) => e.type === 'observation' && e.agent === agent);
      if (own >= 0) return this.events[own] as EventOf<'observation'>;
    }
    const j = this.findBack(i, (e) => e.type === 'observation' && e.agent === undefined);
    const k = j >= 0 ? j : this.findBack(i, (e) => e.type === 'observation');
    return k >= 0 ? (this.events[k] as EventOf<'observation'>) : undefined;
  }

  /** The last recorded trajectory sample at or before i (the arm as the trace last saw it), with its event index. */
  lastSampleAt(i: number): { index: number; sample: EventOf<'trajectory'>['samples'][number] } | undefined {
    const j = this.findBack(i, (e) => e.type === 'trajectory' && e.samples.length > 0);
    if (j < 0) return undefined;
    const t = this.events[j] as EventOf<'trajectory'>;
    return { index: j, sample: t.samples[t.samples.length - 1]! };
  }

  /** The world state at i: the latest observation, with the arm and body poses of any motion recorded after it. */
  stateAt(i: number, agent?: string): { state: WorldState; contacts: [string, string][] } | undefined {
    const obsIdx = this.findBack(i, (e) => e.type === 'observation');
    const obs = this.observationAt(i, agent);
    if (!obs) return undefined;
    const state: WorldState = structuredClone(obs.state);
    const last = this.lastSampleAt(i);
    let contacts: [string, string][] = [];
    if (last && last.index > obsIdx) {
      const s = last.sample;
      state.ee = { pos: [s.ee[0], s.ee[1], s.ee[2]], yawRad: s.ee[3] };
      state.grasped = s.grasped;
      const scene = this.events.find((e) => e.type === 'scene') as EventOf<'scene'> | undefined;
      if (scene && s.bodies) {
        for (const o of state.objects) {
          const b = scene.bodies.indexOf(o.name);
          if (b >= 0 && s.bodies.length >= 7 * (b + 1)) o.pos = [s.bodies[7 * b]!, s.bodies[7 * b + 1]!, s.bodies[7 * b + 2]!];
        }
      }
      // The samples describe the first arm: keep robots[0] in step with the end effector.
      if (state.robots?.[0]) state.robots[0] = { ...state.robots[0], pos: [...state.ee.pos], yawRad: state.ee.yawRad, holding: s.grasped };
    }
    if (last) contacts = (last.sample.contacts ?? []).map((c) => [c[0], c[1]] as [string, string]);
    return { state, contacts };
  }

  /** The code block event i is part of: the text of its first API call, or of the code_execution that closes it. */
  codeBlockAt(i: number): { text: string; role: string; turn: number; firstIndex: number } | undefined {
    const e = this.events[i];
    if (!e) return undefined;
    if (e.type === 'code_execution') return { text: e.code, role: e.role, turn: e.turn, firstIndex: i };
    if (e.type !== 'api_call') return undefined;
    const first = this.findBack(i, (x) => x.type === 'api_call' && x.turn === e.turn && x.index === 0);
    const head = first >= 0 ? (this.events[first] as EventOf<'api_call'>) : undefined;
    if (head?.code !== undefined) return { text: head.code, role: e.role, turn: e.turn, firstIndex: first };
    // Traces written before api_call carried the block: the code_execution that follows has it.
    const end = this.findForward(i, (x) => x.type === 'code_execution' && x.turn === e.turn);
    if (end >= 0) {
      const c = this.events[end] as EventOf<'code_execution'>;
      return { text: c.code, role: c.role, turn: c.turn, firstIndex: first >= 0 ? first : i };
    }
    return undefined;
  }

  /** Episode counters up to event i (what episode_end would report if the episode ended there). */
  countersAt(i: number): Record<string, number> {
    const c = { turns: 0, modelCalls: 0, cachedCalls: 0, humanAnswers: 0, promptTokens: 0, completionTokens: 0, codeBlocks: 0, codeErrors: 0, formatErrors: 0, actions: 0, failedActions: 0, collisions: 0 };
    for (let j = 0; j <= i && j < this.events.length; j++) {
      const e = this.events[j]!;
      if ('turn' in e && typeof e.turn === 'number') c.turns = Math.max(c.turns, e.turn);
      if (e.type === 'model_response') {
        if (e.cached) c.cachedCalls++;
        else if (!e.human) c.modelCalls++;
        if (e.human) c.humanAnswers++;
        c.promptTokens += e.usage?.promptTokens ?? 0;
        c.completionTokens += e.usage?.completionTokens ?? 0;
      } else if (e.type === 'code_execution') {
        c.codeBlocks++;
        if (!e.ok) c.codeErrors++;
      } else if (e.type === 'parsed_output' && !e.ok) c.formatErrors++;
      else if (e.type === 'action_result') {
        c.actions += e.results.length;
        c.failedActions += e.results.filter((r) => !r.ok).length;
      } else if (e.type === 'check' && e.name === 'collision' && !e.ok) c.collisions++;
    }
    return c;
  }
}

/** The turn an event belongs to, when it has one. */
export function turnOf(e: TraceEvent): number | undefined {
  return 'turn' in e && typeof e.turn === 'number' ? e.turn : undefined;
}

function nextConsecutive(before: number, e: TraceEvent): number {
  switch (e.type) {
    case 'code_execution':
      return e.ok ? 0 : before + 1;
    case 'parsed_output':
      return e.ok ? before : before + 1;
    case 'action_result':
      return e.results.every((r) => r.ok) ? 0 : before + 1;
    case 'check':
      return !e.ok && e.name !== 'collision' && e.name !== 'task_success' ? before + 1 : before;
    case 'episode_start':
      return 0;
    default:
      return before;
  }
}
