// Retry diffs: a code block that failed in the executor next to the following block of the same role
// (MALMM's Coder fixing a NameError; TrajGen's error-correction rounds).
import type { EventOf, TraceEvent } from '../../../protocol/trace.js';
import type { ViewEvent } from '../../../protocol/webview.js';

export interface RetrySide {
  /** Turn of the code_execution event. */
  turn: number;
  /** Turn whose parsed output produced the code (the Coder turn), when it differs from the execution turn. */
  sourceTurn: number;
  seq: number;
  code: string;
  ok: boolean;
  exitCode: number;
  error?: { type: string; message: string; line?: number };
}

export interface RetryDiff {
  /** `${before.seq}-${after.seq}` */
  id: string;
  role: string;
  before: RetrySide;
  after: RetrySide;
  /** Failures in a row ending with `before` (counts against maxConsecutiveErrors). */
  consecutiveErrors: number;
  /** The retry ran without error. */
  fixed: boolean;
}

export class RetryDiffBuilder {
  readonly diffs: RetryDiff[] = [];
  private readonly lastExec = new Map<string, RetrySide>();
  private readonly streak = new Map<string, number>();
  private readonly lastCodeTurn = new Map<string, number>();

  add(e: TraceEvent | ViewEvent): void {
    if (e.type === 'parsed_output' && e.ok && e.kind === 'code') {
      this.lastCodeTurn.set(e.role, e.turn);
      return;
    }
    if (e.type !== 'code_execution') return;
    const side = this.side(e);
    const prev = this.lastExec.get(e.role);
    const streak = this.streak.get(e.role) ?? 0;
    if (prev && !prev.ok) {
      this.diffs.push({ id: `${prev.seq}-${side.seq}`, role: e.role, before: prev, after: side, consecutiveErrors: streak, fixed: side.ok });
    }
    this.streak.set(e.role, side.ok ? 0 : streak + 1);
    this.lastExec.set(e.role, side);
  }

  private side(e: EventOf<'code_execution'>): RetrySide {
    const src = this.lastCodeTurn.get(e.role);
    return {
      turn: e.turn,
      sourceTurn: src !== undefined && src <= e.turn ? src : e.turn,
      seq: e.seq,
      code: e.code,
      ok: e.ok,
      exitCode: e.exitCode,
      error: e.error,
    };
  }

  /** Diffs to show for a selected turn: where it is the retry (execution or source turn), else where it failed. */
  forTurn(turn: number): RetryDiff[] {
    const asAfter = this.diffs.filter((d) => d.after.turn === turn || d.after.sourceTurn === turn);
    if (asAfter.length) return asAfter;
    return this.diffs.filter((d) => d.before.turn === turn || d.before.sourceTurn === turn);
  }
}

export function projectRetryDiffs(events: readonly (TraceEvent | ViewEvent)[]): RetryDiff[] {
  const b = new RetryDiffBuilder();
  for (const e of events) b.add(e);
  return b.diffs;
}
