// What the Variables view shows for a frame, as plain data trees (the adapter turns objects and lists into
// expandable variables): Context, Messages, Parsed output, Simulator state, Metrics, and for a robot call its
// arguments and result. A projection of the trace at the frame's event.
import type { ApiFunctionSpec } from '../sim/simulator.js';
import type { EventOf } from '../../protocol/trace.js';
import type { EventLog } from './eventLog.js';
import type { FrameInfo } from './frames.js';
import { shapeState } from './scope.js';

export interface ScopeInfo {
  name: string;
  value: Record<string, unknown>;
  /** Costly to compute or long (the Simulator state): clients fetch it only when opened. */
  expensive?: boolean;
  presentationHint?: 'arguments' | 'locals' | 'registers';
}

/** Messages keyed "0 · system", "1 · user (Planner)": readable in a tree, each value the exact text. */
export function messagesByIndex(messages: { role: string; content: string; name?: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  messages.forEach((m, k) => {
    out[`${k} · ${m.role}${m.name ? ` (${m.name})` : ''}`] = m.content;
  });
  return out;
}

function stateScope(log: EventLog, i: number, agent?: string): ScopeInfo | undefined {
  const world = log.stateAt(i, agent);
  if (!world) return undefined;
  return { name: 'Simulator state', value: shapeState(world.state, world.contacts), expensive: true, presentationHint: 'registers' };
}

function metricsScope(log: EventLog, i: number): ScopeInfo {
  const counters = log.countersAt(i);
  const motion: Record<string, unknown> = {};
  // Motion scores of the last robot action so far (Action Contextualization's M_I, M_E, M_T and more).
  const last = log.findBack(i, (e) => (e.type === 'code_execution' && e.apiCalls.some((c) => c.metrics)) || (e.type === 'action_result' && e.results.some((r) => r.metrics)));
  if (last >= 0) {
    const e = log.at(last)!;
    const m = e.type === 'code_execution' ? [...e.apiCalls].reverse().find((c) => c.metrics)?.metrics : e.type === 'action_result' ? [...e.results].reverse().find((r) => r.metrics)?.metrics : undefined;
    if (m) Object.assign(motion, { action: m.action, mI: m.mI, mE: m.mE, mT: m.mT, pathLengthM: m.pathLengthM, minClearanceM: m.minClearanceM, collisionCount: m.collisionCount });
  }
  const e = log.at(i);
  return {
    name: 'Metrics',
    value: {
      turn: counters.turns,
      ...(e?.round ? { round: e.round } : {}),
      ...(e?.step ? { step: e.step } : {}),
      consecutiveErrors: log.consecutiveErrorsAt(i),
      ...counters,
      ...(Object.keys(motion).length ? { lastMotion: motion } : {}),
    },
  };
}

/** The arm as the trace saw it last at event j: the newest trajectory sample, else the observation's end effector. */
function armAt(log: EventLog, j: number, agent?: string): Record<string, unknown> | string {
  const sample = log.lastSampleAt(j);
  if (sample) {
    const s = sample.sample;
    return { ee: [s.ee[0], s.ee[1], s.ee[2]], yaw: s.ee[3], gripperWidth: s.gripperWidth, grasped: s.grasped, tSecs: s.tSecs };
  }
  const world = log.stateAt(j, agent);
  return world ? { ee: world.state.ee.pos, yaw: world.state.ee.yawRad, gripperOpen: world.state.gripperOpen, grasped: world.state.grasped } : '(no state recorded)';
}

/**
 * The arm before a robot call acts (the motion so far is drained into the trace before each api_call) and after it
 * (at the block's next call, or the motion drained after the block's code_execution), once the trace holds it.
 */
function armAroundCall(log: EventLog, i: number): { before: unknown; after: unknown } {
  const e = log.at(i) as EventOf<'api_call'>;
  const before = armAt(log, i, e.agent);
  const next = log.findForward(i + 1, (x) => (x.type === 'api_call' && x.turn === e.turn) || x.type === 'code_execution' || x.type === 'role_call' || x.type === 'episode_end');
  const nextEvent = next >= 0 ? log.at(next) : undefined;
  if (!nextEvent || nextEvent.type === 'role_call' || nextEvent.type === 'episode_end') return { before, after: '(not run yet: the simulator acts when you step)' };
  if (nextEvent.type === 'api_call') return { before, after: armAt(log, next, e.agent) };
  // The last call of the block: its motion is drained after the code_execution event, before the observation.
  const drained = log.findForward(next + 1, (x) => x.type === 'trajectory' || x.type === 'observation' || x.type === 'role_call' || x.type === 'api_call');
  const d = drained >= 0 ? log.at(drained) : undefined;
  return { before, after: armAt(log, d?.type === 'trajectory' ? drained : next, e.agent) };
}

export interface ScopeOptions {
  /** The robot API of the run (names the arguments of a call). */
  api?: readonly ApiFunctionSpec[];
}

export function scopesOf(log: EventLog, frame: FrameInfo, o: ScopeOptions = {}): ScopeInfo[] {
  const i = frame.index;
  const e = log.at(i);
  const scopes: ScopeInfo[] = [];
  const agent = e?.agent;
  scopes.push(...eventScopes(log, frame, o));
  if (frame.kind === 'turn' || frame.kind === 'call' || frame.kind === 'code' || frame.kind === 'action') {
    scopes.push(...turnScopes(log, frame));
  } else if (frame.kind === 'episode' || frame.kind === 'round' || frame.kind === 'step') {
    scopes.push(episodeScope(log.start));
  }
  const st = stateScope(log, i, agent);
  if (st) scopes.push(st);
  scopes.push(metricsScope(log, i));
  return scopes;
}

/** The frame's own event: a robot call's Call, a code block's Result, an action's Action. */
function eventScopes(log: EventLog, frame: FrameInfo, o: ScopeOptions): ScopeInfo[] {
  const i = frame.index;
  const e = log.at(i);
  const scopes: ScopeInfo[] = [];
  if (frame.kind === 'call' && e?.type === 'api_call') {
    const spec = o.api?.find((f) => f.name === e.fn);
    const named: Record<string, unknown> = {};
    e.args.forEach((a, k) => {
      named[spec?.params[k]?.name ?? `arg${k}`] = a;
    });
    const end = log.findForward(i, (x) => x.type === 'code_execution' && x.turn === e.turn);
    const rec = end >= 0 && end <= log.head ? (log.at(end) as EventOf<'code_execution'>).apiCalls[e.index] : undefined;
    scopes.push({
      name: 'Call',
      presentationHint: 'arguments',
      value: {
        function: e.fn,
        ...(spec ? { signature: spec.signature } : {}),
        arguments: named,
        call: `${e.index + 1} of the block`,
        line: e.line ?? null,
        role: e.role,
        result: rec ? { ok: rec.ok, ...(rec.value !== undefined ? { value: rec.value } : {}), ...(rec.error ? { error: rec.error } : {}), ...(rec.metrics ? { metrics: rec.metrics } : {}) } : '(not run yet: the simulator acts when you step)',
        arm: armAroundCall(log, i),
      },
    });
  } else if (frame.kind === 'code' && e?.type === 'code_execution') {
    scopes.push({ name: 'Result', value: { ok: e.ok, exitCode: e.exitCode, error: e.error ?? null, stdout: e.stdout, apiCalls: e.apiCalls, durationMs: e.durationMs } });
  } else if (frame.kind === 'action' && (e?.type === 'action' || e?.type === 'action_result')) {
    const a = e.type === 'action' ? e : (log.at(log.findBack(i, (x) => x.type === 'action' && x.actionId === e.actionId)) as EventOf<'action'> | undefined);
    const r = log.findForward(i, (x) => x.type === 'action_result' && a !== undefined && x.actionId === a.actionId);
    const result = r >= 0 ? (log.at(r) as EventOf<'action_result'>) : undefined;
    scopes.push({ name: 'Action', value: { actions: a?.actions ?? [], joint: a?.joint ?? false, results: result?.results ?? '(not run yet)', ...(result?.collisions ? { collisions: result.collisions } : {}) } });
  }
  return scopes;
}

/** The role turn around the frame: Context, and with its role call, Messages and Parsed output. */
function turnScopes(log: EventLog, frame: FrameInfo): ScopeInfo[] {
  const i = frame.index;
  const e = log.at(i);
  const start = log.start;
  const agent = e?.agent;
  const scopes: ScopeInfo[] = [];
  const rc = frame.roleCallIndex ?? log.roleCallOfTurn(i);
  const call = rc >= 0 ? (log.at(rc) as EventOf<'role_call'>) : undefined;
  const obs = log.observationAt(call ? rc : i, agent);
  scopes.push({
    name: 'Context',
    presentationHint: 'locals',
    value: {
      task: start?.taskDescription ?? '',
      turn: frame.turn ?? 0,
      ...(e?.round ? { round: e.round } : {}),
      ...(e?.step ? { step: e.step } : {}),
      ...(agent !== undefined ? { agent } : {}),
      ...(call ? { role: call.role, callId: call.callId, prompt: call.promptPath, promptSha256: call.promptSha256 ?? null } : {}),
      observation: obs ? (obs.rendered ?? obs.text) : null,
      ...(call ? { variables: call.variables, history: messagesByIndex(call.messages.filter((m) => m.role !== 'system')) } : {}),
    },
  });
  if (call) {
    scopes.push({ name: 'Messages', value: messagesByIndex(call.messages) });
    const resp = log.findForward(rc, (x) => x.type === 'model_response' && x.callId === call.callId);
    const parsed = log.findForward(rc, (x) => x.type === 'parsed_output' && x.callId === call.callId);
    const r = resp >= 0 && resp <= i ? (log.at(resp) as EventOf<'model_response'>) : undefined;
    const p = parsed >= 0 && parsed <= i ? (log.at(parsed) as EventOf<'parsed_output'>) : undefined;
    scopes.push({
      name: 'Parsed output',
      value: r
        ? {
            response: r.ok ? (r.text ?? '') : `error (${r.error?.kind}): ${r.error?.message}`,
            cached: r.cached,
            ...(r.human ? { human: true } : {}),
            latencyMs: r.latencyMs,
            ...(r.usage ? { usage: r.usage } : {}),
            parsed: p ? { ok: p.ok, kind: p.kind, ...(p.ok ? { value: p.value ?? null } : { error: p.error ?? '' }) } : '(not parsed yet)',
          }
        : { response: '(not sent yet: the model is called when you step or continue)' },
    });
  }
  return scopes;
}

/** The episode's settings, for the episode, round and step frames. */
function episodeScope(start: EventLog['start']): ScopeInfo {
  return {
    name: 'Episode',
    presentationHint: 'locals',
    value: start
      ? {
          runId: start.runId,
          architecture: start.arch,
          topology: start.agentVariant,
          task: start.task,
          instruction: start.taskDescription,
          seed: start.seed,
          variant: start.variant,
          ablations: start.ablations,
          model: start.model.label,
          limits: start.limits ?? {},
          agents: start.agents ?? [],
          prompts: Object.fromEntries(start.prompts.map((p) => [p.role, p.path])),
          ...(start.fork ? { fork: start.fork } : {}),
        }
      : {},
  };
}
