// The names a condition, watch or console expression can use at one position of a run, as plain data:
// `turn > 5`, `state.objects.red_block.z < 0.8`, `consecutiveErrors >= 2`, `fn == "close_gripper"`, `args[0]`.
// Architecture-neutral: everything comes from trace events and their counters.
import type { EventOf, WorldState } from '../../protocol/trace.js';
import type { EventLog } from './eventLog.js';
import { turnOf } from './eventLog.js';

/** Objects and robots keyed by name, each with x/y/z beside its position, so paths read naturally. */
export function shapeState(state: WorldState, contacts: [string, string][] = []): Record<string, unknown> {
  const objects: Record<string, unknown> = {};
  for (const o of state.objects) {
    objects[o.name] = { x: o.pos[0], y: o.pos[1], z: o.pos[2], pos: o.pos, yaw: o.euler[2], euler: o.euler, size: o.size, color: o.color, ...(o.props ?? {}) };
  }
  const robots: Record<string, unknown> = {};
  for (const r of state.robots ?? []) {
    robots[r.name] = { x: r.pos[0], y: r.pos[1], z: r.pos[2], pos: r.pos, yaw: r.yawRad, holding: r.holding, ...(r.gripperOpen !== undefined ? { gripperOpen: r.gripperOpen } : {}) };
  }
  return {
    objects,
    robots,
    ee: { x: state.ee.pos[0], y: state.ee.pos[1], z: state.ee.pos[2], pos: state.ee.pos, yaw: state.ee.yawRad },
    gripperOpen: state.gripperOpen,
    grasped: state.grasped,
    contacts,
    ...(state.extra ? { extra: state.extra } : {}),
  };
}

/** The evaluation scope at event index i. `hits` is bound for hit conditions. */
export function scopeAt(log: EventLog, i: number, extra: { hits?: number } = {}): Record<string, unknown> {
  const e = log.at(i);
  const start = log.start;
  const scope: Record<string, unknown> = {};
  if (!e) return scope;
  const rc = log.roleCallOfTurn(i);
  const call = rc >= 0 ? (log.at(rc) as EventOf<'role_call'>) : undefined;
  const turn = turnOf(e) ?? turnOf(log.at(log.findBack(i, (x) => turnOf(x) !== undefined)) ?? e) ?? 0;
  scope.type = e.type;
  scope.event = e;
  scope.turn = turn;
  scope.round = e.round ?? 0;
  scope.step = e.step ?? 0;
  scope.agent = e.agent ?? null;
  scope.role = 'role' in e && typeof e.role === 'string' ? e.role : (call?.role ?? null);
  scope.seq = e.seq;
  if (start) {
    scope.task = { id: start.task, instruction: start.taskDescription, seed: start.seed, arch: start.arch, variant: start.variant, topology: start.agentVariant };
    scope.ablations = start.ablations;
    scope.limits = start.limits ?? {};
  }
  const world = log.stateAt(i, e.agent);
  scope.state = world ? shapeState(world.state, world.contacts) : null;
  const obs = log.observationAt(i, e.agent);
  scope.observation = obs ? (obs.rendered ?? obs.text) : null;
  scope.messages = call ? call.messages.map((m) => ({ role: m.role, content: m.content, ...(m.name ? { name: m.name } : {}) })) : [];
  scope.variables = call?.variables ?? {};
  const resp = call ? log.findForward(rc, (x) => x.type === 'model_response' && x.callId === call.callId) : -1;
  const response = resp >= 0 && resp <= i ? (log.at(resp) as EventOf<'model_response'>) : undefined;
  scope.response = response ? (response.ok ? (response.text ?? '') : `error: ${response.error?.message ?? 'unknown'}`) : null;
  const parsedIdx = call ? log.findForward(rc, (x) => x.type === 'parsed_output' && x.callId === call.callId) : -1;
  const parsed = parsedIdx >= 0 && parsedIdx <= i ? (log.at(parsedIdx) as EventOf<'parsed_output'>) : undefined;
  scope.parsed = parsed ? { ok: parsed.ok, kind: parsed.kind, value: parsed.value ?? null, error: parsed.error ?? null } : null;
  const block = log.codeBlockAt(i);
  scope.code = block?.text ?? null;
  if (e.type === 'api_call') {
    scope.fn = e.fn;
    scope.args = e.args;
    scope.line = e.line ?? null;
  } else if (e.type === 'action') {
    scope.fn = e.actions[0]?.name ?? null;
    scope.args = e.actions[0]?.args ?? [];
    scope.actions = e.actions;
  } else {
    scope.fn = null;
    scope.args = [];
  }
  if (e.type === 'code_execution') scope.error = e.error ?? null;
  else if (e.type === 'error') scope.error = { type: e.kind, message: e.message };
  else scope.error = null;
  scope.consecutiveErrors = log.consecutiveErrorsAt(i);
  scope.metrics = log.countersAt(i);
  if (extra.hits !== undefined) scope.hits = extra.hits;
  return scope;
}
