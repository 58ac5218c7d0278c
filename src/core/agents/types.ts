// What an architecture (MALMM, RoCo, ...) is given and must provide. An architecture drives roles through the
// EpisodeContext only, so the engine can trace, pause and replay every step it takes.
import type { ChatMessage, EpisodeEndReason, PendingEvent, TraceEvent } from '../../protocol/trace.js';
import type { RunCodeResult } from '../sandbox/sandbox.js';
import type { ApiFunctionSpec, Observation, TaskInfo, WorkspaceInfo } from '../sim/simulator.js';
import type { VariantSpec } from '../prompt/variants.js';

export interface RoleSpec {
  id: string;
  label: string;
  /** File name under prompts/<arch>/ (or the workspace's prompt folder). */
  promptFile: string;
  description: string;
}

export interface AgentTopology {
  label: string;
  description: string;
  /** Roles (prompt files) this topology calls. */
  roles: string[];
}

export interface EpisodeOptions {
  maxTurns: number;
  maxConsecutiveErrors: number;
  /** Keep Python variables between code blocks (MALMM's logs suggest they do not persist). */
  persistNamespace: boolean;
  codeTimeoutSecs: number;
  memoryMiB: number;
}

export type RoleCallOutcome =
  | { ok: true; text: string; callId: string; turn: number }
  | { ok: false; callId: string; turn: number; message: string };

export interface CodeRunOutcome {
  result: RunCodeResult;
  observation: Observation;
  /** task_completed() was called during the block. */
  completed: boolean;
  /** task_failed() was called during the block. */
  failed: boolean;
}

export interface EpisodeContext {
  readonly task: TaskInfo;
  readonly workspace: WorkspaceInfo;
  readonly api: ApiFunctionSpec[];
  readonly initial: Observation;
  readonly options: EpisodeOptions;
  readonly agent: string;
  readonly signal: AbortSignal;
  /** Turn counter: each speaker action (including routing) is one turn. */
  nextTurn(): number;
  readonly turn: number;
  emit(event: PendingEvent): Promise<TraceEvent>;
  /** Renders the role's prompt with the variables and history, records role_call + model_response, calls the model. */
  callRole(role: string, variables: Record<string, unknown>, history: ChatMessage[]): Promise<RoleCallOutcome>;
  /** Records how the role's answer was parsed (or why it could not be). */
  parsed(role: string, callId: string, turn: number, result: { ok: true; kind: string; value: unknown } | { ok: false; kind: string; error: string }): Promise<void>;
  /** Appends a message to the shared conversation (recorded as chat_message). */
  say(speaker: string, content: string): Promise<void>;
  /** Runs a code block in the sandbox against the simulator; records code_execution, trajectory, observation. */
  executeCode(role: string, code: string): Promise<CodeRunOutcome>;
}

export interface ArchOutcome {
  reason: EpisodeEndReason;
  agentClaimedDone: boolean;
  message?: string;
}

export interface ArchitectureDefinition {
  id: string;
  label: string;
  description: string;
  /** The seed paper this architecture reproduces. */
  paper: string;
  roles: RoleSpec[];
  /** Agent topologies (e.g. MALMM's malmm / ma / sa); the first is the default. */
  topologies: Record<string, AgentTopology>;
  defaultTopology: string;
  /** Variants every workspace gets without a variants file (e.g. `ma`, `sa`). */
  builtInVariants: Record<string, VariantSpec>;
  /** API family the simulator must expose. */
  api: string;
  run(ctx: EpisodeContext): Promise<ArchOutcome>;
}
