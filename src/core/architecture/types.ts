// What an architecture (MALMM, RoCo, Action Contextualization, LLaMAR, LM Trajectory Generators) is given and must
// provide. An architecture writes its seed's loop in its own terms and acts only through the EpisodeContext, so the
// engine can trace, pause, fork and replay every step it takes.
import type { AgentAction, AgentActionResult, ChatMessage, EpisodeEndReason, PendingEvent, TokenUsage, TraceEvent } from '../../protocol/trace.js';
import type { EpisodeEmbeddings } from '../llm/embeddings.js';
import type { RunCodeResult } from '../sandbox/sandbox.js';
import type { ActionCheck, ApiFunctionSpec, CollisionReport, Observation, ObjectTrack, TaskCheckResult, TaskInfo, WorkspaceInfo } from '../sim/simulator.js';
import type { ObservationImage } from '../../protocol/simulator.js';
import type { Picoschema } from '../prompt/schema.js';
import type { VariantSpec } from '../prompt/variants.js';

export interface RoleSpec {
  id: string;
  label: string;
  /** File name under prompts/<arch>/ (or the workspace's prompt folder). */
  promptFile: string;
  description: string;
  /**
   * Every variable the loop passes when it calls this role, in Picoschema (the syntax of a prompt's input.schema):
   * `name?` for one that some calls leave out, `name(array)` with its item fields. Prompts are checked against it
   * before a run (an undefined variable would render empty) and the engine refuses a call that strays from it.
   */
  variables: Picoschema;
}

export interface AgentTopology {
  label: string;
  description: string;
  /** Roles (prompt files) this topology calls. */
  roles: string[];
  /** Each agent speaks in its own calls, so a person can take one agent's seat (RoCo's dialog; `--human`). */
  humanSeats?: boolean;
}

/** A limit of the seed's loop, by the seed's name (MALMM maxTurns, RoCo maxRounds, LLaMAR maxSteps, ...). */
export interface LimitSpec {
  id: string;
  label: string;
  type: 'int' | 'number' | 'bool';
  default: number | boolean;
  /** Inclusive bounds for numeric limits. */
  min?: number;
  max?: number;
  description: string;
}

export type LimitValues = Readonly<Record<string, number | boolean>>;

/**
 * What an architecture asks of a model, read by `waypoint doctor` (src/core/llm/doctor). Output limits and
 * temperatures are read from the role prompts themselves; this holds what the prompts do not say.
 */
export interface ModelNeeds {
  /**
   * The longest request (system prompt, history and the role's request) measured in a reference-model episode,
   * in tokens counted as characters / 4, the run it was measured on, and what makes it grow. An LLM writes longer
   * answers than the scripted policy, so the doctor asks for about twice this plus the largest output limit.
   */
  longestRequest: { tokens: number; measuredOn: string; grows: string };
  /**
   * Model calls and tokens (prompt + completion, counted by the client's usage) of one typical episode, measured
   * with the reference model, for `waypoint sweep --plan`'s estimate. `scalesWith` names a limit the calls grow in
   * proportion to (Action Contextualization's planRuns: each run is a conversation of its own). `whenOn`: the typical
   * episode when a switch limit changes the protocol (ActCtx's fixedTrials runs every retune and replan whatever the
   * results), used instead of the default one when that limit is on.
   */
  typicalEpisode?: { calls: number; tokens: number; measuredOn: string; scalesWith?: string; whenOn?: Record<string, { calls: number; tokens: number; measuredOn: string }> };
  /** What the paper's model saw as images and what Waypoint sends it instead. */
  vision?: string;
  /** Where the paper matches with a sentence-embedding model and what Waypoint matches with. */
  embeddings?: string;
}

/** Everything about an architecture except its loop: the CLI, the language server and the views read this. */
export interface ArchitectureManifest {
  id: string;
  label: string;
  description: string;
  /** The seed paper this architecture reproduces. */
  paper: string;
  roles: RoleSpec[];
  /** Agent topologies (e.g. MALMM's malmm / ma / sa); `defaultTopology` is used unless a variant names another. */
  topologies: Record<string, AgentTopology>;
  defaultTopology: string;
  /** Variants every workspace gets without a variants file (e.g. `ma`, `sa`). */
  builtInVariants: Record<string, VariantSpec>;
  /**
   * Ablation ids the loop reads in code rather than from a prompt block (id -> what it switches), e.g. MALMM's
   * executor.state_header. A variant may switch them like prompt ablations; they are off unless a variant turns
   * them on.
   */
  codeAblations?: Record<string, string>;
  /** Robot API family (key of API_CATALOG) the simulator must serve for this architecture. */
  api: string;
  /** Which embedded simulator serves it by default. */
  simulator: 'tabletop' | 'household';
  /**
   * How the paper runs one episode's code blocks: each in a fresh Python namespace (`block`, the default: MALMM's
   * logs show NameErrors across blocks) or all in one (`episode`: LMTG's authors exec every block in one module's
   * globals, App. F reuses helpers across turns). A run's `persistNamespace` overrides it.
   */
  codeNamespace?: 'block' | 'episode';
  /** false: the loop never calls executeCode (its plans are data, or LLaMAR's structured actions), so the engine does not start the Python sandbox. */
  runsCode?: boolean;
  limits: LimitSpec[];
  /** End reasons of this architecture beyond the engine's own (id -> what it means). */
  endReasons: Record<string, string>;
  /** Metrics the architecture reports at the end (id -> what it measures), e.g. RoCo's re-plans. */
  metrics: Record<string, string>;
  /** What it asks of a model (context, images, embeddings), for `waypoint doctor`; every built-in one declares it. */
  modelNeeds?: ModelNeeds;
  /**
   * Set by the loader for an architecture a workspace brings (src/core/architecture/workspace.ts): its folder, whose
   * `prompts/` holds its prompt files. Absent for the built-in ones, whose prompts are under the host's prompt root.
   */
  folder?: string;
}

/** Engine options of one episode. `limits` holds the architecture's validated limits. */
export interface EpisodeOptions {
  limits: LimitValues;
  /** Keep Python variables between code blocks; unset: as the architecture's `codeNamespace` says. */
  persistNamespace?: boolean;
  codeTimeoutSecs: number;
  memoryMiB: number;
  /** What the agents see: the simulator's ground truth (default) or a seeded perception estimate (MALMM Sec. III-D). */
  perception?: 'ground-truth' | 'estimated';
  /** Where generated code runs: the Pyodide sandbox (default) or, in a trusted workspace, the user's own python3 (no sandbox). */
  codeRunner?: 'pyodide' | 'host-python';
  /**
   * Send the camera frames a loop passes to callRole (`RoleCallOptions.images`) to the model as image parts, for a
   * vision model. Off (default): requests carry the text stand-in only.
   */
  vision?: boolean;
}

export type RoleCallOutcome =
  /** `sent`: the messages the model was given (system, history, the role's request), for architectures that keep
   * one growing conversation (Action Contextualization) and carry the rendered request into the next call.
   * `human`: a person typed the answer (their seat); `usage`: the model's token counts, when reported. */
  | { ok: true; text: string; callId: string; turn: number; human?: boolean; sent?: ChatMessage[]; usage?: TokenUsage }
  | { ok: false; callId: string; turn: number; message: string };

export interface CodeRunOutcome {
  result: RunCodeResult;
  observation: Observation;
  /** task_completed() was called during the block. */
  completed: boolean;
  /** task_failed() was called during the block. */
  failed: boolean;
}

export interface ActOptions {
  /** 'loop': the architecture's own move (recorded on the action event), not a model's. */
  origin?: 'loop';
}

export interface JointActionOutcome {
  /** One result per requested action, in the same order. */
  results: AgentActionResult[];
  collisions: CollisionReport[];
  /** Checks the simulator ran before acting (RoCo's five plan checks), in order; skipped ones marked. */
  checks: ActionCheck[];
  /** What the simulator reported about how the step ran (e.g. whether a checked plan was executed). */
  info?: Record<string, unknown>;
}

export interface RoleCallOptions {
  /** The agent (robot) this call speaks for; stamped on its events and sent with the request. */
  agent?: string;
  /** What a person in this agent's seat is shown instead of the whole prompt (observation, feedback, chat). */
  humanView?: string;
  /**
   * Which independent sample of the same request this call is (ActCtx's IV-D runs: 1, 2, ...). Calls equal but for
   * it are separate requests to the model and separate cache entries; 0 or unset is the usual single sample.
   */
  sample?: number;
  /**
   * Camera frames of the observations this request describes (e.g. each agent's `observation.images`). The engine
   * puts them on the request as image parts when the run's `vision` is on and drops them when it is off, so a loop
   * passes them always and text-only runs are unchanged.
   */
  images?: readonly ObservationImage[];
}

export interface EpisodeContext {
  readonly task: TaskInfo;
  readonly workspace: WorkspaceInfo;
  readonly api: ApiFunctionSpec[];
  readonly initial: Observation;
  readonly options: EpisodeOptions;
  /** The architecture's limits for this run, validated (same as options.limits). */
  readonly limits: LimitValues;
  /** Topology in use (e.g. malmm | ma | sa). */
  readonly agent: string;
  /** Agents / robots of the task in the simulator's order (one for single-arm tasks). */
  readonly agents: readonly string[];
  /** Agents whose turns a person types (their callRole answers come from the person, marked human). */
  readonly humans: readonly string[];
  /**
   * The variant's explicit ablation switches (ids it does not mention keep their default). Prompts read them
   * through `{{#ablation}}`; an architecture reads them for text it builds in code (e.g. MALMM's executor reply).
   */
  readonly ablations: Readonly<Record<string, boolean>>;
  readonly signal: AbortSignal;
  /**
   * The run's sentence-embedding model (LLaMAR's action matcher), cached per episode; absent when the run has none
   * (an OpenAI-compatible model without `--embedding-model`, a replay). Failures come back as values.
   */
  readonly embeddings?: EpisodeEmbeddings;

  /** Counters on separate axes. Each event carries turn (where it belongs to one), round, step and agent. */
  readonly turn: number;
  readonly round: number;
  readonly step: number;
  /** A speaker action (including routing) is one turn. */
  nextTurn(): number;
  /** A dialog round (RoCo). */
  nextRound(): number;
  /** An environment step (LLaMAR's joint step, an executed plan). */
  nextStep(): number;
  /** The agent stamped on the next events (undefined: the episode as a whole). */
  setAgent(agent: string | undefined): void;

  emit(event: PendingEvent): Promise<TraceEvent>;
  /**
   * Renders the role's prompt (re-read from its file if the episode was paused since), records role_call and
   * model_response, and calls the model with the role as request metadata (never inside the prompt).
   */
  callRole(role: string, variables: Record<string, unknown>, history: ChatMessage[], options?: RoleCallOptions): Promise<RoleCallOutcome>;
  /** Records how the role's answer was parsed (or why it could not be). */
  parsed(role: string, callId: string, turn: number, result: { ok: true; kind: string; value: unknown } | { ok: false; kind: string; error: string }): Promise<void>;
  /** Appends a message to the shared conversation (recorded as chat_message). */
  say(speaker: string, content: string): Promise<void>;

  /** Runs a code block in the sandbox against the simulator; records api_call, code_execution, trajectory, observation. */
  executeCode(role: string, code: string): Promise<CodeRunOutcome>;
  /**
   * One structured action for one agent (an API function or a named action of the simulator). `origin: 'loop'`
   * marks a move the loop makes itself, which no model wrote (views that show what a model did leave it out).
   */
  act(agent: string, action: { name: string; args: unknown[] }, options?: ActOptions): Promise<AgentActionResult>;
  /** Structured actions for several agents in the same simulator steps; each agent gets its own result. */
  actJointly(actions: AgentAction[], options?: ActOptions): Promise<JointActionOutcome>;

  /** The scene as `agent` sees it (partial views), or the whole scene; traced as an observation. */
  observe(agent?: string): Promise<Observation>;
  /** The observation text the architecture shows its roles, rendered from the structured state. */
  render(observation: Observation, agent?: string): string;
  /** Starts a track mark: `tracks(mark)` returns object poses recorded since. Returns the mark's sim time. */
  markTracks(): number;
  /** Pose histories of objects since a mark (all objects, or the named ones). */
  tracks(mark: number, objects?: readonly string[]): ObjectTrack[];
  /** The (first) arm's tool-centre pose history since a mark, named `tool centre` (its orientation is the yaw). */
  toolTrack(mark: number): ObjectTrack;

  /** Saves the simulator's state; returns its id. Traced. */
  snapshot(label?: string): Promise<string>;
  /** Returns the simulator to a saved state. An unknown id ends the episode with an error naming it. Traced. */
  restore(id: string): Promise<void>;
  /** The task's success check now (RoCo stops as soon as the reward is positive). Traced as a mid-episode check. */
  checkSuccess(): Promise<TaskCheckResult>;
}

export interface ArchOutcome {
  reason: EpisodeEndReason;
  agentClaimedDone: boolean;
  message?: string;
  /** Architecture metrics by the ids declared in its manifest. */
  metrics?: Record<string, number>;
}

export interface ArchitectureDefinition extends ArchitectureManifest {
  /**
   * The observation text this architecture's roles see, rendered from the structured state, so every simulator
   * that reports structured state works with its prompts. Absent: the simulator's own text is used.
   */
  renderObservation?(observation: Observation, agent?: string, ablations?: Readonly<Record<string, boolean>>): string;
  run(ctx: EpisodeContext): Promise<ArchOutcome>;
  /**
   * Registers the reference model's scripted policies for this architecture's roles (`registerPolicy`,
   * src/core/llm/reference/policy.ts); idempotent. Absent: the reference model answers its roles with an explanation.
   */
  registerReferencePolicies?(): void;
}
