// Runs one episode: resets the simulator, loads and checks the prompts, hands an EpisodeContext to the
// architecture, judges success with the simulator's check (never the agent's claim) and closes the trace.
// Every event is written to the trace, then shown to the controller, before the engine acts on it.
import type { ChatMessage, EpisodeEndReason, ModelSettings, PendingEvent, TraceEvent, WorldState } from '../../protocol/trace.js';
import { TRACE_SCHEMA_VERSION } from '../../protocol/trace.js';
import type { ArchitectureDefinition, CodeRunOutcome, EpisodeContext, EpisodeOptions, RoleCallOutcome } from '../agents/types.js';
import type { Clock, HostIO } from '../host.js';
import type { ModelClient } from '../llm/client.js';
import { loadPromptFile, PromptError, renderPrompt, type PromptFile } from '../prompt/render.js';
import type { ResolvedVariant } from '../prompt/variants.js';
import type { CodeSandbox } from '../sandbox/sandbox.js';
import type { ApiCallResult, ApiFunctionSpec, Observation, Simulator, TaskInfo, WorkspaceInfo } from '../sim/simulator.js';
import type { TraceSink } from '../trace/writer.js';
import { EpisodeController } from './controller.js';
import { sha256Hex } from './hash.js';

export const DEFAULT_EPISODE_OPTIONS: EpisodeOptions = {
  maxTurns: 150,
  maxConsecutiveErrors: 5,
  persistNamespace: false,
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
  options: EpisodeOptions;
  model: ModelSettings;
}

export interface EpisodeDeps {
  io: HostIO;
  clock: Clock;
  sim: Simulator;
  sandbox: CodeSandbox;
  model: ModelClient;
  sink: TraceSink;
  controller?: EpisodeController;
}

export interface EpisodeResult {
  success: boolean;
  reason: EpisodeEndReason;
  message?: string;
  events: number;
  end: Extract<TraceEvent, { type: 'episode_end' }>;
}

/** Ends the episode from deep inside a step with a closed reason (prompt, model or simulator failure). */
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

export async function runEpisode(spec: EpisodeSpec, deps: EpisodeDeps): Promise<EpisodeResult> {
  const controller = deps.controller ?? new EpisodeController();
  const t0 = deps.clock.nowMs();
  let eventCount = 0;
  const metrics = { turns: 0, modelCalls: 0, cachedCalls: 0, promptTokens: 0, completionTokens: 0, codeBlocks: 0, codeErrors: 0, formatErrors: 0 };
  const emit = async (pending: PendingEvent): Promise<TraceEvent> => {
    const event = await deps.sink.write(pending);
    eventCount++;
    await controller.afterEvent(event);
    return event;
  };

  const agent = spec.agent ?? spec.variant.agent ?? spec.arch.defaultTopology;
  const topology = spec.arch.topologies[agent];
  const roleIds = topology ? topology.roles : [];

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

  let task: TaskInfo | undefined;
  let finalState: WorldState | undefined;
  let agentClaimedDone = false;
  let outcome: { reason: EpisodeEndReason; message?: string } | undefined;

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
    options: {
      maxTurns: spec.options.maxTurns,
      maxConsecutiveErrors: spec.options.maxConsecutiveErrors,
      persistNamespace: spec.options.persistNamespace,
      codeTimeoutSecs: spec.options.codeTimeoutSecs,
    },
    startedAt: deps.clock.isoNow(),
  };

  try {
    if (!topology) {
      await emit(start);
      const known = Object.keys(spec.arch.topologies).join(', ');
      throw new EpisodeAbort('engine_error', `unknown agent topology '${agent}' for ${spec.arch.id}; known: ${known}`);
    }
    const known = deps.sim.tasks().map((t) => t.id);
    if (!known.includes(spec.task)) {
      await emit(start);
      throw new EpisodeAbort('invalid_input', `unknown task '${spec.task}'; known: ${known.join(', ')}`);
    }
    let reset: Awaited<ReturnType<Simulator['reset']>>;
    try {
      reset = await deps.sim.reset(spec.task, spec.seed, { api: spec.arch.api });
    } catch (err) {
      await emit(start);
      throw new EpisodeAbort('simulator_error', messageOf(err));
    }
    task = reset.task;
    await emit({ ...start, taskDescription: reset.task.instruction } as PendingEvent);
    const prompts: Record<string, PromptFile> = {};
    for (const role of roleIds) {
      const path = spec.promptPaths[role];
      if (!path) throw new EpisodeAbort('prompt_error', `no prompt file configured for role '${role}'`);
      try {
        prompts[role] = await loadPromptFile(
          { ...deps.io, readText: async (p) => promptSources[role] ?? deps.io.readText(p) },
          path,
        );
      } catch (err) {
        if (err instanceof PromptError) throw new EpisodeAbort('prompt_error', err.message, err.file, err.line);
        throw err;
      }
    }
    // Prompts are valid: start the sandbox now (Pyodide takes seconds) while the scene is recorded.
    const warm = deps.sandbox.warmUp();
    warm.catch(() => undefined);
    const geometry = await simStep('geometry', () => deps.sim.geometry());
    await emit({ type: 'scene', bodies: geometry.bodies, geoms: geometry.geoms });
    await emit({ type: 'observation', turn: 0, text: reset.observation.text, state: reset.observation.state });
    try {
      await warm;
    } catch (err) {
      throw new EpisodeAbort('engine_error', `code sandbox failed to start: ${messageOf(err)}`);
    }
    await deps.sandbox.resetNamespace();

    const ctx = makeContext(spec, deps, emit, controller, prompts, reset.api, reset.workspace, reset.observation, task, agent, metrics);
    const result = await spec.arch.run(ctx);
    metrics.turns = ctx.turn;
    agentClaimedDone = result.agentClaimedDone;
    outcome = controller.signal.aborted ? { reason: 'cancelled', message: 'cancelled by the user' } : { reason: result.reason, message: result.message };
  } catch (err) {
    if (err instanceof EpisodeAbort) {
      outcome = { reason: controller.signal.aborted ? 'cancelled' : err.reason, message: err.message };
      await emit({ type: 'error', kind: err.reason, message: err.message, file: err.file, line: err.line });
    } else {
      outcome = { reason: 'engine_error', message: messageOf(err) };
      await emit({ type: 'error', kind: 'engine_error', message: messageOf(err) });
    }
  }

  // Success is the simulator's verdict, and only for episodes that ran to an agent-side end.
  let success = false;
  if (task) {
    try {
      const check = await deps.sim.check();
      await emit({ type: 'check', turn: metrics.turns, name: 'task_success', ok: check.success, message: check.detail });
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
    metrics: { ...metrics, durationMs: deps.clock.nowMs() - t0, simTimeSecs: task ? deps.sim.simTimeSecs() : 0 },
    finalState,
  })) as Extract<TraceEvent, { type: 'episode_end' }>;
  controller.notifyEnded(outcome.reason === 'cancelled' ? 'cancelled' : success ? 'success' : 'failure');
  return { success, reason: outcome.reason, message: outcome.message, events: eventCount, end };
}

function makeContext(
  spec: EpisodeSpec,
  deps: EpisodeDeps,
  emit: (e: PendingEvent) => Promise<TraceEvent>,
  controller: EpisodeController,
  prompts: Record<string, PromptFile>,
  api: ApiFunctionSpec[],
  workspace: WorkspaceInfo,
  initial: Observation,
  task: TaskInfo,
  agent: string,
  metrics: { turns: number; modelCalls: number; cachedCalls: number; promptTokens: number; completionTokens: number; codeBlocks: number; codeErrors: number; formatErrors: number },
): EpisodeContext {
  let turn = 0;
  let callCounter = 0;
  return {
    task,
    workspace,
    api,
    initial,
    options: spec.options,
    agent,
    signal: controller.signal,
    get turn() {
      return turn;
    },
    nextTurn() {
      turn += 1;
      metrics.turns = turn;
      return turn;
    },
    emit,

    async callRole(role: string, variables: Record<string, unknown>, history: ChatMessage[]): Promise<RoleCallOutcome> {
      const file = prompts[role];
      if (!file) throw new EpisodeAbort('prompt_error', `role '${role}' has no loaded prompt file`);
      let rendered;
      try {
        rendered = await renderPrompt(file, { variables, history, ablations: spec.variant.ablations });
      } catch (err) {
        if (err instanceof PromptError) throw new EpisodeAbort('prompt_error', err.message, err.file, err.line);
        throw err;
      }
      const callId = `c${++callCounter}`;
      const thisTurn = turn;
      const temperature = file.config.temperature ?? spec.model.temperature;
      const maxTokens = spec.model.maxTokens ?? file.config.maxOutputTokens;
      await emit({
        type: 'role_call',
        turn: thisTurn,
        callId,
        role,
        messages: rendered.messages,
        model: spec.model.model,
        params: { temperature, maxTokens, seed: spec.model.seed },
        promptPath: file.path,
        variables,
      });
      if (controller.signal.aborted) return { ok: false, callId, turn: thisTurn, message: 'cancelled' };
      metrics.modelCalls++;
      const result = await deps.model.complete(
        { model: spec.model.model, messages: rendered.messages, temperature, maxTokens, seed: spec.model.seed },
        { signal: controller.signal },
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
      });
      if (!result.ok) {
        if (result.error.kind === 'cancelled' || controller.signal.aborted) return { ok: false, callId, turn: thisTurn, message: 'cancelled' };
        const where = spec.model.baseUrl ? ` at ${spec.model.baseUrl}` : '';
        throw new EpisodeAbort('model_error', `model ${spec.model.model}${where} failed for role ${role} (${result.error.kind}): ${result.error.message}`);
      }
      return { ok: true, text: result.text, callId, turn: thisTurn };
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
      const collisionNotes: { a: string; b: string; tSecs: number }[] = [];
      const onApiCall = async (fn: string, args: unknown[]): Promise<ApiCallResult> => {
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
        api,
        persistNamespace: spec.options.persistNamespace,
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
        namespacePersisted: spec.options.persistNamespace,
      });
      if (simFailure) throw new EpisodeAbort('simulator_error', `simulator failed during code execution: ${simFailure}`);
      const traj = await simStep('drain_trajectory', () => deps.sim.drainTrajectory());
      if (traj.samples.length > 0) await emit({ type: 'trajectory', turn, rateHz: traj.rateHz, samples: traj.samples });
      for (const c of collisionNotes) {
        await emit({ type: 'check', turn, name: 'collision', ok: false, message: `collision: ${c.a} <-> ${c.b} at t=${c.tSecs.toFixed(2)} s` });
      }
      const observation = await simStep('observe', () => deps.sim.observe());
      await emit({ type: 'observation', turn, text: observation.text, state: observation.state });
      return { result, observation, completed, failed };
    },
  };
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
