// Breakpoints as predicates on trace events: line breakpoints in prompt files (before that role's call), function
// breakpoints on role names and robot functions, exception filters on failures. Each may have a condition, a hit
// condition and a log message, all in the expression language. A hit count is the number of events up to a
// position where the breakpoint's place and condition held, so it is the same going forward or back.
import type { TraceEvent } from '../../protocol/trace.js';
import type { EventLog } from './eventLog.js';
import { evaluateExpr, ExprEvalError, formatValue, parseExpr, parseHitCondition, truthy, type Expr, ExprSyntaxError } from './expr.js';
import { scopeAt } from './scope.js';

/** Exception filters: the failures a session can break on (DAP exceptionBreakpointFilters). */
export const EXCEPTION_FILTERS = [
  { filter: 'code_error', label: 'Generated code error', description: 'A code block failed (Python exception, time or memory limit)', default: false },
  { filter: 'check_failed', label: 'Failed check', description: "A check failed (RoCo's plan checks, Action Contextualization's checks, a missing code block)", default: false },
  { filter: 'collision', label: 'Collision', description: 'The simulator reported a collision', default: false },
  { filter: 'format_error', label: 'Format error', description: 'A model answer could not be parsed into what its role must produce', default: false },
  { filter: 'task_failure', label: 'Task failure at episode end', description: "The simulator's final success check failed", default: false },
  { filter: 'engine_error', label: 'Engine error', description: 'A prompt, model or simulator error outside the agent’s control', default: true },
] as const;
export type ExceptionFilter = (typeof EXCEPTION_FILTERS)[number]['filter'];

export function exceptionOf(e: TraceEvent): { filter: ExceptionFilter; id: string; description: string } | undefined {
  switch (e.type) {
    case 'code_execution':
      return e.ok ? undefined : { filter: 'code_error', id: e.error?.type ?? 'CodeError', description: `${e.error?.type ?? 'error'}: ${e.error?.message ?? `exit code ${e.exitCode}`}${e.error?.line ? ` (line ${e.error.line})` : ''}` };
    case 'parsed_output':
      return e.ok ? undefined : { filter: 'format_error', id: 'FormatError', description: `${e.role}: ${e.error ?? 'unparseable answer'}` };
    case 'check':
      if (e.ok) return undefined;
      if (e.name === 'collision') return { filter: 'collision', id: 'Collision', description: e.message };
      if (e.name === 'task_success') return e.phase === 'mid' ? undefined : { filter: 'task_failure', id: 'TaskFailure', description: e.message };
      return { filter: 'check_failed', id: `check:${e.name}`, description: `${e.name}: ${e.message}` };
    case 'action_result': {
      if (e.collisions?.length) return { filter: 'collision', id: 'Collision', description: e.collisions.map((c) => `${c.a} <-> ${c.b}`).join(', ') };
      const bad = e.results.find((r) => !r.ok);
      return bad ? { filter: 'check_failed', id: `action:${bad.name}`, description: `${bad.agent} ${bad.name}: ${bad.error ?? 'failed'}` } : undefined;
    }
    case 'error':
      return e.kind === 'cancelled' ? undefined : { filter: 'engine_error', id: e.kind, description: e.message };
    default:
      return undefined;
  }
}

export interface BreakpointOptions {
  condition?: string;
  hitCondition?: string;
  logMessage?: string;
}

/** A part of a log message: text, or an `{expression}` to interpolate. */
type LogPart = { text: string } | { expr: Expr; src: string };

function parseLogMessage(msg: string): LogPart[] {
  const parts: LogPart[] = [];
  let i = 0;
  while (i < msg.length) {
    const open = msg.indexOf('{', i);
    if (open < 0) {
      parts.push({ text: msg.slice(i) });
      break;
    }
    const close = msg.indexOf('}', open);
    if (close < 0) throw new ExprSyntaxError(open + 1, "log message: '{' without a closing '}'");
    if (open > i) parts.push({ text: msg.slice(i, open) });
    const src = msg.slice(open + 1, close);
    parts.push({ expr: parseExpr(src), src });
    i = close + 1;
  }
  return parts;
}

/** A breakpoint ready to be evaluated: where it applies, and its condition, hit condition and log message. */
export class ArmedBreakpoint {
  readonly condition?: Expr;
  readonly hit?: Expr;
  readonly log?: LogPart[];
  /** Set when a condition, hit condition or log message does not parse: the breakpoint never stops. */
  readonly syntaxError?: string;
  /** Whether place+condition held at an event index (for hit counts). */
  private readonly held = new Map<number, boolean>();
  private scannedUpTo = -1;
  /** Evaluation errors already reported (each once). */
  readonly reported = new Set<string>();

  constructor(
    readonly id: number,
    readonly kind: 'line' | 'function' | 'exception',
    readonly label: string,
    readonly place: (e: TraceEvent) => boolean,
    o: BreakpointOptions = {},
  ) {
    try {
      if (o.condition?.trim()) this.condition = parseExpr(o.condition);
    } catch (e) {
      this.syntaxError = `condition \`${o.condition}\`: ${(e as Error).message}`;
    }
    try {
      if (!this.syntaxError && o.hitCondition?.trim()) this.hit = parseHitCondition(o.hitCondition);
    } catch (e) {
      this.syntaxError = `hit condition \`${o.hitCondition}\`: ${(e as Error).message}`;
    }
    try {
      if (!this.syntaxError && o.logMessage !== undefined && o.logMessage !== '') this.log = parseLogMessage(o.logMessage);
    } catch (e) {
      this.syntaxError = `log message \`${o.logMessage}\`: ${(e as Error).message}`;
    }
  }

  /** Place and condition at index i (memoised). Evaluation errors count as false and are passed to `report`. */
  private holdsAt(log: EventLog, i: number, report: (message: string) => void): boolean {
    const known = this.held.get(i);
    if (known !== undefined) return known;
    const e = log.at(i);
    let ok = e !== undefined && !this.syntaxError && this.place(e);
    if (ok && this.condition) ok = this.eval(this.condition, log, i, report, 'condition') === true;
    this.held.set(i, ok);
    return ok;
  }

  private eval(expr: Expr, log: EventLog, i: number, report: (message: string) => void, what: string, hits?: number): boolean | undefined {
    try {
      return truthy(evaluateExpr(expr, scopeAt(log, i, hits === undefined ? {} : { hits })));
    } catch (err) {
      if (!(err instanceof ExprEvalError)) throw err;
      report(`${this.label}: ${what} could not be evaluated at event ${i} (${err.message}); treated as false`);
      return undefined;
    }
  }

  /** How many times place+condition held at events 0..i. */
  hitsAt(log: EventLog, i: number, report: (message: string) => void): number {
    for (let j = this.scannedUpTo + 1; j <= i; j++) this.holdsAt(log, j, report);
    this.scannedUpTo = Math.max(this.scannedUpTo, i);
    let n = 0;
    for (const [j, v] of this.held) if (v && j <= i) n++;
    return n;
  }

  /** Whether the breakpoint fires at event i: stop, log, or nothing. */
  fires(log: EventLog, i: number, report: (message: string) => void): { stop: boolean; logText?: string } {
    if (this.syntaxError) return { stop: false };
    if (!this.holdsAt(log, i, report)) return { stop: false };
    if (this.hit) {
      const hits = this.hitsAt(log, i, report);
      if (this.eval(this.hit, log, i, report, 'hit condition', hits) !== true) return { stop: false };
    }
    if (this.log) return { stop: false, logText: this.logText(log, i, report) };
    return { stop: true };
  }

  private logText(log: EventLog, i: number, report: (message: string) => void): string {
    const scope = scopeAt(log, i);
    return this.log!.map((p) => {
      if ('text' in p) return p.text;
      try {
        return formatValue(evaluateExpr(p.expr, scope));
      } catch (err) {
        if (!(err instanceof ExprEvalError)) throw err;
        report(`${this.label}: {${p.src}} could not be evaluated (${err.message})`);
        return `{${p.src}: ?}`;
      }
    }).join('');
  }

  /** Forget memoised results (a new run started: a fork). */
  reset(): void {
    this.held.clear();
    this.scannedUpTo = -1;
  }
}
