// Transcript lines for architectures that act with structured actions and answer in dicts (LLaMAR's modules; the
// joint actions of any multi-agent architecture): the subtasks a Planner keeps, each robot's chosen action, the
// simulator's per-robot results, the Corrector's proposals, the Verifier's closures and the architecture's metrics.
import type { EventOf, TraceEvent } from '../protocol/trace.js';

type Paint = (code: number, s: string) => string;

const short = (s: string, n = 160) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const args = (xs: readonly unknown[]) => xs.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(', ');

export function formatStructuredEvent(e: TraceEvent, c: Paint, turn: (t: number) => string): string | undefined {
  switch (e.type) {
    case 'parsed_output':
      return e.ok ? parsed(e, c, turn) : undefined;
    case 'action_result': {
      const step = e.step !== undefined ? c(2, `[step ${String(e.step).padStart(2)}]`) : turn(e.turn);
      return e.results
        .map((r) => {
          const mark = r.ok ? c(32, '✓') : c(31, '✗');
          const said = r.ok ? r.output : r.error;
          return `${step} ${c(36, r.agent.padEnd(8))} ${r.name}${said ? ` ${mark} ${short(said, 140)}` : ` ${mark}`}`;
        })
        .join('\n');
    }
    default:
      return undefined;
  }
}

function parsed(e: EventOf<'parsed_output'>, c: Paint, turn: (t: number) => string): string | undefined {
  const v = e.value as Record<string, unknown> | undefined;
  if (!v || typeof v !== 'object') return undefined;
  const head = `${turn(e.turn)} ${c(34, e.role.charAt(0).toUpperCase() + e.role.slice(1))}`;
  if (e.kind === 'plan' && Array.isArray(v.plan)) return `${head} ${v.plan.length} open subtask${v.plan.length === 1 ? '' : 's'}: ${short((v.plan as string[]).join('; '), 200)}`;
  if (e.kind === 'actions' && v.actions && typeof v.actions === 'object') {
    const acts = Object.entries(v.actions as Record<string, { text: string; action: { name: string; args: unknown[] } }>);
    return `${head}\n${acts.map(([a, m]) => `    ${a}: "${short(m.text, 80)}" → ${m.action.name}(${args(m.action.args)})`).join('\n')}`;
  }
  if (e.kind === 'corrections') {
    const fixes = Object.entries((v.corrections as Record<string, string>) ?? {});
    return `${head} ${fixes.length ? fixes.map(([a, f]) => `${a} → ${f}`).join('; ') : 'no corrections'}${typeof v.failureReason === 'string' && v.failureReason !== 'None' ? `\n    ${short(v.failureReason, 200)}` : ''}`;
  }
  if (e.kind === 'completed' && Array.isArray(v.completed)) return `${head} ${v.completed.length} completed${v.completed.length ? `: ${short((v.completed as string[]).join('; '), 200)}` : ''}`;
  return undefined;
}

/** The architecture's own metrics, one line. */
export function formatArchMetrics(m: Record<string, number> | undefined): string | undefined {
  if (!m || Object.keys(m).length === 0) return undefined;
  return `  ${Object.entries(m)
    .map(([k, v]) => `${k} ${Number.isInteger(v) ? v : v.toFixed(3)}`)
    .join(' · ')}`;
}
