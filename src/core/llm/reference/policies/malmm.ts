// The reference model's MALMM policies: deterministic scripts (NOT an LLM) that read the rendered prompt — the
// task sentence and the latest environment-state text in the chat — and answer in each role's output format.
// They solve stacking tasks well enough to exercise the whole loop offline, and they say when they cannot.
// The policy parses the state text itself, as a model would: it shares no code with the simulator.
import type { ChatMessage } from '../../../../protocol/trace.js';
import { registerPolicy } from '../policy.js';

interface Obj {
  name: string;
  pos: [number, number, number];
  yaw: number;
  height: number;
}
interface SceneText {
  objects: Obj[];
  ee: [number, number, number];
  grasped: string | null;
}
interface Step {
  say: string;
  call: string;
}

const SAFE = 0.1;
const RELEASE = 0.02;
const NEAR_XY = 0.012;

const nums = (s: string): number[] => (s.match(/-?\d+(?:\.\d+)?(?:e-?\d+)?/gi) ?? []).map(Number);
/** Four decimals, and never "-0.0000". */
const f4 = (x: number): string => (Math.abs(x) < 5e-5 ? 0 : x).toFixed(4);
const vec = (v: readonly number[]): string => `[${v.map(f4).join(', ')}]`;

/** Parses the last environment-state text in the chat (MALMM's "**name** :" blocks and the end-effector block). */
export function parseLatestState(messages: ChatMessage[]): SceneText | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const text = messages[i].content;
    const at = text.lastIndexOf('**End-effector**');
    if (at < 0) continue;
    const objects: Obj[] = [];
    for (const m of text.slice(0, at).matchAll(/\*\*([^*\n]+)\*\* :\s*\nCenter Position: \[([^\]]*)\]\s*\nOrientation: \[([^\]]*)\]\s*\nHeight: ([^\n]+)/g)) {
      const p = nums(m[2]);
      const o = nums(m[3]);
      if (p.length === 3 && o.length === 3) objects.push({ name: m[1].trim(), pos: [p[0], p[1], p[2]], yaw: o[2], height: Number(m[4]) });
    }
    const eeLine = /end-effector Position: \[([^\]]*)\]/.exec(text.slice(at));
    const ee = eeLine ? nums(eeLine[1]) : [];
    const grasped = /Grasped Object: ([^\n]+)/.exec(text.slice(at))?.[1].trim() ?? null;
    if (ee.length === 3) return { objects, ee: [ee[0], ee[1], ee[2]], grasped };
  }
  return undefined;
}

/** "Stack the red block and the blue block on top of the green block." -> movers in order, and the base. */
export function parseStackTask(messages: ChatMessage[]): { movers: string[]; base: string } | undefined {
  const all = messages.map((m) => m.content).join('\n');
  const sentence = /end effector to "([^"]+)"/.exec(all)?.[1];
  if (!sentence) return undefined;
  const m = /stack (.+?) on (?:top of )?the ([a-z][a-z ]*?)\s*\.?$/i.exec(sentence.trim());
  if (!m) return undefined;
  const movers = m[1]
    .split(/,\s*(?:and\s+)?|\s+and\s+|\s+then\s+/i)
    .map((s) => s.replace(/^(?:first\s+|then\s+)?the\s+/i, '').trim())
    .filter((s) => s.length > 0);
  return { movers, base: m[2].trim() };
}

/** Yaw folded into (-pi/4, pi/4]: a cube looks the same every quarter turn, and small wrist turns are safer. */
function cubeYaw(yaw: number): number {
  const q = Math.PI / 2;
  let y = yaw % q;
  if (y > q / 2) y -= q;
  if (y <= -q / 2) y += q;
  return y;
}

const dxy = (a: readonly number[], b: readonly number[]): number => Math.hypot(a[0] - b[0], a[1] - b[1]);

interface StackView {
  base: Obj;
  placed: string[];
  next?: Obj;
  topZ: number;
}

function stackView(scene: SceneText, task: { movers: string[]; base: string }): StackView | string {
  const byName = new Map(scene.objects.map((o) => [o.name, o]));
  const base = byName.get(task.base);
  if (!base) return `the state lists no object named "${task.base}"`;
  const placed: string[] = [];
  let topZ = base.pos[2] + base.height / 2;
  for (const name of task.movers) {
    const o = byName.get(name);
    if (!o) return `the state lists no object named "${name}"`;
    const onStack = dxy(o.pos, base.pos) < 0.025 && o.pos[2] > base.pos[2] + base.height * 0.6 && scene.grasped !== name;
    if (onStack) {
      placed.push(name);
      topZ = Math.max(topZ, o.pos[2] + o.height / 2);
    }
  }
  const nextName = task.movers.find((n) => !placed.includes(n));
  return { base, placed, next: nextName ? byName.get(nextName) : undefined, topZ };
}

/** The remaining pick-and-place steps for the next block, starting from where the arm is now. */
function remainingSteps(scene: SceneText, view: StackView): Step[] {
  const steps: Step[] = [];
  const ee = scene.ee;
  const m = view.next;
  if (!m) return steps;
  const yawM = cubeYaw(m.yaw);
  const yawB = cubeYaw(view.base.yaw);
  const releaseZ = view.topZ + RELEASE + m.height / 2;
  // Carry height follows the stack, not the held block (which rises with the gripper).
  const carryZ = releaseZ + SAFE;
  const above = (o: readonly number[], z: number): [number, number, number] => [o[0], o[1], z];
  const holding = scene.grasped === m.name;
  if (!holding) {
    // Just released a block on the stack: rise before crossing the table.
    if (dxy(ee, view.base.pos) < NEAR_XY && ee[2] < view.topZ + SAFE * 0.8) {
      steps.push({ say: `rise ${SAFE} m above the stack`, call: `execute_trajectory(${vec(above(view.base.pos, view.topZ + SAFE))}, ${f4(yawB)})` });
    }
    const atCenter = dxy(ee, m.pos) < NEAR_XY && Math.abs(ee[2] - m.pos[2]) < 0.015;
    const aboveM = dxy(ee, m.pos) < NEAR_XY && Math.abs(ee[2] - (m.pos[2] + SAFE)) < 0.03;
    if (!atCenter && !aboveM) steps.push({ say: `move ${SAFE} m above the ${m.name}`, call: `execute_trajectory(${vec(above(m.pos, m.pos[2] + SAFE))}, ${f4(yawM)})` });
    if (!atCenter) steps.push({ say: `lower to the centre of the ${m.name}`, call: `execute_trajectory(${vec(m.pos)}, ${f4(yawM)})` });
    steps.push({ say: `grasp the ${m.name}`, call: `close_gripper("${m.name}")` });
    steps.push({ say: `lift the ${m.name} to a safe height`, call: `execute_trajectory(${vec(above(m.pos, carryZ))}, ${f4(yawM)})` });
  } else if (dxy(ee, view.base.pos) >= NEAR_XY && ee[2] < carryZ - 0.03) {
    steps.push({ say: `lift the ${m.name} to a safe height`, call: `execute_trajectory(${vec(above(ee, carryZ))}, ${f4(yawM)})` });
  }
  const overStack = holding && dxy(ee, view.base.pos) < NEAR_XY;
  if (!overStack) steps.push({ say: `carry it above the ${view.base.name}`, call: `execute_trajectory(${vec(above(view.base.pos, carryZ))}, ${f4(yawB)})` });
  if (!(overStack && Math.abs(ee[2] - releaseZ) < 0.01)) {
    steps.push({ say: `lower to ${RELEASE} m above the top of the stack`, call: `execute_trajectory(${vec(above(view.base.pos, releaseZ))}, ${f4(yawB)})` });
  }
  steps.push({ say: `release the ${m.name}`, call: 'open_gripper()' });
  steps.push({ say: `rise ${SAFE} m above the stack`, call: `execute_trajectory(${vec(above(view.base.pos, releaseZ + SAFE))}, ${f4(yawB)})` });
  return steps;
}

function describe(scene: SceneText, view: StackView): string {
  const parts = scene.objects.map((o) => `the ${o.name} is at (${f4(o.pos[0])}, ${f4(o.pos[1])})`);
  const stack = view.placed.length ? `The stack on the ${view.base.name} holds: ${view.placed.join(', ')}.` : `Nothing is stacked on the ${view.base.name} yet.`;
  return `Scene: ${parts.join('; ')}. ${stack}`;
}

function formatPlan(steps: Step[]): string {
  return steps.map((s, i) => `Step ${i + 1}: ${s.say}: \`${s.call}\``).join('\n');
}

function cannot(why: string): string {
  return `The reference policy (scripted, not an LLM) cannot continue: ${why}.`;
}

/** Finds the newest message that lists steps, and the steps in it. */
function latestPlan(messages: ChatMessage[]): { index: number; steps: Step[] } | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const steps = [...messages[i].content.matchAll(/^Step \d+: ([^\n]*): `([^`\n]+)`\s*$/gm)].map((m) => ({ say: m[1], call: m[2] }));
    const done = /task_completed\(\)/.test(messages[i].content) && /complete/i.test(messages[i].content) && messages[i].content.startsWith('Planner:');
    if (steps.length > 0) return { index: i, steps };
    if (done) return { index: i, steps: [{ say: 'the task is complete', call: 'task_completed()' }] };
  }
  return undefined;
}

/** How many steps of the latest plan have run successfully (Executor replies with exit code 0 after it). */
function stepsDone(messages: ChatMessage[], planIndex: number): number {
  let n = 0;
  for (let i = planIndex + 1; i < messages.length; i++) {
    if (messages[i].content.startsWith('Executor:\nexitcode: 0')) n++;
  }
  return n;
}

function lastChat(messages: ChatMessage[]): { speaker: string; content: string } | undefined {
  // The final user message is the role's own instruction ("Coder, write ..."); the chat entry before it is the last one.
  for (let i = messages.length - 2; i >= 0; i--) {
    const m = /^(Supervisor|Planner|Coder|Executor|Agent):\n/.exec(messages[i].content);
    if (m) return { speaker: m[1], content: messages[i].content.slice(m[0].length) };
    if (messages[i].role === 'assistant') return { speaker: 'self', content: messages[i].content };
  }
  return undefined;
}

function codeFor(step: Step | undefined): string {
  if (!step) return 'task_completed()';
  const call = step.call;
  const traj = /^execute_trajectory\((\[[^\]]*\]), (-?[\d.]+)\)$/.exec(call);
  if (traj) return `# ${step.say}\nposition = ${traj[1]}\norientation = ${traj[2]}\nexecute_trajectory(position, orientation)`;
  const close = /^close_gripper\(("[^"]*")\)$/.exec(call);
  if (close) return `# ${step.say}\nobject_name = ${close[1]}\nclose_gripper(object_name)`;
  return `# ${step.say}\n${call}`;
}

function planner(messages: ChatMessage[]): string {
  const task = parseStackTask(messages);
  const scene = parseLatestState(messages);
  if (!task) return cannot('it only knows stacking tasks ("Stack the X and the Y on top of the Z")');
  if (!scene) return cannot('no environment state found in the conversation');
  const view = stackView(scene, task);
  if (typeof view === 'string') return cannot(view);
  const head = describe(scene, view);
  if (!view.next) return `${head}\nAll blocks are on the stack, so the task is complete. Coder: call task_completed().`;
  return `${head}\nPlan for the ${view.next.name} (each step is one code block):\n${formatPlan(remainingSteps(scene, view))}`;
}

function coder(messages: ChatMessage[]): string {
  const plan = latestPlan(messages);
  if (!plan) return cannot('the Planner has not given a plan yet');
  const done = stepsDone(messages, plan.index);
  const step = plan.steps[done];
  if (step === undefined) return 'All steps of the current plan have run. Planner, please check the result.';
  return `\`\`\`python\n${codeFor({ say: `step ${done + 1}: ${step.say}`, call: step.call })}\n\`\`\``;
}

function supervisor(messages: ChatMessage[]): string {
  const last = lastChat(messages);
  if (!last || last.speaker === 'Supervisor') return 'Next speaker: Planner';
  if (last.speaker === 'Planner') return 'Next speaker: Coder';
  if (last.speaker === 'Coder') return /```python/.test(last.content) ? 'Next speaker: Executor' : 'Next speaker: Planner';
  if (last.speaker === 'Executor') {
    if (!/^exitcode: 0/.test(last.content)) return 'Next speaker: Coder';
    const plan = latestPlan(messages);
    if (!plan) return 'Next speaker: Planner';
    return stepsDone(messages, plan.index) >= plan.steps.length ? 'Next speaker: Planner' : 'Next speaker: Coder';
  }
  return 'Next speaker: Planner';
}

/** SA: one agent re-plans from the newest state and writes the code for the next step (or all steps at once). */
function singleAgent(messages: ChatMessage[]): string {
  const task = parseStackTask(messages);
  const scene = parseLatestState(messages);
  if (!task) return cannot('it only knows stacking tasks');
  if (!scene) return cannot('no environment state found in the conversation');
  const allAtOnce = messages.some((m) => m.role === 'system' && /code for all the steps in one/i.test(m.content));
  if (allAtOnce) return singlePass(scene, task);
  const view = stackView(scene, task);
  if (typeof view === 'string') return cannot(view);
  if (!view.next) return `${describe(scene, view)}\nThe task is complete.\n\`\`\`python\ntask_completed()\n\`\`\``;
  const steps = remainingSteps(scene, view);
  return `${describe(scene, view)}\n${formatPlan(steps)}\nCode for step 1:\n\`\`\`python\n${codeFor(steps[0])}\n\`\`\``;
}

/** SA without feedback: predicts the stack heights and writes every step for every block in one block. */
function singlePass(scene: SceneText, task: { movers: string[]; base: string }): string {
  const lines: string[] = [];
  let sim: SceneText = { ...scene, objects: scene.objects.map((o) => ({ ...o, pos: [...o.pos] as [number, number, number] })) };
  for (let guard = 0; guard < task.movers.length + 1; guard++) {
    const view = stackView(sim, task);
    if (typeof view === 'string') return cannot(view);
    if (!view.next) break;
    const steps = remainingSteps(sim, view);
    lines.push(...steps.map((s) => codeFor(s)));
    // Assume the block lands where it was released, and the arm ends above the stack.
    const moved = sim.objects.find((o) => o.name === view.next!.name)!;
    moved.pos = [view.base.pos[0], view.base.pos[1], view.topZ + moved.height / 2];
    sim = { ...sim, ee: [view.base.pos[0], view.base.pos[1], view.topZ + moved.height + SAFE], grasped: null };
  }
  lines.push('task_completed()');
  return `Plan: stack ${task.movers.join(', ')} on the ${task.base}, all steps at once.\n\`\`\`python\n${lines.join('\n')}\n\`\`\``;
}

let registered = false;
/** Registers the MALMM role policies with the reference model (idempotent). */
export function registerMalmmPolicies(): void {
  if (registered) return;
  registered = true;
  registerPolicy('malmm', 'supervisor', supervisor);
  registerPolicy('malmm', 'planner', planner);
  registerPolicy('malmm', 'coder', coder);
  registerPolicy('malmm', 'agent', singleAgent);
}
