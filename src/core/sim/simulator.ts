// The simulator seen from the engine. The embedded MuJoCo tabletop implements it in-process; a remote
// simulator (JSON-RPC, docs/simulator-protocol.md) implements it over stdio or WebSocket.
import type { ActionMetrics, AgentAction, AgentActionResult, TrajectorySample, WorldState } from '../../protocol/trace.js';
import type { ObservationImage } from '../../protocol/simulator.js';
import type { EpisodeMetrics } from '../metrics/motionMetrics.js';
import type { DetectionRecord } from '../perception/detector.js';

/** One robot API function as the agent sees it (injected into sandboxed Python, documented in prompts). */
export interface ApiFunctionSpec {
  name: string;
  params: { name: string; type: 'float' | 'int' | 'str' | 'bool' | 'vec3' | 'list[float]' | 'poses' | 'any'; optional?: boolean }[];
  /** Python-style signature shown in prompts, e.g. "execute_trajectory(position: list[float], orientation: float) -> None". */
  signature: string;
  doc: string;
}

export interface TaskInfo {
  id: string;
  description: string;
  /** Natural-language instruction given to the agents. */
  instruction: string;
  suite: string;
  arms: number;
  imitates: string;
}

export interface Observation {
  /**
   * The simulator's own text of the scene (the embedded tabletop writes MALMM's state format for single-arm tasks).
   * Architectures render what their roles see from `state` (ArchitectureDefinition.renderObservation).
   */
  text: string;
  state: WorldState;
  /** Set when this is one agent's partial view. */
  agent?: string;
  /** Camera frames the simulator sent (protocol `images`); sent to a model only when the run's `vision` is on. */
  images?: ObservationImage[];
  /**
   * Perception mode (src/core/perception): what the agents see instead of `state`, which stays the ground truth,
   * and what the perception model decided per object (dropped, kept by the jitter filter). Set by the engine.
   */
  estimate?: WorldState;
  perception?: { name: string; dropped?: 'occluded' | 'missed'; kept?: boolean }[];
}

/** Pose history of one object: times (simulated seconds), positions (m) and orientations (w, x, y, z). */
export interface ObjectTrack {
  name: string;
  tSecs: number[];
  pos: [number, number, number][];
  quat: [number, number, number, number][];
}

/** A named check the simulator ran on a joint action before acting (RoCo's five plan checks), in order. */
export interface ActionCheck {
  name: string;
  ok: boolean;
  /** Feedback of a failed check. */
  message?: string;
  /** Not run because an earlier check failed. */
  skipped?: boolean;
}

/**
 * A contact the robot caused: `a` and `b` name the pair (an arm link, `<object> (held)`, an object, `table`),
 * `depthM` the deepest penetration, `kind` whether the arm, a held object or a pushed object made it.
 */
export interface CollisionReport {
  a: string;
  b: string;
  tSecs: number;
  depthM?: number;
  kind?: 'arm' | 'held' | 'object';
}

export interface JointActResult {
  results: AgentActionResult[];
  collisions?: CollisionReport[];
  /** Checks run before acting; when one failed nothing moved and every result carries its feedback. */
  checks?: ActionCheck[];
  /** Facts about how the step ran, for the trace (e.g. how a joint motion was planned). */
  info?: Record<string, unknown>;
}

export type ApiCallResult =
  /** `output` is printed into the code's stdout (e.g. detect_object's report, or a collision warning). */
  | {
      ok: true;
      output?: string;
      collisions?: CollisionReport[];
      /** What the call returns to the code (a check's boolean, a measured number); absent means None. */
      value?: boolean | number | string | null;
      /** Motion metrics of the action, when it moved a robot. */
      metrics?: ActionMetrics;
      /** detect_object: each box it printed (the estimate) beside the ground truth, and any part segmentation failure. */
      detections?: DetectionRecord[];
    }
  | { ok: false; error: string };

export interface TaskCheckResult {
  success: boolean;
  /** Why, in one line: what was checked and the numbers. */
  detail: string;
}

export interface SimSnapshot {
  /** Opaque to the engine; the simulator that made it can restore it. */
  readonly kind: string;
  readonly data: unknown;
}

export interface SceneGeometryInfo {
  bodies: string[];
  geoms: {
    body: string;
    kind: 'box' | 'sphere' | 'capsule' | 'cylinder' | 'plane' | 'ellipsoid' | 'mesh';
    size: number[];
    pos: [number, number, number];
    quat: [number, number, number, number];
    rgba: [number, number, number, number];
  }[];
}

/** The frame the agents are told about (prompts render it). World frame, metres. */
export interface WorkspaceInfo {
  /** z of the table's top surface. */
  tableTopZ: number;
  xRange: [number, number];
  yRange: [number, number];
  /** Plain-language axis description, e.g. "x increases to the right, y away from the robot base, z up". */
  axes: string;
}

export interface ResetOutcome {
  task: TaskInfo;
  observation: Observation;
  api: ApiFunctionSpec[];
  workspace: WorkspaceInfo;
  /** Agents / robots in order (RoCo's Alice, Bob, ...); absent means one unnamed robot. */
  agents?: string[];
}

export interface ResetOptions {
  /** Robot API family (a key of the API catalog). */
  api?: string;
  /** How many agents (LLaMAR's 1-5); absent: the task's own number. */
  agents?: number;
}

/** A reset or action parameter the simulator cannot accept (e.g. a team size it cannot give). The engine ends the
 * episode as invalid input (the CLI exits 2) and a protocol server answers INVALID_PARAMS naming `param`. */
export class SimParamError extends Error {
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
    this.name = 'SimParamError';
  }
}

export interface Simulator {
  readonly name: string;
  readonly version?: string;
  /** Whether `observe(agent)` gives that agent's partial view (absent: the whole scene for everyone). */
  readonly agentViews?: boolean;
  /** Tasks this simulator can reset to. */
  tasks(): TaskInfo[];
  /**
   * The robot APIs (architectures' API families) a task works with, when the simulator knows them before a reset
   * (the embedded tabletop does); undefined: only reset can say. Lets a run refuse `--arch roco --task
   * stack_blocks` before it starts.
   */
  taskApis?(taskId: string): readonly string[] | undefined;
  /**
   * Build the task's scene from the seed and return the first observation. Unknown task -> rejects with a clear
   * message. `agents` asks for a team size (simulators whose tasks fix it reject another number).
   */
  reset(taskId: string, seed: number, options?: ResetOptions): Promise<ResetOutcome>;
  /** The whole scene, or the partial view of one agent (simulators without per-agent views reject an agent). */
  observe(agent?: string): Promise<Observation>;
  /**
   * Structured actions for one or several agents, run in the same simulator steps where the simulator can
   * (RoCo's joint motion, LLaMAR's parallel agents). Absent: the engine runs a single action through `call`.
   */
  act?(actions: AgentAction[]): Promise<JointActResult>;
  /**
   * Run one robot API call to completion (the motion is simulated before it resolves).
   * Argument validation errors and physical failures (unreachable target, collision) come back as {ok:false}.
   */
  call(fn: string, args: unknown[]): Promise<ApiCallResult>;
  /** Ground-truth success check of the current task. */
  check(): Promise<TaskCheckResult>;
  /** Samples recorded since the last drain (fixed rate), cleared by the call. */
  drainTrajectory(): Promise<{ rateHz: number; samples: TrajectorySample[] }>;
  geometry(): Promise<SceneGeometryInfo>;
  /** Simulated seconds since reset. */
  simTimeSecs(): number;
  /** Per-action motion metrics so far and the plan quality Q (simulators that measure them). */
  motionMetrics?(): EpisodeMetrics;
  snapshot(): Promise<SimSnapshot>;
  restore(snapshot: SimSnapshot): Promise<void>;
  close(): Promise<void>;
}
