// The single agent (the paper's SA baselines): plans and codes in one answer. With per-step feedback it re-plans
// from each new state and writes the code for the next step; without it, it never reads a new state: its first
// answer plans every goal from the first state, and later answers carry that plan out (SA without feedback gets
// only the first answer, with all the code in one block).
import type { ChatMessage } from '../../../protocol/trace.js';
import type { PolicyContext } from '../../../core/llm/reference/policy.js';
import { failureStreak, latestPlan, stepsDoneAfter } from './chat.js';
import { chooseSteps, fenced, writeBlock } from './coder.js';
import { checkText, describeScene, writePlan } from './planning.js';
import { parseSteps, type Step } from './steps.js';
import { cannot, currentView, understand } from './understand.js';

export function agentAnswer(messages: ChatMessage[], context: PolicyContext): string {
  const u = understand(messages, context);
  if (!u.task) return cannot(u.problem ?? 'the task is unclear');
  if (u.rules.fiveErrorStop && failureStreak(u.conv) >= 5) return fenced(u.flaws, 'Five failures in a row: stopping as the rules say.', 'task_completed()');
  const feedback = u.rules.replanCheck;
  const code = (steps: Step[], text: string[], all: number, from: number) => {
    const chunk = chooseSteps(steps, from, u.rules);
    const last = from + chunk.length >= all;
    // Without feedback there is nothing to wait for: the block that runs the last step also ends the task.
    const { code: c } = writeBlock(chunk, u.conv, u.rules, u.flaws, !feedback && last);
    return fenced(u.flaws, [...text, chunk.length === 1 ? `Code for step ${from + 1}:` : `Code for steps ${from + 1}-${from + chunk.length}:`].join('\n'), c);
  };

  if (!feedback) {
    const first = u.conv.entries.findIndex((e) => e.speaker === 'self' && parseSteps(e.content).length > 0);
    if (first >= 0) {
      const steps = parseSteps(u.conv.entries[first]!.content);
      const done = stepsDoneAfter(u.conv, first - 1);
      if (done >= steps.length) return fenced(u.flaws, 'Every step of my plan has run.', 'task_completed()');
      return code(steps, [`Continuing my plan at step ${done + 1}.`], steps.length, done);
    }
  }
  const view = currentView(u);
  const goals = u.task.goals(view);
  const open = goals.filter((g) => !g.done);
  const out: string[] = [];
  if (feedback) {
    const mine = latestPlan(u.conv, 'self');
    // Judged once the plan has run or an object was just released; in between the agent just goes on.
    const released = /\bopen_gripper\s*\(/.test(u.conv.executions.at(-1)?.code ?? '');
    const judging = !mine || mine.steps.length === 0 || released || stepsDoneAfter(u.conv, mine.at) >= mine.steps.length;
    if (mine && mine.steps.length > 0 && judging) {
      const c = checkText(u.conv, mine.at, mine.text, goals, view.scene);
      if (c) out.push(c);
    }
    if (open.length === 0 || (judging && goals.some((g) => g.done) && u.flaws.happens('prematureDone'))) {
      out.push('Every goal is done; the task is complete.');
      return fenced(u.flaws, out.join('\n'), 'task_completed()');
    }
  }
  out.unshift(describeScene(u, view.scene, open[0]));
  let plan;
  try {
    plan = writePlan(u, view, u.rules.oneStepPerBlock && feedback ? open.slice(0, 1) : open);
  } catch (err) {
    return cannot((err as Error).message);
  }
  if (plan.steps.length === 0) return cannot(`it finds no step to make for "${open[0]!.label}"`);
  out.push(plan.text);
  return code(plan.steps, out, plan.steps.length, 0);
}
