// The reference model's answers to Action Contextualization's feedback (scripted, NOT an LLM): a retune reads the
// failure reason and changes one parameter of the failed action, escalating past what the history shows already
// failed (clearance, then grasp, then speed; a top grasp that met a fixture, something not among the objects, turns
// to the side first); a replan puts first whatever target the collision reports of the conversation name as in the
// way, and keeps the settings that worked and the grasps that avoided a fixture; a retune after success nudges the
// clearance of the last placing action. All of it is read from the feedback, not from the scene description.
import type { Action, FailureReport, Scene } from './conversation.js';
import { py } from './planner.js';

const r3 = (x: number) => Math.round(x * 1000) / 1000;

/** Index of speed, clearance, grasp and orientation in each action's arguments. */
function slots(action: string): { speed: number; clearance: number; grasp?: number; orientation?: number } {
  if (action === 'place') return { orientation: 1, speed: 2, clearance: 3 };
  if (action === 'drop') return { speed: 1, clearance: 2 };
  return { speed: 1, clearance: 2, grasp: 3 };
}

function tried(f: FailureReport, action: string, args: readonly (string | number)[]): boolean {
  const rest = `(${args.slice(1).map(py).join(', ')})`.replace(/\.0(?=[,)])/g, '');
  return f.failures.some((line) => {
    // Lines carry no score when the feedback leaves scores out (the no_scores variant).
    const m = /^(\w+): (.*?) (\(.*\))(?: \| score|$)/.exec(line);
    return m !== null && m[1] === action && m[2] === String(args[0]) && m[3]!.replace(/\.0(?=[,)])/g, '') === rest;
  });
}

/** What the robot collided with, per the report's reason ('' when it did not collide). */
export function collidedWith(f: FailureReport): string {
  return /collided with ([^|]*?) \|/.exec(f.reason)?.[1]?.trim() ?? '';
}

/**
 * Candidate changes for the failed action, best first; the first not already tried wins. `objects` is the scene's
 * label list: a collision with something not on it (a fixture such as a lamp) on a top grasp turns the grasp first.
 */
export function retuneArgs(f: FailureReport, objects: readonly string[] = [], approachGrasp?: string): { args: (string | number)[]; why: string } {
  const s = slots(f.action);
  const args = [...f.args];
  const speed = Number(args[s.speed] ?? 0.5);
  const clearance = Number(args[s.clearance] ?? 0.02);
  const label = String(args[0]);
  const reason = f.reason;
  const collided = collidedWith(f) || undefined;
  const candidates: { change: (a: (string | number)[]) => void; why: string }[] = [];
  const setClear = (v: number, why: string) => candidates.push({ change: (a) => (a[s.clearance] = r3(v)), why });
  const setSpeed = (v: number, why: string) => candidates.push({ change: (a) => (a[s.speed] = r3(v)), why });
  const flipGrasp = (why: string) => {
    if (s.grasp === undefined) return;
    const g = args[s.grasp] === 'side' ? 'top' : 'side';
    candidates.push({ change: (a) => (a[s.grasp!] = g), why: `${why}: try a ${g} grasp` });
  };
  // A pick whose grasp differs from the approach before it (a retune turned the approach) takes the approach's.
  if (f.action === 'pick' && s.grasp !== undefined && approachGrasp && args[s.grasp] !== approachGrasp) {
    candidates.push({ change: (a) => (a[s.grasp!] = approachGrasp), why: `the hand came in for a ${approachGrasp} grasp, so the pick takes that grasp too` });
  }
  if (/holding\(\) returned False/.test(reason)) {
    if (speed > 0.6) setSpeed(0.4, 'the object did not stay in the hand; a fast motion shakes it loose, so move slower');
    if (clearance > 0.006) setClear(0.005, 'the fingers may have stopped short of the object; let them come closer');
    flipGrasp('the grasp did not hold');
    setSpeed(Math.max(0.2, speed / 2), 'move slower still');
  }
  if (collided) {
    if (collided === label) setClear(clearance + 0.02, `the hand touched the ${label} itself; keep more distance from it`);
    else {
      const fixture = !objects.includes(collided) && s.grasp !== undefined && args[s.grasp] === 'top';
      if (fixture) flipGrasp(`the ${collided} is not a thing to move and sits where a hand coming from above passes`);
      setClear(Math.min(0.08, Math.max(clearance * 2, clearance + 0.02)), `the robot touched the ${collided}; steer around it from farther away`);
      setClear(Math.min(0.1, clearance + 0.04), `still too close to the ${collided}; more clearance`);
      flipGrasp(`the ${collided} is in the way of this grasp`);
      setSpeed(Math.max(0.2, speed / 2), 'slow down so the avoidance has time to act');
    }
  }
  if (/can_grasp\([^)]*\) returned False/.test(reason)) {
    setClear(Math.max(0.005, clearance / 2), 'the hand stopped too far from the object; a smaller clearance lets it come closer');
    flipGrasp('the object could not be grasped this way');
  }
  if (/can_reach\([^)]*\) returned False/.test(reason)) flipGrasp('the object is out of reach this way');
  if (/at_location\([^)]*\) returned False/.test(reason)) {
    setClear(Math.max(0.005, clearance / 2), 'the object did not end up at the location; let the hand come closer to it');
    setSpeed(Math.max(0.2, speed * 0.6), 'move slower so the object is set down where it should be');
  }
  if (/check_motion_health/.test(reason)) setSpeed(Math.max(0.2, speed * 0.6), 'the motion was unsafe for the robot; slow down');
  if (/timeout/.test(reason)) setSpeed(Math.min(1, speed * 1.5), 'the action took too long; speed up');
  if (/could not run/.test(reason)) flipGrasp('the action could not run');
  // Fallbacks so that a retune always changes something.
  setClear(Math.max(0.005, clearance * 0.75), 'try a slightly smaller clearance');
  setSpeed(Math.max(0.1, speed * 0.8), 'try a slightly lower speed');
  for (const c of candidates) {
    const next = [...args];
    c.change(next);
    if (next.some((v, i) => v !== args[i]) && !tried(f, f.action, next)) return { args: next, why: c.why };
  }
  const next = [...args];
  candidates[candidates.length - 1]!.change(next);
  return { args: next, why: candidates[candidates.length - 1]!.why };
}

export function retuneAnswer(f: FailureReport, objects: readonly string[] = [], approachGrasp?: string): string {
  const { args, why } = retuneArgs(f, objects, approachGrasp);
  return [
    `The ${f.action} at index ${f.index} failed (${f.reason.replace(/^The action failed because of: /, '').replace(/ \|\.?$/, '')}). Change: ${why}.`,
    '```python',
    `task_plan[${f.index}] = (${f.index}, '${f.action}', (${args.map(py).join(', ')}))`,
    '```',
  ].join('\n');
}

/**
 * Targets the conversation's failure reports name as hit while the robot handled another object, first hit first:
 * they are in the way and a replan puts them away first (§V-A: the glass-first order came from collision feedback).
 */
export function inTheWay(reports: readonly FailureReport[], scene: Scene, targets: readonly string[]): string[] {
  const out: string[] = [];
  for (const f of reports) {
    const hit = collidedWith(f);
    if (hit && hit !== String(f.args[0]) && targets.includes(hit) && scene.objects.includes(hit) && !out.includes(hit)) out.push(hit);
  }
  return out;
}

/**
 * Grasps learned from the feedback: an object whose approach or pick from the top met something not among the
 * objects (a fixture) is taken from the side in a replan.
 */
export function graspLessons(reports: readonly FailureReport[], scene: Scene): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of reports) {
    const hit = collidedWith(f);
    if ((f.action === 'approach' || f.action === 'pick') && hit && !scene.objects.includes(hit) && f.args[3] === 'top') out.set(String(f.args[0]), 'side');
  }
  return out;
}

/** The settings that worked for each object (from the SUCCESS lines; a pick's over an approach's), for a replan to keep. */
export function workedSettings(f: FailureReport): Map<string, { speed?: number; clearance?: number; grasp?: string }> {
  const out = new Map<string, { speed?: number; clearance?: number; grasp?: string }>();
  const picked = new Set<string>();
  for (const line of f.successes) {
    const m = /^(pick|approach): (.*?) \(([^,]+), ([^,]+), '(top|side)'\)(?: \||$)/.exec(line);
    if (!m || (m[1] === 'approach' && picked.has(m[2]!))) continue;
    if (m[1] === 'pick') picked.add(m[2]!);
    out.set(m[2]!, { speed: Number(m[3]), clearance: Number(m[4]), grasp: m[5]! });
  }
  return out;
}

/** A retune after success: raise the clearance of the last placing action a little. */
export function improveAnswer(plan: readonly Action[]): string {
  const place = [...plan].reverse().find((a) => a.action === 'place' || a.action === 'drop') ?? plan[plan.length - 1]!;
  const s = slots(place.action);
  const args = [...place.args];
  const c = Number(args[s.clearance] ?? 0.02);
  args[s.clearance] = r3(Math.min(0.06, c + 0.01));
  return [
    `The ${place.action} at index ${place.index} passes closest to other things; a little more clearance should keep the arm farther from them and raise the score without changing what it does.`,
    '```python',
    `task_plan[${place.index}] = (${place.index}, '${place.action}', (${args.map(py).join(', ')}))`,
    '```',
  ].join('\n');
}
