// Host access is injected into the core (like vscode-mock-debug's FileAccessor): the CLI passes Node's fs,
// the extension passes vscode.workspace.fs, tests pass an in-memory one. Core code never reads the clock
// or randomness directly.

export interface HostIO {
  readText(path: string): Promise<string>;
  writeText(path: string, text: string): Promise<void>;
  /** Appends and flushes, so a killed process loses at most the line in flight. */
  appendText(path: string, text: string): Promise<void>;
  exists(path: string): Promise<boolean>;
  list(dir: string): Promise<string[]>;
  mkdirp(dir: string): Promise<void>;
  remove(path: string): Promise<void>;
  /** When the file was last written (epoch ms); undefined when unknown. Optional: a host without file times omits it. */
  modifiedMs?(path: string): Promise<number | undefined>;
}

export interface Clock {
  /** Monotonic milliseconds, for durations. */
  nowMs(): number;
  /** Wall-clock ISO time, for labels only (never hashed). */
  isoNow(): string;
}

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
}

/** Small deterministic PRNG (mulberry32) so a seed fully determines a task layout or a backoff jitter. */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return {
    next() {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}
