// The reference model's Code-as-Policies policy (scripted, NOT an LLM): from the request's last user message only
// (the object list and the task line the prompt renders), it writes the whole program a competent model would for
// the pick-and-place tasks it can read: stacking ("Stack three red blocks at the green target area.", RLBench's, or
// "Stack the red block and the blue block on top of the green block."), putting ("Put the red block in the target area.") and lifting ("Pick up the red block and lift it up to
// the target."). Any other task gets a program that only prints that it cannot (the MALMM API has no task_failed), so the run ends as a failure, not a crash.
import { registerPolicy, type ChatMessage } from 'waypoint/architecture';

interface Obj {
  name: string;
  pos: [number, number, number];
  yaw: number;
  height: number;
}

const NUM = String.raw`-?\d+(?:\.\d+)?(?:e[-+]?\d+)?`;
const VEC = new RegExp(String.raw`\[\s*(${NUM})\s+(${NUM})\s+(${NUM})\s*\]`, 'i');

/** The objects of a MALMM-style state text ("**name** :", "Center Position: [x y z]", "Orientation", "Height"). */
export function readObjects(text: string): Obj[] {
  const out: Obj[] = [];
  let cur: Partial<Obj> | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/^#\s*/, '').trim();
    const head = /^\*\*(.+?)\*\*\s*:?$/.exec(line);
    if (head) {
      cur = head[1] === 'End-effector' ? undefined : { name: head[1] };
      if (cur) out.push(cur as Obj);
      continue;
    }
    if (!cur) continue;
    const v = VEC.exec(line);
    if (line.startsWith('Center Position') && v) cur.pos = [Number(v[1]), Number(v[2]), Number(v[3])];
    else if (line.startsWith('Orientation') && v) cur.yaw = Number(v[3]);
    else if (line.startsWith('Height:')) cur.height = Number(line.slice('Height:'.length));
  }
  return out.filter((o) => o.pos && Number.isFinite(o.height) && Number.isFinite(o.yaw));
}

type Goal = { kind: 'on'; movers: string[]; base: string } | { kind: 'lift'; mover: string; target: string } | { kind: 'stack'; count: number; colour: string; base: string };

const COUNTS: Record<string, number> = { two: 2, three: 3, four: 4, five: 5 };

/** The goal of the task sentence, or undefined for a sentence this policy cannot read. */
export function readGoal(task: string): Goal | undefined {
  const strip = (s: string) => s.trim().replace(/^the\s+/i, '');
  // RLBench's wording: "Stack three red blocks at the green target area." (which blocks: any N of that colour).
  const counted = /^stack (two|three|four|five|\d+) (\w+) blocks (?:at|on|onto) (.+?)\.?$/i.exec(task.trim());
  if (counted) return { kind: 'stack', count: COUNTS[counted[1]!.toLowerCase()] ?? Number(counted[1]), colour: counted[2]!.toLowerCase(), base: strip(counted[3]!) };
  const stack = /^stack (.+) on top of (.+?)\.?$/i.exec(task.trim());
  if (stack) return { kind: 'on', movers: stack[1]!.split(/,\s*|\s+and\s+/).map(strip).filter(Boolean), base: strip(stack[2]!) };
  const put = /^put (.+?) (?:in|into|on|onto) (.+?)\.?$/i.exec(task.trim());
  if (put) return { kind: 'on', movers: [strip(put[1]!)], base: strip(put[2]!) };
  const lift = /^pick up (.+?) and lift it (?:up )?to (.+?)\.?$/i.exec(task.trim());
  if (lift) return { kind: 'lift', mover: strip(lift[1]!), target: strip(lift[2]!) };
  return undefined;
}

const f = (x: number) => (Math.abs(x) < 5e-5 ? 0 : x).toFixed(4);
const at = (p: readonly number[], yaw: number) => `execute_trajectory([${p.map(f).join(', ')}], ${f(yaw)})`;

/** The program: one pick and place per mover, each carried 0.1 above the highest thing on the table. */
export function program(objects: readonly Obj[], wanted: Goal): string {
  const goal: Exclude<Goal, { kind: 'stack' }> =
    wanted.kind === 'stack'
      ? { kind: 'on', movers: objects.filter((o) => o.name.toLowerCase().startsWith(`${wanted.colour} block`)).slice(0, wanted.count).map((o) => o.name), base: wanted.base }
      : wanted;
  if (wanted.kind === 'stack' && goal.kind === 'on' && goal.movers.length < wanted.count) return `print("only ${goal.movers.length} ${wanted.colour} blocks among the objects")\n`;
  const byName = new Map(objects.map((o) => [o.name, o]));
  const find = (n: string) => byName.get(n) ?? objects.find((o) => o.name.includes(n) || n.includes(o.name));
  const names = goal.kind === 'on' ? [...goal.movers, goal.base] : [goal.mover, goal.target];
  const missing = names.filter((n) => !find(n));
  if (missing.length > 0) return `print("cannot find ${missing.join(', ')} among the objects")\n`;
  const lines: string[] = [];
  const tops = objects.map((o) => o.pos[2] + o.height / 2);
  let highest = Math.max(...tops);
  const pick = (o: Obj, carryZ: number) => {
    lines.push(`# pick the ${o.name}`, at([o.pos[0], o.pos[1], carryZ], o.yaw), at(o.pos, o.yaw), `close_gripper(${JSON.stringify(o.name)})`, at([o.pos[0], o.pos[1], carryZ], o.yaw));
  };
  if (goal.kind === 'lift') {
    const o = find(goal.mover)!;
    const target = find(goal.target)!;
    pick(o, highest + o.height + 0.1);
    lines.push(`# hold it at the ${target.name}`, at(target.pos, o.yaw));
  } else {
    const base = find(goal.base)!;
    let surface = base.pos[2] + base.height / 2;
    for (const name of goal.movers) {
      const o = find(name)!;
      const carryZ = Math.max(highest, surface) + o.height + 0.1;
      pick(o, carryZ);
      const release = surface + o.height / 2 + 0.02;
      lines.push(`# put it on the ${base.name}`, at([base.pos[0], base.pos[1], carryZ], base.yaw), at([base.pos[0], base.pos[1], release], base.yaw), 'open_gripper()', at([base.pos[0], base.pos[1], carryZ], base.yaw));
      surface += o.height;
      highest = Math.max(highest, surface);
    }
  }
  lines.push('task_completed()');
  return lines.join('\n') + '\n';
}

/** Answers the `policy` role from the last user message: the object list and the "# task:" line. */
export function capPolicyAnswer(messages: ChatMessage[]): string {
  const user = [...messages].reverse().find((m) => m.role === 'user');
  const text = user?.content ?? '';
  const task = /^#\s*task:\s*(.+)$/m.exec(text)?.[1] ?? '';
  const goal = readGoal(task);
  if (!goal) return '```python\nprint("this policy cannot read the task: ' + task.replace(/["\\]/g, '') + '")\n```\n';
  return '```python\n' + program(readObjects(text), goal) + '```\n';
}

let registered = false;
/** Gives the reference model its CaP policy (idempotent, as the registry asks). */
export function registerCapPolicies(): void {
  if (registered) return;
  registered = true;
  registerPolicy('cap', 'policy', (messages) => capPolicyAnswer(messages));
}
