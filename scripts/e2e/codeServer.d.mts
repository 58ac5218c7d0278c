// Types for codeServer.mjs (plain JS so it runs without a TypeScript loader).
import type { ChildProcess } from 'node:child_process';

export const CS_VERSION: string;
export const E2E_DIR: string;
export const CS_BIN: string;

export interface CodeServer {
  origin: string;
  port: number;
  /** Process group id (= the server's pid; it was started with setsid). */
  pgid: number;
  runDir: string;
  userDataDir: string;
  extensionsDir: string;
  logFile: string;
  child: ChildProcess;
  /** Kills the whole group (TERM, then KILL) and resolves once no member is left. */
  stop(): Promise<void>;
}

export function startCodeServer(opts?: { runDir?: string; trust?: boolean; label?: string }): Promise<CodeServer>;
export function workbenchUrl(origin: string, folder: string, payload?: [string, string][]): string;
export function groupMembers(pgid: number): number[];
export function processesMentioning(needle: string): string[];
export function reapStale(keep?: string): Promise<string[]>;
