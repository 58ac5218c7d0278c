// The reference model's planning for Action Contextualization (scripted, NOT an LLM): from the scene description,
// the label lists and the task, which objects to move, in which order, where to, and with which parameters. The
// reasoning is the kind the paper's planner writes (Fig. 6): a full glass goes slowly and upright into the sink, a
// paper ball wedged between other things needs a small clearance, something under a lamp is taken from the side, a
// glass that stands beside another target goes first.
import type { Scene, Thing } from './conversation.js';
import { things, taskTargets } from './conversation.js';

export interface PlannedAction {
  action: 'approach' | 'pick' | 'place' | 'drop';
  args: (string | number)[];
  why: string;
}

/** How a plan deviates from the careful one (the reference-flawed profile's Fig. 7 mistakes). */
export interface PlanSlips {
  /** Keep the task's order even when a glass stands beside a target. */
  taskOrder?: boolean;
  /** Speed for the full glass (the careful plan uses 0.4). */
  fullGlassSpeed?: number;
  /**
   * Clearance for a paper ball, wedged or not (the careful plan uses 0.005 for a ball the description calls wedged,
   * else 0.02; a wide one keeps the fingers out of a wedged ball). Without the relations the flawed profile cannot
   * know which ball is wedged, so it gives every ball the wide one (the paper's plan gave ball 1 0.04, Fig. 6 c).
   */
  wedgedClearance?: number;
  /** Objects already put away (a replan leaves them out). */
  done?: readonly string[];
  /** Put these first (a replan after one of them got in the way). */
  first?: readonly string[];
  /** Put these last (a replan after every setting tried for one of them failed: the others may be in its way). */
  last?: readonly string[];
  /** Parameter changes asked for earlier: per object, its speed and clearance. */
  keep?: ReadonlyMap<string, { speed?: number; clearance?: number; grasp?: string }>;
}

export function destination(name: string, locations: readonly string[]): string {
  const find = (...words: string[]) => locations.find((l) => words.some((w) => l.includes(w)));
  if (/glass/.test(name)) return find('sink') ?? find('trash', 'bin') ?? locations[0]!;
  if (/whole apple|^apple/.test(name)) return find('shelf') ?? find('trash', 'bin') ?? locations[0]!;
  return find('trash', 'bin') ?? locations[0]!;
}

/** Targets in the order to handle them: a glass that stands beside another target, or between it and the robot, goes before it. */
export function order(targets: readonly string[], info: Map<string, Thing>, slips: PlanSlips): string[] {
  const front = (slips.first ?? []).filter((t) => targets.includes(t));
  const back = (slips.last ?? []).filter((t) => targets.includes(t) && !front.includes(t));
  const rest = targets.filter((t) => !front.includes(t) && !back.includes(t));
  if (slips.taskOrder) return [...front, ...rest, ...back];
  const out = [...front];
  for (const t of [...rest, ...back]) {
    if (out.includes(t)) continue;
    // Another target standing right next to this one or in front of it, taller (a glass): it is in the hand's way
    // (and a full glass knocked over spills), so it goes first.
    const inTheWay = [...(info.get(t)?.nextTo ?? []), ...(info.get(t)?.behind ?? [])];
    for (const n of inTheWay) if (rest.includes(n) && /glass/.test(n) && !/glass/.test(t) && !out.includes(n)) out.push(n);
    out.push(t);
  }
  return out;
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;

/** The actions for one object: approach, pick, then place or drop. */
export function actionsFor(name: string, scene: Scene, info: Map<string, Thing>, slips: PlanSlips): PlannedAction[] {
  const t = info.get(name);
  const dest = destination(name, scene.locations);
  const kept = slips.keep?.get(name);
  const full = t?.full === true;
  const speed = kept?.speed ?? (full ? (slips.fullGlassSpeed ?? 0.4) : 0.5);
  const wide = slips.wedgedClearance !== undefined && (t?.wedged === true || /paper ball/.test(name));
  const clearance = kept?.clearance ?? (wide ? slips.wedgedClearance! : t?.wedged ? 0.005 : (t?.nextTo.length ?? 0) > 0 ? 0.01 : 0.02);
  const grasp = kept?.grasp ?? (t?.under.length ? 'side' : 'top');
  const why: string[] = [];
  // The comments give the reasons for the values chosen, the flawed ones included.
  if (full) why.push(speed <= 0.5 ? `the ${name} is full, so it moves slowly (speed ${speed}) to keep its grip and not spill` : `the ${name} is full, but a firm grip holds it, so it moves fast (speed ${speed}) to be quick`);
  if (!t?.wedged && wide && clearance > 0.02) why.push(`a paper ball is light and easily pushed, so the hand keeps a wide clearance (${clearance} m) not to knock it away`);
  else if (t?.wedged && clearance > 0.02) why.push(`it is wedged between ${t.nextTo.join(' and ')}, so the hand keeps a wide clearance (${clearance} m) not to knock them`);
  else if (t?.wedged) why.push(`it is wedged between ${t.nextTo.join(' and ')}, so the fingers need a small clearance (${clearance} m) to get in`);
  else if (t?.nextTo.length) why.push(`it is right next to ${t.nextTo.join(' and ')}, so a small clearance (${clearance} m) lets the hand in`);
  if (grasp === 'side') why.push('a lamp hangs over it, so it is taken from the side');
  const reach = `move near the ${name} with a ${grasp} grasp${why.length ? `: ${why.join('; ')}` : ''}`;
  const out: PlannedAction[] = [
    { action: 'approach', args: [name, speed, clearance, grasp], why: reach },
    { action: 'pick', args: [name, speed, clearance, grasp], why: `pick up the ${name} with the same settings` },
  ];
  if (full) out.push({ action: 'place', args: [dest, 0.9, speed, 0.02], why: `place it upright in the ${dest} (orientation 0.9 keeps it level), slowly so nothing spills` });
  else if (/glass/.test(name)) out.push({ action: 'place', args: [dest, 0.5, 0.5, 0.02], why: `set it down in the ${dest}; a glass should not be dropped` });
  else if (/shelf/.test(dest)) out.push({ action: 'place', args: [dest, 0.0, 0.5, 0.02], why: `set it down on the ${dest}, where it is stored` });
  else out.push({ action: 'drop', args: [dest, 0.5, 0.02], why: `drop it into the ${dest}; it cannot break` });
  return out.map((a) => ({ ...a, args: a.args.map((x) => (typeof x === 'number' ? r3(x) : x)) }));
}

export function planFor(scene: Scene, slips: PlanSlips = {}): { order: string[]; actions: PlannedAction[]; info: Map<string, Thing> } {
  const info = things(scene);
  const targets = taskTargets(scene).filter((t) => !(slips.done ?? []).includes(t));
  const ord = order(targets, info, slips);
  return { order: ord, actions: ord.flatMap((n) => actionsFor(n, scene, info, slips)), info };
}

/** A Python value as the plan writes it (numbers keep one decimal at least, like floats). */
export function py(v: string | number): string {
  if (typeof v === 'string') return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  return Number.isInteger(v) ? `${v}.0` : String(v);
}

export function planCode(actions: readonly PlannedAction[]): string {
  const lines = actions.map((a, i) => `    # ${a.why}\n    (${i}, '${a.action}', (${a.args.map(py).join(', ')})),`);
  return `task_plan = [\n${lines.join('\n')}\n]`;
}
