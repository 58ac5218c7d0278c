// Runs one episode: resets the simulator, loads and checks the prompts, hands an EpisodeContext to the
// architecture, judges success with the simulator's check (never the agent's claim) and closes the trace.
// Every event is written to the trace, then shown to the controller, before the engine acts on it.
// The parts: emit.ts (trace emission), endReasons.ts (aborts and end reasons), caps.ts (limits), prompts.ts,
// context.ts (the EpisodeContext, with modelCalls.ts, codeExecution.ts and simCalls.ts behind it).
import type { EpisodeEndReason, ForkInfo, ModelSettings, PendingEvent, TraceEvent, WorldState } from '../../protocol/trace.js';
import { ENGINE_END_REASONS, TRACE_SCHEMA_VERSION } from '../../protocol/trace.js';
import { ENGINE_LIMITS, manifestProblems, resolveLimits } from '../architecture/limits.js';
import type { ArchitectureDefinition, EpisodeOptions, LimitValues, AgentTopology } from '../architecture/types.js';
import type { Clock, HostIO } from '../host.js';
import type { ModelClient } from '../llm/client.js';
import type { EmbeddingClient } from '../llm/embeddings.js';
import type { ResolvedVariant } from '../prompt/variants.js';
import type { CodeSandbox } from '../sandbox/sandbox.js';
import { SimParamError, type Observation, type ResetOutcome, type Simulator, type TaskInfo } from '../sim/simulator.js';
import { SimErrorCode } from '../../protocol/simulator.js';
import type { TraceSink } from '../trace/writer.js';
import { EpisodeCaps } from './caps.js';
import { persistNamespaceOf } from './codeExecution.js';
import { makeContext } from './context.js';
import { startingSandbox } from './startingSandbox.js';
import { EpisodeController } from './controller.js';
import { makeEmitter, newMetrics, perceived, rendered, type Metrics } from './emit.js';
import { CancelledWhileStarting, CapReached, EpisodeAbort, isDeclaredReason, messageOf, simStep } from './endReasons.js';
import { hashPromptFiles, loadPrompts } from './prompts.js';
import { TrackStore } from './tracks.js';
import type { HumanSeat } from './human.js';
import { PerceptionModel } from '../perception/estimator.js';

export { messageOf } from './endReasons.js';
export { persistNamespaceOf } from './codeExecution.js';

/** Engine options every architecture shares; limits come from the architecture's declarations. */
export const DEFAULT_EPISODE_OPTIONS: EpisodeOptions = {
  limits: {},
  codeTimeoutSecs: 10,
  memoryMiB: 512,
};

export interface EpisodeSpec {
  runId: string;
  arch: ArchitectureDefinition;
  /** Agent topology inside the architecture (e.g. malmm | ma | sa); defaults to the variant's, then the architecture's. */
  agent?: string;
  task: string;
  seed: number;
  variant: ResolvedVariant;
  /** Role id -> prompt file path. */
  promptPaths: Record<string, string>;
  /**
   * `limits` may name a subset of the architecture's limits (the rest take their defaults), as numbers or strings;
   * they override the variant's limits.
   */
  options: Omit<EpisodeOptions, 'limits'> & { limits?: Readonly<Record<string, unknown>> };
  /** Team size asked of the simulator (overrides the variant's `agents`); absent: the task's own. */
  agents?: number;
  model: ModelSettings;
  /** Set when this episode re-runs another one up to a turn and goes on from there (a debugger's Restart Frame). */
  fork?: ForkInfo;
}

export interface EpisodeDeps {
  io: HostIO;
  clock: Clock;
  sim: Simulator;
  sandbox: CodeSandbox;
  model: ModelClient;
  /** The run's embedding model (LLaMAR's action matcher); each episode caches its vectors. */
  embeddings?: EmbeddingClient;
  sink: TraceSink;
  controller?: EpisodeController;
  /** A person typing some agents' turns (RoCo's human in a robot's seat). */
  human?: HumanSeat;
}

export interface EpisodeResult {
  success: boolean;
  reason: EpisodeEndReason;
  message?: string;
  events: number;
  end: Extract<TraceEvent, { type: 'episode_end' }>;
}

type Emit = (pending: PendingEvent) => Promise<TraceEvent>;
type Outcome = { reason: EpisodeEndReason; message?: string };

/** What runEpisode's parts share: the pieces built once at the start, and the task once the simulator has reset. */
interface Run {
  spec: EpisodeSpec;
  deps: EpisodeDeps;
  controller: EpisodeController;
  caps: EpisodeCaps;
  runSignal: AbortSignal;
  emit: Emit;
  metrics: Metrics;
  stamp: { agent?: string };
  limitValues: LimitValues;
  agent: string;
  topology: AgentTopology | undefined;
  roleIds: readonly string[];
  teamSize: number | undefined;
  perceive: (o: Observation) => Observation;
  /** Stops checking the caps (the closing events are exempt). */
  disarm: () => void;
  task?: TaskInfo;
  /** How the loop ended, set as soon as the architecture returns (an error after that keeps its claim and metrics). */
  ended: LoopEnd;
}

/** How the architecture's loop ended, when it ran to its own end. */
interface LoopEnd {
  outcome: Outcome;
  agentClaimedDone: boolean;
  archMetrics?: Record<string, number>;
}

export async function runEpisode(spec: EpisodeSpec, deps: EpisodeDeps): Promise<EpisodeResult> {
  const controller = deps.controller ?? new EpisodeController();
  const t0 = deps.clock.nowMs();
  const metrics = newMetrics();
  const limits = resolveLimits(spec.arch, { ...(spec.variant.limits ?? {}), ...(spec.options.limits ?? {}) });
  const limitValues: LimitValues = limits.ok ? limits.limits : {};
  const run = { spec, deps, controller, metrics, limitValues } as Run;
  run.caps = engineCaps(run);
  /** The user's cancel or the wall-clock cap: what a model call or the sandbox start-up waits on. */
  run.runSignal = run.caps.linked(controller.signal);
  // Counters stamped on every event after the architecture has moved them (round, step, agent).
  run.stamp = {};
  const writer = makeEmitter({ sink: deps.sink, clock: deps.clock, controller, caps: run.caps, metrics, stamp: run.stamp });
  run.emit = writer.emit;
  run.disarm = () => writer.disarm();
  run.ended = { outcome: { reason: 'engine_error' }, agentClaimedDone: false };
  run.agent = spec.agent ?? spec.variant.agent ?? spec.arch.defaultTopology;
  // Perception mode: every observation the agents get goes through one seeded model per episode.
  const perception = spec.options.perception === 'estimated' ? new PerceptionModel(spec.seed) : undefined;
  run.perceive = (o: Observation): Observation => {
    if (!perception) return o;
    const { state, notes } = perception.estimate(o.state);
    return { ...o, estimate: state, perception: notes };
  };
  run.topology = spec.arch.topologies[run.agent];
  run.roleIds = run.topology ? run.topology.roles : [];
  run.teamSize = spec.agents ?? spec.variant.agents;
  const hashed = await hashPromptFiles(deps.io, run.roleIds, spec.promptPaths);
  const start = startEvent(run, hashed.refs);

  run.caps.start();
  try {
    await refuse(run, start, limits.ok ? undefined : limits.error);
    await startAndRun(run, start, hashed.sources);
  } catch (err) {
    run.stamp.agent = undefined;
    writer.disarm();
    run.ended = { ...run.ended, outcome: await failureOutcome(run, err) };
  }
  const ended = run.ended;
  writer.disarm();
  run.caps.stop();
  const { success, finalState } = await finalCheck(run, ended.outcome);
  const end = (await run.emit(endEvent(run, { ...ended, success, finalState, durationMs: deps.clock.nowMs() - t0 }))) as Extract<TraceEvent, { type: 'episode_end' }>;
  controller.notifyEnded(ended.outcome.reason === 'cancelled' ? 'cancelled' : success ? 'success' : 'failure');
  return { success, reason: ended.outcome.reason, message: ended.outcome.message, events: writer.count, end };
}

/** The engine's caps (defaults when the limits did not resolve: that episode ends before it runs anyway). */
function engineCaps(run: Run): EpisodeCaps {
  const { deps, limitValues, metrics } = run;
  const cap = (id: string) => (typeof limitValues[id] === 'number' ? (limitValues[id] as number) : (ENGINE_LIMITS.find((l) => l.id === id)!.default as number));
  return new EpisodeCaps({
    clock: deps.clock,
    maxWallSecs: cap('maxWallSecs'),
    maxSimSecs: cap('maxSimSecs'),
    simTotalSecs: () => (run.task ? deps.sim.simTimeSecs() + metrics.simRewoundSecs : undefined),
    stopped: () => run.controller.isStopped,
  });
}

function startEvent(run: Run, promptRefs: { role: string; path: string; sha256: string }[]): PendingEvent {
  const { spec, deps, limitValues } = run;
  const legacyLimits = Object.fromEntries(['maxTurns', 'maxConsecutiveErrors'].filter((k) => typeof limitValues[k] === 'number').map((k) => [k, limitValues[k]]));
  return {
    type: 'episode_start',
    schemaVersion: TRACE_SCHEMA_VERSION,
    runId: spec.runId,
    arch: spec.arch.id,
    agentVariant: run.agent,
    task: spec.task,
    taskDescription: '',
    seed: spec.seed,
    variant: spec.variant.name,
    ablations: spec.variant.ablations,
    model: spec.model,
    prompts: promptRefs,
    simulator: { name: deps.sim.name, version: deps.sim.version },
    // maxTurns / maxConsecutiveErrors are copied here too, where they exist, for readers of schema v1.
    options: { ...legacyLimits, persistNamespace: persistNamespaceOf(spec), codeTimeoutSecs: spec.options.codeTimeoutSecs, perception: spec.options.perception ?? 'ground-truth', ...(spec.options.codeRunner === 'host-python' ? { codeRunner: 'host-python' } : {}), ...(spec.options.vision ? { vision: true } : {}) },
    limits: { ...limitValues },
    ...(spec.arch.renderObservation ? { observationRendering: `${spec.arch.id} renders its roles' observation text from the structured state` } : {}),
    ...(spec.fork ? { fork: spec.fork } : {}),
    startedAt: deps.clock.isoNow(),
  };
}

/** Checks before the simulator resets (manifest, limits, topology, task): a failure records the start, then ends. */
async function refuse(run: Run, start: PendingEvent, limitsError?: string): Promise<void> {
  const { spec, deps } = run;
  const problems = manifestProblems(spec.arch);
  if (problems.length > 0) {
    await run.emit(start);
    throw new EpisodeAbort('engine_error', problems.join('; '));
  }
  if (limitsError !== undefined) {
    await run.emit(start);
    throw new EpisodeAbort('invalid_input', limitsError);
  }
  if (!run.topology) {
    await run.emit(start);
    const known = Object.keys(spec.arch.topologies).join(', ');
    throw new EpisodeAbort('invalid_input', `unknown agent topology '${run.agent}' for ${spec.arch.id}; known: ${known}`);
  }
  const known = deps.sim.tasks().map((t) => t.id);
  if (!known.includes(spec.task)) {
    await run.emit(start);
    throw new EpisodeAbort('invalid_input', `unknown task '${spec.task}'; known: ${known.join(', ')}`);
  }
}

/** Resets the simulator, records the start and the scene, starts the sandbox, then runs the architecture's loop. */
async function startAndRun(run: Run, start: PendingEvent, promptSources: Record<string, string>): Promise<void> {
  const { spec, deps, controller } = run;
  const reset = await resetSimulator(run, start);
  run.task = reset.task;
  const agents = await seatAgents(run, start, reset);
  const prompts = await loadPrompts({ io: deps.io, arch: spec.arch, roleIds: run.roleIds, promptPaths: spec.promptPaths, sources: promptSources, epoch: controller.promptEpoch });
  // Prompts are valid: start the sandbox now (Pyodide takes seconds). The loop does not wait for it: the first
  // model calls go out while it loads, and only the first code block waits (startingSandbox). With a slow endpoint
  // and a sweep worker starting many episodes at once, that overlaps seconds of start-up with the model's answer.
  // (Not for an architecture that runs no code: a slow start-up would fail a run that never needs it.)
  const runsCode = spec.arch.runsCode !== false;
  const sandbox = runsCode ? startingSandbox(deps.sandbox, run.runSignal) : deps.sandbox;
  const tracks = await recordScene(run, reset);

  const { emit, caps, runSignal, metrics, stamp, perceive } = run;
  const ctx = makeContext({ spec, deps: { ...deps, sandbox }, emit, controller, caps, runSignal, prompts, reset, task: reset.task, agent: run.agent, agents, metrics, stamp, limits: run.limitValues, tracks, perceive });
  const result = await spec.arch.run(ctx);
  run.disarm();
  stamp.agent = undefined;
  metrics.turns = ctx.turn;
  const outcome: Outcome = controller.signal.aborted ? { reason: 'cancelled', message: 'cancelled by the user' } : { reason: result.reason, message: result.message };
  run.ended = { outcome, agentClaimedDone: result.agentClaimedDone, archMetrics: result.metrics };
  if (!controller.signal.aborted && !isDeclaredReason(spec.arch, result.reason)) {
    await emit({ type: 'error', kind: 'engine_error', message: `architecture ${spec.arch.id} ended with the undeclared reason '${result.reason}' (declared: ${[...ENGINE_END_REASONS, ...Object.keys(spec.arch.endReasons)].join(', ')})` });
  }
}

async function resetSimulator(run: Run, start: PendingEvent): Promise<ResetOutcome> {
  const { spec, deps, teamSize } = run;
  try {
    const reset = await deps.sim.reset(spec.task, spec.seed, { api: spec.arch.api, ...(teamSize !== undefined ? { agents: teamSize } : {}) });
    return { ...reset, observation: run.perceive(reset.observation) };
  } catch (err) {
    await run.emit(start);
    // A parameter the simulator refuses (an embedded one's SimParamError, a remote one's INVALID_PARAMS) is the
    // user's input, not a broken simulator.
    const refused = err instanceof SimParamError || (err as { code?: unknown })?.code === SimErrorCode.INVALID_PARAMS;
    throw new EpisodeAbort(refused ? 'invalid_input' : 'simulator_error', messageOf(err));
  }
}

/** The episode's agents, recorded with the start; the team size and people's seats checked against them. */
async function seatAgents(run: Run, start: PendingEvent, reset: ResetOutcome): Promise<string[]> {
  const { spec, deps, teamSize } = run;
  const agents = reset.agents && reset.agents.length > 0 ? reset.agents : ['robot'];
  const humans = [...(deps.human?.agents ?? [])];
  if (teamSize !== undefined && agents.length !== teamSize) {
    await run.emit({ ...start, taskDescription: reset.task.instruction, agents } as PendingEvent);
    throw new EpisodeAbort('invalid_input', `${teamSize} agents were asked for, but task '${spec.task}' of ${deps.sim.name} has ${agents.length} (${agents.join(', ')})`);
  }
  await run.emit({ ...start, taskDescription: reset.task.instruction, agents, ...(humans.length > 0 ? { humans } : {}) } as PendingEvent);
  if (humans.length > 0 && !run.topology!.humanSeats) {
    const seated = Object.entries(spec.arch.topologies).filter(([, t]) => t.humanSeats).map(([id]) => id);
    throw new EpisodeAbort('invalid_input', `${spec.arch.id}/${run.agent} has no agent seat a person can take (${seated.length > 0 ? `topologies with seats: ${seated.join(', ')}` : `no ${spec.arch.id} topology has one`})`);
  }
  const seatless = humans.filter((h) => !agents.includes(h));
  if (seatless.length > 0) throw new EpisodeAbort('invalid_input', `no agent ${seatless.map((h) => `'${h}'`).join(', ')} for a person to play in this episode; agents: ${agents.join(', ')}`);
  return agents;
}

/** The scene, the pose at reset and the first observation, into the trace and a new track store. */
async function recordScene(run: Run, reset: ResetOutcome): Promise<TrackStore> {
  const { spec, deps, emit } = run;
  const geometry = await simStep('geometry', () => deps.sim.geometry());
  await emit({ type: 'scene', bodies: geometry.bodies, geoms: geometry.geoms });
  const tracks = new TrackStore();
  tracks.configure(
    reset.observation.state.objects.map((o) => o.name),
    geometry.bodies,
  );
  tracks.addObservation(deps.sim.simTimeSecs(), reset.observation.state);
  // The pose at reset (t = 0) belongs to turn 0: recorded now, a run that ends before the first motion still
  // shows where everything stood (3D replay, plots, exports), instead of geometry with no pose to put it in.
  const initial = await simStep('drain_trajectory', () => deps.sim.drainTrajectory());
  if (initial.samples.length > 0) {
    tracks.addSamples(initial.samples);
    await emit({ type: 'trajectory', turn: 0, rateHz: initial.rateHz, samples: initial.samples });
  }
  await emit({ type: 'observation', turn: 0, text: reset.observation.text, state: reset.observation.state, ...perceived(reset.observation), ...rendered(spec.arch, reset.observation, spec.variant.ablations) });
  return tracks;
}

/** The end reason of an episode that did not run to the architecture's own end; errors become an error event. */
async function failureOutcome(run: Run, err: unknown): Promise<Outcome> {
  const { controller, caps, emit } = run;
  if (err instanceof CancelledWhileStarting) {
    return controller.signal.aborted ? { reason: 'cancelled', message: 'cancelled by the user' } : (caps.reached() ?? { reason: 'cancelled', message: 'cancelled by the user' });
  }
  if (err instanceof CapReached && !controller.signal.aborted) {
    // Like an architecture's own cap: the end reason says it, no error event.
    return { reason: err.reason, message: err.message };
  }
  if (err instanceof EpisodeAbort) {
    // The error event carries file and line as fields; the end message is read alone, so it names them.
    const where = err.file ? ` (${err.file}${err.line !== undefined ? `:${err.line}` : ''})` : '';
    const outcome: Outcome = { reason: controller.signal.aborted ? 'cancelled' : err.reason, message: err.message + where };
    await emit({ type: 'error', kind: err.reason, message: err.message, file: err.file, line: err.line });
    return outcome;
  }
  await emit({ type: 'error', kind: 'engine_error', message: messageOf(err) });
  return { reason: 'engine_error', message: messageOf(err) };
}

/** Success is the simulator's verdict, and only for episodes that ran to an agent-side end. */
async function finalCheck(run: Run, outcome: Outcome): Promise<{ success: boolean; finalState?: WorldState }> {
  const { deps } = run;
  if (!run.task) return { success: false };
  let success = false;
  let finalState: WorldState | undefined;
  try {
    const check = await deps.sim.check();
    await run.emit({ type: 'check', turn: run.metrics.turns, name: 'task_success', ok: check.success, message: check.detail, phase: 'final' });
    success = check.success && outcome.reason !== 'cancelled';
    finalState = (await deps.sim.observe()).state;
  } catch (err) {
    await run.emit({ type: 'error', kind: 'simulator_error', message: `success check failed: ${messageOf(err)}` });
  }
  return { success, finalState };
}

function endEvent(run: Run, e: LoopEnd & { success: boolean; finalState?: WorldState; durationMs: number }): PendingEvent {
  const { deps, metrics, task } = run;
  return {
    type: 'episode_end',
    success: e.success,
    reason: e.outcome.reason,
    agentClaimedDone: e.agentClaimedDone,
    message: e.outcome.message,
    metrics: {
      turns: metrics.turns,
      modelCalls: metrics.modelCalls,
      cachedCalls: metrics.cachedCalls,
      promptTokens: metrics.promptTokens,
      completionTokens: metrics.completionTokens,
      codeBlocks: metrics.codeBlocks,
      codeErrors: metrics.codeErrors,
      formatErrors: metrics.formatErrors,
      durationMs: e.durationMs,
      simTimeSecs: task ? deps.sim.simTimeSecs() : 0,
      // Every restore rewinds the clock, so simTimeSecs alone covers only the final state's timeline.
      simTotalSecs: task ? deps.sim.simTimeSecs() + metrics.simRewoundSecs : 0,
      ...(metrics.rounds > 0 ? { rounds: metrics.rounds } : {}),
      ...(metrics.steps > 0 ? { steps: metrics.steps } : {}),
      ...(metrics.humanTurns > 0 ? { humanTurns: metrics.humanTurns } : {}),
    },
    ...(e.archMetrics ? { archMetrics: e.archMetrics } : {}),
    finalState: e.finalState,
  };
}
