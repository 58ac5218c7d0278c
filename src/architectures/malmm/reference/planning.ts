// The planning the Planner and the single agent share: describe the scene, judge the last plan against the new
// state, and write the steps for the next goal (or for all remaining goals).
import { executionsAfter, type Conversation } from './chat.js';
import { stepsFor, type Slips } from './motion.js';
import { dxy, type Scene } from './scene.js';
import { f4, formatSteps, type Step } from './steps.js';
import type { Goal, TaskView } from './tasks/index.js';
import { imagineGoal, type Understanding } from './understand.js';

export const GOAL_PREFIX = 'Goal: ';

/** Goal labels in a plan text, in order. */
export function goalLabels(text: string): string[] {
  return [...text.matchAll(/^Goal:\s*(.+?)\.?\s*$/gm)].map((m) => m[1]!);
}

/** Goal labels across the given texts, in order of first appearance. */
export function plannedLabels(texts: readonly string[]): string[] {
  const out: string[] = [];
  for (const t of texts) for (const l of goalLabels(t)) if (!out.includes(l)) out.push(l);
  return out;
}

/** "Scene: ..." one line per object, with where it is relative to the first goal's object (axes permitting). */
export function describeScene(u: Understanding, scene: Scene, goal: Goal | undefined): string {
  const ref = goal ? scene.objects.find((o) => o.name === goal.action.object) : undefined;
  const lines = scene.objects.map((o) => {
    let rel = '';
    if (ref && o !== ref) {
      const d = dxy(o.pos, ref.pos);
      if (u.motion.towardKnown) {
        const dx = o.pos[0] - ref.pos[0];
        const dy = o.pos[1] - ref.pos[1];
        const side = Math.abs(dx) >= Math.abs(dy) ? (dx > 0 ? 'to the right of' : 'to the left of') : dy > 0 ? 'behind (farther from the robot than)' : 'in front of';
        rel = `, ${d.toFixed(2)} m ${side} the ${ref.name}`;
      } else rel = `, ${d.toFixed(2)} m from the ${ref.name}`;
    }
    return `- the ${o.name} is at (${f4(o.pos[0])}, ${f4(o.pos[1])}, ${f4(o.pos[2])})${rel}`;
  });
  const held = scene.grasped ? `The gripper holds the ${scene.grasped}.` : 'The gripper holds nothing.';
  return `Scene:\n${lines.join('\n')}\n${held}`;
}

/** The state the chat showed right before entry `at` (the first state when no block had run yet). */
export function stateBefore(conv: Conversation, at: number): Scene | undefined {
  const before = conv.executions.filter((x) => x.at < at && x.state);
  return before.at(-1)?.state ?? conv.states[0];
}

/**
 * The check of a finished plan against the newest state: for each goal of that plan, whether it worked and, if
 * not, what the state shows instead; and anything else that moved.
 */
export function checkText(conv: Conversation, planAt: number, planText: string, goalsNow: readonly Goal[], now: Scene): string {
  const before = stateBefore(conv, planAt);
  const labels = goalLabels(planText);
  const lines: string[] = [];
  const targets = new Set<string>();
  for (const label of labels) {
    const g = goalsNow.find((x) => x.label === label);
    if (!g) continue;
    targets.add(g.action.object);
    if (g.done) {
      lines.push(`Check: ${label}: worked.`);
      continue;
    }
    const a = before?.objects.find((o) => o.name === g.action.object);
    const b = now.objects.find((o) => o.name === g.action.object);
    let why = 'the state does not show it done';
    if (g.action.kind === 'pull' && a && b) why = `the ${b.name} moved ${dxy(a.pos, b.pos).toFixed(3)} m, not open`;
    else if (g.action.kind === 'press') why = 'no block pressed it';
    else if (a && b && dxy(a.pos, b.pos) < 0.01 && Math.abs(a.pos[2] - b.pos[2]) < 0.01) why = `the ${b.name} did not move (the grasp missed)`;
    else if (b) why = `the ${b.name} is at (${f4(b.pos[0])}, ${f4(b.pos[1])}, ${f4(b.pos[2])})${now.grasped === b.name ? ', still held' : ''}`;
    lines.push(`Check: ${label}: did not work: ${why}. Re-planning from the current state.`);
  }
  for (const o of now.objects) {
    if (targets.has(o.name)) continue;
    const a = before?.objects.find((x) => x.name === o.name);
    if (a && (dxy(a.pos, o.pos) > 0.02 || Math.abs(a.pos[2] - o.pos[2]) > 0.02)) lines.push(`Check: the ${o.name} moved ${Math.hypot(a.pos[0] - o.pos[0], a.pos[1] - o.pos[1], a.pos[2] - o.pos[2]).toFixed(3)} m although nothing was meant to move it.`);
  }
  return lines.join('\n');
}

/** Whether the last block since `at` failed (a retry is due, not a new plan). */
export function lastRunFailed(conv: Conversation, at: number): boolean {
  const x = executionsAfter(conv, at).at(-1);
  return x !== undefined && !x.ok;
}

export interface WrittenPlan {
  text: string;
  steps: Step[];
}

/**
 * Steps for `goals` in order, each planned from the scene the previous one is expected to leave. The flawed
 * profile's planning mistakes are drawn per goal here.
 */
export function writePlan(u: Understanding, view: TaskView, goals: readonly Goal[]): WrittenPlan {
  const parts: string[] = [];
  const steps: Step[] = [];
  let v = view;
  for (const [i, first] of goals.entries()) {
    // Each later goal is read again from the scene the earlier ones are expected to leave (a cup already nested).
    const g = i === 0 ? first : (u.task!.goals(v).find((x) => x.label === first.label) ?? first);
    // A goal planned i goals ahead of the state the planner has seen is (1 + i) times as likely to go wrong, and a
    // plan written without first describing the scene invents coordinates twice as often.
    const ahead = 1 + i;
    const slips: Slips = {
      wrongYaw: u.flaws.happens('wrongYaw', i, ahead),
      missingLift: u.flaws.happens('missingLift', i, ahead),
      inventedCoordinates: u.flaws.happens('inventedCoordinates', i, ahead * (u.rules.spatialDescription ? 1 : 2)),
    };
    const s = stepsFor(g.action, v.scene, u.motion, slips);
    parts.push(`${GOAL_PREFIX}${g.label}.`);
    parts.push(formatSteps(s, steps.length + 1));
    steps.push(...s);
    v = imagineGoal(v, g);
  }
  return { text: parts.join('\n'), steps };
}

export const COMPLETE_LINE = 'The task is complete. Coder: call task_completed().';
