// Turn timeline and per-turn detail: groups trace events by turn number. Incremental: add() keeps references to
// the events; rows() recomputes only the rows of turns that changed (plus the cheap cross-turn flags).
import type { EventOf, TraceEvent } from '../../../protocol/trace.js';
import { consecutiveErrorLimit } from '../../../protocol/trace.js';
import type { ViewEvent } from '../../../protocol/webview.js';

export type TurnOutcome = 'ok' | 'model_error' | 'format_error' | 'code_error' | 'check_failed' | 'engine_error' | 'pending';

export interface TurnFlag {
  kind: 'retry_after_error' | 'repeat_speaker' | 'planner_code' | 'consecutive_errors';
  message: string;
}

export interface TurnRow {
  turn: number;
  /** Who acted: the called role, 'Executor' for a turn that only ran code, 'Environment'/'Engine' otherwise. */
  role: string;
  kind: 'model' | 'execution' | 'other';
  /** The Supervisor's routing decision (parsed output of kind 'route'). */
  routeTo?: string;
  flags: TurnFlag[];
  model?: string;
  promptTokens?: number;
  completionTokens?: number;
  latencyMs?: number;
  cached?: boolean;
  attempts?: number;
  outcome: TurnOutcome;
  /** One line: the first error of the turn. */
  errorText?: string;
  /** One line shown in the row. */
  summary: string;
  tMs: number;
  firstSeq: number;
}

export interface CallDetail {
  callId: string;
  role: string;
  call?: EventOf<'role_call'>;
  response?: EventOf<'model_response'>;
  parsed?: EventOf<'parsed_output'>;
}

export interface TurnDetail {
  turn: number;
  role: string;
  calls: CallDetail[];
  executions: EventOf<'code_execution'>[];
  observations: EventOf<'observation'>[];
  chat: EventOf<'chat_message'>[];
  checks: EventOf<'check'>[];
  errors: EventOf<'error'>[];
  /** Results of structured actions (one per agent; LLaMAR's joint steps, RoCo's plans). */
  actions: EventOf<'action_result'>[];
  trajectorySamples: number;
}

interface Acc {
  detail: TurnDetail;
  firstSeq: number;
  tMs: number;
  row?: Omit<TurnRow, 'flags'>;
}

const ROUTE_KEYS = ['next', 'speaker', 'to', 'role', 'name'] as const;

/** Reads a Supervisor decision: a role name, or an object naming it under a usual key. */
export function routeTarget(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (value && typeof value === 'object') {
    for (const k of ROUTE_KEYS) {
      const v = (value as Record<string, unknown>)[k];
      if (typeof v === 'string' && v.trim()) return v.trim();
    }
  }
  return undefined;
}

export function oneLine(text: string, max = 140): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? line.slice(0, max - 1) + '…' : line;
}

const FENCE = /```(\w*)\n([\s\S]*?)```/;

function codeSummary(code: string): string {
  const all = code.split('\n').map((l) => l.trim()).filter((l) => l);
  // A leading comment usually says what the block is for ("# Step 3: lift, then move ...").
  if (all[0]?.startsWith('#') && all[0].replace(/^#+/, '').trim()) return oneLine(all[0].replace(/^#+/, '').trim());
  const lines = all.filter((l) => !l.startsWith('#'));
  const call = lines.find((l) => /\b(execute_trajectory|open_gripper|close_gripper|task_completed|detect_object)\s*\(/.test(l));
  return oneLine(call ?? lines[0] ?? '(empty code block)');
}

export class TurnTimelineBuilder {
  private readonly turns = new Map<number, Acc>();
  private readonly order: number[] = [];
  private readonly dirty = new Set<number>();
  private maxConsecutiveErrors = 5;
  private cachedRows: TurnRow[] | undefined;

  add(e: TraceEvent | ViewEvent): void {
    if (e.type === 'episode_start') {
      this.maxConsecutiveErrors = consecutiveErrorLimit(e) ?? this.maxConsecutiveErrors;
      return;
    }
    const turn = 'turn' in e && typeof e.turn === 'number' ? e.turn : undefined;
    if (turn === undefined) return;
    let acc = this.turns.get(turn);
    if (!acc) {
      acc = {
        detail: { turn, role: '', calls: [], executions: [], observations: [], chat: [], checks: [], errors: [], actions: [], trajectorySamples: 0 },
        firstSeq: e.seq,
        tMs: e.tMs,
      };
      this.turns.set(turn, acc);
      this.order.push(turn);
      if (this.order.length > 1 && turn < this.order[this.order.length - 2]) this.order.sort((a, b) => a - b);
    }
    const d = acc.detail;
    switch (e.type) {
      case 'role_call':
        this.call(d, e.callId, e.role).call = e;
        break;
      case 'model_response':
        this.call(d, e.callId, e.role).response = e;
        break;
      case 'parsed_output':
        this.call(d, e.callId, e.role).parsed = e;
        break;
      case 'code_execution':
        d.executions.push(e);
        break;
      case 'observation':
        d.observations.push(e);
        break;
      case 'chat_message':
        d.chat.push(e);
        break;
      case 'check':
        d.checks.push(e);
        break;
      case 'error':
        d.errors.push(e);
        break;
      case 'action_result':
        d.actions.push(e);
        break;
      case 'trajectory':
        d.trajectorySamples += e.samples.length;
        break;
      case 'trajectory_packed':
        d.trajectorySamples += e.total ?? e.n;
        break;
    }
    this.dirty.add(turn);
    this.cachedRows = undefined;
  }

  private call(d: TurnDetail, callId: string, role: string): CallDetail {
    let c = d.calls.find((x) => x.callId === callId);
    if (!c) {
      c = { callId, role };
      d.calls.push(c);
    }
    return c;
  }

  turnNumbers(): readonly number[] {
    return this.order;
  }

  detail(turn: number): TurnDetail | undefined {
    const acc = this.turns.get(turn);
    if (!acc) return undefined;
    acc.detail.role = this.baseRow(acc).role;
    return acc.detail;
  }

  rows(): TurnRow[] {
    if (this.cachedRows) return this.cachedRows;
    const rows: TurnRow[] = [];
    let lastSpeaker: string | undefined;
    let executedSinceSpeaker = false;
    let lastExecFailed = false;
    let lastFailedTurn = -1;
    let consecutive = 0;
    let prevRouted = false;
    for (const turn of this.order) {
      const acc = this.turns.get(turn)!;
      const base = this.baseRow(acc);
      const flags: TurnFlag[] = [];
      if (base.routeTo) {
        const to = base.routeTo.toLowerCase();
        if (lastExecFailed && to === lastSpeaker?.toLowerCase()) {
          flags.push({ kind: 'retry_after_error', message: `Executor error in turn ${lastFailedTurn} → ${base.routeTo} again` });
        } else if (to === lastSpeaker?.toLowerCase() && !executedSinceSpeaker) {
          flags.push({ kind: 'repeat_speaker', message: `${lastSpeaker} → ${base.routeTo} with no execution in between` });
        }
      }
      if (!base.routeTo && !prevRouted && base.kind === 'model' && lastExecFailed && base.role === lastSpeaker) {
        flags.push({ kind: 'retry_after_error', message: `Executor error in turn ${lastFailedTurn} → ${base.role} again` });
      }
      if (/planner/i.test(base.role) && acc.detail.calls.some((c) => c.response?.text && FENCE.test(c.response.text))) {
        flags.push({ kind: 'planner_code', message: 'the Planner wrote a code block (the Coder should write code)' });
      }
      for (const x of acc.detail.executions) {
        consecutive = x.ok ? 0 : consecutive + 1;
        lastExecFailed = !x.ok;
        if (!x.ok) lastFailedTurn = turn;
      }
      if (acc.detail.executions.length > 0 && consecutive > 0) {
        flags.push({ kind: 'consecutive_errors', message: `code error ${consecutive} of ${this.maxConsecutiveErrors} in a row` });
      }
      if (base.kind === 'model' && !/supervisor/i.test(base.role)) {
        lastSpeaker = base.role;
        executedSinceSpeaker = false;
      }
      if (acc.detail.executions.length > 0) executedSinceSpeaker = true;
      prevRouted = base.routeTo !== undefined;
      rows.push({ ...base, flags });
    }
    this.cachedRows = rows;
    return rows;
  }

  private baseRow(acc: Acc): Omit<TurnRow, 'flags'> {
    if (acc.row && !this.dirty.has(acc.detail.turn)) return acc.row;
    const d = acc.detail;
    const firstCall = d.calls.find((c) => c.call) ?? d.calls[0];
    const kind: TurnRow['kind'] = d.calls.length > 0 ? 'model' : d.executions.length > 0 ? 'execution' : 'other';
    const role = firstCall?.role ?? (d.executions.length > 0 ? 'Executor' : d.errors.length > 0 ? 'Engine' : 'Environment');
    let promptTokens: number | undefined;
    let completionTokens: number | undefined;
    let latencyMs: number | undefined;
    let cached: boolean | undefined;
    let attempts: number | undefined;
    let routeTo: string | undefined;
    let outcome: TurnOutcome = 'ok';
    let errorText: string | undefined;
    const fail = (o: TurnOutcome, text: string) => {
      const rank: TurnOutcome[] = ['ok', 'check_failed', 'code_error', 'format_error', 'model_error', 'engine_error'];
      if (rank.indexOf(o) > rank.indexOf(outcome === 'pending' ? 'ok' : outcome)) {
        outcome = o;
        errorText = oneLine(text);
      }
    };
    for (const c of d.calls) {
      const r = c.response;
      if (r) {
        if (r.usage) {
          promptTokens = (promptTokens ?? 0) + r.usage.promptTokens;
          completionTokens = (completionTokens ?? 0) + r.usage.completionTokens;
        }
        latencyMs = (latencyMs ?? 0) + r.latencyMs;
        cached = (cached ?? true) && r.cached;
        attempts = (attempts ?? 0) + r.attempts;
        if (!r.ok) fail('model_error', `${r.error?.kind ?? 'error'}: ${r.error?.message ?? 'model call failed'}`);
      }
      const p = c.parsed;
      if (p) {
        if (!p.ok) fail('format_error', p.error ?? `could not parse the ${p.kind}`);
        else if (p.kind === 'route') routeTo = routeTarget(p.value) ?? routeTo;
      }
    }
    for (const x of d.executions) {
      if (!x.ok) fail('code_error', `${x.error?.type ?? 'Error'}: ${x.error?.message ?? `exit code ${x.exitCode}`}`);
    }
    for (const ch of d.checks) if (!ch.ok) fail('check_failed', ch.message.startsWith(ch.name) ? ch.message : `${ch.name}: ${ch.message}`);
    for (const a of d.actions) for (const r of a.results) if (!r.ok) fail('check_failed', `${r.agent} ${r.name}: ${r.error ?? 'failed'}`);
    for (const er of d.errors) fail('engine_error', `${er.kind}: ${er.message}`);
    if (outcome === 'ok' && d.calls.some((c) => c.call && !c.response)) outcome = 'pending';
    const row: Omit<TurnRow, 'flags'> = {
      turn: d.turn,
      role,
      kind,
      routeTo,
      model: firstCall?.call?.model,
      promptTokens,
      completionTokens,
      latencyMs,
      cached,
      attempts,
      outcome,
      errorText,
      summary: this.summary(d, routeTo, errorText),
      tMs: acc.tMs,
      firstSeq: acc.firstSeq,
    };
    acc.row = row;
    this.dirty.delete(d.turn);
    return row;
  }

  private summary(d: TurnDetail, routeTo: string | undefined, errorText: string | undefined): string {
    if (routeTo) return `→ ${routeTo}`;
    const x = d.executions[d.executions.length - 1];
    if (x) {
      if (!x.ok) return `exit ${x.exitCode}: ${errorText ?? x.error?.message ?? 'failed'}`;
      const fns = [...new Set(x.apiCalls.map((a) => a.fn))];
      const failedCheck = d.checks.find((c) => !c.ok);
      return `exit ${x.exitCode}${fns.length ? ' · ' + fns.join(', ') : ''}${failedCheck ? ` · ✖ ${oneLine(failedCheck.message, 80)}` : ''}`;
    }
    if (d.actions.length > 0) return d.actions.flatMap((a) => a.results.map((r) => `${r.agent} ${r.name}${r.ok ? ' ✓' : ' ✗'}`)).join(' · ');
    for (const c of d.calls) {
      const p = c.parsed;
      if (p?.ok && p.kind === 'code' && typeof p.value === 'string') return codeSummary(p.value);
      const structured = p?.ok ? structuredSummary(p.kind, p.value) : undefined;
      if (structured) return structured;
      if (p && !p.ok) return `format error: ${oneLine(p.error ?? '')}`;
      if (c.response && !c.response.ok) return `model error: ${oneLine(c.response.error?.message ?? '')}`;
      const text = typeof p?.value === 'string' ? p.value : c.response?.text;
      if (text) {
        const fence = FENCE.exec(text);
        const prose = text.replace(FENCE, ' ').trim();
        return oneLine(prose || (fence ? codeSummary(fence[2]) : text));
      }
      if (c.call && !c.response) return 'waiting for the model…';
    }
    if (d.chat.length) return oneLine(d.chat[0].content);
    if (d.observations.length) {
      const st = d.observations[0].state;
      if (st.robots && st.robots.length > 1) return `state: ${st.objects.length} objects · ${st.robots.map((r) => `${r.name}${r.holding ? ` holding ${r.holding.split('|')[0]}` : ''}`).join(', ')}`;
      return `state: ${st.objects.length} objects, gripper ${st.gripperOpen ? 'open' : 'closed'}${st.grasped ? `, holding ${st.grasped}` : ''}`;
    }
    if (d.errors.length) return oneLine(d.errors[0].message);
    return '';
  }
}

/** One line for answers parsed into structures (LLaMAR's plan, actions, corrections, completed subtasks). */
function structuredSummary(kind: string, value: unknown): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  if (kind === 'plan' && Array.isArray(v.plan)) return oneLine(`${v.plan.length} open: ${(v.plan as string[]).join('; ')}`);
  if (kind === 'actions' && v.actions && typeof v.actions === 'object') {
    return oneLine(Object.entries(v.actions as Record<string, { action?: { text?: string } }>).map(([a, m]) => `${a}: ${m.action?.text ?? '?'}`).join(' · '));
  }
  if (kind === 'corrections' && v.corrections && typeof v.corrections === 'object') {
    const fixes = Object.entries(v.corrections as Record<string, string>);
    return fixes.length ? oneLine(fixes.map(([a, f]) => `${a} → ${f}`).join(' · ')) : 'no corrections';
  }
  if (kind === 'completed' && Array.isArray(v.completed)) return oneLine(`${v.completed.length} completed${v.completed.length ? `: ${(v.completed as string[]).at(-1)}` : ''}`);
  return undefined;
}

export function projectTimeline(events: readonly (TraceEvent | ViewEvent)[]): TurnRow[] {
  const b = new TurnTimelineBuilder();
  for (const e of events) b.add(e);
  return b.rows();
}
