// The open simulator protocol: JSON-RPC 2.0 between Waypoint (client) and a simulator (server), over stdio
// (one JSON message per line), WebSocket (one message per text frame) or in-process. This file is the only
// hand-written definition; docs/simulator-protocol.md explains it, scripts/gen-protocol.ts mirrors it into
// bridges/python/waypoint_sim/_protocol.py and docs/simulator-protocol.schema.json.
// Depends on zod and ./trace.js only.
import * as z from 'zod';
import { ActionMetrics, AgentAction, AgentActionResult, ApiCallRecord, ApiValue, DetectionRecord, TrajectorySample, WorldState } from './trace.js';

/** Bump on an incompatible change. A server answers `initialize` with the version it speaks. */
export const SIM_PROTOCOL_VERSION = 1;

// ---------------------------------------------------------------------------------------------------------------
// JSON-RPC 2.0 envelopes
// ---------------------------------------------------------------------------------------------------------------

export const RpcId = z.union([z.number().int(), z.string()]);
export type RpcId = z.infer<typeof RpcId>;

export const RpcRequest = z.object({
  jsonrpc: z.literal('2.0'),
  id: RpcId,
  method: z.string(),
  params: z.unknown().optional(),
});
export type RpcRequest = z.infer<typeof RpcRequest>;

export const RpcNotification = z.object({
  jsonrpc: z.literal('2.0'),
  method: z.string(),
  params: z.unknown().optional(),
});
export type RpcNotification = z.infer<typeof RpcNotification>;

export const RpcErrorObject = z.object({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});
export type RpcErrorObject = z.infer<typeof RpcErrorObject>;

export const RpcSuccess = z.object({ jsonrpc: z.literal('2.0'), id: RpcId, result: z.unknown() });
/** `id` is null when the server could not read the request's id (parse error, invalid request). */
export const RpcFailure = z.object({ jsonrpc: z.literal('2.0'), id: RpcId.nullable(), error: RpcErrorObject });
export const RpcResponse = z.union([RpcSuccess, RpcFailure]);
export type RpcResponse = z.infer<typeof RpcResponse>;

/** Error codes: the standard JSON-RPC ones and Waypoint's application codes (range -32000..-32099). */
export const SimErrorCode = {
  /** The line or frame is not JSON. */
  PARSE_ERROR: -32700,
  /** JSON, but not a JSON-RPC 2.0 request (batches are not part of this protocol and get this code too). */
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  /** `data.param` names the offending parameter (dotted path, e.g. "seed" or "args"). */
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  /** reset named a task the simulator does not have; `data.task` and `data.known` list it and the known ids. */
  UNKNOWN_TASK: -32001,
  /** snapshot/restore on a simulator that cannot save state. */
  SNAPSHOT_UNSUPPORTED: -32002,
  /** The simulator raised an unexpected error while handling the call; its state is undefined until reset. */
  SIMULATOR_CRASHED: -32003,
  /** observe/act/check/... before the first reset. */
  NO_EPISODE: -32004,
  /** An optional capability the server did not announce (execute, or a code language it does not run). */
  UNSUPPORTED: -32005,
} as const;
export type SimErrorCode = (typeof SimErrorCode)[keyof typeof SimErrorCode];

export const SimErrorData = z.object({
  param: z.string().optional(),
  task: z.string().optional(),
  known: z.array(z.string()).optional(),
  detail: z.string().optional(),
});
export type SimErrorData = z.infer<typeof SimErrorData>;

// ---------------------------------------------------------------------------------------------------------------
// Shared payloads (mirror src/core/sim/simulator.ts; a type test keeps them equal)
// ---------------------------------------------------------------------------------------------------------------

const Vec3 = z.tuple([z.number(), z.number(), z.number()]);

export const ApiParamType = z.enum(['float', 'int', 'str', 'bool', 'vec3', 'list[float]', 'poses', 'any']);

export const ApiFunctionSpec = z.object({
  name: z.string().min(1),
  params: z.array(z.object({ name: z.string().min(1), type: ApiParamType, optional: z.boolean().optional() })),
  /** Python-style signature shown in prompts. */
  signature: z.string(),
  doc: z.string(),
});
export type ApiFunctionSpec = z.infer<typeof ApiFunctionSpec>;

export const TaskInfo = z.object({
  id: z.string().min(1),
  description: z.string(),
  instruction: z.string(),
  suite: z.string(),
  arms: z.number().int().positive(),
  imitates: z.string(),
});
export type TaskInfo = z.infer<typeof TaskInfo>;

/** The first bytes of each image format a simulator may send, to catch a wrong `mediaType` or a truncated image. */
const IMAGE_MAGIC: Record<'image/png' | 'image/jpeg', number[]> = { 'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'image/jpeg': [0xff, 0xd8, 0xff] };
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * A camera frame of the observation (a vision model's input): PNG or JPEG bytes in standard base64. `agent` names
 * whose egocentric camera it is (absent: a scene camera). Checked here so a bad frame fails the call naming the
 * field, never the model request.
 */
export const ObservationImage = z
  .object({
    camera: z.string().min(1),
    agent: z.string().min(1).optional(),
    mediaType: z.enum(['image/png', 'image/jpeg']),
    dataBase64: z.string().min(1).max(16_000_000, 'images are at most 16 MB of base64').regex(BASE64, 'is not standard base64 (A-Z a-z 0-9 + / with = padding)'),
    width: z.number().int().positive().optional(),
    height: z.number().int().positive().optional(),
  })
  .superRefine((img, ctx) => {
    if (!BASE64.test(img.dataBase64)) return;
    const head = atob(img.dataBase64.slice(0, 16));
    const magic = IMAGE_MAGIC[img.mediaType];
    if (!magic.every((b, i) => head.charCodeAt(i) === b)) ctx.addIssue({ code: 'custom', path: ['dataBase64'], message: `does not hold ${img.mediaType} data (its first bytes do not match)` });
  });
export type ObservationImage = z.infer<typeof ObservationImage>;

/** `images`: camera frames for vision models (optional; text-only servers leave it out). */
export const Observation = z.object({ text: z.string(), state: WorldState, images: z.array(ObservationImage).optional() });
export type Observation = z.infer<typeof Observation>;

export const WorkspaceInfo = z.object({
  tableTopZ: z.number(),
  xRange: z.tuple([z.number(), z.number()]),
  yRange: z.tuple([z.number(), z.number()]),
  axes: z.string(),
});
export type WorkspaceInfo = z.infer<typeof WorkspaceInfo>;

export const Collision = z.object({ a: z.string(), b: z.string(), tSecs: z.number(), depthM: z.number().optional(), kind: z.enum(['arm', 'held', 'object']).optional() });

export const ApiCallResult = z.union([
  // `detections`: detect_object's printed boxes beside the truth (a simulator with a detector model may send them).
  z.object({ ok: z.literal(true), output: z.string().optional(), collisions: z.array(Collision).optional(), value: ApiValue.optional(), metrics: ActionMetrics.optional(), detections: z.array(DetectionRecord).optional() }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
export type ApiCallResult = z.infer<typeof ApiCallResult>;

export const TaskCheckResult = z.object({ success: z.boolean(), detail: z.string() });
export type TaskCheckResult = z.infer<typeof TaskCheckResult>;

export const SceneGeometryInfo = z.object({
  bodies: z.array(z.string()),
  geoms: z.array(
    z.object({
      body: z.string(),
      kind: z.enum(['box', 'sphere', 'capsule', 'cylinder', 'plane', 'ellipsoid', 'mesh']),
      size: z.array(z.number()),
      pos: Vec3,
      quat: z.tuple([z.number(), z.number(), z.number(), z.number()]),
      rgba: z.tuple([z.number(), z.number(), z.number(), z.number()]),
    }),
  ),
});
export type SceneGeometryInfo = z.infer<typeof SceneGeometryInfo>;

export const RobotInfo = z.object({
  name: z.string().min(1),
  /** e.g. "point-mass gripper", "Franka Panda". */
  description: z.string(),
});
export type RobotInfo = z.infer<typeof RobotInfo>;

/** A named robot API (an architecture's function set, e.g. "malmm"); reset's `api` picks one. */
export const ApiSet = z.object({ id: z.string().min(1), functions: z.array(ApiFunctionSpec) });
export type ApiSet = z.infer<typeof ApiSet>;

/** Simulated seconds since reset, carried by every result that can advance time (Simulator.simTimeSecs is sync). */
const simTime = { simTimeSecs: z.number().nonnegative() };

// ---------------------------------------------------------------------------------------------------------------
// Methods: params and result of each
// ---------------------------------------------------------------------------------------------------------------

export const InitializeParams = z.object({
  protocolVersion: z.number().int(),
  client: z.object({ name: z.string(), version: z.string().optional() }),
});
export const Capabilities = z.object({
  protocolVersion: z.number().int(),
  simulator: z.object({ name: z.string().min(1), version: z.string().optional() }),
  robots: z.array(RobotInfo),
  tasks: z.array(TaskInfo),
  /** API sets known up front; may be empty when only reset knows them. reset's `api` is authoritative. */
  apis: z.array(ApiSet),
  /** Languages `execute` runs; empty when the server does not run code itself. */
  codeLanguages: z.array(z.string()),
  /** Observation parts the server fills: "text" and "state" are required; others are extensions. */
  observationKinds: z.array(z.string()),
  /** "none": snapshot answers SNAPSHOT_UNSUPPORTED; "id": server-held state; "blob": the state itself travels. */
  snapshots: z.enum(['none', 'id', 'blob']),
  /** Whether the server sends `trajectory` notifications while a call runs (drain_trajectory stays authoritative). */
  streamsTrajectory: z.boolean(),
  /** Whether `act_jointly` runs several agents' actions in the same simulator steps (absent: false). */
  jointActions: z.boolean().optional(),
  /** Whether `observe` accepts an `agent` and answers with that agent's partial view (absent: false). */
  agentViews: z.boolean().optional(),
});
export type Capabilities = z.infer<typeof Capabilities>;

/** `agents`: the team size, for simulators whose tasks take one (the household's 1-5); others reject it. */
export const ResetParams = z.object({ task: z.string().min(1), seed: z.number().int(), api: z.string().optional(), agents: z.number().int().positive().optional() });
export const ResetResult = z.object({
  task: TaskInfo,
  observation: Observation,
  api: z.array(ApiFunctionSpec),
  workspace: WorkspaceInfo,
  /** The task's agents / robots in order (absent: one robot). `act_jointly` and `observe` name them. */
  agents: z.array(z.string().min(1)).optional(),
  ...simTime,
});
export type ResetResult = z.infer<typeof ResetResult>;

export const EmptyParams = z.object({}).optional();
/** `agent`: one agent's partial view (servers that announce `agentViews`); absent: the whole scene. */
export const ObserveParams = z.object({ agent: z.string().min(1).optional() }).optional();
export const ObserveResult = Observation.extend(simTime);

export const ExecuteParams = z.object({ code: z.string(), language: z.string().min(1), timeoutSecs: z.number().positive().optional() });
export const ExecuteResult = z.object({
  ok: z.boolean(),
  exitCode: z.number().int(),
  stdout: z.string(),
  error: z.object({ type: z.string(), message: z.string(), line: z.number().int().optional() }).optional(),
  apiCalls: z.array(ApiCallRecord),
  ...simTime,
});
export type ExecuteResult = z.infer<typeof ExecuteResult>;

export const ActParams = z.object({ fn: z.string().min(1), args: z.array(z.unknown()) });
export const ActResult = z.union([
  z.object({ ok: z.literal(true), output: z.string().optional(), collisions: z.array(Collision).optional(), value: ApiValue.optional(), metrics: ActionMetrics.optional(), ...simTime }),
  z.object({ ok: z.literal(false), error: z.string(), ...simTime }),
]);
export type ActResult = z.infer<typeof ActResult>;

/** Structured actions of several agents, run in the same simulator steps; one result per action, in order. */
export const ActJointlyParams = z.object({ actions: z.array(AgentAction).min(1) });
/** A check the simulator ran before acting (RoCo's plan checks); `skipped`: an earlier one failed. */
export const ActionCheck = z.object({ name: z.string().min(1), ok: z.boolean(), message: z.string().optional(), skipped: z.boolean().optional() });
export const ActJointlyResult = z.object({
  results: z.array(AgentActionResult),
  collisions: z.array(Collision).optional(),
  /** Checks run before acting, in order; when one failed nothing moved. */
  checks: z.array(ActionCheck).optional(),
  /** Facts about how the step ran, copied into the trace (e.g. how a joint motion was planned). */
  info: z.record(z.string(), z.unknown()).optional(),
  ...simTime,
});
export type ActJointlyResult = z.infer<typeof ActJointlyResult>;

export const DrainTrajectoryResult = z.object({ rateHz: z.number().positive(), samples: z.array(TrajectorySample) });

/** Exactly one of `id` (server-held) or `blob` (the state itself, JSON). */
export const SnapshotRef = z
  .object({ kind: z.string().min(1), id: z.string().min(1).optional(), blob: z.unknown().optional() })
  .refine((s) => (s.id === undefined) !== (s.blob === undefined), { message: 'exactly one of id or blob', path: ['id'] });
export type SnapshotRef = z.infer<typeof SnapshotRef>;

export const RestoreResult = z.object({ ...simTime });
export const CloseResult = z.object({});

/** Every method: its params and result schema. Servers validate params, clients validate results. */
export const SIM_METHODS = {
  initialize: { params: InitializeParams, result: Capabilities },
  reset: { params: ResetParams, result: ResetResult },
  observe: { params: ObserveParams, result: ObserveResult },
  execute: { params: ExecuteParams, result: ExecuteResult },
  act: { params: ActParams, result: ActResult },
  act_jointly: { params: ActJointlyParams, result: ActJointlyResult },
  check: { params: EmptyParams, result: TaskCheckResult },
  drain_trajectory: { params: EmptyParams, result: DrainTrajectoryResult },
  geometry: { params: EmptyParams, result: SceneGeometryInfo },
  snapshot: { params: EmptyParams, result: SnapshotRef },
  restore: { params: SnapshotRef, result: RestoreResult },
  close: { params: EmptyParams, result: CloseResult },
} as const;
export type SimMethod = keyof typeof SIM_METHODS;
export const SIM_METHOD_NAMES = Object.keys(SIM_METHODS) as SimMethod[];
export type SimParams<M extends SimMethod> = z.input<(typeof SIM_METHODS)[M]['params']>;
export type SimResult<M extends SimMethod> = z.infer<(typeof SIM_METHODS)[M]['result']>;

/** Methods that need a reset first (the server answers NO_EPISODE otherwise). */
export const METHODS_NEEDING_EPISODE: readonly SimMethod[] = ['observe', 'execute', 'act', 'act_jointly', 'check', 'drain_trajectory', 'geometry', 'snapshot', 'restore'];

// ---------------------------------------------------------------------------------------------------------------
// Notifications (server -> client, no id, no answer)
// ---------------------------------------------------------------------------------------------------------------

/** Live samples while a call runs, for display; drain_trajectory still returns them. */
export const TrajectoryNotification = z.object({ rateHz: z.number().positive(), samples: z.array(TrajectorySample) });
export const LogLevel = z.enum(['debug', 'info', 'warn', 'error']);
export const LogNotification = z.object({ level: LogLevel, message: z.string() });
export type LogNotification = z.infer<typeof LogNotification>;

export const SIM_NOTIFICATIONS = {
  trajectory: TrajectoryNotification,
  log: LogNotification,
} as const;
export type SimNotification = keyof typeof SIM_NOTIFICATIONS;
export const SIM_NOTIFICATION_NAMES = Object.keys(SIM_NOTIFICATIONS) as SimNotification[];

/** Turns the first zod issue into the dotted parameter path and a one-line reason. */
export function describeParamIssue(error: z.ZodError): { param: string; message: string } {
  const issue = error.issues[0];
  const param = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : '(params)';
  return { param, message: issue ? issue.message : 'invalid' };
}
