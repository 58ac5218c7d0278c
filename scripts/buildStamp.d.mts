// Types for buildStamp.mjs (plain JS so scripts/build.mjs runs without a TypeScript loader).

export interface OutputRecord {
  /** Date.now() when the build that wrote this bundle began. */
  builtAtMs: number;
  production: boolean;
  /** Every file esbuild read for it (metafile inputs), relative to the package root. */
  inputs: string[];
}
export interface Stamp {
  outputs: Record<string, OutputRecord>;
}

export const STAMP: string;
export const ALWAYS: readonly string[];
export function readStamp(root: string): Stamp | undefined;
export function recordOutputs(root: string, outputs: Record<string, OutputRecord>, keep?: (out: string) => boolean): void;
export function staleBecause(root: string, out: string, options?: { stamp?: Stamp; production?: boolean }): string | undefined;
