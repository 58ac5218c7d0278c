// The Supervisor: reads the chat and names the next speaker. With the prompt's routing hints it sends a failed
// block back to the Coder and calls the Planner after an object is released; without them it follows the team
// description alone and hands every Executor report to the Planner, who judges results.
import type { ChatMessage } from '../../../protocol/trace.js';
import type { PolicyContext } from '../../../core/llm/reference/policy.js';
import { latestPlan, pythonBlock, stepsDoneAfter } from './chat.js';
import { understand } from './understand.js';

export function supervisorAnswer(messages: ChatMessage[], context: PolicyContext): string {
  const u = understand(messages, context);
  const next = route(u);
  if (u.flaws.happens('formatSlip')) return `I think the ${next} should take the next turn.`;
  return `Next speaker: ${next}`;
}

function route(u: ReturnType<typeof understand>): 'Planner' | 'Coder' | 'Executor' {
  const entries = u.conv.entries.filter((e) => e.speaker !== 'self');
  const last = entries.at(-1);
  if (!last || last.speaker === 'Supervisor') return 'Planner';
  if (last.speaker === 'Planner') return 'Coder';
  if (last.speaker === 'Coder') {
    if (pythonBlock(last.content) !== undefined) return 'Executor';
    // No runnable block: a Coder that says the plan has run needs the Planner; a malformed block goes back to the Coder.
    return /```/.test(last.content) && u.rules.routingHints ? 'Coder' : 'Planner';
  }
  if (last.speaker === 'Executor') {
    if (!u.rules.routingHints) return 'Planner';
    if (!/^\s*exitcode:\s*0\b/i.test(last.content)) return 'Coder';
    const ran = u.conv.executions.at(-1)?.code ?? '';
    if (/\bopen_gripper\s*\(/.test(ran)) return 'Planner';
    const plan = latestPlan(u.conv, 'Planner');
    if (!plan || plan.steps.length === 0) return 'Planner';
    return stepsDoneAfter(u.conv, plan.at) >= plan.steps.length ? 'Planner' : 'Coder';
  }
  return 'Planner';
}
