// The Planner: describes the scene, checks what the last plan did against the new state, and plans the next goal
// (or every remaining goal) as numbered steps with exact waypoints. Without the re-plan check it never reads a new
// state: it plans from the first state and the effects it expects its earlier plans to have had.
import type { ChatMessage } from '../../../protocol/trace.js';
import type { PolicyContext } from '../../../core/llm/reference/policy.js';
import { latestPlan, stepsDoneAfter } from './chat.js';
import { checkText, COMPLETE_LINE, describeScene, goalLabels, plannedLabels, writePlan } from './planning.js';
import { formatSteps } from './steps.js';
import { cannot, currentView, imaginedView, understand } from './understand.js';

export function plannerAnswer(messages: ChatMessage[], context: PolicyContext): string {
  const u = understand(messages, context);
  if (!u.task) return cannot(u.problem ?? 'the task is unclear');
  const mine = latestPlan(u.conv, 'self');
  const out: string[] = [];
  const check = u.rules.replanCheck;

  if (mine && mine.steps.length > 0) {
    const done = stepsDoneAfter(u.conv, mine.at);
    if (done < mine.steps.length && !check) {
      // Not asked to look at the state: the plan goes on where it is.
      const labels = goalLabels(mine.text);
      return [`Steps 1-${done} of my plan have run. Continue with the plan.`, ...labels.map((l) => `Goal: ${l}.`), formatSteps(mine.steps.slice(done), 1)].join('\n');
    }
  }

  const view = check ? currentView(u) : imaginedView(u, plannedLabels(u.conv.entries.filter((e) => e.speaker === 'self').map((e) => e.content)));
  let goals;
  try {
    goals = u.task.goals(view);
  } catch (err) {
    return cannot((err as Error).message);
  }
  const open = goals.filter((g) => !g.done);
  // A judgement point: no plan yet, the plan has run, or an object was just released.
  let judging = true;
  if (check && mine && mine.steps.length > 0) {
    const done = stepsDoneAfter(u.conv, mine.at);
    const released = /\bopen_gripper\s*\(/.test(u.conv.executions.at(-1)?.code ?? '');
    judging = done >= mine.steps.length || released;
    if (judging) {
      const c = checkText(u.conv, mine.at, mine.text, goals, view.scene);
      if (c) out.push(c);
    } else if (done > 0) out.push(`Steps 1-${done} of my plan have run; planning the rest from the current state.`);
  }
  const someDone = goals.some((g) => g.done);
  if (open.length === 0 || (judging && someDone && u.flaws.happens('prematureDone'))) {
    const why = check ? 'the state shows every goal done' : 'every planned step has run';
    out.push(`All goals are done (${why}): ${goals.map((g) => g.label).join('; ')}.`, COMPLETE_LINE);
    return out.join('\n');
  }
  if (u.rules.spatialDescription) out.unshift(describeScene(u, view.scene, open[0]));
  let plan;
  try {
    plan = writePlan(u, view, u.rules.stepFeedback ? open.slice(0, 1) : open);
  } catch (err) {
    return cannot((err as Error).message);
  }
  if (plan.steps.length === 0) return cannot(`it finds no step to make for "${open[0]!.label}"`);
  out.push(plan.text);
  out.push(
    u.rules.stepFeedback
      ? `Coder: one step per block, please. I will check the result once the ${open[0]!.action.object} is in place.`
      : 'Coder: please write the code for these steps.',
  );
  return out.join('\n');
}
