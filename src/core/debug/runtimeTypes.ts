// The shapes EngineRuntime is configured with and reports: its events (a typed union, no DAP), its dependencies and
// the two launch configurations (a live episode, a recorded trace).
import type { Architectures } from '../architecture/registry.js';
import type { EpisodeController } from '../engine/controller.js';
import type { Clock, HostIO } from '../host.js';
import type { LaunchResult, ModelSpec } from '../runs/launch.js';
import type { CodeSandbox } from '../sandbox/sandbox.js';
import type { Simulator } from '../sim/simulator.js';
import type { ForkInfo } from '../../protocol/trace.js';
import type { ThreadInfo } from './frames.js';

export type StopReason = 'entry' | 'step' | 'breakpoint' | 'function breakpoint' | 'exception' | 'pause' | 'restart';

export type EngineRuntimeEvent =
  | { type: 'stopped'; reason: StopReason; threadId: number; description?: string; text?: string; hitBreakpointIds?: number[] }
  | { type: 'output'; category: 'console' | 'stderr'; text: string }
  | { type: 'thread'; reason: 'started'; thread: ThreadInfo }
  | { type: 'run'; runId: string; tracePath: string; live: boolean; fork?: ForkInfo; parentTracePath?: string }
  | { type: 'position'; runId: string; tracePath: string; seq: number; turn?: number; headSeq: number; live: boolean }
  | { type: 'ended'; status: 'success' | 'failure' | 'cancelled' | 'error' };

export interface RuntimeDeps {
  io: HostIO;
  clock: Clock;
  /** The architectures a run may use (the host's registry). */
  architectures: Architectures;
  /** prompts/ of the package (the built-in role prompts). */
  builtInPromptRoot: string;
  createSimulator(spec: string, family: 'tabletop' | 'household' | undefined): Promise<Simulator>;
  createSandbox(): CodeSandbox;
}

export interface LiveConfig {
  workspace: string;
  arch: string;
  task: string;
  seed: number;
  variant?: string;
  model: ModelSpec;
  simulator: string;
  promptDir?: string;
  limits?: Record<string, number | boolean>;
  codeTimeoutSecs?: number;
  cache: boolean;
  stopOnEntry: boolean;
}

export interface ReplayConfig {
  workspace: string;
  tracePath: string;
  /** The model a fork of this recording uses after the fork point (default: the recorded one, if it is the reference). */
  model?: ModelSpec;
  simulator: string;
  cache: boolean;
}

/** Why the debugger stops at an event, as the `stopped` event will say it. */
export type Decision = { reason: StopReason; description?: string; text?: string; hitBreakpointIds?: number[] };

/** The live episode in progress (one at a time: a fork ends the one before it). */
export interface LiveRun {
  controller: EpisodeController;
  done: Promise<LaunchResult | undefined>;
  runId?: string;
  tracePath?: string;
}
