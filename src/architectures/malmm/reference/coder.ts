// The Coder: turns the next step(s) of the Planner's latest plan into one Python block, retries a block that
// failed, and follows (or, when a rule is missing, does not follow) the prompt's code rules.
import type { ChatMessage } from '../../../protocol/trace.js';
import type { PolicyContext } from '../../../core/llm/reference/policy.js';
import { earlierDefinitions, failureStreak, latestPlan, stepsDoneAfter, type Conversation } from './chat.js';
import type { Flaws } from './flaws.js';
import type { PromptRules } from './rules.js';
import { isHollow, type Scene } from './scene.js';
import { codeBlock, type Step } from './steps.js';
import { understand } from './understand.js';

/** Under reference-flawed, how often a Coder that has seen a NameError (without the define rule) reuses a name again. */
export const RELAPSE_RATE = 0.5;

export function coderAnswer(messages: ChatMessage[], context: PolicyContext): string {
  const u = understand(messages, context);
  const plan = latestPlan(u.conv, 'Planner');
  if (!plan) return 'There is no plan yet. Planner, please give the steps.';
  if (u.rules.fiveErrorStop && failureStreak(u.conv) >= 5) {
    return fenced(u.flaws, 'Five failures in a row: stopping as the rules say.', 'task_completed()');
  }
  if (plan.steps.length === 0) return fenced(u.flaws, 'The Planner reports the task complete.', 'task_completed()');
  const done = stepsDoneAfter(u.conv, plan.at);
  if (done >= plan.steps.length) return `All ${plan.steps.length} steps of the plan have run. Planner, please check the result.`;
  const chunk = chooseSteps(plan.steps, done, u.rules);
  const steps = u.rules.centerGraspReminder && u.current ? centreGrasps(chunk, plan.steps, done, u.current) : chunk;
  const { code } = writeBlock(steps, u.conv, u.rules, u.flaws);
  const range = steps.length === 1 ? `Step ${done + 1}` : `Steps ${done + 1}-${done + steps.length}`;
  return fenced(u.flaws, `${range} of ${plan.steps.length}: ${steps.map((s) => s.say).join('; ')}.`, code);
}

/**
 * Which steps go into the next block: one robot call (one step per block and stop after each call), the calls up to
 * and including the next gripper action (one step per block, but no rule to stop after each call), or all the
 * remaining steps (asked for all in one go, or nothing said).
 */
export function chooseSteps(steps: readonly Step[], from: number, rules: PromptRules): Step[] {
  if (!rules.oneStepPerBlock) return steps.slice(from);
  if (rules.stopAfterEachCall) return steps.slice(from, from + 1);
  let to = from;
  while (to < steps.length - 1 && steps[to]!.kind === 'move') to++;
  return steps.slice(from, to + 1);
}

/** The reminder "grasped at its CENTER": a waypoint right before close_gripper goes to the object's centre height. */
function centreGrasps(chunk: Step[], all: readonly Step[], from: number, scene: Scene): Step[] {
  return chunk.map((s, i) => {
    const next = all[from + i + 1];
    if (s.kind !== 'move' || next?.kind !== 'close') return s;
    const o = scene.objects.find((x) => x.name === next.object);
    if (!o || isHollow(o) || Math.abs(s.pos[2] - o.pos[2]) < 1e-4 || Math.hypot(s.pos[0] - o.pos[0], s.pos[1] - o.pos[1]) > 0.03) return s;
    return { ...s, pos: [s.pos[0], s.pos[1], o.pos[2]], say: `${s.say} (at its centre height)` };
  });
}

/**
 * The Python block for `steps`. Whether a value an earlier block defined is used again without being defined here
 * (a NameError when blocks do not share a namespace) depends on the define rule, on whether a NameError was already
 * seen, and under reference-flawed on the dice.
 */
export function writeBlock(steps: readonly Step[], conv: Conversation, rules: PromptRules, flaws: Flaws, complete = false): { code: string; reused: string[] } {
  const last = conv.executions.at(-1);
  const justFailedOnName = last !== undefined && !last.ok && last.errorType === 'NameError';
  const seenNameError = conv.executions.some((x) => x.errorType === 'NameError');
  let reuse: boolean;
  if (justFailedOnName) reuse = flaws.happens('nameErrorNotFixed');
  else if (!rules.defineInSameBlock) reuse = !seenNameError || (flaws.enabled && flaws.roll('relapse') < RELAPSE_RATE);
  else reuse = flaws.happens('nameError');
  // A long block may use a waypoint under a name it never assigned: every step after the first is a chance.
  let undefinedAt: number | undefined;
  for (let i = 1; i < steps.length && undefinedAt === undefined; i++) if (steps[i]!.kind === 'move' && flaws.happens('nameErrorInBlock', i)) undefinedAt = i;
  return codeBlock(steps, { earlier: earlierDefinitions(conv), reuse: () => reuse, complete, ...(undefinedAt !== undefined ? { undefinedAt } : {}) });
}

/** An answer with its code block; under reference-flawed the fence sometimes loses its `python` tag (a format slip). */
export function fenced(flaws: Flaws, say: string, code: string): string {
  const tag = flaws.happens('formatSlip') ? '' : 'python';
  return `${say}\n\`\`\`${tag}\n${code}\n\`\`\``;
}
