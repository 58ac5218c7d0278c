// The trace is Waypoint's single source of truth: an append-only JSONL stream of these events.
// Every view (CLI transcript, run viewer, debugger variables, reports) is a projection of it.
// Depends on zod only, so webviews, the language server and the debug adapter can import it.
import * as z from 'zod';

/**
 * Bump on any incompatible change; the reader keeps accepting the previous version (docs/trace.md).
 * v2: counters (round, step, agent) on every event, structured actions, robot API call events, snapshots,
 * per-agent observations, content parts, architecture-declared limits / end reasons / metrics, and events that
 * keep fields an older reader does not know instead of dropping them.
 */
export const TRACE_SCHEMA_VERSION = 2;

/** Architectures known to the trace. Later issues add roco, actctx, llamar, trajgen. */
export const ArchitectureId = z.string().min(1);

/** A text part of a message with several parts. */
export const TextPart = z.object({ type: z.literal('text'), text: z.string() });
/**
 * An image part (the seeds' vision modes). Identified by the SHA-256 of its bytes; `dataBase64` travels in memory
 * and to the model, and is stored once per trace (content-addressed), not once per message.
 */
export const ImagePart = z.object({
  type: z.literal('image'),
  mediaType: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  dataBase64: z.string().optional(),
  /** A short description shown where the image cannot be (terminals, text-only models). */
  alt: z.string().optional(),
});
export const ContentPart = z.discriminatedUnion('type', [TextPart, ImagePart]);
export type ContentPart = z.infer<typeof ContentPart>;

export const ChatMessage = z.object({
  role: z.enum(['system', 'user', 'assistant']),
  /** The text of the message (for a message with parts: its text parts joined, images as their alt text). */
  content: z.string(),
  /** Which agent wrote the message into the shared chat, when the transcript is a multi-agent group chat. */
  name: z.string().optional(),
  /** Present when the message carries more than text (images); `content` then holds its text for text-only views. */
  parts: z.array(ContentPart).optional(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

export const ModelSettings = z.object({
  /** 'openai' (any OpenAI-compatible endpoint), 'reference' (scripted, not an LLM), 'replay', 'vscode-lm'. */
  provider: z.string(),
  model: z.string(),
  /** Human label shown everywhere, e.g. "reference (scripted, not an LLM)". */
  label: z.string(),
  baseUrl: z.string().optional(),
  temperature: z.number().optional(),
  maxTokens: z.number().int().optional(),
  seed: z.number().int().optional(),
  /** Repeat of the same episode (a sweep's `repeats`): part of the response cache key, so repeats at a temperature above 0 are distinct calls. */
  repeatIndex: z.number().int().nonnegative().optional(),
  /** The sentence-embedding model the run matches free-form actions with (LLaMAR); absent: none (lexical matching). */
  embeddingModel: z.string().optional(),
  /** Where the embeddings come from, when not from `baseUrl`. */
  embeddingBaseUrl: z.string().optional(),
});
export type ModelSettings = z.infer<typeof ModelSettings>;

export const PromptFileRef = z.object({
  role: z.string(),
  /** Workspace-relative or absolute path of the .prompt file. */
  path: z.string(),
  sha256: z.string(),
});
export type PromptFileRef = z.infer<typeof PromptFileRef>;

export const ModelErrorKind = z.enum(['rate_limit', 'server', 'timeout', 'network', 'auth', 'bad_request', 'bad_response', 'cancelled']);
export type ModelErrorKind = z.infer<typeof ModelErrorKind>;

export const TokenUsage = z.object({ promptTokens: z.number().int(), completionTokens: z.number().int() });
export type TokenUsage = z.infer<typeof TokenUsage>;

/** A pose of the end effector in the world frame: metres and radians (yaw about +z). */
export const EePose = z.object({ pos: z.tuple([z.number(), z.number(), z.number()]), yawRad: z.number() });

/** Ground-truth state of one object, world frame, metres/radians. */
export const ObjectState = z.object({
  name: z.string(),
  pos: z.tuple([z.number(), z.number(), z.number()]),
  /** Roll, pitch, yaw (XYZ Euler, radians). */
  euler: z.tuple([z.number(), z.number(), z.number()]),
  /** Full extents along the object's local axes: [length (x), width (y), height (z)] in metres. */
  size: z.tuple([z.number(), z.number(), z.number()]),
  color: z.string(),
  /** Simulator-specific properties (a household object's type, open/sliced/toggled states, its receptacle). */
  props: z.record(z.string(), z.unknown()).optional(),
});
export type ObjectState = z.infer<typeof ObjectState>;

/** One robot or agent: an arm's end effector and gripper, or a household agent's pose and what it holds. */
export const RobotState = z.object({
  name: z.string(),
  pos: z.tuple([z.number(), z.number(), z.number()]),
  yawRad: z.number(),
  gripperOpen: z.boolean().optional(),
  /** The object it holds, or null. */
  holding: z.string().nullable(),
});
export type RobotState = z.infer<typeof RobotState>;

export const WorldState = z.object({
  objects: z.array(ObjectState),
  /** The first robot's end effector (single-arm systems read these three fields; `robots` has every robot). */
  ee: EePose,
  gripperOpen: z.boolean(),
  grasped: z.string().nullable(),
  /** Every robot or agent, in the simulator's order (absent in v1 traces and single-arm simulators that omit it). */
  robots: z.array(RobotState).optional(),
  /** Simulator-specific structured state (e.g. a household's rooms and what each agent has seen). */
  extra: z.record(z.string(), z.unknown()).optional(),
});
export type WorldState = z.infer<typeof WorldState>;

/** One recorded simulator sample. Arrays are flat and small; bodies are [x,y,z,qw,qx,qy,qz] per body in scene order. */
export const TrajectorySample = z.object({
  tSecs: z.number(),
  qpos: z.array(z.number()),
  ee: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  gripperWidth: z.number(),
  grasped: z.string().nullable(),
  bodies: z.array(z.number()).optional(),
  contacts: z.array(z.tuple([z.string(), z.string()])).optional(),
  /**
   * Scenes with several arms: every arm's tool point and gripper, 5 numbers per arm in the simulator's robot order
   * (`WorldState.robots`): x, y, z (m), yaw (rad), finger width (m; 0 for a suction cup). `ee` and `gripperWidth`
   * repeat the first arm's.
   */
  arms: z.array(z.number()).optional(),
});
export type TrajectorySample = z.infer<typeof TrajectorySample>;

/**
 * Motion metrics of one robot action (Action Contextualization's motion scores and more). M_I: minimum over the
 * motion of the inverse condition number of the arm Jacobian; M_E: minimum link-to-environment distance over
 * d_bar (`dBarM`: the largest link-to-environment distance since the plan's execution began, a running maximum as
 * in the authors' code; traces before it carry no dBarM and divided by a fixed 0.3 m); M_T = M_I + M_E (-2 when the
 * action did not move).
 */
export const ActionMetrics = z.object({
  action: z.string(),
  startSecs: z.number(),
  durationSecs: z.number(),
  samples: z.number().int(),
  mI: z.number(),
  mE: z.number(),
  mT: z.number(),
  pathLengthM: z.number(),
  peakJerkMps3: z.number(),
  minClearanceM: z.number(),
  closestPair: z.tuple([z.string(), z.string()]).nullable(),
  collisionCount: z.number().int(),
  maxHeldTiltRad: z.number().nullable(),
  /** d_bar in metres, the normaliser of M_E (absent in older traces). */
  dBarM: z.number().optional(),
});
export type ActionMetrics = z.infer<typeof ActionMetrics>;

/** A value an API call returned to the code (checks return booleans, detect_object a description). */
export const ApiValue = z.union([z.boolean(), z.number(), z.string(), z.null()]);

const DetectedBox = z.object({ pos: z.tuple([z.number(), z.number(), z.number()]), size: z.tuple([z.number(), z.number(), z.number()]), yawRad: z.number() });

/** One box detect_object printed (`estimate`) beside the ground truth; `failure` names a failed part segmentation. */
export const DetectionRecord = z.object({
  label: z.string(),
  truth: DetectedBox,
  estimate: DetectedBox,
  failure: z.enum(['whole_object', 'wrong_extent', 'neighbour_region']).optional(),
});
export type DetectionRecord = z.infer<typeof DetectionRecord>;

export const ApiCallRecord = z.object({
  fn: z.string(),
  args: z.array(z.unknown()),
  ok: z.boolean(),
  error: z.string().optional(),
  value: ApiValue.optional(),
  metrics: ActionMetrics.optional(),
  /** detect_object: what it printed beside the truth (perception mode `estimated` makes them differ). */
  detections: z.array(DetectionRecord).optional(),
});
export type ApiCallRecord = z.infer<typeof ApiCallRecord>;

/**
 * Fields every event carries. `round`, `step` and `agent` are the architecture's counters at the time of the event
 * (RoCo rounds, LLaMAR steps, the agent or robot acting); `turn` is on the events that belong to a turn.
 */
const base = {
  seq: z.number().int().nonnegative(),
  tMs: z.number().nonnegative(),
  round: z.number().int().nonnegative().optional(),
  step: z.number().int().nonnegative().optional(),
  agent: z.string().optional(),
};

/** Events keep fields this version does not know (a newer writer's), so nothing is dropped on a round trip. */
const event = <T extends z.ZodRawShape>(shape: T) => z.looseObject(shape);

/**
 * A fork: this episode re-ran another one up to a role turn, then went on from that turn with the prompt files as
 * they were when the fork started (the debugger's Restart Frame). Earlier turns took the parent's recorded answers.
 */
export const ForkInfo = z.looseObject({
  parentRunId: z.string(),
  /** Where the parent's trace was when the fork started (for "open the original"). */
  parentTracePath: z.string().optional(),
  /** The turn that ran again, and the parent's role call there. */
  turn: z.number().int(),
  callId: z.string().optional(),
  role: z.string().optional(),
  /** How many of the parent's model answers were replayed before the fork point (no model calls). */
  replayedCalls: z.number().int().nonnegative(),
  /** 'replay': the simulator was reset and the earlier turns re-run; 'snapshot': the simulator state was restored. */
  via: z.string(),
  /** Prompt files whose text at the fork point differs from what the parent's turn used. */
  changedFiles: z.array(z.object({ role: z.string(), path: z.string(), fromSha256: z.string(), toSha256: z.string() })),
});
export type ForkInfo = z.infer<typeof ForkInfo>;

export const EpisodeStart = event({
  ...base,
  type: z.literal('episode_start'),
  schemaVersion: z.number().int(),
  runId: z.string(),
  arch: ArchitectureId,
  /** Architecture variant / baseline inside the architecture: e.g. malmm | ma | sa. */
  agentVariant: z.string(),
  task: z.string(),
  taskDescription: z.string(),
  seed: z.number().int(),
  /** The prompt variant from .waypoint/variants.yaml and its resolved ablation switches. */
  variant: z.string(),
  ablations: z.record(z.string(), z.boolean()),
  model: ModelSettings,
  prompts: z.array(PromptFileRef),
  simulator: z.object({ name: z.string(), version: z.string().optional() }),
  /**
   * Engine options. v1 traces carry MALMM's two limits here (maxTurns, maxConsecutiveErrors); v2 traces carry the
   * architecture's declared limits in `limits` (and copy maxTurns/maxConsecutiveErrors here when MALMM declares them).
   */
  options: z.looseObject({
    maxTurns: z.number().int().optional(),
    maxConsecutiveErrors: z.number().int().optional(),
    persistNamespace: z.boolean(),
    codeTimeoutSecs: z.number(),
  }),
  /** The architecture's limits with the values this run used, by the seed's names (v2). */
  limits: z.record(z.string(), z.union([z.number(), z.boolean(), z.string()])).optional(),
  /** Agents or robots of the episode, in order (v2; e.g. RoCo's Alice, Bob; LLaMAR's agents). */
  agents: z.array(z.string()).optional(),
  /** The simulator's observation text is rendered by the architecture from the structured state (v2). */
  observationRendering: z.string().optional(),
  /** Present when this episode is a fork of another run (the debugger's Restart Frame). */
  fork: ForkInfo.optional(),
  startedAt: z.string(),
});

export const RoleCall = event({
  ...base,
  type: z.literal('role_call'),
  turn: z.number().int(),
  callId: z.string(),
  role: z.string(),
  messages: z.array(ChatMessage),
  model: z.string(),
  /** `sample`: which independent sample of this request (ActCtx's multi-run selection), when more than one is drawn. */
  params: z.object({ temperature: z.number().optional(), maxTokens: z.number().int().optional(), seed: z.number().int().optional(), sample: z.number().int().nonnegative().optional() }),
  promptPath: z.string(),
  /** Values of the template variables the prompt was rendered with (for hovers and previews). */
  variables: z.record(z.string(), z.unknown()),
  /** SHA-256 of the prompt file's text as rendered for this call (files are re-read after a pause). */
  promptSha256: z.string().optional(),
  /** The user typed this turn's answer (RoCo's human in a robot's seat, the debugger's `send`). */
  human: z.boolean().optional(),
});

export const ModelResponse = event({
  ...base,
  type: z.literal('model_response'),
  turn: z.number().int(),
  callId: z.string(),
  role: z.string(),
  ok: z.boolean(),
  text: z.string().optional(),
  error: z.object({ kind: ModelErrorKind, message: z.string(), status: z.number().int().optional() }).optional(),
  usage: TokenUsage.optional(),
  latencyMs: z.number(),
  /** Answered without a model call: from the response cache, or a fork replaying its parent's answers. */
  cached: z.boolean(),
  attempts: z.number().int(),
  /** A person typed this answer in place of the model (the debugger's `send`). */
  human: z.boolean().optional(),
});

export const ParsedOutput = event({
  ...base,
  type: z.literal('parsed_output'),
  turn: z.number().int(),
  callId: z.string(),
  role: z.string(),
  ok: z.boolean(),
  /** 'route' (next speaker), 'plan', 'code', 'message'. */
  kind: z.string(),
  value: z.unknown().optional(),
  /** Format error: the answer could not be parsed into what the role must produce. */
  error: z.string().optional(),
});

/** A message appended to the shared conversation (what later roles will see). */
export const ChatAppend = event({
  ...base,
  type: z.literal('chat_message'),
  turn: z.number().int(),
  speaker: z.string(),
  content: z.string(),
});

export const CodeExecution = event({
  ...base,
  type: z.literal('code_execution'),
  turn: z.number().int(),
  role: z.string(),
  language: z.string(),
  code: z.string(),
  ok: z.boolean(),
  exitCode: z.number().int(),
  stdout: z.string(),
  error: z.object({ type: z.string(), message: z.string(), line: z.number().int().optional() }).optional(),
  durationMs: z.number(),
  apiCalls: z.array(ApiCallRecord),
  namespacePersisted: z.boolean(),
});

export const Observation = event({
  ...base,
  type: z.literal('observation'),
  turn: z.number().int(),
  /** The simulator's own text (the whole scene, or one agent's view when `agent` is set). */
  text: z.string(),
  state: WorldState,
  /** The text the architecture shows its roles, rendered from `state` (v2; absent when it uses `text` as is). */
  rendered: z.string().optional(),
  /** With `agent` set: 'agent' for that agent's partial view, 'shared' when the simulator has no per-agent views. */
  view: z.enum(['agent', 'shared']).optional(),
  /**
   * Perception mode: the estimate the agents saw (`state` stays the ground truth; `rendered` is from the estimate)
   * and per object what the perception model did (dropped as occluded or missed, or kept by the jitter filter).
   */
  estimate: WorldState.optional(),
  perception: z.array(z.object({ name: z.string(), dropped: z.enum(['occluded', 'missed']).optional(), kept: z.boolean().optional() })).optional(),
});

export const Trajectory = event({
  ...base,
  type: z.literal('trajectory'),
  turn: z.number().int(),
  rateHz: z.number(),
  samples: z.array(TrajectorySample),
});

/** Geometry recorded once per episode, so a viewer can replay the scene in 3D from the trace alone. */
export const SceneGeometry = event({
  ...base,
  type: z.literal('scene'),
  bodies: z.array(z.string()),
  geoms: z.array(
    z.object({
      body: z.string(),
      kind: z.enum(['box', 'sphere', 'capsule', 'cylinder', 'plane', 'ellipsoid', 'mesh']),
      size: z.array(z.number()),
      pos: z.tuple([z.number(), z.number(), z.number()]),
      quat: z.tuple([z.number(), z.number(), z.number(), z.number()]),
      rgba: z.tuple([z.number(), z.number(), z.number(), z.number()]),
    }),
  ),
});

export const Check = event({
  ...base,
  type: z.literal('check'),
  turn: z.number().int(),
  name: z.string(),
  ok: z.boolean(),
  message: z.string(),
  /** For `task_success`: 'mid' when an architecture asked during the episode, 'final' (or absent) at its end. */
  phase: z.enum(['mid', 'final']).optional(),
});

/**
 * A robot API call made by generated code, written before the simulator acts on it (the debugger pauses here).
 * Its result is in the enclosing code_execution's `apiCalls[index]`.
 */
export const ApiCallEvent = event({
  ...base,
  type: z.literal('api_call'),
  turn: z.number().int(),
  role: z.string(),
  /** 0-based position among the block's API calls. */
  index: z.number().int().nonnegative(),
  fn: z.string(),
  args: z.array(z.unknown()),
  /** 1-based line in the code block, when the sandbox can tell. */
  line: z.number().int().optional(),
  /** The whole block, on its first call (index 0), so a debugger paused in the block can show it. */
  code: z.string().optional(),
});

/** One agent's part of a structured action. */
export const AgentAction = z.object({
  agent: z.string(),
  /** The action's name in the architecture's action space (RoCo PICK, LLaMAR NavigateTo, actctx pick, ...). */
  name: z.string(),
  args: z.array(z.unknown()),
});
export type AgentAction = z.infer<typeof AgentAction>;

/** Structured actions for one agent or several in one simulator step, written before the simulator acts. */
export const ActionEvent = event({
  ...base,
  type: z.literal('action'),
  turn: z.number().int(),
  /** Pairs this event with its action_result. */
  actionId: z.string(),
  actions: z.array(AgentAction),
  /** Several agents acting in the same simulator steps (RoCo's joint motion, LLaMAR's parallel agents). */
  joint: z.boolean(),
  /**
   * 'loop': a move the architecture's loop makes on its own, which no model wrote (TrajGen's return to the start
   * pose between attempts); absent when the action comes from a model's answer.
   */
  origin: z.literal('loop').optional(),
});

export const AgentActionResult = z.object({
  agent: z.string(),
  name: z.string(),
  ok: z.boolean(),
  /** What the simulator printed about the action. */
  output: z.string().optional(),
  /** The failure text when `ok` is false (the seed's own wording where it has one). */
  error: z.string().optional(),
  value: ApiValue.optional(),
  metrics: ActionMetrics.optional(),
});
export type AgentActionResult = z.infer<typeof AgentActionResult>;

export const ActionResultEvent = event({
  ...base,
  type: z.literal('action_result'),
  turn: z.number().int(),
  actionId: z.string(),
  results: z.array(AgentActionResult),
  durationMs: z.number(),
  collisions: z.array(z.object({ a: z.string(), b: z.string(), tSecs: z.number(), depthM: z.number().optional(), kind: z.enum(['arm', 'held', 'object']).optional() })).optional(),
});

/** The simulator's state was saved (an architecture that re-simulates, or the debugger before a turn). */
export const SnapshotEvent = event({
  ...base,
  type: z.literal('snapshot'),
  turn: z.number().int(),
  id: z.string(),
  label: z.string().optional(),
  simTimeSecs: z.number().optional(),
});

/** The simulator went back to a saved state; later events continue from there. */
export const RestoreEvent = event({
  ...base,
  type: z.literal('restore'),
  turn: z.number().int(),
  id: z.string(),
  label: z.string().optional(),
  simTimeSecs: z.number().optional(),
});

/** Something went wrong outside the agent's control (bad prompt file, unreachable endpoint, simulator crash). */
export const EngineError = event({
  ...base,
  type: z.literal('error'),
  turn: z.number().int().optional(),
  kind: z.string(),
  message: z.string(),
  file: z.string().optional(),
  line: z.number().int().optional(),
});

/**
 * End reasons the engine itself knows. Architectures declare their own (RoCo's round cap, LLaMAR's step cap, ...)
 * with descriptions, so the schema accepts any non-empty id and views show an id they do not know as unknown.
 */
export const ENGINE_END_REASONS = [
  'task_completed',
  'task_failed',
  /** SA without feedback: the single plan-and-code pass ran to its end without calling task_completed(). */
  'single_pass_done',
  'max_consecutive_errors',
  'turn_cap',
  /** The engine's wall-clock cap per episode (limit maxWallSecs) was reached. */
  'wall_clock_cap',
  /** The engine's cap on simulated time in all (limit maxSimSecs) was reached. */
  'sim_time_cap',
  /** The model endpoint failed (after the client's retries): unreachable, refused the credentials, errors. */
  'model_error',
  'prompt_error',
  /** The simulator failed: could not start, died, disconnected, broke the protocol. */
  'simulator_error',
  /** The code sandbox could not start. */
  'sandbox_error',
  'cancelled',
  /** The run could not start: unknown architecture, task or variant, bad options. */
  'invalid_input',
  'engine_error',
] as const;
/**
 * End reasons that are failures of the machinery, not of the agent: the episode says nothing about the task.
 * `waypoint run` exits 3 on them (1 is a failed task); sweeps pause and run such an episode again.
 */
export const INFRASTRUCTURE_END_REASONS = ['model_error', 'simulator_error', 'sandbox_error'] as const satisfies readonly (typeof ENGINE_END_REASONS)[number][];

export function isInfrastructureEnd(reason: string): boolean {
  return (INFRASTRUCTURE_END_REASONS as readonly string[]).includes(reason);
}

export const EpisodeEndReason = z.string().min(1);
export type EpisodeEndReason = (typeof ENGINE_END_REASONS)[number] | (string & {});

export const EpisodeEnd = event({
  ...base,
  type: z.literal('episode_end'),
  /** Judged by the simulator's success check, never by the agent's claim. */
  success: z.boolean(),
  reason: EpisodeEndReason,
  agentClaimedDone: z.boolean(),
  message: z.string().optional(),
  metrics: z.looseObject({
    turns: z.number().int(),
    modelCalls: z.number().int(),
    cachedCalls: z.number().int(),
    promptTokens: z.number().int(),
    completionTokens: z.number().int(),
    codeBlocks: z.number().int(),
    codeErrors: z.number().int(),
    formatErrors: z.number().int(),
    durationMs: z.number(),
    /** The simulator's clock at the end: the final state's timeline only, when the run restored snapshots. */
    simTimeSecs: z.number(),
    /** Simulated seconds in all, the timelines left by restores included (absent in traces before it). */
    simTotalSecs: z.number().optional(),
    /** Counters on the other axes (v2), when the architecture used them. */
    rounds: z.number().int().optional(),
    steps: z.number().int().optional(),
  }),
  /** The architecture's own metrics by name (RoCo re-plans, LLaMAR transport rate, actctx Q, ...). */
  archMetrics: z.record(z.string(), z.number()).optional(),
  finalState: WorldState.optional(),
});

export const TraceEvent = z.discriminatedUnion('type', [
  EpisodeStart,
  SceneGeometry,
  RoleCall,
  ModelResponse,
  ParsedOutput,
  ChatAppend,
  CodeExecution,
  Observation,
  Trajectory,
  Check,
  ApiCallEvent,
  ActionEvent,
  ActionResultEvent,
  SnapshotEvent,
  RestoreEvent,
  EngineError,
  EpisodeEnd,
]);
export type TraceEvent = z.infer<typeof TraceEvent>;
export type TraceEventType = TraceEvent['type'];
/** Maps an event type to its payload, e.g. EventOf<'role_call'>. */
export type EventOf<T extends TraceEventType> = Extract<TraceEvent, { type: T }>;
/** An event before the writer stamps its sequence number and time. */
export type PendingEvent = TraceEvent extends infer E ? (E extends TraceEvent ? Omit<E, 'seq' | 'tMs'> : never) : never;

export const TRACE_EVENT_TYPES: readonly TraceEventType[] = [
  'episode_start',
  'scene',
  'role_call',
  'model_response',
  'parsed_output',
  'chat_message',
  'code_execution',
  'observation',
  'trajectory',
  'check',
  'api_call',
  'action',
  'action_result',
  'snapshot',
  'restore',
  'error',
  'episode_end',
];

/** A numeric limit of the run by its seed name: the declared limits (v2), else the v1 options of the same name. */
export function runLimit(start: EventOf<'episode_start'>, name: string): number | undefined {
  const v = start.limits?.[name] ?? (start.options as Record<string, unknown>)[name];
  return typeof v === 'number' ? v : undefined;
}

/** MALMM's consecutive-error limit of a run, where it has one. */
export function consecutiveErrorLimit(start: EventOf<'episode_start'>): number | undefined {
  return runLimit(start, 'maxConsecutiveErrors');
}
