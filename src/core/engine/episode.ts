// Runs one episode: resets the simulator, loads and checks the prompts, hands an EpisodeContext to the
// architecture, judges success with the simulator's check (never the agent's claim) and closes the trace.
// Every event is written to the trace, then shown to the controller, before the engine acts on it.
import type { AgentAction, AgentActionResult, ChatMessage, EpisodeEndReason, ForkInfo, ModelSettings, PendingEvent, TraceEvent, WorldState } from '../../protocol/trace.js';
import { ENGINE_END_REASONS, TRACE_SCHEMA_VERSION } from '../../protocol/trace.js';
import { ENGINE_LIMITS, manifestProblems, resolveLimits } from '../architecture/limits.js';
import type { ActOptions, ArchitectureDefinition, CodeRunOutcome, EpisodeContext, EpisodeOptions, JointActionOutcome, LimitValues, RoleCallOptions, RoleCallOutcome } from '../architecture/types.js';
import type { Clock, HostIO } from '../host.js';
import type { ModelClient } from '../llm/client.js';
import { EmbeddingCache, type EmbeddingClient } from '../llm/embeddings.js';
import type { PromptRole } from '../prompt/analyze.js';
import { loadPromptFile, PromptError, renderPrompt, type PromptFile } from '../prompt/render.js';
import { fieldProblems, readSchemaShapes } from '../prompt/schema.js';
import type { ResolvedVariant } from '../prompt/variants.js';
import type { CodeSandbox } from '../sandbox/sandbox.js';
import { SimParamError, type ActionCheck, type ApiCallResult, type CollisionReport, type Observation, type ResetOutcome, type SimSnapshot, type Simulator, type TaskInfo } from '../sim/simulator.js';
import { SimErrorCode } from '../../protocol/simulator.js';
import type { TraceSink } from '../trace/writer.js';
import { EpisodeCaps } from './caps.js';
import { EpisodeController } from './controller.js';
import { sha256Hex } from './hash.js';
import { TrackStore } from './tracks.js';
import type { HumanSeat } from './human.js';
import { PerceptionModel } from '../perception/estimator.js';

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

/** Ends the episode from deep inside a step with a closed reason (prompt, model or simulator failure). */
/** The user cancelled before the agent's loop began (nothing went wrong, so no error event). */
class CancelledWhileStarting extends Error {}

/** `p`, or a CancelledWhileStarting as soon as `signal` aborts (p keeps running; its result is dropped). */
/** Whether one episode's code blocks share a namespace: the run's choice, else the architecture's paper. */
export function persistNamespaceOf(spec: Pick<EpisodeSpec, 'arch' | 'options'>): boolean {
  return spec.options.persistNamespace ?? spec.arch.codeNamespace === 'episode';
}

function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new CancelledWhileStarting());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new CancelledWhileStarting());
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => (signal.removeEventListener('abort', onAbort), resolve(v)),
      (e) => (signal.removeEventListener('abort', onAbort), reject(e)),
    );
  });
}

class EpisodeAbort extends Error {
  constructor(
    readonly reason: EpisodeEndReason,
    message: string,
    readonly file?: string,
    readonly line?: number,
  ) {
    super(message);
  }
}

/** One of the engine's caps was reached: the episode ends with its reason, like an architecture's own cap (no error). */
class CapReached extends EpisodeAbort {}

interface Metrics {
  turns: number;
  modelCalls: number;
  cachedCalls: number;
  promptTokens: number;
  completionTokens: number;
  codeBlocks: number;
  codeErrors: number;
  formatErrors: number;
  rounds: number;
  steps: number;
  humanTurns: number;
  /** Simulated seconds that restores wound the clock back (the clock at the end plus these is all that was simulated). */
  simRewoundSecs: number;
}

/** A role's prompt as last loaded: re-read from disk when the episode has stopped since (a debugger pause). */
interface LoadedPrompt {
  path: string;
  text: string;
  sha256: string;
  file: PromptFile;
  /** controller.promptEpoch when the file was last checked. */
  checkedAt: number;
}

/** The role a prompt file serves, with what the architecture passes it, for the prompt's variable check. */
function promptRole(arch: ArchitectureDefinition, role: string): PromptRole | undefined {
  const r = arch.roles.find((x) => x.id === role);
  return r && { arch: arch.id, id: r.id, variables: r.variables };
}

/** How one call's variables differ from the role's declaration (RoleSpec.variables). */
function passedVariableProblems(arch: ArchitectureDefinition, role: string, variables: Record<string, unknown>): string[] {
  const r = arch.roles.find((x) => x.id === role);
  return r ? fieldProblems(variables, readSchemaShapes(r.variables).vars, '') : [];
}

export async function runEpisode(spec: EpisodeSpec, deps: EpisodeDeps): Promise<EpisodeResult> {
  const controller = deps.controller ?? new EpisodeController();
  const t0 = deps.clock.nowMs();
  let eventCount = 0;
  const metrics: Metrics = { turns: 0, modelCalls: 0, cachedCalls: 0, promptTokens: 0, completionTokens: 0, codeBlocks: 0, codeErrors: 0, formatErrors: 0, rounds: 0, steps: 0, humanTurns: 0, simRewoundSecs: 0 };
  const limits = resolveLimits(spec.arch, { ...(spec.variant.limits ?? {}), ...(spec.options.limits ?? {}) });
  const limitValues: LimitValues = limits.ok ? limits.limits : {};
  let task: TaskInfo | undefined;
  // The engine's caps (defaults when the limits did not resolve: that episode ends before it runs anyway).
  const cap = (id: string) => (typeof limitValues[id] === 'number' ? (limitValues[id] as number) : (ENGINE_LIMITS.find((l) => l.id === id)!.default as number));
  const caps = new EpisodeCaps({
    clock: deps.clock,
    maxWallSecs: cap('maxWallSecs'),
    maxSimSecs: cap('maxSimSecs'),
    simTotalSecs: () => (task ? deps.sim.simTimeSecs() + metrics.simRewoundSecs : undefined),
    stopped: () => controller.isStopped,
  });
  /** The user's cancel or the wall-clock cap: what a model call or the sandbox start-up waits on. */
  const runSignal = caps.linked(controller.signal);
  /** Caps are checked after each event while the episode runs; the closing events (final check, end) are exempt. */
  let capsArmed = true;
  // Counters stamped on every event after the architecture has moved them (round, step, agent).
  const stamp: { agent?: string } = {};
  const emit = async (pending: PendingEvent): Promise<TraceEvent> => {
    const stamped = {
      ...(metrics.rounds > 0 ? { round: metrics.rounds } : {}),
      ...(metrics.steps > 0 ? { step: metrics.steps } : {}),
      ...(stamp.agent !== undefined ? { agent: stamp.agent } : {}),
      ...pending,
    } as PendingEvent;
    const event = await deps.sink.write(stamped);
    eventCount++;
    const stops = controller.stopCount;
    const waitFrom = deps.clock.nowMs();
    await controller.afterEvent(event);
    // Time stopped at a breakpoint is not the episode's running time.
    if (controller.stopCount !== stops) caps.stoppedFor(deps.clock.nowMs() - waitFrom);
    if (capsArmed && !controller.signal.aborted) {
      const hit = caps.reached();
      if (hit) throw new CapReached(hit.reason, hit.message);
    }
    return event;
  };

  const agent = spec.agent ?? spec.variant.agent ?? spec.arch.defaultTopology;
  // Perception mode: every observation the agents get goes through one seeded model per episode.
  const perception = spec.options.perception === 'estimated' ? new PerceptionModel(spec.seed) : undefined;
  const perceive = (o: Observation): Observation => {
    if (!perception) return o;
    const { state, notes } = perception.estimate(o.state);
    return { ...o, estimate: state, perception: notes };
  };
  const topology = spec.arch.topologies[agent];
  const roleIds = topology ? topology.roles : [];
  const teamSize = spec.agents ?? spec.variant.agents;

  // Hash the prompt files first so the episode_start records exactly which text ran, even if one fails to parse.
  const promptRefs: { role: string; path: string; sha256: string }[] = [];
  const promptSources: Record<string, string> = {};
  for (const role of roleIds) {
    const path = spec.promptPaths[role];
    if (!path) continue;
    try {
      const text = await deps.io.readText(path);
      promptSources[role] = text;
      promptRefs.push({ role, path, sha256: sha256Hex(text) });
    } catch {
      promptRefs.push({ role, path, sha256: '' });
    }
  }

  let finalState: WorldState | undefined;
  let agentClaimedDone = false;
  let archMetrics: Record<string, number> | undefined;
  let outcome: { reason: EpisodeEndReason; message?: string } | undefined;
  const legacyLimits = Object.fromEntries(['maxTurns', 'maxConsecutiveErrors'].filter((k) => typeof limitValues[k] === 'number').map((k) => [k, limitValues[k]]));

  const start: PendingEvent = {
    type: 'episode_start',
    schemaVersion: TRACE_SCHEMA_VERSION,
    runId: spec.runId,
    arch: spec.arch.id,
    agentVariant: agent,
    task: spec.task,
    taskDescription: '',
    seed: spec.seed,
    variant: spec.variant.name,
    ablations: spec.variant.ablations,
    model: spec.model,
    prompts: promptRefs,
    simulator: { name: deps.sim.name, version: deps.sim.version },
    // maxTurns / maxConsecutiveErrors are copied here too, where they exist, for readers of schema v1.
    options: { ...legacyLimits, persistNamespace: persistNamespaceOf(spec), codeTimeoutSecs: spec.options.codeTimeoutSecs, perception: spec.options.perception ?? 'ground-truth', ...(spec.options.codeRunner === 'host-python' ? { codeRunner: 'host-python' } : {}) },
    limits: { ...limitValues },
    ...(spec.arch.renderObservation ? { observationRendering: `${spec.arch.id} renders its roles' observation text from the structured state` } : {}),
    ...(spec.fork ? { fork: spec.fork } : {}),
    startedAt: deps.clock.isoNow(),
  };

  caps.start();
  try {
    const problems = manifestProblems(spec.arch);
    if (problems.length > 0) {
      await emit(start);
      throw new EpisodeAbort('engine_error', problems.join('; '));
    }
    if (!limits.ok) {
      await emit(start);
      throw new EpisodeAbort('invalid_input', limits.error);
    }
    if (!topology) {
      await emit(start);
      const known = Object.keys(spec.arch.topologies).join(', ');
      throw new EpisodeAbort('invalid_input', `unknown agent topology '${agent}' for ${spec.arch.id}; known: ${known}`);
    }
    const known = deps.sim.tasks().map((t) => t.id);
    if (!known.includes(spec.task)) {
      await emit(start);
      throw new EpisodeAbort('invalid_input', `unknown task '${spec.task}'; known: ${known.join(', ')}`);
    }
    let reset: ResetOutcome;
    try {
      reset = await deps.sim.reset(spec.task, spec.seed, { api: spec.arch.api, ...(teamSize !== undefined ? { agents: teamSize } : {}) });
      reset = { ...reset, observation: perceive(reset.observation) };
    } catch (err) {
      await emit(start);
      // A parameter the simulator refuses (an embedded one's SimParamError, a remote one's INVALID_PARAMS) is the
      // user's input, not a broken simulator.
      const refused = err instanceof SimParamError || (err as { code?: unknown })?.code === SimErrorCode.INVALID_PARAMS;
      throw new EpisodeAbort(refused ? 'invalid_input' : 'simulator_error', messageOf(err));
    }
    task = reset.task;
    const agents = reset.agents && reset.agents.length > 0 ? reset.agents : ['robot'];
    const humans = [...(deps.human?.agents ?? [])];
    if (teamSize !== undefined && agents.length !== teamSize) {
      await emit({ ...start, taskDescription: reset.task.instruction, agents } as PendingEvent);
      throw new EpisodeAbort('invalid_input', `${teamSize} agents were asked for, but task '${spec.task}' of ${deps.sim.name} has ${agents.length} (${agents.join(', ')})`);
    }
    await emit({ ...start, taskDescription: reset.task.instruction, agents, ...(humans.length > 0 ? { humans } : {}) } as PendingEvent);
    if (humans.length > 0 && !topology!.humanSeats) {
      const seated = Object.entries(spec.arch.topologies).filter(([, t]) => t.humanSeats).map(([id]) => id);
      throw new EpisodeAbort('invalid_input', `${spec.arch.id}/${agent} has no agent seat a person can take (${seated.length > 0 ? `topologies with seats: ${seated.join(', ')}` : `no ${spec.arch.id} topology has one`})`);
    }
    const seatless = humans.filter((h) => !agents.includes(h));
    if (seatless.length > 0) throw new EpisodeAbort('invalid_input', `no agent ${seatless.map((h) => `'${h}'`).join(', ')} for a person to play in this episode; agents: ${agents.join(', ')}`);
    const prompts: Record<string, LoadedPrompt> = {};
    for (const role of roleIds) {
      const path = spec.promptPaths[role];
      if (!path) throw new EpisodeAbort('prompt_error', `no prompt file configured for role '${role}'`);
      try {
        const text = promptSources[role] ?? (await deps.io.readText(path));
        const file = await loadPromptFile({ ...deps.io, readText: async () => text }, path, promptRole(spec.arch, role));
        prompts[role] = { path, text, sha256: sha256Hex(text), file, checkedAt: controller.promptEpoch };
      } catch (err) {
        if (err instanceof PromptError) throw new EpisodeAbort('prompt_error', err.detail, err.file, err.line);
        // The path goes in `file` (the end message names it once).
        throw new EpisodeAbort('prompt_error', `cannot read the prompt file: ${messageOf(err)}`, path);
      }
    }
    // Prompts are valid: start the sandbox now (Pyodide takes seconds) while the scene is recorded.
    // (Not for an architecture that runs no code: a slow start-up would fail a run that never needs it.)
    const runsCode = spec.arch.runsCode !== false;
    const warm = runsCode ? deps.sandbox.warmUp() : Promise.resolve();
    warm.catch(() => undefined);
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
    try {
      // Loading the sandbox takes seconds (more on a busy machine): a cancel meanwhile ends the episode now.
      await untilAborted(warm, runSignal);
    } catch (err) {
      if (err instanceof CancelledWhileStarting) throw err;
      throw new EpisodeAbort('sandbox_error', `code sandbox failed to start: ${messageOf(err)}`);
    }
    if (runsCode) await deps.sandbox.resetNamespace();

    const ctx = makeContext({ spec, deps, emit, controller, caps, runSignal, prompts, reset, task, agent, agents, metrics, stamp, limits: limitValues, tracks, perceive });
    const result = await spec.arch.run(ctx);
    capsArmed = false;
    stamp.agent = undefined;
    metrics.turns = ctx.turn;
    agentClaimedDone = result.agentClaimedDone;
    archMetrics = result.metrics;
    outcome = controller.signal.aborted ? { reason: 'cancelled', message: 'cancelled by the user' } : { reason: result.reason, message: result.message };
    if (!controller.signal.aborted && !isDeclaredReason(spec.arch, result.reason)) {
      await emit({ type: 'error', kind: 'engine_error', message: `architecture ${spec.arch.id} ended with the undeclared reason '${result.reason}' (declared: ${[...ENGINE_END_REASONS, ...Object.keys(spec.arch.endReasons)].join(', ')})` });
    }
  } catch (err) {
    stamp.agent = undefined;
    capsArmed = false;
    if (err instanceof CancelledWhileStarting) {
      outcome = controller.signal.aborted ? { reason: 'cancelled', message: 'cancelled by the user' } : (caps.reached() ?? { reason: 'cancelled', message: 'cancelled by the user' });
    } else if (err instanceof CapReached && !controller.signal.aborted) {
      // Like an architecture's own cap: the end reason says it, no error event.
      outcome = { reason: err.reason, message: err.message };
    } else if (err instanceof EpisodeAbort) {
      // The error event carries file and line as fields; the end message is read alone, so it names them.
      const where = err.file ? ` (${err.file}${err.line !== undefined ? `:${err.line}` : ''})` : '';
      outcome = { reason: controller.signal.aborted ? 'cancelled' : err.reason, message: err.message + where };
      await emit({ type: 'error', kind: err.reason, message: err.message, file: err.file, line: err.line });
    } else {
      outcome = { reason: 'engine_error', message: messageOf(err) };
      await emit({ type: 'error', kind: 'engine_error', message: messageOf(err) });
    }
  }

  capsArmed = false;
  caps.stop();
  // Success is the simulator's verdict, and only for episodes that ran to an agent-side end.
  let success = false;
  if (task) {
    try {
      const check = await deps.sim.check();
      await emit({ type: 'check', turn: metrics.turns, name: 'task_success', ok: check.success, message: check.detail, phase: 'final' });
      success = check.success && outcome.reason !== 'cancelled';
      finalState = (await deps.sim.observe()).state;
    } catch (err) {
      await emit({ type: 'error', kind: 'simulator_error', message: `success check failed: ${messageOf(err)}` });
    }
  }
  const end = (await emit({
    type: 'episode_end',
    success,
    reason: outcome.reason,
    agentClaimedDone,
    message: outcome.message,
    metrics: {
      turns: metrics.turns,
      modelCalls: metrics.modelCalls,
      cachedCalls: metrics.cachedCalls,
      promptTokens: metrics.promptTokens,
      completionTokens: metrics.completionTokens,
      codeBlocks: metrics.codeBlocks,
      codeErrors: metrics.codeErrors,
      formatErrors: metrics.formatErrors,
      durationMs: deps.clock.nowMs() - t0,
      simTimeSecs: task ? deps.sim.simTimeSecs() : 0,
      // Every restore rewinds the clock, so simTimeSecs alone covers only the final state's timeline.
      simTotalSecs: task ? deps.sim.simTimeSecs() + metrics.simRewoundSecs : 0,
      ...(metrics.rounds > 0 ? { rounds: metrics.rounds } : {}),
      ...(metrics.steps > 0 ? { steps: metrics.steps } : {}),
      ...(metrics.humanTurns > 0 ? { humanTurns: metrics.humanTurns } : {}),
    },
    ...(archMetrics ? { archMetrics } : {}),
    finalState,
  })) as Extract<TraceEvent, { type: 'episode_end' }>;
  controller.notifyEnded(outcome.reason === 'cancelled' ? 'cancelled' : success ? 'success' : 'failure');
  return { success, reason: outcome.reason, message: outcome.message, events: eventCount, end };
}

function isDeclaredReason(arch: ArchitectureDefinition, reason: string): boolean {
  return (ENGINE_END_REASONS as readonly string[]).includes(reason) || reason in arch.endReasons;
}

/** A collision as a failed `collision` check: the message names the pair and the depth; the fields carry them too. */
function collisionCheck(turn: number, c: CollisionReport): PendingEvent {
  const depth = c.depthM !== undefined ? `, depth ${(c.depthM * 1000).toFixed(1)} mm` : '';
  return {
    type: 'check', turn, name: 'collision', ok: false,
    message: `collision: ${c.a} <-> ${c.b} at t=${c.tSecs.toFixed(2)} s${depth}`,
    pair: [c.a, c.b], tSecs: c.tSecs,
    ...(c.depthM !== undefined ? { depthM: c.depthM } : {}),
    ...(c.kind ? { collisionKind: c.kind } : {}),
  } as PendingEvent;
}

/** The observation as the agents see it: the perception estimate in place of the truth, when there is one. */
function seen(observation: Observation): Observation {
  return observation.estimate ? { ...observation, state: observation.estimate } : observation;
}

/** The perception fields of an observation event (absent with ground truth). */
function perceived(observation: Observation): { estimate?: Observation['state']; perception?: Observation['perception'] } {
  return observation.estimate ? { estimate: observation.estimate, perception: observation.perception ?? [] } : {};
}

/** The `rendered` field of an observation event: the architecture's text for its roles, when it renders one. */
function rendered(arch: ArchitectureDefinition, observation: Observation, ablations: Readonly<Record<string, boolean>>): { rendered?: string } {
  if (!arch.renderObservation) return {};
  try {
    return { rendered: arch.renderObservation(seen(observation), observation.agent, ablations) };
  } catch (err) {
    throw new EpisodeAbort('simulator_error', `the ${arch.id} observation could not be rendered from the simulator's state: ${messageOf(err)}`);
  }
}

interface ContextParts {
  spec: EpisodeSpec;
  deps: EpisodeDeps;
  emit: (e: PendingEvent) => Promise<TraceEvent>;
  controller: EpisodeController;
  caps: EpisodeCaps;
  /** The user's cancel linked with the wall-clock cap (model calls wait on it). */
  runSignal: AbortSignal;
  prompts: Record<string, LoadedPrompt>;
  reset: ResetOutcome;
  task: TaskInfo;
  agent: string;
  agents: string[];
  metrics: Metrics;
  stamp: { agent?: string };
  limits: LimitValues;
  tracks: TrackStore;
  /** Perception mode's estimate (identity with ground truth). */
  perceive: (o: Observation) => Observation;
}

function makeContext(p: ContextParts): EpisodeContext {
  const { spec, deps, emit, controller, caps, runSignal, prompts, reset, metrics, stamp, tracks } = p;
  const arch = spec.arch;
  const options: EpisodeOptions = { ...spec.options, limits: p.limits };
  let turn = 0;
  let callCounter = 0;
  let actionCounter = 0;
  let snapshotCounter = 0;
  const snapshots = new Map<string, { snap: SimSnapshot; label?: string; simTimeSecs: number }>();

  /** Drains what the simulator recorded since the last drain into the trace and the track store. */
  const drainTrajectory = async (): Promise<void> => {
    const traj = await simStep('drain_trajectory', () => deps.sim.drainTrajectory());
    if (traj.samples.length === 0) return;
    tracks.addSamples(traj.samples);
    await emit({ type: 'trajectory', turn, rateHz: traj.rateHz, samples: traj.samples });
  };

  const recordObservation = async (observation: Observation, view?: 'agent' | 'shared'): Promise<void> => {
    tracks.addObservation(deps.sim.simTimeSecs(), observation.state);
    await emit({
      type: 'observation',
      turn,
      text: observation.text,
      state: observation.state,
      ...perceived(observation),
      ...rendered(arch, observation, spec.variant.ablations),
      ...(observation.agent !== undefined ? { agent: observation.agent } : {}),
      ...(view ? { view } : {}),
    });
  };

  /** The prompt file of a role as it is now, if the episode has stopped since it was last read. */
  const currentPrompt = async (role: string): Promise<LoadedPrompt> => {
    const lp = prompts[role];
    if (!lp) throw new EpisodeAbort('prompt_error', `role '${role}' has no loaded prompt file`);
    if (lp.checkedAt === controller.promptEpoch) return lp;
    lp.checkedAt = controller.promptEpoch;
    let text: string;
    try {
      text = await deps.io.readText(lp.path);
    } catch (err) {
      await emit({ type: 'error', turn, kind: 'prompt_error', message: `cannot re-read ${lp.path} after the pause (${messageOf(err)}); this call uses the version read before`, file: lp.path });
      return lp;
    }
    const sha = sha256Hex(text);
    if (sha === lp.sha256) return lp;
    try {
      const file = await loadPromptFile({ ...deps.io, readText: async () => text }, lp.path, promptRole(spec.arch, role));
      Object.assign(lp, { text, sha256: sha, file });
    } catch (err) {
      if (!(err instanceof PromptError)) throw err;
      // A half-finished edit must not end a debugging session: say so, and keep the last version that parsed.
      await emit({ type: 'error', turn, kind: 'prompt_error', message: `${err.message}; this call uses the version read before`, file: err.file, line: err.line });
    }
    return lp;
  };

  /** A turn typed by a person in the agent's seat: traced like a model call, marked human, never sent to a model. */
  const humanTurn = async (h: { role: string; callId: string; thisTurn: number; speaker: string; messages: ChatMessage[]; variables: Record<string, unknown>; promptPath: string; promptSha256: string; view?: string }): Promise<RoleCallOutcome> => {
    const common = { turn: h.thisTurn, callId: h.callId, role: h.role, agent: h.speaker };
    await emit({ type: 'role_call', ...common, messages: h.messages, model: 'human', params: {}, promptPath: h.promptPath, promptSha256: h.promptSha256, variables: h.variables, human: true });
    if (controller.signal.aborted) return { ok: false, callId: h.callId, turn: h.thisTurn, message: 'cancelled' };
    const t = deps.clock.nowMs();
    let text: string | null;
    // A person's thinking time is not the episode's running time.
    const release = caps.hold();
    try {
      text = await deps.human!.ask({ agent: h.speaker, role: h.role, turn: h.thisTurn, ...(metrics.rounds > 0 ? { round: metrics.rounds } : {}), view: h.view ?? h.messages.map((m) => m.content).join('\n\n'), messages: h.messages }, controller.signal);
    } catch (err) {
      throw new EpisodeAbort('engine_error', `the person in ${h.speaker}'s seat could not answer: ${messageOf(err)}`);
    } finally {
      release();
    }
    if (text === null || controller.signal.aborted) {
      await emit({ type: 'model_response', ...common, ok: false, error: { kind: 'cancelled', message: `the person in ${h.speaker}'s seat gave up` }, latencyMs: deps.clock.nowMs() - t, cached: false, attempts: 1, human: true } as PendingEvent);
      controller.cancel();
      return { ok: false, callId: h.callId, turn: h.thisTurn, message: 'cancelled' };
    }
    metrics.humanTurns++;
    await emit({ type: 'model_response', ...common, ok: true, text, latencyMs: deps.clock.nowMs() - t, cached: false, attempts: 1, human: true } as PendingEvent);
    return { ok: true, text, callId: h.callId, turn: h.thisTurn, human: true };
  };

  const unknownAgent = (name: string): string | undefined =>
    p.agents.includes(name) ? undefined : `no agent '${name}' in this episode; agents: ${p.agents.join(', ')}`;

  const ctx: EpisodeContext = {
    task: p.task,
    workspace: reset.workspace,
    api: reset.api,
    initial: reset.observation,
    options,
    limits: p.limits,
    agent: p.agent,
    agents: p.agents,
    humans: deps.human?.agents ?? [],
    ...(deps.embeddings ? { embeddings: new EmbeddingCache(deps.embeddings) } : {}),
    ablations: spec.variant.ablations,
    signal: controller.signal,
    get turn() {
      return turn;
    },
    get round() {
      return metrics.rounds;
    },
    get step() {
      return metrics.steps;
    },
    nextTurn() {
      turn += 1;
      metrics.turns = turn;
      return turn;
    },
    nextRound() {
      metrics.rounds += 1;
      return metrics.rounds;
    },
    nextStep() {
      metrics.steps += 1;
      return metrics.steps;
    },
    setAgent(name) {
      stamp.agent = name;
    },
    emit,

    async callRole(role: string, variables: Record<string, unknown>, history: ChatMessage[], callOptions: RoleCallOptions = {}): Promise<RoleCallOutcome> {
      const lp = await currentPrompt(role);
      // Prompts are checked against the manifest's declaration before the run: a loop that strays from it is a bug.
      const strays = passedVariableProblems(spec.arch, role, variables);
      if (strays.length > 0) throw new EpisodeAbort('engine_error', `${spec.arch.id} called its ${role} role with variables its manifest does not declare that way: ${strays.join('; ')}`);
      let renderedPrompt;
      try {
        renderedPrompt = await renderPrompt(lp.file, { variables, history, ablations: spec.variant.ablations });
      } catch (err) {
        if (err instanceof PromptError) throw new EpisodeAbort('prompt_error', err.detail, err.file, err.line);
        throw err;
      }
      const callId = `c${++callCounter}`;
      const thisTurn = turn;
      const speaker = callOptions.agent ?? stamp.agent;
      const agentField = speaker !== undefined ? { agent: speaker } : {};
      const temperature = lp.file.config.temperature ?? spec.model.temperature;
      const maxTokens = spec.model.maxTokens ?? lp.file.config.maxOutputTokens;
      if (speaker !== undefined && deps.human?.agents.includes(speaker)) {
        return humanTurn({ role, callId, thisTurn, speaker, messages: renderedPrompt.messages, variables, promptPath: lp.path, promptSha256: lp.sha256, view: callOptions.humanView });
      }
      await emit({
        type: 'role_call',
        turn: thisTurn,
        callId,
        role,
        messages: renderedPrompt.messages,
        model: spec.model.model,
        params: { temperature, maxTokens, seed: spec.model.seed !== undefined && callOptions.sample ? spec.model.seed + callOptions.sample : spec.model.seed, ...(callOptions.sample ? { sample: callOptions.sample } : {}) },
        promptPath: lp.path,
        promptSha256: lp.sha256,
        variables,
        ...agentField,
      });
      if (controller.signal.aborted) return { ok: false, callId, turn: thisTurn, message: 'cancelled' };
      metrics.modelCalls++;
      const result = await deps.model.complete(
        {
          model: spec.model.model,
          messages: renderedPrompt.messages,
          temperature,
          maxTokens,
          // A seeded model would answer every sample alike: sample k asks with seed + k.
          seed: spec.model.seed !== undefined && callOptions.sample ? spec.model.seed + callOptions.sample : spec.model.seed,
          repeatIndex: spec.model.repeatIndex,
          ...(callOptions.sample ? { sampleIndex: callOptions.sample } : {}),
          meta: { arch: arch.id, role, callId, ...(speaker !== undefined ? { agent: speaker } : {}) },
        },
        { signal: runSignal },
      );
      if (result.ok) {
        if (result.cached) metrics.cachedCalls++;
        metrics.promptTokens += result.usage?.promptTokens ?? 0;
        metrics.completionTokens += result.usage?.completionTokens ?? 0;
      }
      await emit({
        type: 'model_response',
        turn: thisTurn,
        callId,
        role,
        ok: result.ok,
        text: result.ok ? result.text : undefined,
        error: result.ok ? undefined : result.error,
        usage: result.ok ? result.usage : undefined,
        latencyMs: result.latencyMs,
        cached: result.cached,
        attempts: result.attempts,
        ...(result.ok && result.human ? { human: true } : {}),
        ...agentField,
      });
      if (!result.ok) {
        if (result.error.kind === 'cancelled' || controller.signal.aborted) return { ok: false, callId, turn: thisTurn, message: 'cancelled' };
        const where = spec.model.baseUrl ? ` at ${spec.model.baseUrl}` : '';
        throw new EpisodeAbort('model_error', `model ${spec.model.model}${where} failed for role ${role} (${result.error.kind}): ${result.error.message}`);
      }
      return { ok: true, text: result.text, callId, turn: thisTurn, sent: renderedPrompt.messages, ...(result.usage ? { usage: result.usage } : {}), ...(result.human ? { human: true } : {}) };
    },

    async parsed(role, callId, parsedTurn, r) {
      if (!r.ok) metrics.formatErrors++;
      await emit({
        type: 'parsed_output',
        turn: parsedTurn,
        callId,
        role,
        ok: r.ok,
        kind: r.kind,
        value: r.ok ? r.value : undefined,
        error: r.ok ? undefined : r.error,
      });
    },

    async say(speaker: string, content: string) {
      await emit({ type: 'chat_message', turn, speaker, content });
    },

    async executeCode(role: string, code: string): Promise<CodeRunOutcome> {
      metrics.codeBlocks++;
      let completed = false;
      let failed = false;
      let simFailure: string | undefined;
      let capHit: CapReached | undefined;
      const collisionNotes: CollisionReport[] = [];
      const onApiCall = async (fn: string, args: unknown[], where: { index: number; line?: number }): Promise<ApiCallResult> => {
        if (capHit) return { ok: false, error: `stopped: ${capHit.message}` };
        try {
          // Written before the simulator acts: a debugger can stop here with the arguments and the arm as it is.
          // The motion so far goes into the trace first: a debugger paused at this call shows the arm as it is now.
          await drainTrajectory();
          // The first call of a block carries the block, so a debugger paused inside it can show the code.
          await emit({ type: 'api_call', turn, role, index: where.index, fn, args, ...(where.line !== undefined ? { line: where.line } : {}), ...(where.index === 0 ? { code } : {}) });
        } catch (err) {
          // A cap reached inside the block: the code's call fails (nothing more is simulated), the block ends, then the episode.
          if (!(err instanceof CapReached)) throw err;
          capHit = err;
          return { ok: false, error: `stopped: ${err.message}` };
        }
        if (controller.signal.aborted) return { ok: false, error: 'cancelled' };
        if (fn === 'task_completed') {
          completed = true;
          return { ok: true, output: 'Stopping the process.....' };
        }
        if (fn === 'task_failed') {
          failed = true;
          return { ok: true, output: 'Stopping the process (task_failed).' };
        }
        try {
          const r = await deps.sim.call(fn, args);
          if (r.ok && r.collisions) collisionNotes.push(...r.collisions);
          return r;
        } catch (err) {
          simFailure = messageOf(err);
          return { ok: false, error: `simulator failure: ${simFailure}` };
        }
      };
      const result = await deps.sandbox.run({
        code,
        api: reset.api,
        persistNamespace: persistNamespaceOf(spec),
        limits: { timeoutSecs: spec.options.codeTimeoutSecs, memoryMiB: spec.options.memoryMiB },
        onApiCall,
      });
      if (!result.ok) metrics.codeErrors++;
      await emit({
        type: 'code_execution',
        turn,
        role,
        language: 'python',
        code,
        ok: result.ok,
        exitCode: result.exitCode,
        stdout: result.stdout,
        error: result.error,
        durationMs: result.durationMs,
        apiCalls: result.apiCalls,
        namespacePersisted: persistNamespaceOf(spec),
      });
      if (simFailure) throw new EpisodeAbort('simulator_error', `simulator failed during code execution: ${simFailure}`);
      if (capHit) throw capHit;
      await drainTrajectory();
      for (const c of collisionNotes) await emit(collisionCheck(turn, c));
      const observation = p.perceive(await simStep('observe', () => deps.sim.observe()));
      await recordObservation(observation);
      return { result, observation, completed, failed };
    },

    async act(agentName, action, options) {
      const out = await ctx.actJointly([{ agent: agentName, name: action.name, args: action.args }], options);
      return out.results[0]!;
    },

    async actJointly(actions: AgentAction[], options?: ActOptions): Promise<JointActionOutcome> {
      const actionId = `a${++actionCounter}`;
      await emit({ type: 'action', turn, actionId, actions, joint: actions.length > 1, ...(options?.origin ? { origin: options.origin } : {}) });
      const t = deps.clock.nowMs();
      // Bad requests (an agent that does not exist, a joint step the simulator cannot take) fail the action with
      // a message; the architecture decides what the agents hear about it.
      const invalid = actions.map((a) => unknownAgent(a.agent));
      let results: AgentActionResult[];
      let collisions: CollisionReport[] = [];
      let checks: ActionCheck[] = [];
      let info: Record<string, unknown> | undefined;
      if (controller.signal.aborted) {
        results = actions.map((a) => ({ agent: a.agent, name: a.name, ok: false, error: 'cancelled' }));
      } else if (invalid.some((m) => m !== undefined)) {
        results = actions.map((a, i) => ({ agent: a.agent, name: a.name, ok: false, error: invalid[i] ?? 'not run: another action of this joint step was invalid' }));
      } else if (deps.sim.act) {
        const act = deps.sim.act.bind(deps.sim);
        const r = await simStep('act', () => act(actions));
        if (r.results.length !== actions.length) {
          throw new EpisodeAbort('simulator_error', `simulator answered ${r.results.length} results for ${actions.length} actions`);
        }
        results = r.results;
        collisions = r.collisions ?? [];
        checks = r.checks ?? [];
        info = r.info;
      } else if (actions.length === 1) {
        const a = actions[0]!;
        const r = await simStep('call', () => deps.sim.call(a.name, a.args));
        results = [r.ok ? { agent: a.agent, name: a.name, ok: true, output: r.output, value: r.value, metrics: r.metrics } : { agent: a.agent, name: a.name, ok: false, error: r.error }];
        collisions = r.ok ? (r.collisions ?? []) : [];
      } else {
        const why = `the simulator ${deps.sim.name} cannot run actions of several agents in one step`;
        results = actions.map((a) => ({ agent: a.agent, name: a.name, ok: false, error: why }));
      }
      results = results.map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as AgentActionResult);
      // Checks the simulator ran before acting (RoCo's plan checks): each one's verdict is its own check event too.
      for (const c of checks.filter((x) => !x.skipped)) {
        await emit({ type: 'check', turn, name: `plan: ${c.name}`, ok: c.ok, message: c.message ?? 'passed', actionId } as PendingEvent);
      }
      await emit({ type: 'action_result', turn, actionId, results, durationMs: deps.clock.nowMs() - t, ...(collisions.length > 0 ? { collisions } : {}), ...(checks.length > 0 ? { checks } : {}), ...(info ? { info } : {}) } as PendingEvent);
      await drainTrajectory();
      for (const c of collisions) await emit(collisionCheck(turn, c));
      return { results, collisions, checks, ...(info ? { info } : {}) };
    },

    async observe(agentName?: string): Promise<Observation> {
      if (agentName !== undefined) {
        const bad = unknownAgent(agentName);
        if (bad) throw new EpisodeAbort('engine_error', `observe: ${bad}`);
      }
      let observation: Observation;
      if (agentName === undefined) observation = await simStep('observe', () => deps.sim.observe());
      else if (deps.sim.agentViews) observation = { ...(await simStep('observe', () => deps.sim.observe(agentName))), agent: agentName };
      // A simulator without per-agent views shows everyone the whole scene; the event says so.
      else observation = { ...(await simStep('observe', () => deps.sim.observe())), agent: agentName };
      observation = p.perceive(observation);
      await recordObservation(observation, agentName === undefined ? undefined : deps.sim.agentViews ? 'agent' : 'shared');
      return observation;
    },

    render(observation, agentName) {
      return arch.renderObservation ? arch.renderObservation(seen(observation), agentName ?? observation.agent, spec.variant.ablations) : observation.text;
    },

    markTracks() {
      return deps.sim.simTimeSecs();
    },

    tracks(mark, objects) {
      return tracks.since(mark, objects);
    },

    async snapshot(label?: string): Promise<string> {
      await drainTrajectory();
      const snap = await simStep('snapshot', () => deps.sim.snapshot());
      const id = `s${++snapshotCounter}`;
      const simTimeSecs = deps.sim.simTimeSecs();
      snapshots.set(id, { snap, label, simTimeSecs });
      await emit({ type: 'snapshot', turn, id, simTimeSecs, ...(label !== undefined ? { label } : {}) });
      return id;
    },

    async restore(id: string): Promise<void> {
      const saved = snapshots.get(id);
      if (!saved) {
        const known = [...snapshots.keys()].join(', ') || 'none taken';
        throw new EpisodeAbort('engine_error', `restore: unknown snapshot '${id}' (snapshots of this episode: ${known})`);
      }
      // What was recorded since the last drain belongs to the timeline being left.
      await drainTrajectory();
      const before = deps.sim.simTimeSecs();
      await simStep('restore', () => deps.sim.restore(saved.snap));
      metrics.simRewoundSecs += before - deps.sim.simTimeSecs();
      tracks.truncateAfter(saved.simTimeSecs);
      await emit({ type: 'restore', turn, id, simTimeSecs: deps.sim.simTimeSecs(), ...(saved.label !== undefined ? { label: saved.label } : {}) });
    },

    async checkSuccess() {
      const check = await simStep('check', () => deps.sim.check());
      await emit({ type: 'check', turn, name: 'task_success', ok: check.success, message: check.detail, phase: 'mid' });
      return check;
    },
  };
  return ctx;
}

/** A simulator call outside the agent's code: its failure ends the episode as a simulator error, named. */
async function simStep<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw new EpisodeAbort('simulator_error', `simulator failed during ${what}: ${messageOf(err)}`);
  }
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
