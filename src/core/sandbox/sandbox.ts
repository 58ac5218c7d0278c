// Generated code runs in Pyodide inside a separate, permission-restricted Node process (docs/security.md).
// The engine sees only this interface; robot API calls made by the code come back to the host through `onApiCall`.
import type { ApiCallRecord } from '../../protocol/trace.js';
import type { ApiFunctionSpec, ApiCallResult } from '../sim/simulator.js';

export interface SandboxLimits {
  /** Wall-clock limit per code block (default 10 s); the process is killed past it. */
  timeoutSecs: number;
  /** Memory cap for the sandbox process, in MiB; the process is killed past it. */
  memoryMiB: number;
}

export interface RunCodeRequest {
  code: string;
  api: ApiFunctionSpec[];
  /** Keep Python globals between blocks (true) or start every block from a fresh namespace (false, MALMM's logs). */
  persistNamespace: boolean;
  limits: SandboxLimits;
  /**
   * The episode's namespace, when one sandbox serves several episodes at once (ReusableSandbox.namespaces): its
   * globals are its own, and blocks of different namespaces run one after another in the one interpreter.
   */
  namespace?: string;
  /**
   * Host side of a robot API call, awaited while the Python code is blocked in the call.
   * An {ok:false} result raises a RuntimeError inside Python with the error text.
   */
  onApiCall(fn: string, args: unknown[], where: ApiCallSite): Promise<ApiCallResult>;
}

/** Where in the block a robot API call was made. */
export interface ApiCallSite {
  /** 0-based position among the block's API calls. */
  index: number;
  /** 1-based line in the block, when the sandbox can tell. */
  line?: number;
}

export interface RunCodeResult {
  ok: boolean;
  /** 0 success, 1 Python exception, 124 time limit, 137 killed (memory or crash). */
  exitCode: number;
  stdout: string;
  error?: { type: string; message: string; line?: number };
  durationMs: number;
  apiCalls: ApiCallRecord[];
}

export interface CodeSandbox {
  /** Start the worker process ahead of the first block (Pyodide takes seconds to load). */
  warmUp(): Promise<void>;
  run(request: RunCodeRequest): Promise<RunCodeResult>;
  /** Drop persisted globals (new episode): of `namespace`, or of every namespace without it. */
  resetNamespace(namespace?: string): Promise<void>;
  close(): Promise<void>;
}

/** What `resetEpisode` did. */
export interface EpisodeResetReport {
  /** What the last episode had changed and the reset put back (empty when it left nothing behind). */
  restored: string[];
  /** The worker was replaced by a fresh one, because of `reason` (something the reset could not put back). */
  replaced: boolean;
  reason?: string;
}

/** A sandbox that can serve episode after episode (the warm pool, src/core/runs/warmPool.ts). */
export interface ReusableSandbox extends CodeSandbox {
  /**
   * Back to the state of a freshly started sandbox, so the next episode sees nothing of the last one: persisted
   * globals, builtins, imports, patched modules and classes, files, environment, interpreter settings
   * (episodeReset.ts). Anything it cannot put back costs a fresh worker instead.
   */
  resetEpisode(): Promise<EpisodeResetReport>;
  /**
   * It serves several episodes at once, one namespace each (RunCodeRequest.namespace): everything but the
   * namespaces is put back after every block, and a block that must cost the process (a time or memory limit, a
   * state it cannot put back) costs the other namespaces their globals, which their next block says.
   */
  readonly namespaces?: boolean;
}
