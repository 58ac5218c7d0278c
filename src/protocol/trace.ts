// The trace is Waypoint's single source of truth: an append-only JSONL stream of these events.
// Every view (CLI transcript, run viewer, debugger variables, reports) is a projection of it.
// Depends on zod only, so webviews, the language server and the debug adapter can import it.
import { z } from 'zod';

/** Bump on any incompatible change; the reader keeps accepting the previous version (docs/trace.md). */
export const TRACE_SCHEMA_VERSION = 1;

/** Architectures known to the trace. Later issues add roco, actctx, llamar, trajgen. */
export const ArchitectureId = z.string().min(1);

export const ChatMessage = z.object({
  role: z.enum(['system', 'user', 'assistant']),
  content: z.string(),
  /** Which agent wrote the message into the shared chat, when the transcript is a multi-agent group chat. */
  name: z.string().optional(),
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
});
export type ObjectState = z.infer<typeof ObjectState>;

export const WorldState = z.object({
  objects: z.array(ObjectState),
  ee: EePose,
  gripperOpen: z.boolean(),
  grasped: z.string().nullable(),
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
});
export type TrajectorySample = z.infer<typeof TrajectorySample>;

/**
 * Motion metrics of one robot action (Action Contextualization's motion scores and more). M_I: minimum over the
 * motion of the inverse condition number of the arm Jacobian; M_E: minimum link-to-environment distance over the
 * normalising distance (0.3 m), at most 1; M_T = M_I + M_E (-2 when the action did not move).
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
});
export type ActionMetrics = z.infer<typeof ActionMetrics>;

/** A value an API call returned to the code (checks return booleans, detect_object a description). */
export const ApiValue = z.union([z.boolean(), z.number(), z.string(), z.null()]);

export const ApiCallRecord = z.object({
  fn: z.string(),
  args: z.array(z.unknown()),
  ok: z.boolean(),
  error: z.string().optional(),
  value: ApiValue.optional(),
  metrics: ActionMetrics.optional(),
});
export type ApiCallRecord = z.infer<typeof ApiCallRecord>;

const base = { seq: z.number().int().nonnegative(), tMs: z.number().nonnegative() };

export const EpisodeStart = z.object({
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
  options: z.object({
    maxTurns: z.number().int(),
    maxConsecutiveErrors: z.number().int(),
    persistNamespace: z.boolean(),
    codeTimeoutSecs: z.number(),
  }),
  startedAt: z.string(),
});

export const RoleCall = z.object({
  ...base,
  type: z.literal('role_call'),
  turn: z.number().int(),
  callId: z.string(),
  role: z.string(),
  messages: z.array(ChatMessage),
  model: z.string(),
  params: z.object({ temperature: z.number().optional(), maxTokens: z.number().int().optional(), seed: z.number().int().optional() }),
  promptPath: z.string(),
  /** Values of the template variables the prompt was rendered with (for hovers and previews). */
  variables: z.record(z.string(), z.unknown()),
});

export const ModelResponse = z.object({
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
  cached: z.boolean(),
  attempts: z.number().int(),
});

export const ParsedOutput = z.object({
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
export const ChatAppend = z.object({
  ...base,
  type: z.literal('chat_message'),
  turn: z.number().int(),
  speaker: z.string(),
  content: z.string(),
});

export const CodeExecution = z.object({
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

export const Observation = z.object({
  ...base,
  type: z.literal('observation'),
  turn: z.number().int(),
  text: z.string(),
  state: WorldState,
});

export const Trajectory = z.object({
  ...base,
  type: z.literal('trajectory'),
  turn: z.number().int(),
  rateHz: z.number(),
  samples: z.array(TrajectorySample),
});

/** Geometry recorded once per episode, so a viewer can replay the scene in 3D from the trace alone. */
export const SceneGeometry = z.object({
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

export const Check = z.object({
  ...base,
  type: z.literal('check'),
  turn: z.number().int(),
  name: z.string(),
  ok: z.boolean(),
  message: z.string(),
});

/** Something went wrong outside the agent's control (bad prompt file, unreachable endpoint, simulator crash). */
export const EngineError = z.object({
  ...base,
  type: z.literal('error'),
  turn: z.number().int().optional(),
  kind: z.string(),
  message: z.string(),
  file: z.string().optional(),
  line: z.number().int().optional(),
});

export const EpisodeEndReason = z.enum([
  'task_completed',
  'task_failed',
  /** SA without feedback: the single plan-and-code pass ran to its end without calling task_completed(). */
  'single_pass_done',
  'max_consecutive_errors',
  'turn_cap',
  'model_error',
  'prompt_error',
  'simulator_error',
  'cancelled',
  /** The run could not start: unknown architecture, task or variant, bad options. */
  'invalid_input',
  'engine_error',
]);
export type EpisodeEndReason = z.infer<typeof EpisodeEndReason>;

export const EpisodeEnd = z.object({
  ...base,
  type: z.literal('episode_end'),
  /** Judged by the simulator's success check, never by the agent's claim. */
  success: z.boolean(),
  reason: EpisodeEndReason,
  agentClaimedDone: z.boolean(),
  message: z.string().optional(),
  metrics: z.object({
    turns: z.number().int(),
    modelCalls: z.number().int(),
    cachedCalls: z.number().int(),
    promptTokens: z.number().int(),
    completionTokens: z.number().int(),
    codeBlocks: z.number().int(),
    codeErrors: z.number().int(),
    formatErrors: z.number().int(),
    durationMs: z.number(),
    simTimeSecs: z.number(),
  }),
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
  'error',
  'episode_end',
];
