// The reference model's RoCo policies (scripted, NOT an LLM). A dialog agent reads its prompt (readSituation),
// decides its own action for the round from what it sees (tasks.ts), says why, and hands on with PROCEED; the
// robot that speaks when everyone else has spoken gathers each robot's latest proposal from the chat and writes
// the EXECUTE block. The central planner decides for every robot at once. With feedback in the prompt the agent
// re-decides (the decisions read the feedback too). The `reference-flawed` profile makes RoCo's reported
// mistakes on a plan's first attempt (flawed.ts), so the checks and the feedback loop have something to catch.
import type { ChatMessage } from '../../../protocol/trace.js';
import { registerPolicy, type PolicyContext } from '../../../core/llm/reference/policy.js';
import { flaw, flawFormat } from './flawed.js';
import { proposals, readSituation, type Situation } from './prompt.js';
import { taskPolicyFor } from './tasks.js';

function mine(s: Situation, robot: string): { line: string; why: string } {
  const p = taskPolicyFor(s.task);
  if (!p) return { line: `NAME ${robot} ACTION WAIT`, why: `I do not know how to help with this task ("${s.task.slice(0, 60)}"), so I wait.` };
  const d = p.decide(s, robot);
  return { line: `NAME ${robot} ACTION ${d.action}`, why: d.why };
}

export function rocoDialog(messages: ChatMessage[], ctx: PolicyContext): string {
  const s = readSituation(messages);
  const me = s.agent;
  const firstAttempt = s.feedback.length === 0 && s.previousChat.length === 0;
  let own = mine(s, me);
  if (ctx.profile === 'reference-flawed' && firstAttempt) own = flaw(s, own, messages, ctx.seed);
  const others = s.robots.filter((r) => r !== me);
  const spoken = new Set(s.chat.map((t) => t.agent));
  const everyoneElse = others.every((o) => spoken.has(o));
  const fixing = s.feedback.length > 0 ? `The last plan failed (${briefFeedback(s.feedback[s.feedback.length - 1]!)}); I adjust. ` : '';
  const reply = `I am ${me}. ${fixing}${own.why}\nMy action: ${own.line}`;
  if (!everyoneElse && !s.lastCall) {
    const next = others.find((o) => !spoken.has(o));
    return `${reply}\n${next ? `${next}, what will you do? ` : ''}PROCEED`;
  }
  // Everyone has spoken: the plan is each robot's latest proposal (WAIT for a robot that proposed nothing).
  const said = proposals(s.chat);
  const lines = s.robots.map((r) => (r === me ? own.line : (said.get(r) ?? `NAME ${r} ACTION WAIT`)));
  const block = `EXECUTE\n${lines.join('\n')}`;
  return `${reply}\nEveryone has proposed; here is our plan.\n${ctx.profile === 'reference-flawed' && firstAttempt ? flawFormat(block, messages, ctx.seed) : block}`;
}

export function rocoCentral(messages: ChatMessage[], ctx: PolicyContext): string {
  const s = readSituation(messages);
  const lines: string[] = [];
  const why: string[] = [];
  for (const r of s.robots) {
    let d = mine(s, r);
    if (ctx.profile === 'reference-flawed' && s.feedback.length === 0) d = flaw({ ...s, agent: r }, d, messages, ctx.seed);
    lines.push(d.line);
    why.push(`${r}: ${d.why}`);
  }
  return `${why.join('\n')}\nEXECUTE\n${lines.join('\n')}`;
}

function briefFeedback(f: string): string {
  const line = f.split('\n').filter((l) => /faild|failed|Collision|IK|evenly|parse/.test(l)).pop() ?? f.split('\n')[0]!;
  // The keywords in lower case: a quoted "EXECUTE" would end a re-plan's dialog at this turn, with this text as the plan.
  return line.trim().replace(/^- /, '').slice(0, 160).replace(/\b(EXECUTE|PROCEED)\b/g, (k) => k.toLowerCase());
}

let registered = false;

export function registerRocoPolicies(): void {
  if (registered) return;
  registered = true;
  registerPolicy('roco', 'dialog', rocoDialog);
  registerPolicy('roco', 'central', rocoCentral);
}
