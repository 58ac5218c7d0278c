// Line-delimited JSON between the host (parent) and the sandbox worker process.
// Parent -> worker on fd 3, worker -> parent on fd 4. The worker reads fd 3 with blocking reads, so a robot API
// call is synchronous for the Python code: it writes `api` and waits for the matching `api_result`.

/** File descriptors the worker inherits (after stdin/stdout/stderr). */
export const TO_WORKER_FD = 3;
export const FROM_WORKER_FD = 4;

export type ToWorker =
  | {
      t: 'run';
      code: string;
      /** Python source of the API stub functions (apiStubs.ts). */
      stubs: string;
      apiNames: string[];
      persist: boolean;
      /** Cap on the WebAssembly heap for this block, in bytes (a failed grow is a Python MemoryError). */
      wasmCapBytes: number;
      maxOutputBytes: number;
      /**
       * The episode's namespace in a shared interpreter (warm pool with several episodes in flight): its persisted
       * globals and context are its own, and everything else is put back after the block (restore_shared).
       */
      ns?: string;
    }
  | { t: 'api_result'; ok: true; output?: string; value?: boolean | number | string | null }
  | { t: 'api_result'; ok: false; error: string }
  /** Drop persisted globals: of namespace `ns`, or (without it) of every namespace. */
  | { t: 'reset'; ns?: string }
  /** Back to the start-up state for a new episode (episodeReset.ts). */
  | { t: 'reset_episode' };

export interface BlockError {
  type: string;
  message: string;
  line?: number;
}

// Validated on the parent side (workerProcess.ts): the worker runs untrusted code, so its messages are not trusted.
export type FromWorker =
  | { t: 'ready'; loadMs: number; rssBytes: number; wasmBytes: number }
  | { t: 'api'; fn: string; args: unknown[]; line?: number }
  /** Output of the running block, sent as it is written so a killed block still shows what it printed. */
  | { t: 'out'; text: string }
  | {
      t: 'done';
      exitCode: 0 | 1;
      error?: BlockError;
      /** The interpreter should not run another block (fatal error, MemoryError, os._exit); respawn. */
      recycle: boolean;
      /** Why, when a namespaced block left shared state that cannot be put back (the others' globals go with it). */
      unrestorable?: string[];
    }
  | { t: 'reset_done' }
  /** What a reset put back, and what it could not (then the worker must be replaced). */
  | { t: 'episode_reset'; restored: string[]; unrestorable: string[] }
  | { t: 'fatal'; message: string };

/** Arguments of the worker entry, passed as one JSON argv element. */
export interface WorkerConfig {
  pyodideDir: string;
}
