// Two episodes side by side (the comparison view's transcript pane): a pure projection of two traces, usually two
// variants on one seed. Turns are aligned by turn number; each side's turn is what its roles answered and what
// running their code printed; the first turn whose two sides differ is where the variants' paths part. Above them,
// the prompt diff between the variants: for each role, the messages of its first call, line by line, so the
// ablations' effect on the rendered prompt is visible before any answer.
import type { TraceEvent } from '../../../protocol/trace.js';

export interface SideTurn {
  turn: number;
  /** Roles that acted in the turn (model calls), or 'Executor' / 'Environment'. */
  role: string;
  /** Answers, code output and errors of the turn, in order, as one text. */
  text: string;
  error: boolean;
}

export interface AlignedTurn {
  turn: number;
  left?: SideTurn;
  right?: SideTurn;
  same: boolean;
}

export interface DiffLine {
  op: '=' | '-' | '+';
  text: string;
}

export interface RolePromptDiff {
  role: string;
  /** No difference in this role's first rendered messages. */
  same: boolean;
  /** Only changed lines with up to `context` unchanged lines around them ('…' lines mark elisions). */
  lines: DiffLine[];
}

export interface SideOutcome {
  success: boolean | null;
  reason: string;
  turns: number;
  variant: string;
  ablations: Record<string, boolean>;
}

export interface SideBySide {
  left: SideOutcome;
  right: SideOutcome;
  rows: AlignedTurn[];
  /** The first turn whose two sides differ; null when every aligned turn is the same. */
  firstDivergence: number | null;
  promptDiff: RolePromptDiff[];
}

const MAX_TEXT = 4000;

/** What happened in each turn of one trace, as text. */
export function transcriptTurns(events: readonly TraceEvent[]): SideTurn[] {
  const by = new Map<number, { roles: string[]; parts: string[]; error: boolean }>();
  const at = (turn: number) => by.get(turn) ?? by.set(turn, { roles: [], parts: [], error: false }).get(turn)!;
  for (const e of events) {
    const turn = (e as { turn?: unknown }).turn;
    if (typeof turn !== 'number') continue;
    switch (e.type) {
      case 'model_response': {
        const t = at(turn);
        if (!t.roles.includes(e.role)) t.roles.push(e.role);
        if (e.ok) t.parts.push(`${e.role}: ${e.text ?? ''}`);
        else {
          t.parts.push(`${e.role}: model error: ${e.error?.message ?? 'unknown'}`);
          t.error = true;
        }
        break;
      }
      case 'code_execution': {
        const t = at(turn);
        t.parts.push(`[ran ${e.language}] ${e.ok ? 'ok' : `error: ${e.error ? `${e.error.type}: ${e.error.message}` : `exit ${e.exitCode}`}`}${e.stdout.trim() ? `\n${e.stdout.trim()}` : ''}`);
        if (!e.ok) t.error = true;
        break;
      }
      case 'chat_message': {
        const t = at(turn);
        // The model's own answer is already in; a chat line adds only what the engine wrote (feedback, a person).
        if (!t.parts.some((p) => p.endsWith(e.content))) t.parts.push(`${e.speaker}: ${e.content}`);
        break;
      }
      case 'error': {
        const t = at(turn);
        t.parts.push(`error: ${(e as { message?: string }).message ?? ''}`);
        t.error = true;
        break;
      }
      default:
        break;
    }
  }
  return [...by.entries()]
    .sort((a, b) => a[0] - b[0])
    .filter(([, t]) => t.parts.length > 0)
    .map(([turn, t]) => {
      const text = t.parts.join('\n');
      return { turn, role: t.roles.length ? t.roles.join(', ') : 'Executor', text: text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}\n… (${text.length - MAX_TEXT} more characters)` : text, error: t.error };
    });
}

function outcomeOf(events: readonly TraceEvent[]): SideOutcome {
  const start = events.find((e) => e.type === 'episode_start') as { variant?: string; ablations?: Record<string, boolean> } | undefined;
  const end = events.find((e) => e.type === 'episode_end') as { success?: boolean; reason?: string; metrics?: { turns?: number } } | undefined;
  return {
    success: end ? Boolean(end.success) : null,
    reason: end?.reason ?? 'unfinished',
    turns: end?.metrics?.turns ?? 0,
    variant: start?.variant ?? '',
    ablations: start?.ablations ?? {},
  };
}

/** Each role's first call: its rendered messages as lines. */
function firstPrompts(events: readonly TraceEvent[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const e of events) {
    if (e.type !== 'role_call' || out.has(e.role)) continue;
    out.set(
      e.role,
      e.messages.flatMap((m) => [`── ${m.role}${m.name ? ` (${m.name})` : ''} ──`, ...m.content.split('\n')]),
    );
  }
  return out;
}

/** Line diff by longest common subsequence (prompts are hundreds of lines: the table stays small). */
export function diffLines(a: readonly string[], b: readonly string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) (out.push({ op: '=', text: a[i]! }), i++, j++);
    else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) out.push({ op: '-', text: a[i++]! });
    else out.push({ op: '+', text: b[j++]! });
  }
  while (i < n) out.push({ op: '-', text: a[i++]! });
  while (j < m) out.push({ op: '+', text: b[j++]! });
  return out;
}

/** Changed lines with `context` unchanged lines around them; longer unchanged runs become one '…' line. */
export function withContext(lines: readonly DiffLine[], context = 2): DiffLine[] {
  const keep = lines.map((l) => l.op !== '=');
  const near = lines.map((_, i) => keep.slice(Math.max(0, i - context), i + context + 1).some(Boolean));
  const out: DiffLine[] = [];
  let elided = 0;
  lines.forEach((l, i) => {
    if (near[i]) {
      if (elided) out.push({ op: '=', text: `… ${elided} unchanged line${elided === 1 ? '' : 's'}` });
      elided = 0;
      out.push(l);
    } else elided++;
  });
  if (elided && out.length) out.push({ op: '=', text: `… ${elided} unchanged line${elided === 1 ? '' : 's'}` });
  return out;
}

export function sideBySide(left: readonly TraceEvent[], right: readonly TraceEvent[]): SideBySide {
  const lt = new Map(transcriptTurns(left).map((t) => [t.turn, t]));
  const rt = new Map(transcriptTurns(right).map((t) => [t.turn, t]));
  const turns = [...new Set([...lt.keys(), ...rt.keys()])].sort((a, b) => a - b);
  const rows = turns.map((turn): AlignedTurn => {
    const l = lt.get(turn);
    const r = rt.get(turn);
    return { turn, ...(l ? { left: l } : {}), ...(r ? { right: r } : {}), same: Boolean(l && r && l.text === r.text) };
  });
  const lp = firstPrompts(left);
  const rp = firstPrompts(right);
  const roles = [...new Set([...lp.keys(), ...rp.keys()])];
  const promptDiff = roles.map((role): RolePromptDiff => {
    const d = diffLines(lp.get(role) ?? [], rp.get(role) ?? []);
    const same = d.every((x) => x.op === '=');
    return { role, same, lines: same ? [] : withContext(d) };
  });
  return { left: outcomeOf(left), right: outcomeOf(right), rows, firstDivergence: rows.find((r) => !r.same)?.turn ?? null, promptDiff };
}
