// Run header, metrics (recomputed from events, so a live or truncated run has them too; the episode_end numbers
// are kept beside them as reported), per-role cost, and the failure summary (why it ended, the error that decided
// it and the ones the agents recovered from).
import type { ChatMessage, EventOf, TraceEvent } from '../../../protocol/trace.js';
import { consecutiveErrorLimit } from '../../../protocol/trace.js';
import type { ViewEvent } from '../../../protocol/webview.js';

export interface RunHeader {
  runId: string;
  arch: string;
  agentVariant: string;
  variant: string;
  task: string;
  taskDescription: string;
  seed: number;
  modelLabel: string;
  modelProvider: string;
  model: string;
  simulator: string;
  startedAt: string;
  ablations: Record<string, boolean>;
  prompts: { role: string; path: string }[];
  maxConsecutiveErrors: number | undefined;
  /** The run's vision switch (episode_start options): on means camera frames go to the model as image parts. */
  vision: boolean;
  /** Set when the run is a fork of another (the debugger's Restart Frame): where it branched and what changed. */
  fork?: { parentRunId: string; turn: number; role?: string; via: string; replayedCalls: number; changedFiles: string[] };
}

export interface RoleCost {
  role: string;
  calls: number;
  cachedCalls: number;
  failedCalls: number;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number;
}

export interface RunMetrics {
  turns: number;
  modelCalls: number;
  cachedCalls: number;
  promptTokens: number;
  completionTokens: number;
  codeBlocks: number;
  codeErrors: number;
  formatErrors: number;
  modelErrors: number;
  failedChecks: number;
  maxConsecutiveCodeErrors: number;
  trajectorySamples: number;
  /** Model requests that carried at least one image part, and the image parts in all (0 with vision off). */
  requestsWithImages: number;
  imagesSent: number;
  /** The simulator's clock at the end: the final state's timeline only, when the run restored snapshots. */
  simTimeSecs: number;
  /** Simulated seconds in all, the timelines left by restores included: the figure the CLI prints and the plots' axis spans. */
  simTotalSecs: number;
  durationMs: number;
}

export type FirstErrorKind = 'model_error' | 'format_error' | 'code_error' | 'check_failed' | 'engine_error';

export interface FirstError {
  turn?: number;
  seq: number;
  kind: FirstErrorKind;
  message: string;
}

/** An error and its key: a later success with the same key recovers from it (see `ok` in `add`). */
interface OpenError {
  error: FirstError;
  key: string;
}

export interface RunResult {
  status: 'running' | 'success' | 'failure';
  /** The run was refused before its first model call or code block (bad input, a broken prompt, no simulator). */
  notStarted: boolean;
  reason?: EventOf<'episode_end'>['reason'];
  message?: string;
  agentClaimedDone?: boolean;
  /** The agent said it was done but the simulator's check disagrees (or the reverse). */
  claimMismatch: boolean;
  /** The simulator's success check as recorded (absent when it did not run, e.g. a run that did not start). */
  check?: { ok: boolean; message: string };
}

export interface RunSummary {
  header?: RunHeader;
  result: RunResult;
  metrics: RunMetrics;
  reported?: EventOf<'episode_end'>['metrics'];
  perRole: RoleCost[];
  /** The first error of the run, recovered from or not. */
  firstError?: FirstError;
  /**
   * The error that decided a failed episode: the last one the agents did not recover from (the first such error of
   * its turn, the cause before the summaries that restate it). Absent for a success, a run still going, or a failure
   * whose errors were all recovered from (a cap or a round limit ended it).
   */
  decidingError?: FirstError;
  /**
   * Errors the run went on from, and the first of them: followed by a success of the same kind (a code block that
   * ran, a readable answer, the same check passing) or left behind by a restore for another attempt.
   */
  recovered: ErrorCount;
  /** Errors no later success recovered from (the deciding one among them), and the first of them. */
  unrecovered: ErrorCount;
}

export interface ErrorCount {
  count: number;
  first?: FirstError;
}

/**
 * An episode that failed before it did anything: no model call, no code block, ended by bad input, a prompt, the
 * simulator or the engine (not by a limit or a cancel). Such a run was refused at the start (unknown name, broken prompt, no simulator); lists show it as
 * "not started" rather than as a failed attempt at the task.
 */
export function endedBeforeStart(end: { reason: string; metrics: { modelCalls: number; codeBlocks: number } }): boolean {
  return START_FAILURES.has(end.reason) && end.metrics.modelCalls === 0 && end.metrics.codeBlocks === 0;
}

/** End reasons that can mean "refused at the start" (a limit or a cancel before the first call is not a refusal). */
const START_FAILURES: ReadonlySet<string> = new Set(['invalid_input', 'prompt_error', 'simulator_error', 'sandbox_error', 'engine_error']);

/** Image parts on a request's messages (what a vision run sent the model). */
export function imagePartCount(messages: readonly ChatMessage[]): number {
  return messages.reduce((n, msg) => n + (msg.parts ?? []).filter((p) => p.type === 'image').length, 0);
}

export class RunSummaryBuilder {
  private header: RunHeader | undefined;
  private end: EventOf<'episode_end'> | undefined;
  private lastTurn = 0;
  private readonly roles = new Map<string, RoleCost>();
  private firstError: FirstError | undefined;
  /** Errors no later success has recovered from, in trace order. */
  private open: OpenError[] = [];
  private recovered: ErrorCount = { count: 0 };
  private successCheck: { ok: boolean; message: string } | undefined;
  private streak = 0;
  private lastTMs = 0;
  private lastSimT = 0;
  /** Simulated seconds restores wound back (the clock before each restore, as the last sample shows it, minus after). */
  private rewoundSecs = 0;
  private readonly m: RunMetrics = {
    turns: 0, modelCalls: 0, cachedCalls: 0, promptTokens: 0, completionTokens: 0, codeBlocks: 0, codeErrors: 0,
    formatErrors: 0, modelErrors: 0, failedChecks: 0, maxConsecutiveCodeErrors: 0, trajectorySamples: 0, requestsWithImages: 0, imagesSent: 0, simTimeSecs: 0, simTotalSecs: 0, durationMs: 0,
  };

  add(e: TraceEvent | ViewEvent): void {
    const m = this.m;
    this.lastTMs = Math.max(this.lastTMs, e.tMs);
    // Turn 0 is the setup before the first speaker; like episode_end, count turns as the last turn number.
    if ('turn' in e && typeof e.turn === 'number') this.lastTurn = Math.max(this.lastTurn, e.turn);
    const turn = 'turn' in e && typeof e.turn === 'number' ? e.turn : undefined;
    // `key` names what recovers from the error: a later success with the same key.
    const err = (kind: FirstErrorKind, message: string, key: string) => {
      const error: FirstError = { turn, seq: e.seq, kind, message };
      if (!this.firstError) this.firstError = error;
      this.open.push({ error, key });
    };
    const ok = (recovers: (key: string) => boolean) => {
      if (this.open.length === 0) return;
      const rest: OpenError[] = [];
      for (const o of this.open) {
        if (!recovers(o.key)) rest.push(o);
        else {
          this.recovered.count++;
          if (!this.recovered.first || o.error.seq < this.recovered.first.seq) this.recovered.first = o.error;
        }
      }
      this.open = rest;
    };
    switch (e.type) {
      case 'episode_start':
        this.header = {
          runId: e.runId, arch: e.arch, agentVariant: e.agentVariant, variant: e.variant, task: e.task,
          taskDescription: e.taskDescription, seed: e.seed, modelLabel: e.model.label, modelProvider: e.model.provider,
          model: e.model.model, simulator: e.simulator.version ? `${e.simulator.name} ${e.simulator.version}` : e.simulator.name,
          startedAt: e.startedAt, ablations: { ...e.ablations }, prompts: e.prompts.map((p) => ({ role: p.role, path: p.path })),
          maxConsecutiveErrors: consecutiveErrorLimit(e),
          vision: e.options['vision'] === true,
          ...(e.fork
            ? { fork: { parentRunId: e.fork.parentRunId, turn: e.fork.turn, role: e.fork.role, via: e.fork.via, replayedCalls: e.fork.replayedCalls, changedFiles: e.fork.changedFiles.map((c) => c.path.split(/[\\/]/).pop() ?? c.path) } }
            : {}),
        };
        break;
      case 'role_call': {
        // The request as sent: a vision run whose simulator has no cameras sends none, which the header says.
        const images = imagePartCount(e.messages ?? []);
        if (images > 0) { m.requestsWithImages++; m.imagesSent += images; }
        break;
      }
      case 'model_response': {
        const r = this.role(e.role);
        r.calls++;
        m.modelCalls++;
        r.latencyMs += e.latencyMs;
        if (e.cached) { r.cachedCalls++; m.cachedCalls++; }
        if (e.usage) {
          r.promptTokens += e.usage.promptTokens;
          r.completionTokens += e.usage.completionTokens;
          m.promptTokens += e.usage.promptTokens;
          m.completionTokens += e.usage.completionTokens;
        }
        if (!e.ok) {
          r.failedCalls++;
          m.modelErrors++;
          err('model_error', `${e.role}: ${e.error?.kind ?? 'error'}: ${e.error?.message ?? 'model call failed'}`, `model:${e.role}`);
        } else ok((k) => k === `model:${e.role}`);
        break;
      }
      case 'parsed_output':
        // Any readable answer after an unreadable one: the repair (or the next agent's turn) got the loop going again.
        if (!e.ok) {
          m.formatErrors++;
          err('format_error', `${e.role}: ${e.error ?? `could not parse the ${e.kind}`}`, 'format');
        } else ok((k) => k === 'format');
        break;
      case 'code_execution':
        m.codeBlocks++;
        if (e.ok) {
          this.streak = 0;
          ok((k) => k === 'code');
        } else {
          m.codeErrors++;
          this.streak++;
          m.maxConsecutiveCodeErrors = Math.max(m.maxConsecutiveCodeErrors, this.streak);
          err('code_error', `${e.error?.type ?? 'Error'}: ${e.error?.message ?? `exit code ${e.exitCode}`}`, 'code');
        }
        break;
      case 'check':
        if (e.name === 'task_success') {
          // The simulator's verdict is the outcome, not an error: a mid-episode "not done yet" is progress news.
          this.successCheck = { ok: e.ok, message: e.message };
          if (!e.ok) m.failedChecks++;
          break;
        }
        if (!e.ok) {
          m.failedChecks++;
          err('check_failed', e.message.startsWith(e.name) ? e.message : `${e.name}: ${e.message}`, `check:${e.name}`);
        } else ok((k) => k === `check:${e.name}`);
        break;
      case 'error':
        err('engine_error', `${e.kind}: ${e.message}${e.file ? ` (${e.file}${e.line ? `:${e.line}` : ''})` : ''}`, 'error');
        break;
      case 'trajectory':
        m.trajectorySamples += e.samples.length;
        if (e.samples.length) this.lastSimT = e.samples[e.samples.length - 1].tSecs;
        break;
      case 'trajectory_packed':
        // An overview holds a subset: count the run's samples.
        m.trajectorySamples += e.total ?? e.n;
        if (e.n) this.lastSimT = e.tSecs[e.n - 1];
        break;
      case 'restore':
        // The world goes back for another attempt (an Action Contextualization retune or replan runs the plan again
        // from the start): what failed on the timeline left behind was retried. Engine errors stay.
        ok((k) => k !== 'error');
        // The clock goes back to the snapshot's time; what ran since still counts in the total.
        if (e.simTimeSecs !== undefined) {
          this.rewoundSecs += Math.max(0, this.lastSimT - e.simTimeSecs);
          this.lastSimT = e.simTimeSecs;
        }
        break;
      case 'episode_end':
        this.end = e;
        break;
    }
  }

  private role(name: string): RoleCost {
    let r = this.roles.get(name);
    if (!r) {
      r = { role: name, calls: 0, cachedCalls: 0, failedCalls: 0, promptTokens: 0, completionTokens: 0, latencyMs: 0 };
      this.roles.set(name, r);
    }
    return r;
  }

  summary(): RunSummary {
    const end = this.end;
    // Once the run has ended, its own figures (what the CLI prints); before, the estimate from the samples so far.
    const simTotalSecs = end ? (end.metrics.simTotalSecs ?? end.metrics.simTimeSecs) : this.lastSimT + this.rewoundSecs;
    const metrics: RunMetrics = { ...this.m, turns: this.lastTurn, simTimeSecs: end?.metrics.simTimeSecs ?? this.lastSimT, simTotalSecs, durationMs: end?.metrics.durationMs ?? this.lastTMs };
    const result: RunResult = end
      ? { status: end.success ? 'success' : 'failure', notStarted: endedBeforeStart(end), reason: end.reason, message: end.message, agentClaimedDone: end.agentClaimedDone, claimMismatch: end.agentClaimedDone !== end.success, check: this.successCheck }
      : { status: 'running', notStarted: false, claimMismatch: false };
    return {
      header: this.header,
      result,
      metrics,
      reported: end?.metrics,
      perRole: [...this.roles.values()].map((r) => ({ ...r })).sort((a, b) => a.role.localeCompare(b.role)),
      firstError: this.firstError,
      decidingError: result.status === 'failure' ? this.deciding() : undefined,
      recovered: { ...this.recovered },
      unrecovered: { count: this.open.length, ...(this.open[0] ? { first: this.open[0].error } : {}) },
    };
  }

  /** The last error not recovered from; of the errors of its turn, the first (a failed check before the plan's verdict). */
  private deciding(): FirstError | undefined {
    let last = this.open[this.open.length - 1]?.error;
    // The engine's own error event carries no turn: it reports what an earlier event of a turn did (a model call
    // that failed, a simulator that died), so the turn that holds that event is where the failure is shown.
    if (last && last.turn === undefined) last = [...this.open].reverse().find((o) => o.error.turn !== undefined)?.error ?? last;
    if (!last || last.turn === undefined) return last;
    return this.open.find((o) => o.error.turn === last.turn)!.error;
  }
}

export function projectRunSummary(events: readonly (TraceEvent | ViewEvent)[]): RunSummary {
  const b = new RunSummaryBuilder();
  for (const e of events) b.add(e);
  return b.summary();
}

/** Why a run has no robot motion to show, in one sentence (the empty Plots and 3D views say it). */
export function whyNoMotion(s: RunSummary): string {
  const r = s.result;
  if (r.notStarted) return `This run did not start (${r.reason}${r.message ? `: ${r.message}` : ''}).`;
  if (r.status === 'running') return 'No robot motion yet: the run is still going, or it stopped before any code moved the robot.';
  const decided = s.decidingError ?? s.firstError;
  const at = decided?.turn !== undefined ? ` at turn ${decided.turn}` : '';
  return `No robot motion in this run: it ended (${r.reason})${at} before any code moved the robot.`;
}
