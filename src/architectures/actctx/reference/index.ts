// The reference model's Action Contextualization policies (scripted, NOT an LLM), one per role of the one
// conversation: task plan (Prompt 1), evaluation plan (Prompts 2 and 7), retune (Prompts 3-5, 8, 9), replan
// (Prompt 6), retune after success, and syntax repair. Each reads only the messages.
// Without the scene.spatial_relations ablation the description says nothing of what stands where relative to what
// (the paper's App. E), so both profiles start in the task's order with top grasps and learn order and grasp from
// the collision and failure feedback (§V-A).
// reference-flawed makes the paper's Fig. 7 mistakes: it keeps the task's order even when the relations say a
// full glass stands in the way of another target (the hand meets the glass until a replan puts it first), picks a
// high speed for the full glass (it slips out of the hand: holding() fails, a retune slows down), gives a paper
// ball a wide clearance (the fingers stop above a wedged one: holding() fails, a retune lets them closer), and sometimes writes
// the evaluation plan one check per tuple (Mistral's slip, which the repair loop catches). Which values it picks is
// drawn from a hash of the conversation and the seed.
import { createHash } from 'node:crypto';
import type { ChatMessage } from '../../../protocol/trace.js';
import { registerPolicy, type PolicyContext } from '../../../core/llm/reference/policy.js';
import { currentPlan, readFailure, readFailures, readScene, requestBeforeRepairs, taskTargets, type Action } from './conversation.js';
import { graspLessons, improveAnswer, inTheWay, retuneAnswer, workedSettings } from './feedback.js';
import { planCode, planFor, py, type PlanSlips } from './planner.js';

const CANNOT = (why: string) => `The reference policy (scripted, not an LLM) cannot answer: ${why}.`;

/** A number in [0, 1) from the conversation's first request, the seed and the mistake's name. */
function dice(messages: readonly ChatMessage[], ctx: PolicyContext, name: string): number {
  const first = messages.find((m) => m.role === 'user')?.content ?? '';
  const h = createHash('sha256').update(`${ctx.seed ?? ''}\u0000${name}\u0000${first}`).digest();
  return h.readUInt32BE(0) / 2 ** 32;
}

function flawed(ctx: PolicyContext): boolean {
  return ctx.profile === 'reference-flawed';
}

function slipsFor(messages: readonly ChatMessage[], ctx: PolicyContext): PlanSlips {
  if (!flawed(ctx)) return {};
  return {
    taskOrder: true,
    fullGlassSpeed: [0.9, 0.95, 1.0][Math.floor(dice(messages, ctx, 'fullGlassSpeed') * 3)]!,
    // Wide enough to stop the fingers above a wedged ball (ac_single_paper_ball_2 seed 0: 0.03 m and more do, 0.02 m
    // and less get in); 0.04 m stops the pick in 4 s, where 0.05 m runs into the controller timeout.
    wedgedClearance: 0.04,
  };
}

function taskPlan(messages: ChatMessage[], ctx: PolicyContext, slips?: PlanSlips): string {
  const scene = readScene(messages);
  if (!scene) return CANNOT('the conversation has no scene description with objects and locations');
  const targets = taskTargets(scene);
  if (targets.length === 0) return CANNOT(`the task names none of the objects (${scene.objects.join(', ')})`);
  const p = planFor(scene, slips ?? slipsFor(messages, ctx));
  const lines = [
    `The task is to put away ${p.order.map((o) => `the ${o}`).join(' and ')}. Each object is approached, picked and then put where it belongs; the robot holds one thing at a time.`,
  ];
  // Only the relations ablation (the description saying what stands beside or in front of what) or a replan's
  // collision feedback changes the task's order.
  if (p.order.join() !== targets.join()) lines.push(slips?.first?.length || slips?.last?.length ? `The order is ${p.order.join(', then ')}, from the feedback.` : `The order is ${p.order.join(', then ')}: the glass stands right beside the other object or between it and the robot, so it would be in the hand's way.`);
  lines.push('```python', planCode(p.actions), '```');
  return lines.join('\n');
}

function checksFor(a: Action, held: string | undefined): [string, string][] {
  const obj = String(a.args[0]);
  const grasp = a.action === 'approach' || a.action === 'pick' ? String(a.args[3] ?? 'top') : 'top';
  const base: [string, string][] = [
    ['collision_free', "()"],
    ['timeout', "()"],
    ['check_motion_health', "()"],
  ];
  if (a.action === 'approach') return [[`can_grasp`, `(${py(obj)}, ${py(grasp)})`], ...base, ['can_reach', `(${py(obj)}, ${py(grasp)})`]];
  if (a.action === 'pick') return [['holding', '()'], ...base];
  return held ? [['at_location', `(${py(held)}, ${py(obj)})`], ...base] : base;
}

function expectedOf(name: string): string {
  return name === 'collision_free' ? "''" : 'True';
}

function evaluationPlan(messages: ChatMessage[], ctx: PolicyContext, allowSlip = true): string {
  const plan = currentPlan(messages);
  if (plan.length === 0) return CANNOT('there is no task plan in the conversation yet');
  let held: string | undefined;
  const entries = plan.map((a) => {
    const checks = checksFor(a, held);
    if (a.action === 'pick') held = String(a.args[0]);
    if (a.action === 'place' || a.action === 'drop') {
      const c = checks;
      held = undefined;
      return { a, checks: c };
    }
    return { a, checks };
  });
  const firstEval = !messages.some((m) => m.role === 'assistant' && /evaluation_plan\s*=/.test(m.content));
  // reference-flawed: now and then one check per tuple (the paper's Mistral case a), which the repair loop refuses.
  if (allowSlip && flawed(ctx) && firstEval && dice(messages, ctx, 'evalOneCheckPerTuple') < 0.5) {
    const rows = entries.flatMap(({ a, checks }) => checks.map(([n, args]) => `    (${a.index}, {'${n}': ${args}}, (${expectedOf(n)},)),`));
    return ['```python', 'evaluation_plan = [', ...rows, ']', '```'].join('\n');
  }
  const rows = entries.map(({ a, checks }) => `    (${a.index}, {${checks.map(([n, args]) => `'${n}': ${args}`).join(', ')}}, (${checks.map(([n]) => expectedOf(n)).join(', ')})),`);
  return ['```python', 'evaluation_plan = [', ...rows, ']', '```'].join('\n');
}

function retune(messages: ChatMessage[]): string {
  const f = readFailure(messages);
  if (!f) return CANNOT('the latest request has no failure report (failure index, failed action, current arguments)');
  const plan = currentPlan(messages);
  const at = plan.findIndex((a) => a.index === f.index);
  const approach = plan.slice(0, Math.max(0, at)).reverse().find((a) => a.action === 'approach');
  const approachGrasp = f.action === 'pick' && approach && approach.args[0] === f.args[0] ? String(approach.args[3]) : undefined;
  return retuneAnswer(f, readScene(messages)?.objects ?? [], approachGrasp);
}

function replan(messages: ChatMessage[], ctx: PolicyContext): string {
  const scene = readScene(messages);
  const f = readFailure(messages);
  if (!scene || !f) return CANNOT('the conversation lacks the scene or the failure report');
  const targets = taskTargets(scene);
  const reports = readFailures(messages);
  const first = inTheWay(reports, scene, targets);
  // What the collision reports name as in the way goes first; the settings that worked and the grasps that avoided a
  // fixture are kept; the rest is planned afresh (reference-flawed keeps its habits for objects it has not handled yet).
  const keep = workedSettings(f);
  for (const [name, grasp] of graspLessons(reports, scene)) keep.set(name, { ...keep.get(name), grasp });
  // An object no retune could handle (the failed action's, or the one in the hand) goes last: the other targets
  // may be what stops the hand, and they are put away anyway.
  const stuck = handledBy(currentPlan(messages), f.index);
  const last = stuck && targets.length > 1 && !first.includes(stuck) ? [stuck] : [];
  const slips: PlanSlips = { ...slipsFor(messages, ctx), taskOrder: true, first, last, keep };
  const body = taskPlan(messages, ctx, slips);
  const lead = first.length
    ? `The robot ran into the ${first.join(' and the ')}, which is to be put away too, so it is put away first.`
    : last.length
      ? `Every setting tried for the ${last[0]} failed; the other objects may stand in the hand's way, so they are put away first and the ${last[0]} last.`
      : 'The plan is rebuilt with the settings that worked.';
  return `${lead}\n${body}`;
}

/** The object the action at `index` handles: its own label, or for place / drop the one the last pick took. */
function handledBy(plan: readonly Action[], index: number): string | undefined {
  const at = plan.findIndex((a) => a.index === index);
  if (at < 0) return undefined;
  const a = plan[at]!;
  if (a.action === 'approach' || a.action === 'pick') return String(a.args[0]);
  return plan.slice(0, at).reverse().find((p) => p.action === 'pick')?.args[0] as string | undefined;
}

function improve(messages: ChatMessage[]): string {
  const plan = currentPlan(messages);
  if (plan.length === 0) return CANNOT('there is no task plan in the conversation yet');
  return improveAnswer(plan);
}

const REPAIR_OPENINGS = [/^I expected /, /^I ran your code/, /^The (first index|plan|evaluation|new plan|failed action|task plan)/, /^After running your code/, /^A retune/, /^collision_free\(\) returns/, /returns True or False/, /^task_plan\[/];

function repair(messages: ChatMessage[], ctx: PolicyContext): string {
  // Answer the request the repairs are about again, carefully this time.
  const isRepair = (t: string) => REPAIR_OPENINGS.some((r) => r.test(t));
  const upTo = requestBeforeRepairs(messages, isRepair);
  const request = [...upTo].reverse().find((m) => m.role === 'user')?.content ?? '';
  if (/evaluation plan named 'evaluation_plan'/.test(request)) return evaluationPlan(upTo, ctx, false);
  if (/failure index:/.test(request) && /Make a new plan/.test(request)) return replan(upTo, ctx);
  if (/failure index:/.test(request)) return retune(upTo);
  if (/task plan succeeded/.test(request)) return improve(upTo);
  return taskPlan(upTo, { ...ctx, profile: 'reference' });
}

let registered = false;
/** Registers the Action Contextualization role policies with the reference model (idempotent). */
export function registerActctxPolicies(): void {
  if (registered) return;
  registered = true;
  registerPolicy('actctx', 'task_plan', (m, c) => taskPlan(m, c));
  registerPolicy('actctx', 'evaluation_plan', (m, c) => evaluationPlan(m, c));
  registerPolicy('actctx', 'retune', (m) => retune(m));
  registerPolicy('actctx', 'replan', (m, c) => replan(m, c));
  registerPolicy('actctx', 'improve', (m) => improve(m));
  registerPolicy('actctx', 'repair', (m, c) => repair(m, c));
}
