// What every MALMM role policy reads first: the rules of its system prompt, the conversation, the task and the
// states, and the dice of the flawed profile.
import type { ChatMessage } from '../../../protocol/trace.js';
import type { PolicyContext } from '../../../core/llm/reference/policy.js';
import { readConversation, type Conversation } from './chat.js';
import { Flaws } from './flaws.js';
import { imagine, motionFrom, type Motion } from './motion.js';
import { readRules, systemText, type PromptRules } from './rules.js';
import { insideFootprint, isFlat, top, type Scene } from './scene.js';
import { readTask, type Goal, type TaskModel, type TaskView } from './tasks/index.js';

export interface Understanding {
  rules: PromptRules;
  conv: Conversation;
  flaws: Flaws;
  motion: Motion;
  task?: TaskModel;
  /** Why there is no task model. */
  problem?: string;
  initial?: Scene;
  current?: Scene;
  pressed: Set<string>;
}

export function understand(messages: readonly ChatMessage[], context: PolicyContext): Understanding {
  const rules = readRules(systemText(messages));
  const conv = readConversation(messages);
  const flaws = new Flaws(context.profile === 'reference-flawed', messages, context);
  const motion = motionFrom(rules);
  const initial = conv.states[0];
  const latest = conv.states.at(-1);
  // The paper's state dump has no gripper line: as a model would, read the gripper from the calls that ran.
  const fromCalls = latest && !latest.gripperStated ? gripperFromCalls(conv) : undefined;
  const current = latest && fromCalls !== undefined ? { ...latest, gripperOpen: fromCalls } : latest;
  const base = { rules, conv, flaws, motion, initial, current, pressed: pressedIn(conv, initial) };
  if (!conv.task) return { ...base, problem: 'the conversation states no task' };
  if (!initial || !current) return { ...base, problem: 'no environment state found in the conversation' };
  let task: TaskModel | string | undefined;
  try {
    task = readTask(conv.task, initial);
  } catch (err) {
    task = (err as Error).message;
  }
  if (task === undefined) return { ...base, problem: `it does not know how to do "${conv.task}"` };
  if (typeof task === 'string') return { ...base, problem: task };
  return { ...base, task };
}

/** Whether the gripper is open after the blocks that ran (their last gripper call); undefined when none called one. */
function gripperFromCalls(conv: Conversation): boolean | undefined {
  for (let i = conv.executions.length - 1; i >= 0; i--) {
    const x = conv.executions[i]!;
    if (!x.ok) continue;
    const calls = [...x.code.matchAll(/\b(open_gripper|close_gripper)\s*\(/g)];
    if (calls.length > 0) return calls.at(-1)![1] === 'open_gripper';
  }
  return undefined;
}

/**
 * Objects that a block which ran pushed below their top (a press), read from the code's waypoints: the end
 * effector within 2 cm above the top (the fingertips reach 1.4 cm below it) down to 5 cm below it.
 */
function pressedIn(conv: Conversation, initial: Scene | undefined): Set<string> {
  const out = new Set<string>();
  if (!initial) return out;
  for (const x of conv.executions) {
    if (!x.ok) continue;
    for (const m of x.code.matchAll(/\[\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*\]/g)) {
      const p = [Number(m[1]), Number(m[2]), Number(m[3])];
      for (const o of initial.objects) if (!isFlat(o) && insideFootprint(o, p) && p[2]! < top(o) + 0.011 && p[2]! > top(o) - 0.05) out.add(o.name);
    }
  }
  return out;
}

/** The view of the newest state. */
export function currentView(u: Understanding): TaskView {
  return { scene: u.current!, initial: u.initial!, pressed: u.pressed, motion: u.motion };
}

/**
 * The view a planner has that does not look at new states: the first state with the effects of the goals it has
 * already planned (by label, in order) imagined on top.
 */
export function imaginedView(u: Understanding, plannedLabels: readonly string[]): TaskView {
  let view: TaskView = { scene: u.initial!, initial: u.initial!, pressed: new Set(), motion: u.motion };
  for (const label of plannedLabels) {
    const g = u.task!.goals(view).find((x) => x.label === label);
    if (!g) continue;
    view = imagineGoal(view, g);
  }
  return view;
}

export function imagineGoal(view: TaskView, g: Goal): TaskView {
  const pressed = new Set(view.pressed);
  if (g.action.kind === 'press') pressed.add(g.action.object);
  return { ...view, scene: imagine(view.scene, g.action, view.motion), pressed };
}

export function cannot(why: string): string {
  return `The reference policy (scripted, not an LLM) cannot continue: ${why}.`;
}
