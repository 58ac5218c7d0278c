// Messages between the extension host and the child process that runs live episodes (live/workerMain.ts),
// over Node's IPC channel. Both sides parse what they receive: the child is ours, but a process boundary is
// where a version mismatch or a bug shows up, and it should show up as one clear line.
import * as z from 'zod';
import { REFERENCE_PROFILES } from '../../core/llm/reference/policy.js';

const ModelSpecWire = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('reference'),
    baseUrl: z.string().optional(),
    profile: z.enum(REFERENCE_PROFILES).optional(),
    /** A local embedding folder (`local:<dir>`) in place of the reference server's fixture. */
    embeddingModel: z.string().min(1).optional(),
  }),
  z.object({
    kind: z.literal('openai'),
    model: z.string().min(1),
    baseUrl: z.string().regex(/^https?:\/\//),
    /** From SecretStorage or the loopback proxy's token; travels only over the IPC channel, never argv or env. */
    apiKey: z.string().optional(),
    temperature: z.number().optional(),
    maxTokens: z.number().int().optional(),
    maxTokensField: z.enum(['max_tokens', 'max_completion_tokens']).optional(),
    /** LLaMAR's action matcher: an embedding model at the same endpoint, or a local folder (`local:<dir>`). */
    embeddingModel: z.string().min(1).optional(),
    seed: z.number().int().optional(),
    provider: z.string().optional(),
    label: z.string().optional(),
    clientId: z.string().optional(),
  }),
]);

export const LaunchWire = z.object({
  workspace: z.string().min(1),
  arch: z.string().min(1),
  task: z.string().min(1),
  seed: z.number().int(),
  variant: z.string().optional(),
  /** Switches laid over the variant's (a sweep cell run from the Testing view). */
  ablations: z.record(z.string(), z.boolean()).optional(),
  builtInPromptRoot: z.string().min(1),
  model: ModelSpecWire,
  options: z.object({ codeTimeoutSecs: z.number().positive(), codeRunner: z.enum(['pyodide', 'host-python']), vision: z.boolean() }).partial(),
  /** The architecture's limits by name; the child checks them against its declarations. */
  limits: z.record(z.string(), z.union([z.number(), z.boolean()])).optional(),
  cache: z.boolean(),
  /** Agents whose turns a person types (RoCo's human in a robot's seat); the host answers `human_ask`. */
  human: z.array(z.string().min(1)).optional(),
  /**
   * Folders of architecture folders besides the workspace's .waypoint/architectures/ (the host's setting and
   * environment): the process loads them again before the run, so an edit since the last run is picked up.
   */
  architectureRoots: z.array(z.string().min(1)).optional(),
});
export type LaunchWire = z.infer<typeof LaunchWire>;

export const SimulatorWire = z.discriminatedUnion('kind', [z.object({ kind: z.literal('embedded'), spec: z.string().optional() }), z.object({ kind: z.literal('protocol'), endpoint: z.string().min(1) })]);
export type SimulatorWire = z.infer<typeof SimulatorWire>;

export const HostToWorker = z.discriminatedUnion('type', [
  /** Run one episode. The process serves one at a time and stays up afterwards (warm) until the host disconnects. */
  z.object({ type: z.literal('start'), launch: LaunchWire, simulator: SimulatorWire }),
  z.object({ type: z.literal('cancel') }),
  /** The person's turn for a `human_ask` (null: they gave up, the episode is cancelled). */
  z.object({ type: z.literal('human_answer'), id: z.number().int(), text: z.string().nullable() }),
  /** Load the sandbox and the simulator now, ahead of the first `start`. */
  z.object({
    type: z.literal('warm'),
    simulator: SimulatorWire,
    /** The task the next run will likely use: its scene is compiled now. */
    task: z.string().min(1).optional(),
    /**
     * Also run a short throwaway episode of this architecture (reference model, temporary folder, cancelled after a
     * few turns), so the first real run does not pay the engine's first-use costs (JIT, prompt compilation).
     */
    primer: z.object({ arch: z.string().min(1), builtInPromptRoot: z.string().min(1) }).optional(),
  }),
]);
export type HostToWorker = z.infer<typeof HostToWorker>;

export const WorkerToHost = z.discriminatedUnion('type', [
  z.object({ type: z.literal('started'), runId: z.string(), tracePath: z.string() }),
  /** A trace event as written; the host validates it with the trace schema. */
  z.object({ type: z.literal('event'), event: z.unknown() }),
  z.object({ type: z.literal('done'), runId: z.string(), tracePath: z.string(), success: z.boolean(), reason: z.string(), message: z.string().optional() }),
  /** The run could not go on and left no episode_end (e.g. the simulator did not start). */
  z.object({ type: z.literal('failed'), message: z.string() }),
  z.object({ type: z.literal('log'), message: z.string() }),
  /** An agent whose seat a person holds speaks now: what they see, answered by `human_answer` with the same id. */
  z.object({ type: z.literal('human_ask'), id: z.number().int(), agent: z.string(), role: z.string(), turn: z.number().int(), round: z.number().int().optional(), view: z.string() }),
  /** After `warm`: the sandbox and simulator are loaded (or could not be: `error`). */
  z.object({ type: z.literal('warmed'), ms: z.number(), error: z.string().optional() }),
]);
export type WorkerToHost = z.infer<typeof WorkerToHost>;

export { WORKER_FLAG } from './flag.js';
