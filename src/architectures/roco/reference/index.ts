// The reference model's RoCo policies (scripted, NOT an LLM). A dialog agent reads its prompt (readSituation),
// decides its own action for the round from what it sees (tasks.ts), says why, and hands on with PROCEED; the
// robot that speaks when everyone else has spoken gathers each robot's latest proposal from the chat and writes
// the EXECUTE block. The central planner decides for every robot at once. With feedback in the prompt the agent
// re-decides (the decisions read the feedback too). The `reference-flawed` profile makes RoCo's reported
// mistakes on a plan's first attempt (flawed.ts), so the checks and the feedback loop have something to catch.
import type { ChatMessage } from '../../../protocol/trace.js';
import { registerPolicy, type PolicyContext } from '../../../core/llm/reference/policy.js';
import { flaw, flawFormat } from './flawed.js';
import { proposals, readSituation, selfStatement, type Situation } from './prompt.js';
import { knowsTeam, taskPolicyFor } from './tasks.js';

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
  const others = s.robots.filter((r) => r !== me);
  const spoken = new Set(s.chat.map((t) => t.agent));
  const everyoneElse = others.every((o) => spoken.has(o));
  // Each robot is told only its own reach and goal (RoCo App. 10.4, 10.7): it says them once, where the others
  // have not heard them yet (this round's chat, earlier dialogs of the round, or the history), and learns theirs.
  const heardBefore = [...s.chat, ...s.previousChat].some((t) => t.agent === me && /\bI can reach\b/.test(t.text)) || s.historyMentions.has(me);
  const intro = heardBefore ? '' : `${selfStatement(s, me)} `;
  const fixing = s.feedback.length > 0 ? `The last plan failed (${briefFeedback(s.feedback[s.feedback.length - 1]!)}); I adjust. ` : '';
  const policy = taskPolicyFor(s.task);
  const unknown = policy?.needsTeam && !knowsTeam(s) ? s.robots.filter((r) => !s.reach.has(r) || (s.goals.size > 0 && !s.goals.has(r))) : [];
  if (unknown.length > 0 && !s.lastCall) {
    // Too early to plan for the team: hand on and wait to hear the others.
    return `I am ${me}. ${intro}${fixing}I do not know yet what ${unknown.join(' and ')} can reach and need, so I propose after hearing them.\n${unknown[0]}, what can you reach and what is your goal? PROCEED`;
  }
  let own = mine(s, me);
  if (ctx.profile === 'reference-flawed' && firstAttempt) own = flaw(s, own, messages, ctx.seed);
  const reply = `I am ${me}. ${intro}${fixing}${own.why}\nMy action: ${own.line}`;
  const said = proposals(s.chat);
  // The plan is written once everyone has spoken and, where the plan needs the whole team's reach, every robot
  // has proposed (a robot that had not heard everyone proposed nothing).
  const ready = everyoneElse && (!policy?.needsTeam || others.every((o) => said.has(o)));
  if (!ready && !s.lastCall) {
    const next = others.find((o) => !spoken.has(o)) ?? others.find((o) => !said.has(o));
    return `${reply}\n${next ? `${next}, what will you do? ` : ''}PROCEED`;
  }
  // The plan is each robot's latest proposal (WAIT for a robot that proposed nothing).
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
