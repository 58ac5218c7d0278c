// Reading the Action Contextualization conversation as a model would: the first request (Prompt 1) holds the scene
// description, the label lists and the task; the model's own earlier answers hold the plans it wrote; the latest
// request holds the failure report. Nothing here knows the simulator.
import type { ChatMessage } from '../../../protocol/trace.js';
import { parseAssignments, type Py } from '../pyLiteral.js';

export interface Scene {
  description: string;
  objects: string[];
  locations: string[];
  task: string;
}

/** A thing in the description and what the description says about it. */
export interface Thing {
  name: string;
  side: 'left' | 'right' | 'middle';
  nextTo: string[];
  wedged: boolean;
  behind: string[];
  under: string[];
  full: boolean;
}

export interface Action {
  index: number;
  action: string;
  args: (string | number)[];
}

function listAfter(text: string, name: string): string[] {
  const m = new RegExp(`${name} = (\\[[^\\n]*\\])`).exec(text);
  if (!m) return [];
  try {
    const a = parseAssignments(`x = ${m[1]}`)[0]!.value;
    return a.t === 'list' ? a.items.flatMap((i) => (i.t === 'str' ? [i.v] : [])) : [];
  } catch {
    return [];
  }
}

/** The first request: description (everything before the label lists), labels and the quoted task. */
export function readScene(messages: readonly ChatMessage[]): Scene | undefined {
  const first = messages.find((m) => m.role === 'user' && /objects = \[/.test(m.content));
  if (!first) return undefined;
  const text = first.content;
  const cut = text.search(/\n[^\n]*\nobjects = \[/);
  const description = cut > 0 ? text.slice(0, cut).trim() : '';
  const task = /task is: "([^"]*)"/.exec(text)?.[1] ?? '';
  return { description, objects: listAfter(text, 'objects'), locations: listAfter(text, 'locations'), task };
}

/** What the description says about each object (sentences that start with the object's quoted label). */
export function things(scene: Scene): Map<string, Thing> {
  const out = new Map<string, Thing>();
  for (const name of scene.objects) {
    const line = scene.description.split('\n').find((l) => l.startsWith(`The '${name}'`)) ?? '';
    const quoted = (part: string | undefined) => [...(part ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1]!);
    const side = /on the left/.test(line) ? 'left' : /on the right/.test(line) ? 'right' : 'middle';
    out.set(name, {
      name,
      side,
      nextTo: quoted(/(?:right next to|wedged between) ([^;.]*)/.exec(line)?.[1]),
      wedged: /wedged between/.test(line),
      behind: quoted(/it is behind ([^;.]*)/.exec(line)?.[1]),
      under: /hangs right over it/.test(line) ? ['lamp'] : [],
      full: /filled with/.test(line),
    });
  }
  return out;
}

/** The labels quoted in the task sentence, in order. */
export function taskTargets(scene: Scene): string[] {
  const quoted = [...scene.task.matchAll(/'([^']+)'/g)].map((m) => m[1]!).filter((n) => scene.objects.includes(n));
  if (quoted.length) return quoted;
  return scene.objects.filter((o) => scene.task.includes(o));
}

function plainValue(v: Py): string | number {
  return v.t === 'str' ? v.v : v.t === 'int' || v.t === 'float' ? v.v : '';
}

function toActions(v: Py): Action[] {
  if (v.t !== 'list' && v.t !== 'tuple') return [];
  return v.items.flatMap((it) => {
    if (it.t !== 'tuple' || it.items.length !== 3) return [];
    const [i, a, args] = it.items as [Py, Py, Py];
    if (i.t !== 'int' || a.t !== 'str') return [];
    const list = args.t === 'tuple' || args.t === 'list' ? args.items : [args];
    return [{ index: i.v, action: a.v, args: list.map(plainValue) }];
  });
}

/** The plan as it stands after the model's answers: the last full task_plan with later in-place edits applied. */
export function currentPlan(messages: readonly ChatMessage[]): Action[] {
  let plan: Action[] = [];
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    const code = /```(?:python|py)?[ \t]*\r?\n([\s\S]*?)```/.exec(m.content)?.[1];
    if (!code) continue;
    try {
      for (const a of parseAssignments(code)) {
        if (a.target !== 'task_plan') continue;
        if (a.index === undefined) plan = toActions(a.value);
        else if (a.index.t === 'int') {
          const edited = toActions({ t: 'list', items: [a.value], line: 0 })[0];
          if (edited) plan = plan.map((s) => (s.index === edited.index ? edited : s));
        }
      }
    } catch {
      // An answer that did not parse left the plan as it was (the framework asked for a repair).
    }
  }
  return plan;
}

export interface FailureReport {
  index: number;
  action: string;
  args: (string | number)[];
  reason: string;
  failures: string[];
  successes: string[];
}

/** The failure report of the latest request (retune / replan). */
export function readFailure(messages: readonly ChatMessage[]): FailureReport | undefined {
  return failureIn([...messages].reverse().find((m) => m.role === 'user')?.content ?? '');
}

/** Every failure report the conversation holds, oldest first (the model sees its whole conversation). */
export function readFailures(messages: readonly ChatMessage[]): FailureReport[] {
  return messages.flatMap((m) => {
    const f = m.role === 'user' ? failureIn(m.content) : undefined;
    return f ? [f] : [];
  });
}

function failureIn(last: string): FailureReport | undefined {
  const index = /failure index: (\d+)/.exec(last);
  const action = /failed action: (\w+)/.exec(last);
  const args = /current arguments: (\([^\n]*\))/.exec(last);
  if (!index || !action || !args) return undefined;
  let values: (string | number)[] = [];
  try {
    const v = parseAssignments(`x = ${args[1]}`)[0]!.value;
    values = v.t === 'tuple' ? v.items.map(plainValue) : [];
  } catch {
    values = [];
  }
  return {
    index: Number(index[1]),
    action: action[1]!,
    args: values,
    reason: /failure reason: ([^\n]*)/.exec(last)?.[1] ?? '',
    failures: [...last.matchAll(/^FAILURE: ([^\n]*)$/gm)].map((m) => m[1]!),
    successes: [...last.matchAll(/^SUCCESS: ([^\n]*)$/gm)].map((m) => m[1]!),
  };
}

/** The request the latest repair refers to: the last request before it that was not itself a repair. */
export function requestBeforeRepairs(messages: readonly ChatMessage[], isRepair: (text: string) => boolean): ChatMessage[] {
  let end = messages.length;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'user' && !isRepair(m.content)) {
      end = i + 1;
      break;
    }
  }
  return messages.slice(0, end);
}
