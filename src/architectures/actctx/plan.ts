// Action Contextualization's plans as data: the task plan (`task_plan = [(i, action, (args)), ...]`), the evaluation
// plan (`evaluation_plan = [(i, {check: (args), ...}, (expected, ...)), ...]`) and the in-place edit of a retune
// (`task_plan[k] = (k, action, (args))`). Answers are read with the Python parser (pyLiteral.ts) and then checked
// the way running them would fail: the paper's syntax check-and-repair loop (Sec. IV-E, V-B) sends these messages
// back. Positional arguments follow the paper's signatures (Table I); the catalog (src/core/apis/actctx.ts) is the
// one definition of them.
import { ACTCTX_API } from '../../core/apis/actctx.js';
import type { ApiFunctionSpec } from '../../core/sim/simulator.js';
import { describe, parseAssignments, pyRepr, PySyntaxError, type Py, type PyAssignment } from './pyLiteral.js';

export const SKILLS = ['approach', 'pick', 'place', 'drop'] as const;
export type Skill = (typeof SKILLS)[number];
export const CHECKS = ['can_grasp', 'holding', 'at_location', 'collision_free', 'timeout', 'check_motion_health', 'can_reach'] as const;
export type CheckName = (typeof CHECKS)[number];
/** Every action's evaluation must include these (the paper: "verify without fail"), while the prompt asks for them. */
export const MANDATORY_CHECKS: readonly CheckName[] = ['collision_free', 'timeout', 'check_motion_health'];
/** The prompt block (evaluation_plan.prompt) that asks for MANDATORY_CHECKS; switched off, the reader demands none. */
export const MANDATORY_CHECKS_ABLATION = 'evaluation_plan.mandatory_checks';
/** obstacle_clearance above this is refused before it runs (the simulator's own bound). */
export const MAX_CLEARANCE_M = 0.3;

export interface PlanStep {
  index: number;
  action: Skill;
  /** Arguments as written (Python values), in the paper's positional order. */
  args: Py[];
  /** The same as plain values for the simulator. */
  values: (string | number)[];
}

export interface CheckCall {
  name: CheckName;
  args: Py[];
  values: string[];
  /** What the plan expects it to return: a bool, or a label ('' = nothing) for collision_free. */
  expected: boolean | string;
}

export interface EvalEntry {
  index: number;
  checks: CheckCall[];
}

export interface Labels {
  objects: readonly string[];
  locations: readonly string[];
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

const SPEC: Record<string, ApiFunctionSpec> = Object.fromEntries(ACTCTX_API.map((f) => [f.name, f]));

/** The one ```python block of an answer (the paper's repair loop names what is wrong). */
export function codeBlock(text: string): Parsed<string> {
  const blocks = [...text.matchAll(/```[ \t]*(?:python|py)?[ \t]*\r?\n([\s\S]*?)```/gi)].map((m) => m[1]!);
  if (blocks.length === 0) return { ok: false, error: 'I expected Python code in your answer but found none. Please write the plan again.' };
  if (blocks.length > 1) return { ok: false, error: `I expected exactly one Python code block in your answer but found ${blocks.length}. Please answer again with a single Python code block.` };
  return { ok: true, value: blocks[0]! };
}

function ranError(e: string): string {
  return `I ran your code and it raised the following error: ${e} Please correct it.`;
}

/** Reads the assignments of a code block; a Python error becomes the paper-style "ran your code" message. */
function assignments(code: string): Parsed<PyAssignment[]> {
  try {
    return { ok: true, value: parseAssignments(code) };
  } catch (err) {
    if (err instanceof PySyntaxError) return { ok: false, error: ranError(err.message) };
    throw err;
  }
}

/** Exactly one assignment to `name` (anything else is a repair message). */
function single(code: string, name: string, indexed: boolean): Parsed<PyAssignment> {
  const a = assignments(code);
  if (!a.ok) return a;
  const mine = a.value.filter((x) => x.target === name);
  if (a.value.length === 0) return { ok: false, error: `I expected an assignment to '${name}' in your code but found none. Please write it as ${indexed ? `${name}[index] = (index, 'action', (arguments))` : `${name} = [...]`}.` };
  if (a.value.length > 1) return { ok: false, error: `I expected a single assignment in your code but found ${a.value.length} (lines ${a.value.map((x) => x.line).join(', ')}). Please write one statement that assigns '${name}'.` };
  if (mine.length === 0) return { ok: false, error: `I expected the code to assign '${name}' but it assigns '${a.value[0]!.target}'.` };
  const one = mine[0]!;
  if (indexed && one.index === undefined) return { ok: false, error: `I expected an in-place change of one action, such as ${name}[index] = (index, 'action', (arguments)), but the code assigns the whole ${name}.` };
  if (!indexed && one.index !== undefined) return { ok: false, error: `I expected the full plan assigned to '${name}' in one statement, not a change of ${name}[${pyRepr(one.index)}].` };
  return { ok: true, value: one };
}

function num(v: Py): number | null {
  return v.t === 'int' || v.t === 'float' ? v.v : null;
}

/** Arity check with Python's TypeError wording. */
function arity(fn: string, args: Py[], line: number): string | null {
  const spec = SPEC[fn]!;
  const required = spec.params.filter((p) => !p.optional);
  if (args.length > spec.params.length) {
    const n = spec.params.length;
    const what = n === required.length ? `${n}` : `from ${required.length} to ${n}`;
    return `TypeError: ${fn}() takes ${what} positional argument${n === 1 ? '' : 's'} but ${args.length} ${args.length === 1 ? 'was' : 'were'} given (line ${line})`;
  }
  if (args.length < required.length) {
    const missing = required.slice(args.length).map((p) => `'${p.name}'`);
    const list = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} and ${missing[missing.length - 1]}`;
    return `TypeError: ${fn}() missing ${missing.length} required positional argument${missing.length === 1 ? '' : 's'}: ${list} (line ${line})`;
  }
  return null;
}

/** A label argument: a string naming one of `allowed`. */
function label(fn: string, param: string, v: Py, allowed: readonly string[], what: string, line: number): string | null {
  if (v.t !== 'str') return `TypeError: ${fn}() expects ${param} as a string naming one of the ${what}, got ${describe(v)} ${pyRepr(v)} (line ${line})`;
  if (!allowed.includes(v.v)) return `ValueError: ${fn}(): ${pyRepr(v)} is not one of the ${what}: ${allowed.map((x) => `'${x}'`).join(', ')} (line ${line})`;
  return null;
}

function ranged(fn: string, param: string, v: Py, lo: number, hi: number, loOpen: boolean, unit: string, line: number): string | null {
  const x = num(v);
  if (x === null) return `TypeError: ${fn}() expects ${param} as a number, got ${describe(v)} ${pyRepr(v)} (line ${line})`;
  if (!Number.isFinite(x) || (loOpen ? x <= lo : x < lo) || x > hi) return `ValueError: ${fn}(): ${param} must be in ${loOpen ? '(' : '['}${lo}, ${hi}]${unit}, got ${pyRepr(v)} (line ${line})`;
  return null;
}

function grasp(fn: string, v: Py, line: number): string | null {
  if (v.t === 'str' && (v.v === 'top' || v.v === 'side')) return null;
  return `ValueError: ${fn}(): grasp must be 'top' or 'side', got ${pyRepr(v)} (line ${line})`;
}

/** Checks one action's arguments against its signature and the scene's labels. */
export function checkStep(action: string, args: Py[], labels: Labels, line: number): string | null {
  if (!(SKILLS as readonly string[]).includes(action)) return `NameError: name '${action}' is not defined; the action functions are ${SKILLS.join(', ')} (line ${line})`;
  const bad = arity(action, args, line);
  if (bad) return bad;
  const speed = (i: number) => ranged(action, 'speed', args[i]!, 0, 1, true, '', line);
  const clearance = (i: number) => ranged(action, 'obstacle_clearance', args[i]!, 0, MAX_CLEARANCE_M, false, ' metres', line);
  switch (action as Skill) {
    case 'approach':
    case 'pick':
      return label(action, 'object_to_grasp', args[0]!, labels.objects, 'objects', line) ?? speed(1) ?? clearance(2) ?? grasp(action, args[3]!, line);
    case 'place':
      return label(action, 'location', args[0]!, labels.locations, 'locations', line) ?? ranged(action, 'orientation', args[1]!, 0, 1, false, '', line) ?? speed(2) ?? clearance(3);
    case 'drop':
      return label(action, 'location', args[0]!, labels.locations, 'locations', line) ?? speed(1) ?? clearance(2);
  }
}

function values(args: Py[]): (string | number)[] {
  return args.map((a) => (a.t === 'str' ? a.v : a.t === 'int' || a.t === 'float' ? a.v : pyRepr(a)));
}

/** One `(index, 'action', (args))` tuple. */
function step(v: Py, labels: Labels, where: string): Parsed<PlanStep> {
  if (v.t !== 'tuple' || v.items.length !== 3) return { ok: false, error: ranError(`ValueError: ${where} must be a tuple (action number, action function name, (arguments)), got ${pyRepr(v)} (line ${v.line})`) };
  const [i, a, argv] = v.items as [Py, Py, Py];
  if (i.t !== 'int') return { ok: false, error: `The plan has a non-integer action number ${pyRepr(i)} (line ${i.line}). Action numbers are integers from 0.` };
  if (a.t !== 'str') return { ok: false, error: ranError(`TypeError: the action name of action ${i.v} must be a string, got ${pyRepr(a)} (line ${a.line})`) };
  // A single argument written without the tuple's comma is one value (the authors' code accepts a bare string).
  const args = argv.t === 'tuple' || argv.t === 'list' ? argv.items : [argv];
  const bad = checkStep(a.v, args, labels, v.line);
  if (bad) return { ok: false, error: ranError(bad) };
  return { ok: true, value: { index: i.v, action: a.v as Skill, args, values: values(args) } };
}

/** `task_plan = [...]`: a list of action tuples numbered 0, 1, 2, ... in order. */
export function parseTaskPlan(answer: string, labels: Labels): Parsed<PlanStep[]> {
  const code = codeBlock(answer);
  if (!code.ok) return code;
  const a = single(code.value, 'task_plan', false);
  if (!a.ok) return a;
  const v = a.value.value;
  if (v.t !== 'list' && v.t !== 'tuple') return { ok: false, error: ranError(`TypeError: task_plan must be a list of tuples, got ${describe(v)} (line ${v.line})`) };
  if (v.items.length === 0) return { ok: false, error: 'The task plan is empty. Please write the actions that carry out the task.' };
  const steps: PlanStep[] = [];
  for (const item of v.items) {
    const s = step(item, labels, 'each element of task_plan');
    if (!s.ok) return s;
    steps.push(s.value);
  }
  const order = indexOrder(steps.map((s) => s.index));
  if (order) return { ok: false, error: order };
  return { ok: true, value: steps };
}

/** The repair messages of the authors' code for plan numbering. */
function indexOrder(ix: number[]): string | null {
  if (ix[0] !== 0) return 'The first index of the plan is not 0. Please number the actions 0, 1, 2, ...';
  for (let k = 1; k < ix.length; k++) {
    if (ix[k]! < ix[k - 1]!) return `The plan is not in order: action ${ix[k]} comes after action ${ix[k - 1]}.`;
    if (ix[k]! !== ix[k - 1]! + 1) return `The plan indices are not consecutive: ${ix[k - 1]} is followed by ${ix[k]}.`;
  }
  return null;
}

/** Check arguments: labels where the check takes them, 'top'/'side' for grasp. */
function checkArgs(name: CheckName, args: Py[], labels: Labels, line: number): string | null {
  const bad = arity(name, args, line);
  if (bad) return bad;
  const all = [...labels.objects, ...labels.locations];
  switch (name) {
    case 'can_grasp':
      return label(name, 'object', args[0]!, labels.objects, 'objects', line) ?? (args[1] ? grasp(name, args[1], line) : null);
    case 'at_location':
      return label(name, 'object', args[0]!, labels.objects, 'objects', line) ?? label(name, 'location', args[1]!, [...labels.locations, 'robot'], 'locations', line);
    case 'can_reach':
      return label(name, 'goal', args[0]!, all, 'objects or locations', line) ?? (args[1] ? grasp(name, args[1], line) : null);
    default:
      return null;
  }
}

/**
 * `evaluation_plan = [...]`: one entry per action of `plan`, in its order, each with the three mandatory checks
 * unless `mandatory` is false (the prompt's `evaluation_plan.mandatory_checks` block off: nothing asked for them,
 * and the authors' code demands none).
 */
export function parseEvaluationPlan(answer: string, plan: readonly PlanStep[], labels: Labels, mandatory = true): Parsed<EvalEntry[]> {
  const code = codeBlock(answer);
  if (!code.ok) return code;
  const a = single(code.value, 'evaluation_plan', false);
  if (!a.ok) return a;
  const v = a.value.value;
  if (v.t !== 'list' && v.t !== 'tuple') return { ok: false, error: ranError(`TypeError: evaluation_plan must be a list of tuples, got ${describe(v)} (line ${v.line})`) };
  // The shape first: a plan written one check per tuple (the paper's Mistral case a) would otherwise be refused for
  // whatever its first tuple lacks, not for what is wrong with it.
  const rows: { i: number; d: Extract<Py, { t: 'dict' }>; exp: Py; line: number }[] = [];
  for (const item of v.items) {
    if (item.t !== 'tuple' || item.items.length !== 3) return { ok: false, error: ranError(`ValueError: each element of evaluation_plan must be a tuple (action number, {check: (arguments)}, (expected outputs)), got ${pyRepr(item)} (line ${item.line})`) };
    const [i, d, exp] = item.items as [Py, Py, Py];
    if (i.t !== 'int') return { ok: false, error: `The evaluation plan has a non-integer action number ${pyRepr(i)} (line ${i.line}).` };
    if (d.t !== 'dict') return { ok: false, error: ranError(`TypeError: the checks of action ${i.v} must be a dictionary {check_name: (arguments)}, got ${describe(d)} (line ${d.line})`) };
    rows.push({ i: i.v, d, exp, line: item.line });
  }
  const dup = rows.find((r, k) => rows.findIndex((x) => x.i === r.i) !== k);
  if (dup) {
    const lines = rows.filter((r) => r.i === dup.i).map((r) => r.line);
    return { ok: false, error: `The evaluation plan indices are not consecutive: action ${dup.i} has ${lines.length} tuples (lines ${lines.join(', ')}). Give one tuple per action, with all of its checks in one dictionary and their expected outputs in one tuple.` };
  }
  const out: EvalEntry[] = [];
  for (const { i, d, exp, line } of rows) {
    const expected = exp.t === 'tuple' || exp.t === 'list' ? exp.items : [exp];
    if (expected.length !== d.entries.length) return { ok: false, error: `The evaluation of action ${i} lists ${d.entries.length} check${d.entries.length === 1 ? '' : 's'} but ${expected.length} expected output${expected.length === 1 ? '' : 's'} (line ${line}). Expected outputs are matched to the checks in order.` };
    const checks: CheckCall[] = [];
    for (let k = 0; k < d.entries.length; k++) {
      const [key, argv] = d.entries[k]!;
      if (key.t !== 'str' || !(CHECKS as readonly string[]).includes(key.v)) return { ok: false, error: ranError(`NameError: name ${key.t === 'str' ? `'${key.v}'` : pyRepr(key)} is not defined; the checking functions are ${CHECKS.join(', ')} (line ${key.line})`) };
      const name = key.v as CheckName;
      // The authors' code tolerates {} for "no arguments".
      const args = argv.t === 'tuple' || argv.t === 'list' ? argv.items : argv.t === 'dict' && argv.entries.length === 0 ? [] : [argv];
      const bad = checkArgs(name, args, labels, key.line);
      if (bad) return { ok: false, error: ranError(bad) };
      const e = expected[k]!;
      let want: boolean | string;
      if (name === 'collision_free') {
        // An expected True means "no collision" (the authors' code coerces it to '').
        if (e.t === 'str') want = e.v;
        else if (e.t === 'bool' && e.v) want = '';
        else return { ok: false, error: `collision_free() returns a label ('' when there was no collision); action ${i} expects ${pyRepr(e)} (line ${e.line}).` };
      } else if (e.t === 'bool') want = e.v;
      else return { ok: false, error: `${name}() returns True or False; action ${i} expects ${pyRepr(e)} (line ${e.line}).` };
      checks.push({ name, args, values: args.map((x) => (x.t === 'str' ? x.v : pyRepr(x))), expected: want });
    }
    const missing = mandatory ? MANDATORY_CHECKS.filter((m) => !checks.some((c) => c.name === m)) : [];
    if (missing.length > 0) return { ok: false, error: `The evaluation of action ${i} does not check ${missing.join(', ')}. Every action must be checked for collisions, timely motion and motion health.` };
    out.push({ index: i, checks });
  }
  const ix = out.map((e) => e.index);
  const want = plan.map((s) => s.index);
  if (ix.length !== want.length || ix.some((x, k) => x !== want[k])) {
    return { ok: false, error: `The evaluation plan covers actions [${ix.join(', ')}] but the task plan has actions [${want.join(', ')}]. Please give one tuple per action, in the same order.` };
  }
  return { ok: true, value: out };
}

/**
 * `task_plan[k] = (k, 'action', (args))`: a retune of action `onlyIndex` (the failed one; undefined = any one
 * action, as in the retune after success). The action may not change.
 */
export function parseRetune(answer: string, plan: readonly PlanStep[], labels: Labels, onlyIndex: number | undefined): Parsed<PlanStep> {
  const code = codeBlock(answer);
  if (!code.ok) return code;
  const a = single(code.value, 'task_plan', true);
  if (!a.ok) return a;
  const idx = a.value.index!;
  if (idx.t !== 'int') return { ok: false, error: `The code changes task_plan at a non-integer index ${pyRepr(idx)} (line ${a.value.line}).` };
  if (onlyIndex !== undefined && idx.v !== onlyIndex) return { ok: false, error: `The failed action is task_plan[${onlyIndex}], but the code changes task_plan[${idx.v}]. Please change the arguments of action ${onlyIndex} only.` };
  const old = plan.find((s) => s.index === idx.v);
  if (!old) return { ok: false, error: ranError(`IndexError: list assignment index out of range: task_plan has actions 0..${plan.length - 1} (line ${a.value.line})`) };
  const s = step(a.value.value, labels, `task_plan[${idx.v}]`);
  if (!s.ok) return s;
  if (s.value.index !== idx.v) return { ok: false, error: `task_plan[${idx.v}] must keep its action number ${idx.v}, got ${s.value.index}.` };
  if (s.value.action !== old.action) return { ok: false, error: `A retune changes the arguments of an action, not the action: task_plan[${idx.v}] is '${old.action}', the code makes it '${s.value.action}'. Do not use other actions.` };
  if (pyRepr(tupleOf(s.value.args)) === pyRepr(tupleOf(old.args))) return { ok: false, error: `After running your code the plan 'task_plan' did not change: task_plan[${idx.v}] still has the arguments ${pyRepr(tupleOf(old.args))}. Please change them.` };
  return s;
}

/** A replan: a full new task plan within plus or minus `maxChange` actions of the old one. */
export function parseReplan(answer: string, old: readonly PlanStep[], labels: Labels, maxChange = 5): Parsed<PlanStep[]> {
  const p = parseTaskPlan(answer, labels);
  if (!p.ok) return p;
  if (Math.abs(p.value.length - old.length) > maxChange) return { ok: false, error: `The new plan must be within ${maxChange} actions of the old one, which had ${old.length}; it has ${p.value.length}.` };
  return p;
}

export function tupleOf(items: Py[]): Py {
  return { t: 'tuple', items, line: 0 };
}

/** `(0, 'approach', ('cup', 0.5, 0.03, 'top'))` as Python prints it. */
export function stepRepr(s: PlanStep): string {
  return `(${s.index}, '${s.action}', ${pyRepr(tupleOf(s.args))})`;
}

/** The plan as a Python statement (what the LLM wrote, normalised). */
export function planRepr(plan: readonly PlanStep[]): string {
  return `task_plan = [\n${plan.map((s) => `    ${stepRepr(s)},`).join('\n')}\n]`;
}

/** Parameter names of a skill in positional order (for views that show named arguments). */
export function paramNames(action: string): string[] {
  return SPEC[action]?.params.map((p) => p.name) ?? [];
}
