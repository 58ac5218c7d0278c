// The simulator as an architecture reaches it outside code blocks: actions (one agent's or a joint step),
// observations (whole scene or one agent's view), snapshots and restores, and the mid-episode success check.
import type { AgentAction, AgentActionResult, PendingEvent } from '../../protocol/trace.js';
import type { ActOptions, JointActionOutcome } from '../architecture/types.js';
import type { ActionCheck, CollisionReport, Observation } from '../sim/simulator.js';
import { drainTrajectory, recordObservation, unknownAgent, type ContextState } from './contextState.js';
import { collisionCheck } from './emit.js';
import { EpisodeAbort, simStep } from './endReasons.js';

interface StepAnswer {
  results: AgentActionResult[];
  collisions: CollisionReport[];
  checks: ActionCheck[];
  info?: Record<string, unknown>;
}

/**
 * The simulator's answer to one step. Bad requests (an agent that does not exist, a joint step the simulator
 * cannot take) fail the action with a message; the architecture decides what the agents hear about it.
 */
async function takeStep(s: ContextState, actions: AgentAction[]): Promise<StepAnswer> {
  const { deps, controller } = s;
  const invalid = actions.map((a) => unknownAgent(s, a.agent));
  if (controller.signal.aborted) {
    return { results: actions.map((a) => ({ agent: a.agent, name: a.name, ok: false, error: 'cancelled' })), collisions: [], checks: [] };
  }
  if (invalid.some((m) => m !== undefined)) {
    return { results: actions.map((a, i) => ({ agent: a.agent, name: a.name, ok: false, error: invalid[i] ?? 'not run: another action of this joint step was invalid' })), collisions: [], checks: [] };
  }
  if (deps.sim.act) {
    const act = deps.sim.act.bind(deps.sim);
    const r = await simStep('act', () => act(actions));
    if (r.results.length !== actions.length) {
      throw new EpisodeAbort('simulator_error', `simulator answered ${r.results.length} results for ${actions.length} actions`);
    }
    return { results: r.results, collisions: r.collisions ?? [], checks: r.checks ?? [], info: r.info };
  }
  if (actions.length === 1) {
    const a = actions[0]!;
    const r = await simStep('call', () => deps.sim.call(a.name, a.args));
    const results = [r.ok ? { agent: a.agent, name: a.name, ok: true, output: r.output, value: r.value, metrics: r.metrics } : { agent: a.agent, name: a.name, ok: false, error: r.error }];
    return { results, collisions: r.ok ? (r.collisions ?? []) : [], checks: [] };
  }
  const why = `the simulator ${deps.sim.name} cannot run actions of several agents in one step`;
  return { results: actions.map((a) => ({ agent: a.agent, name: a.name, ok: false, error: why })), collisions: [], checks: [] };
}

export async function actJointly(s: ContextState, actions: AgentAction[], options?: ActOptions): Promise<JointActionOutcome> {
  const { deps, emit } = s;
  const actionId = `a${++s.live.actionCounter}`;
  await emit({ type: 'action', turn: s.live.turn, actionId, actions, joint: actions.length > 1, ...(options?.origin ? { origin: options.origin } : {}) });
  const t = deps.clock.nowMs();
  const { collisions, checks, info, ...answer } = await takeStep(s, actions);
  const results = answer.results.map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as AgentActionResult);
  // Checks the simulator ran before acting (RoCo's plan checks): each one's verdict is its own check event too.
  for (const c of checks.filter((x) => !x.skipped)) {
    await emit({ type: 'check', turn: s.live.turn, name: `plan: ${c.name}`, ok: c.ok, message: c.message ?? 'passed', actionId } as PendingEvent);
  }
  await emit({ type: 'action_result', turn: s.live.turn, actionId, results, durationMs: deps.clock.nowMs() - t, ...(collisions.length > 0 ? { collisions } : {}), ...(checks.length > 0 ? { checks } : {}), ...(info ? { info } : {}) } as PendingEvent);
  await drainTrajectory(s);
  for (const c of collisions) await emit(collisionCheck(s.live.turn, c));
  return { results, collisions, checks, ...(info ? { info } : {}) };
}

export async function observe(s: ContextState, agentName?: string): Promise<Observation> {
  const { deps } = s;
  if (agentName !== undefined) {
    const bad = unknownAgent(s, agentName);
    if (bad) throw new EpisodeAbort('engine_error', `observe: ${bad}`);
  }
  let observation: Observation;
  if (agentName === undefined) observation = await simStep('observe', () => deps.sim.observe());
  else if (deps.sim.agentViews) observation = { ...(await simStep('observe', () => deps.sim.observe(agentName))), agent: agentName };
  // A simulator without per-agent views shows everyone the whole scene; the event says so.
  else observation = { ...(await simStep('observe', () => deps.sim.observe())), agent: agentName };
  observation = s.perceive(observation);
  await recordObservation(s, observation, agentName === undefined ? undefined : deps.sim.agentViews ? 'agent' : 'shared');
  return observation;
}

export async function snapshot(s: ContextState, label?: string): Promise<string> {
  const { deps } = s;
  await drainTrajectory(s);
  const snap = await simStep('snapshot', () => deps.sim.snapshot());
  const id = `s${++s.live.snapshotCounter}`;
  const simTimeSecs = deps.sim.simTimeSecs();
  s.live.snapshots.set(id, { snap, label, simTimeSecs });
  await s.emit({ type: 'snapshot', turn: s.live.turn, id, simTimeSecs, ...(label !== undefined ? { label } : {}) });
  return id;
}

export async function restore(s: ContextState, id: string): Promise<void> {
  const { deps, live } = s;
  const saved = live.snapshots.get(id);
  if (!saved) {
    const known = [...live.snapshots.keys()].join(', ') || 'none taken';
    throw new EpisodeAbort('engine_error', `restore: unknown snapshot '${id}' (snapshots of this episode: ${known})`);
  }
  // What was recorded since the last drain belongs to the timeline being left.
  await drainTrajectory(s);
  const before = deps.sim.simTimeSecs();
  await simStep('restore', () => deps.sim.restore(saved.snap));
  s.metrics.simRewoundSecs += before - deps.sim.simTimeSecs();
  s.tracks.truncateAfter(saved.simTimeSecs);
  await s.emit({ type: 'restore', turn: live.turn, id, simTimeSecs: deps.sim.simTimeSecs(), ...(saved.label !== undefined ? { label: saved.label } : {}) });
}

export async function checkSuccess(s: ContextState) {
  const check = await simStep('check', () => s.deps.sim.check());
  await s.emit({ type: 'check', turn: s.live.turn, name: 'task_success', ok: check.success, message: check.detail, phase: 'mid' });
  return check;
}
