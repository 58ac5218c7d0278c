// Builds everything one run needs — simulator, sandbox, model client stack, trace writer — from plain options,
// runs the episode and tears down. The CLI, the extension and tests all start runs through here.
import { join } from 'node:path';
import { TRACE_SCHEMA_VERSION, type ForkInfo, type ModelSettings, type PendingEvent, type TraceEvent } from '../../protocol/trace.js';
import type { Architectures } from '../architecture/registry.js';
import type { ArchitectureDefinition, EpisodeOptions } from '../architecture/types.js';
import { EpisodeController } from '../engine/controller.js';
import type { HumanSeat } from '../engine/human.js';
import { DEFAULT_EPISODE_OPTIONS, messageOf, runEpisode, type EpisodeResult } from '../engine/episode.js';
import { seededRng, type Clock, type HostIO } from '../host.js';
import { ResponseCache, withCache } from '../llm/cache.js';
import type { ModelClient } from '../llm/client.js';
import { OpenAIEmbeddingClient, withEmbeddingRetries, type EmbeddingClient } from '../llm/embeddings.js';
import { localEmbeddingClient } from '../llm/localEmbedding/client.js';
import { localModelDir } from '../llm/localEmbedding/name.js';
import { LocalModelError } from '../llm/localEmbedding/errors.js';
import { OpenAICompatibleClient } from '../llm/openai.js';
import { REFERENCE_EMBEDDING_MODEL } from '../llm/reference/embedding.js';
import { REFERENCE_LABEL, REFERENCE_MODEL_NAME, REFERENCE_PROFILES, referenceLabel, type ReferenceProfile } from '../llm/reference/policy.js';
import { registerReferencePolicies } from '../llm/reference/policies.js';
import { startReferenceServer } from '../llm/reference/server.js';
import { timerSleep, withRetries } from '../llm/retry.js';
import type { CodeSandbox } from '../sandbox/sandbox.js';
import type { Simulator } from '../sim/simulator.js';
import { JsonlTraceWriter } from '../trace/writer.js';
import { preflightRun, StartError, type Preflight } from './preflight.js';
import { catalogOf, taskProblem } from './taskCheck.js';
import { resolvePromptPaths } from './promptPaths.js';
import { newRunId, tracePath } from './runStore.js';

export { resolvePromptPaths };

/**
 * The sentence-embedding model of a run (LLaMAR's action matcher): a model name served at the chat endpoint, or at
 * `embeddingBaseUrl` (which is sent no API key: the chat key stays with the chat endpoint), or a local
 * sentence-transformers folder run in this process (`local:<dir>`, or a path starting with `/`, `./` or `../`;
 * relative to the workspace; src/core/llm/localEmbedding/README.md). 'none' turns embeddings off (the lexical
 * matcher). Default: the reference server's `reference-embedding` fixture for the reference model; none for an
 * OpenAI-compatible model (`waypoint doctor` names the endpoint's embedding models).
 */
export interface EmbeddingSpec {
  embeddingModel?: string;
  embeddingBaseUrl?: string;
}

export type ModelSpec =
  /**
   * The reference policy (scripted, not an LLM), reached through the openai SDK over HTTP: at `baseUrl` when a
   * `waypoint serve-model` process is given, else served in-process on an ephemeral loopback port.
   */
  | {
      kind: 'reference';
      baseUrl?: string;
      /** 'reference' (competent, deterministic) or 'reference-flawed' (seeded mistakes; docs/reference-model.md). */
      profile?: ReferenceProfile;
      /** Sent as the request's seed: reference-flawed draws its mistakes from it with the conversation. */
      seed?: number;
    } & EmbeddingSpec
  /** Any OpenAI-compatible endpoint. The key is passed in by the host (env var or SecretStorage). */
  | {
      kind: 'openai';
      model: string;
      baseUrl: string;
      apiKey?: string;
      temperature?: number;
      maxTokens?: number;
      seed?: number;
      /** The request field for the output limit (OpenAI's newer models refuse max_tokens). Default max_tokens. */
      maxTokensField?: 'max_tokens' | 'max_completion_tokens';
      timeoutMs?: number;
      /** Recorded provider when the endpoint fronts another one (e.g. 'vscode-lm' behind the extension's loopback bridge). */
      provider?: string;
      label?: string;
      /** Stable client id for the response cache when the base URL is ephemeral (a loopback bridge's port). */
      clientId?: string;
    } & EmbeddingSpec;

export interface LaunchOptions {
  /** Folder that holds .waypoint/ (runs, cache, variants). */
  workspace: string;
  arch: string;
  task: string;
  seed: number;
  /** Prompt variant name; default: the variants file's `active`, else "default". */
  variant?: string;
  /** Ablation switches laid over the variant's own (a paired sweep's on/off side); the trace records the result. */
  ablations?: Record<string, boolean>;
  /** Folder with the architecture's .prompt files; default: <workspace>/prompts/<arch> if present, else the built-in ones. */
  promptDir?: string;
  /** Role id -> prompt file, overriding the folder lookup (a fork uses its parent's files). */
  promptPaths?: Record<string, string>;
  /** Agent topology (e.g. MALMM's ma), overriding the variant's (a fork of a recorded run keeps the run's). */
  agent?: string;
  /** Folder holding the built-in prompts (prompts/ of the package). */
  builtInPromptRoot: string;
  model: ModelSpec;
  options?: Partial<Omit<EpisodeOptions, 'limits'>>;
  /** The architecture's limits by name (e.g. { maxTurns: 30 }); values may be strings from a command line. */
  limits?: Readonly<Record<string, unknown>>;
  /** Team size (LLaMAR's 1-5 agents); overrides the variant's. Absent: the variant's, else the task's. */
  agents?: number;
  /** Use the on-disk response cache (default true). */
  cache?: boolean;
  /** Cache the reference model's answers too (a sweep measuring which calls a variant change re-issues). */
  cacheReference?: boolean;
  /** Run id (the folder name under .waypoint/runs); default a fresh timestamped id. A sweep passes its episode key. */
  runId?: string;
  /** Repeat index of this episode (a sweep's repeats); recorded in the model settings and sent in every cache key. */
  repeatIndex?: number;
  /** Attempts per model call on rate limits, 5xx, timeouts and connection failures (default 5). */
  maxModelAttempts?: number;
  controller?: EpisodeController;
  /** A person typing some agents' turns (RoCo's human in a robot's seat: `waypoint run --human Alice`). */
  human?: HumanSeat;
  /** Wraps the model client the run would use (retries and cache included), e.g. a debugger's replay of earlier answers. */
  wrapModel?(client: ModelClient, settings: ModelSettings): ModelClient;
  /** Recorded in episode_start when this run is a fork of another (the debugger's Restart Frame). */
  fork?: ForkInfo;
  /** Called with the run id and trace path once they exist (before the episode starts). */
  onStart?(info: { runId: string; tracePath: string; model: ModelSettings; arch: ArchitectureDefinition }): void;
}

export interface LaunchDeps {
  io: HostIO;
  clock: Clock;
  /** The architectures a run may name (the host's registry; their reference policies serve the reference model). */
  architectures: Architectures;
  /** `family`: which embedded simulator the architecture needs (its manifest's `simulator`). */
  createSimulator(needs?: { family: 'tabletop' | 'household' }): Promise<Simulator>;
  /** `codeRunner`: the run's choice (EpisodeOptions); a host that offers no host-python runner ignores it. */
  createSandbox(options?: { codeRunner?: 'pyodide' | 'host-python' }): CodeSandbox;
  /** Wraps the client that reaches the endpoint (under retries and cache): a sweep's rate limiter and budget meter. */
  wrapModel?(client: ModelClient): ModelClient;
  /** The same for the run's embedding client (LLaMAR's matcher), under its retries. */
  wrapEmbeddings?(client: EmbeddingClient): EmbeddingClient;
}

export interface LaunchResult extends EpisodeResult {
  runId: string;
  tracePath: string;
}

/**
 * The model spec as the endpoint answers it. `openai:<name>` at a URL where `waypoint serve-model` answers is the
 * reference model: it runs as one (labelled scripted, not an LLM, in the trace) and is sent the role headers it
 * answers by. Only an endpoint that says it is the reference server (REFERENCE_HEADER on GET /models) gets them,
 * so a real model never does; `reference` with a base URL that answers as anything else is refused for the same
 * reason. An endpoint that does not answer is left to the run, whose first call reports it.
 */
export async function resolveModelSpec(spec: ModelSpec, clock: Clock): Promise<ModelSpec> {
  if (spec.kind === 'reference') {
    if (!spec.baseUrl) return spec;
    const id = await new OpenAICompatibleClient({ baseUrl: spec.baseUrl, clock }).identify();
    if (id.kind === 'other') throw new StartError('invalid_input', `${spec.baseUrl} is not a Waypoint reference server (\`waypoint serve-model\`); for a model served there use --model openai:<name>`);
    return spec;
  }
  // A provider behind a bridge of our own (the extension's VS Code chat models) is never the reference server.
  if (spec.provider) return spec;
  const id = await new OpenAICompatibleClient({ baseUrl: spec.baseUrl, apiKey: spec.apiKey, clock, timeoutMs: spec.timeoutMs }).identify();
  if (id.kind !== 'reference') return spec;
  // Its embedding fixture is listed too, but answers no chat.
  const chat = id.models.filter((m) => m !== REFERENCE_EMBEDDING_MODEL);
  if (!chat.includes(spec.model)) throw new StartError('invalid_input', `the reference server at ${spec.baseUrl} has no chat model '${spec.model}'; it serves ${chat.join(', ')}`);
  if (!(REFERENCE_PROFILES as readonly string[]).includes(spec.model)) return spec;
  return { kind: 'reference', baseUrl: spec.baseUrl, profile: spec.model as ReferenceProfile, ...(spec.seed !== undefined ? { seed: spec.seed } : {}), ...embeddingFields(spec) };
}

const embeddingFields = (spec: EmbeddingSpec): EmbeddingSpec => ({
  ...(spec.embeddingModel !== undefined ? { embeddingModel: spec.embeddingModel } : {}),
  ...(spec.embeddingBaseUrl !== undefined ? { embeddingBaseUrl: spec.embeddingBaseUrl } : {}),
});

/**
 * The run's embedding client and what the run header records of it; undefined when the run has none. A local
 * folder is loaded here and throws LocalModelError (file and cause) when it cannot be used.
 */
export function makeEmbeddings(spec: ModelSpec, chatUrl: string, clock: Clock, workspace = process.cwd()): { client: EmbeddingClient; settings: Pick<ModelSettings, 'embeddingModel' | 'embeddingBaseUrl'>; local?: true } | undefined {
  const model = spec.embeddingModel ?? (spec.kind === 'reference' ? REFERENCE_EMBEDDING_MODEL : undefined);
  if (model === undefined || model === 'none') return undefined;
  const dir = localModelDir(model, workspace);
  if (dir !== undefined) return { client: localEmbeddingClient(dir, model), settings: { embeddingModel: model }, local: true };
  const separate = spec.embeddingBaseUrl !== undefined && spec.embeddingBaseUrl.replace(/\/+$/, '') !== chatUrl.replace(/\/+$/, '');
  const baseUrl = separate ? spec.embeddingBaseUrl! : chatUrl;
  const apiKey = !separate && spec.kind === 'openai' ? spec.apiKey : undefined;
  return {
    client: new OpenAIEmbeddingClient({ baseUrl, model, clock, ...(apiKey ? { apiKey } : {}) }),
    settings: { embeddingModel: model, ...(separate ? { embeddingBaseUrl: baseUrl } : {}) },
  };
}

async function makeModel(spec: ModelSpec, deps: LaunchDeps, cacheDir: string | undefined, maxAttempts: number | undefined, extra: { cacheReference?: boolean; repeatIndex?: number; embeddings?: boolean; workspace?: string } = {}): Promise<{ client: ModelClient; settings: ModelSettings; embeddings?: EmbeddingClient; close(): Promise<void> }> {
  let base: OpenAICompatibleClient;
  let settings: ModelSettings;
  let close = async () => {};
  if (spec.kind === 'reference') {
    let url = spec.baseUrl;
    if (!url) {
      registerReferencePolicies(deps.architectures);
      const server = await startReferenceServer({ port: 0 });
      close = () => server.close();
      url = server.url;
    }
    const name = spec.profile ?? REFERENCE_MODEL_NAME;
    // A stable id keeps the cache key independent of the ephemeral port; the role travels as request headers.
    base = new OpenAICompatibleClient({ baseUrl: url, clock: deps.clock, model: name, id: name, sendRequestMeta: true });
    settings = { provider: 'reference', model: name, label: referenceLabel(name), baseUrl: url, temperature: 0, ...(spec.seed !== undefined ? { seed: spec.seed } : {}) };
  } else {
    base = new OpenAICompatibleClient({ baseUrl: spec.baseUrl, apiKey: spec.apiKey, clock: deps.clock, model: spec.model, timeoutMs: spec.timeoutMs, id: spec.clientId, maxTokensField: spec.maxTokensField });
    settings = {
      provider: spec.provider ?? 'openai',
      model: spec.model,
      label: spec.label ?? `${spec.model} @ ${spec.baseUrl}`,
      baseUrl: spec.baseUrl,
      temperature: spec.temperature,
      maxTokens: spec.maxTokens,
      seed: spec.seed,
    };
  }
  if (extra.repeatIndex !== undefined && extra.repeatIndex > 0) settings = { ...settings, repeatIndex: extra.repeatIndex };
  // Only an architecture that matches with embeddings (its modelNeeds say so) gets a client and a header entry.
  let embeddings: ReturnType<typeof makeEmbeddings>;
  try {
    embeddings = extra.embeddings ? makeEmbeddings(spec, base.baseUrl, deps.clock, extra.workspace) : undefined;
  } catch (err) {
    // A local embedding folder that cannot be used: the run does not start, and the reference server goes.
    await close();
    throw err;
  }
  if (embeddings) settings = { ...settings, ...embeddings.settings };
  let client: ModelClient = withRetries(deps.wrapModel ? deps.wrapModel(base) : base, maxAttempts ? { maxAttempts } : {}, seededRng(0x5eed), timerSleep);
  // The reference policy is deterministic and free: caching it would only cost disk writes (unless a sweep asks).
  if (cacheDir && (spec.kind !== 'reference' || extra.cacheReference)) client = withCache(client, new ResponseCache(deps.io, cacheDir));
  // A local model calls no endpoint: nothing to retry, and nothing for a sweep's rate limit or token budget to count.
  const embeddingClient = !embeddings ? undefined : embeddings.local ? embeddings.client : withEmbeddingRetries(deps.wrapEmbeddings ? deps.wrapEmbeddings(embeddings.client) : embeddings.client, maxAttempts ? { maxAttempts } : {}, seededRng(0xe3bed), timerSleep);
  return { client, settings, ...(embeddingClient ? { embeddings: embeddingClient } : {}), close };
}

export async function launchRun(options: LaunchOptions, deps: LaunchDeps): Promise<LaunchResult> {
  const runId = options.runId ?? newRunId(deps.clock.isoNow(), options.arch, options.task, options.seed);
  const path = tracePath(options.workspace, runId);
  await deps.io.mkdirp(path.slice(0, path.lastIndexOf('/')));
  // Bad input is refused here, before the model, the simulator or the sandbox start (StartError names the cause).
  let checked: Preflight;
  try {
    checked = await preflightRun(deps.io, { ...options, architectures: deps.architectures });
    // A debugger fork may switch ablations and point roles at edited copies of their prompts.
    if (options.ablations) checked = { ...checked, variant: { ...checked.variant, ablations: { ...checked.variant.ablations, ...options.ablations } } };
    if (options.promptPaths) checked = { ...checked, promptPaths: { ...checked.promptPaths, ...options.promptPaths } };
  } catch (err) {
    if (err instanceof StartError) return recordFailedStart(options, deps, runId, path, err.reason, err.message, err.file, err.line);
    return recordFailedStart(options, deps, runId, path, 'invalid_input', messageOf(err));
  }
  const { arch, variant, promptPaths } = checked;

  let model: Awaited<ReturnType<typeof makeModel>>;
  let spec: ModelSpec;
  try {
    spec = await resolveModelSpec(options.model, deps.clock);
  } catch (err) {
    return recordFailedStart(options, deps, runId, path, 'invalid_input', messageOf(err));
  }
  try {
    model = await makeModel(spec, deps, options.cache === false ? undefined : join(options.workspace, '.waypoint', 'cache'), options.maxModelAttempts, { cacheReference: options.cacheReference, repeatIndex: options.repeatIndex, embeddings: arch.modelNeeds?.embeddings !== undefined, workspace: options.workspace });
  } catch (err) {
    if (err instanceof LocalModelError) return recordFailedStart(options, deps, runId, path, 'invalid_input', `local embedding model: ${err.reason}`, err.file);
    return recordFailedStart(options, deps, runId, path, 'invalid_input', `cannot set up the model client: ${messageOf(err)}`);
  }
  let sim: Simulator | undefined;
  const sandbox = deps.createSandbox({ codeRunner: options.options?.codeRunner });
  try {
    try {
      sim = await deps.createSimulator({ family: arch.simulator });
    } catch (err) {
      return await recordFailedStart(options, deps, runId, path, 'simulator_error', `cannot start the simulator: ${messageOf(err)}`);
    }
    // An unknown task, or one whose robot API is not the architecture's, is refused before the episode starts.
    const taskRefusal = taskProblem(arch, options.task, catalogOf(sim));
    if (taskRefusal) return await recordFailedStart(options, deps, runId, path, 'invalid_input', taskRefusal);
    options.onStart?.({ runId, tracePath: path, model: model.settings, arch });
    const result = await runEpisode(
      {
        runId,
        arch,
        ...(options.agent ? { agent: options.agent } : {}),
        task: options.task,
        seed: options.seed,
        variant,
        promptPaths,
        options: { ...DEFAULT_EPISODE_OPTIONS, ...options.options, limits: options.limits ?? {} },
        model: model.settings,
        ...(options.fork ? { fork: options.fork } : {}),
        ...(options.agents !== undefined ? { agents: options.agents } : {}),
      },
      {
        io: deps.io,
        clock: deps.clock,
        sim,
        sandbox,
        model: options.wrapModel ? options.wrapModel(model.client, model.settings) : model.client,
        ...(model.embeddings ? { embeddings: model.embeddings } : {}),
        sink: new JsonlTraceWriter(deps.io, path, deps.clock),
        controller: options.controller,
        ...(options.human ? { human: options.human } : {}),
      },
    );
    return { ...result, runId, tracePath: path };
  } finally {
    await Promise.allSettled([model.close(), sandbox.close(), sim?.close()]);
  }
}

/**
 * A run that cannot start (unknown architecture or variant, a model client or simulator that cannot be built)
 * still leaves a trace saying why.
 */
async function recordFailedStart(
  options: LaunchOptions,
  deps: LaunchDeps,
  runId: string,
  path: string,
  reason: 'invalid_input' | 'prompt_error' | 'simulator_error',
  message: string,
  file?: string,
  line?: number,
): Promise<LaunchResult> {
  const writer = new JsonlTraceWriter(deps.io, path, deps.clock);
  // Written through the controller too, so a CLI transcript or a live view shows why the run did not start.
  const sink = {
    async write(e: PendingEvent): Promise<TraceEvent> {
      const event = await writer.write(e);
      await options.controller?.afterEvent(event);
      return event;
    },
  };
  await sink.write({
    type: 'episode_start',
    schemaVersion: TRACE_SCHEMA_VERSION,
    runId,
    arch: options.arch,
    agentVariant: '',
    task: options.task,
    taskDescription: '',
    seed: options.seed,
    variant: options.variant ?? '',
    ablations: {},
    model:
      options.model.kind === 'reference'
        ? { provider: 'reference', model: options.model.profile ?? REFERENCE_MODEL_NAME, label: referenceLabel(options.model.profile ?? REFERENCE_MODEL_NAME) }
        : { provider: 'openai', model: options.model.model, label: options.model.model, baseUrl: options.model.baseUrl },
    prompts: [],
    simulator: { name: '' },
    options: { persistNamespace: options.options?.persistNamespace ?? false, codeTimeoutSecs: options.options?.codeTimeoutSecs ?? DEFAULT_EPISODE_OPTIONS.codeTimeoutSecs },
    startedAt: deps.clock.isoNow(),
  });
  await sink.write({ type: 'error', kind: reason, message, file, line });
  const end = (await sink.write({
    type: 'episode_end',
    success: false,
    reason,
    agentClaimedDone: false,
    message: file ? `${message} (${file}${line !== undefined ? `:${line}` : ''})` : message,
    metrics: { turns: 0, modelCalls: 0, cachedCalls: 0, promptTokens: 0, completionTokens: 0, codeBlocks: 0, codeErrors: 0, formatErrors: 0, durationMs: 0, simTimeSecs: 0 },
  })) as Extract<TraceEvent, { type: 'episode_end' }>;
  options.controller?.notifyEnded('failure');
  return { success: false, reason, message: end.message, events: 3, end, runId, tracePath: path };
}
