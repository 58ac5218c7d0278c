// Reading the conversation a MALMM role receives: the task sentence, the environment states in order, who said
// what, which code blocks ran and how they ended. Only the messages are read; nothing else is known.
import type { ChatMessage } from '../../../protocol/trace.js';
import { parseStateText, type Scene } from './scene.js';
import { assignments, parseSteps, robotCalls, type Step } from './steps.js';

export type Speaker = 'Supervisor' | 'User' | 'Planner' | 'Coder' | 'Executor' | 'Agent' | 'self';

export interface Entry {
  speaker: Speaker;
  content: string;
}

export interface Execution {
  /** Index in `entries` of the Executor's report. */
  at: number;
  code: string;
  ok: boolean;
  errorType?: string;
  errorName?: string;
  state?: Scene;
}

export interface Conversation {
  task?: string;
  /** Every state text in the request, in order (the system prompt's first). */
  states: Scene[];
  /** The chat after the system prompt, without the final instruction to the role. */
  entries: Entry[];
  executions: Execution[];
}

const SPEAKER_RE = /^(Supervisor|User|Planner|Coder|Executor|Agent)\s*:\s*\n/;

/** The task sentence: the quoted instruction of the opening message, else a "task:" line of the prompt. */
export function findTask(messages: readonly ChatMessage[]): string | undefined {
  const all = messages.map((m) => m.content).join('\n');
  const quoted = /end[- ]effector to\s*["“]([^"”\n]+)["”]/i.exec(all)?.[1];
  if (quoted) return quoted.trim();
  const line = /\btask\b[^:\n]*:\s*([^\n]+)/i.exec(all)?.[1];
  return line?.replace(/^use the robot arm's end effector to\s*/i, '').replace(/^["“]|["”]\.?$/g, '').trim() || undefined;
}

export function readConversation(messages: readonly ChatMessage[]): Conversation {
  const states: Scene[] = [];
  const entries: Entry[] = [];
  for (const [i, m] of messages.entries()) {
    states.push(...statesIn(m.content));
    if (m.role === 'system') continue;
    const last = i === messages.length - 1;
    if (m.role === 'assistant') {
      entries.push({ speaker: 'self', content: m.content });
      continue;
    }
    const sp = SPEAKER_RE.exec(m.content);
    if (sp) entries.push({ speaker: sp[1] as Speaker, content: m.content.slice(sp[0].length) });
    else if (!last) entries.push({ speaker: 'Supervisor', content: m.content });
  }
  const executions: Execution[] = [];
  let pendingCode: string | undefined;
  for (const [at, e] of entries.entries()) {
    if (e.speaker === 'Executor') {
      const ok = /^\s*exitcode:\s*0\b/i.test(e.content);
      const err = /Error:\s*(\w+)\s*:\s*([^\n]*)/.exec(e.content);
      const name = err?.[1] === 'NameError' ? /name '([^']+)'/.exec(err[2]!)?.[1] : undefined;
      executions.push({
        at,
        code: pendingCode ?? '',
        ok,
        ...(err ? { errorType: err[1] } : {}),
        ...(name ? { errorName: name } : {}),
        ...(stateIn(e.content) ? { state: stateIn(e.content) } : {}),
      });
      pendingCode = undefined;
    } else {
      const code = pythonBlock(e.content);
      if (code !== undefined) pendingCode = code;
    }
  }
  return { task: findTask(messages), states, entries, executions };
}

function stateIn(text: string): Scene | undefined {
  return statesIn(text).at(-1);
}

/** Every state text in a message: each one ends with its end-effector block. */
function statesIn(text: string): Scene[] {
  const out: Scene[] = [];
  const heads = [...text.matchAll(/\*\*\s*End[- ]effector\s*\*\*/gi)].map((m) => m.index!);
  for (const [k, at] of heads.entries()) {
    const from = k === 0 ? 0 : heads[k - 1]! + 1;
    const to = heads[k + 1] ?? text.length;
    const s = parseStateText(text.slice(from, to));
    if (s) out.push(s);
  }
  return out;
}

/** The last ```python block of a text. */
export function pythonBlock(text: string): string | undefined {
  const blocks = [...text.matchAll(/```(?:python|py)[ \t]*\r?\n([\s\S]*?)```/gi)];
  return blocks.at(-1)?.[1];
}

/** The newest entry by `who` that lists plan steps, with its index. */
export function latestPlan(c: Conversation, who: Speaker): { at: number; steps: Step[]; text: string } | undefined {
  for (let i = c.entries.length - 1; i >= 0; i--) {
    const e = c.entries[i]!;
    if (e.speaker !== who) continue;
    const steps = parseSteps(e.content);
    if (steps.length > 0 || /task_completed\(\)/.test(e.content)) return { at: i, steps, text: e.content };
  }
  return undefined;
}

/** Executions after entry `at`. */
export function executionsAfter(c: Conversation, at: number): Execution[] {
  return c.executions.filter((x) => x.at > at);
}

/** Plan steps already carried out after entry `at`: robot calls in blocks that ran without error. */
export function stepsDoneAfter(c: Conversation, at: number): number {
  return executionsAfter(c, at)
    .filter((x) => x.ok)
    .reduce((n, x) => n + robotCalls(x.code), 0);
}

/** Values the earlier blocks defined (name -> value text), newest last. */
export function earlierDefinitions(c: Conversation): Map<string, string> {
  const out = new Map<string, string>();
  for (const x of c.executions) for (const [k, v] of assignments(x.code)) out.set(k, v);
  return out;
}

/** Failures in a row at the end of the chat: failed blocks, and Planner checks that report a step did not work. */
export function failureStreak(c: Conversation): number {
  let n = 0;
  for (let i = c.entries.length - 1; i >= 0; i--) {
    const e = c.entries[i]!;
    if (e.speaker === 'Executor') {
      if (/^\s*exitcode:\s*0\b/i.test(e.content)) continue;
      n++;
    } else if (e.speaker === 'Planner' || e.speaker === 'self' || e.speaker === 'Agent') {
      if (/\bdid not work\b/i.test(e.content)) n++;
      else if (/\bworked\b/i.test(e.content)) break;
    }
  }
  return n;
}

/** The first and the latest state of the request. */
export function initialState(c: Conversation): Scene | undefined {
  return c.states[0];
}
export function latestState(c: Conversation): Scene | undefined {
  return c.states.at(-1);
}
