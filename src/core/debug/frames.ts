// Threads and stack frames of a run at one position, derived from trace counters only (never from an
// architecture's name), so every architecture shows up the same way: one thread for the episode plus one per
// agent seen on an event (RoCo's robots, LLaMAR's agents); frames episode > round/step > role turn > robot call.
import type { EventOf, TraceEvent } from '../../protocol/trace.js';
import type { EventLog } from './eventLog.js';
import { turnOf } from './eventLog.js';

export const EPISODE_THREAD = 1;

export interface ThreadInfo {
  id: number;
  name: string;
  agent?: string;
}

/** A code block shown as a read-only document: `key` identifies it within the run. */
export interface CodeSource {
  kind: 'code';
  key: string;
  name: string;
  text: string;
}

export interface PromptSource {
  kind: 'prompt';
  path: string;
}

export type FrameKind = 'episode' | 'round' | 'step' | 'turn' | 'call' | 'code' | 'action';

export interface FrameInfo {
  kind: FrameKind;
  name: string;
  /** The event the frame stands at (its scopes are computed there). */
  index: number;
  turn?: number;
  /** For role turns: the index of the role_call (a Restart Frame target). */
  roleCallIndex?: number;
  source?: PromptSource | CodeSource;
  /** 1-based line in the source. */
  line?: number;
  canRestart: boolean;
}

export function threadsOf(log: EventLog): ThreadInfo[] {
  const start = log.start;
  const episode = start ? `episode · ${start.arch} · ${start.task} · seed ${start.seed}` : 'episode';
  return [{ id: EPISODE_THREAD, name: episode }, ...log.agents.map((agent, k) => ({ id: EPISODE_THREAD + 1 + k, name: agent, agent }))];
}

/** The thread an event belongs to: its agent's, else the episode's. */
export function threadOfEvent(log: EventLog, e: TraceEvent | undefined): number {
  if (!e || e.agent === undefined) return EPISODE_THREAD;
  const k = log.agents.indexOf(e.agent);
  return k < 0 ? EPISODE_THREAD : EPISODE_THREAD + 1 + k;
}

export interface FrameOptions {
  /** Role id -> label from the architecture's manifest (e.g. coder -> Coder). */
  roleLabels?: Record<string, string>;
  /** The line to show in a role call's prompt (a line breakpoint's line), by role_call index. */
  promptLine?(roleCallIndex: number, path: string): number;
}

function describeArgs(args: unknown[]): string {
  const s = args.map((a) => JSON.stringify(a, (_k, v) => (typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 1e4) / 1e4 : v))).join(', ');
  return s.length > 60 ? `${s.slice(0, 60)}…` : s;
}

export function codeSourceKey(block: { turn: number; firstIndex: number }): string {
  return `t${block.turn}-e${block.firstIndex}`;
}

/** Frames of a thread at position i, innermost first. */
export function stackAt(log: EventLog, threadId: number, i: number, o: FrameOptions = {}): FrameInfo[] {
  const agent = threadId === EPISODE_THREAD ? undefined : log.agents[threadId - EPISODE_THREAD - 1];
  // An agent's thread stands at its latest event, its part of a joint action included.
  const mine = (e: TraceEvent) =>
    e.agent === agent || (e.type === 'action' && e.actions.some((a) => a.agent === agent)) || (e.type === 'action_result' && e.results.some((r) => r.agent === agent));
  const j = agent === undefined ? Math.min(i, log.head) : log.findBack(i, mine);
  const start = log.start;
  const episodeFrame: FrameInfo = {
    kind: 'episode',
    name: start ? `episode ${start.arch} · ${start.task} · seed ${start.seed}${start.fork ? ` · fork of turn ${start.fork.turn}` : ''}` : 'episode',
    index: Math.max(0, Math.min(i, log.head)),
    canRestart: log.findForward(0, (e) => e.type === 'role_call') >= 0 && log.findForward(0, (e) => e.type === 'role_call') <= i,
  };
  if (j < 0) return [episodeFrame];
  const e = log.at(j)!;
  const frames: FrameInfo[] = [];
  const label = (role: string) => o.roleLabels?.[role] ?? role.charAt(0).toUpperCase() + role.slice(1);
  const block = log.codeBlockAt(j);
  const codeSource = (b: NonNullable<typeof block>): CodeSource => ({ kind: 'code', key: codeSourceKey(b), name: `turn${b.turn}-${b.role}.py`, text: b.text });

  if (e.type === 'api_call') {
    frames.push({ kind: 'call', name: `${e.fn}(${describeArgs(e.args)})`, index: j, turn: e.turn, ...(block ? { source: codeSource(block), line: e.line ?? 1 } : {}), canRestart: false });
  } else if (e.type === 'code_execution') {
    frames.push({ kind: 'code', name: e.ok ? 'code block (ran)' : `code block (${e.error?.type ?? 'failed'})`, index: j, turn: e.turn, ...(block ? { source: codeSource(block), line: e.error?.line ?? 1 } : {}), canRestart: false });
  } else if (e.type === 'action' || e.type === 'action_result') {
    const action = e.type === 'action' ? e : (log.at(log.findBack(j, (x) => x.type === 'action' && x.actionId === e.actionId)) as EventOf<'action'> | undefined);
    const own = action?.actions.filter((a) => agent === undefined || a.agent === agent) ?? [];
    const text = own.map((a) => `${a.agent}: ${a.name}(${describeArgs(a.args)})`).join('; ') || 'action';
    const results = e.type === 'action_result' ? e.results.filter((r) => agent === undefined || r.agent === agent) : [];
    frames.push({ kind: 'action', name: e.type === 'action' ? text : `${text} → ${results.every((r) => r.ok) ? 'ok' : 'failed'}`, index: j, turn: e.turn, canRestart: false });
  }

  const turn = turnOf(e);
  if (turn !== undefined && turn > 0) {
    const rc = log.roleCallOfTurn(j);
    const call = rc >= 0 ? (log.at(rc) as EventOf<'role_call'>) : undefined;
    if (call) {
      const who = call.agent !== undefined && call.agent !== agent ? ` (${call.agent})` : '';
      frames.push({
        kind: 'turn',
        name: `${label(call.role)}${who} · turn ${turn}`,
        index: j,
        turn,
        roleCallIndex: rc,
        source: { kind: 'prompt', path: call.promptPath },
        line: o.promptLine?.(rc, call.promptPath) ?? 1,
        canRestart: true,
      });
    } else {
      const what = block ? ` · code of ${label(block.role)}` : e.type === 'action' || e.type === 'action_result' ? ' · action' : '';
      frames.push({ kind: 'turn', name: `turn ${turn}${what}`, index: j, turn, ...(block && frames.length === 0 ? { source: codeSource(block), line: 1 } : {}), canRestart: false });
    }
  }
  if (e.step !== undefined && e.step > 0) frames.push({ kind: 'step', name: `step ${e.step}`, index: j, canRestart: false });
  if (e.round !== undefined && e.round > 0) frames.push({ kind: 'round', name: `round ${e.round}`, index: j, canRestart: false });
  frames.push({ ...episodeFrame, index: j });
  return frames;
}
