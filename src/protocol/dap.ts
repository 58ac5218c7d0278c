// Launch attributes of the `waypoint` debug type: one schema for the debug adapter (which validates what it is
// given), package.json's contributes.debuggers configurationAttributes (a test keeps them equal) and the
// extension's configuration provider.
import * as z from 'zod';

export const DEBUG_TYPE = 'waypoint';

export const LaunchArguments = z
  .object({
    /** Architecture id (malmm, ...). Default: malmm. */
    architecture: z.string().min(1).optional(),
    /** Task id of the simulator (`waypoint tasks`). Default: stack_blocks. */
    task: z.string().min(1).optional(),
    /** Task seed (object layout). Default 0. */
    seed: z.number().int().nonnegative().optional(),
    /** Prompt variant (.waypoint/variants.yaml or built-in). Default: the variants file's active one. */
    variant: z.string().min(1).optional(),
    /** reference | reference-flawed (scripted, not LLMs) | openai:<model-name>. Default: reference. */
    model: z.string().min(1).optional(),
    /** OpenAI-compatible endpoint for openai:<name> (the reference model needs none). */
    baseUrl: z.string().regex(/^https?:\/\//, 'baseUrl must start with http:// or https://').optional(),
    /** Environment variable of the debug adapter that holds the API key (never the key itself). */
    apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'apiKeyEnv must be an environment variable name').optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: z.number().int().positive().optional(),
    /** Recorded provider and label when the endpoint fronts another one (the extension's VS Code chat-model bridge). */
    provider: z.string().min(1).optional(),
    modelLabel: z.string().min(1).optional(),
    clientId: z.string().min(1).optional(),
    /** embedded (default) | stdio:<command line> | ws://host:port (a simulator-protocol server). */
    simulator: z.string().min(1).optional(),
    /** Folder holding .waypoint/ (runs, cache, variants) and prompts/<arch>/. Default: the adapter's working folder. */
    workspace: z.string().min(1).optional(),
    /** Folder with the role .prompt files. Default: <workspace>/prompts/<arch> if present, else the built-in ones. */
    prompts: z.string().min(1).optional(),
    /** The architecture's limits by their seed names (e.g. { "maxTurns": 40 }). */
    limits: z.record(z.string(), z.union([z.number(), z.boolean()])).optional(),
    codeTimeoutSecs: z.number().positive().max(600).optional(),
    /** Answer repeated model calls from .waypoint/cache. Default true. */
    cache: z.boolean().optional(),
    /** Stop at the episode's first event. */
    stopOnEntry: z.boolean().optional(),
    /** Debug a recorded run instead of a live one (no model calls; Step Back works): a trace.jsonl path or a run id. */
    trace: z.string().min(1).optional(),
  })
  .strict();
export type LaunchArguments = z.infer<typeof LaunchArguments>;

/** Custom DAP events the adapter sends beside the standard ones (the extension's run viewer follows them). */
export const WAYPOINT_EVENTS = {
  /** A run started (or a fork of it): { runId, tracePath, live, fork? }. */
  run: 'waypoint/run',
  /** The debugger stopped at a position: { runId, tracePath, seq, turn?, headSeq, live }. */
  position: 'waypoint/position',
} as const;

export interface RunEventBody {
  runId: string;
  tracePath: string;
  live: boolean;
  parentTracePath?: string;
  forkTurn?: number;
}

export interface PositionEventBody {
  runId: string;
  tracePath: string;
  /** Sequence number of the event the debugger stands at. */
  seq: number;
  turn?: number;
  /** The newest event of the run (a live episode waits there; a recorded one ends there). */
  headSeq: number;
  live: boolean;
}

/** Custom request: counters of the session (tests and the status line read them). */
export const STATUS_REQUEST = 'waypoint/status';
export interface StatusBody {
  runId?: string;
  tracePath?: string;
  live: boolean;
  /** Calls that reached the model in the current run (replayed and typed answers excluded). */
  modelCalls: number;
  /** Answers replayed from the parent in the current run (a fork). */
  replayedCalls: number;
  forks: number;
}
