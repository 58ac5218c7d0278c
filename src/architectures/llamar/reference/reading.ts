// How LLaMAR's reference policies (scripted, NOT an LLM) read a request: the input dict in the last user message
// ("{Task: ..., Alice's observation: [...], ...}"), the view lines, the previous-action lines and the policy's own
// memory notes. They share no code with the simulator: everything comes from the text a model would see.
import type { ChatMessage } from '../../../protocol/trace.js';

export interface AgentInput {
  name: string;
  observation: string[];
  /** Label -> what the view line says about it ("on DiningTable_1", "closed", "on", "sliced", ...). */
  view: Map<string, string[]>;
  holding: string | null;
  facing?: string;
  /** Position from the state line "I am at co-ordinates: (x, y) ...". */
  xy?: [number, number];
  previous: string;
  failures: string;
}

export interface RequestInput {
  task: string;
  agents: AgentInput[];
  open: string[];
  completed: string[];
  subtask: string;
  memory: string;
  failureReasons: string;
  corrections: Record<string, string>;
  history: string;
  /** True when the last message is feedback on an unusable answer. */
  retry: boolean;
}

const KEY = /^(Task|[A-Z][A-Za-z]*'s (?:observation|view|state|previous action|previous failures)|Robots' (?:open subtasks|completed subtasks|subtask|combined memory|failure reasons|corrective actions|history)): ?(.*)$/;

/** The input dict of the request: the last user message that starts with "{Task:". */
export function readInput(messages: readonly ChatMessage[]): RequestInput | undefined {
  const users = messages.filter((m) => m.role === 'user');
  const dictMsg = [...users].reverse().find((m) => m.content.trimStart().startsWith('{Task:'));
  if (!dictMsg) return undefined;
  const body = dictMsg.content.trim().replace(/^\{/, '').replace(/\}$/, '');
  const fields = new Map<string, string>();
  let current: string | undefined;
  for (const raw of body.split('\n')) {
    const line = raw.replace(/,$/, '');
    const m = KEY.exec(line);
    if (m) {
      current = m[1]!;
      fields.set(current, m[2]!);
    } else if (current) {
      fields.set(current, `${fields.get(current)}\n${line}`);
    }
  }
  const names: string[] = [];
  for (const k of fields.keys()) {
    const m = /^([A-Z][A-Za-z]*)'s observation$/.exec(k);
    if (m) names.push(m[1]!);
  }
  const agents: AgentInput[] = names.map((name) => {
    const state = fields.get(`${name}'s state`) ?? '';
    const holding = /holding (\S+)$/.exec(state.trim())?.[1] ?? null;
    return {
      name,
      observation: listOf(fields.get(`${name}'s observation`) ?? ''),
      view: viewOf(fields.get(`${name}'s view`) ?? ''),
      holding: holding === 'nothing' ? null : holding,
      facing: /facing (\w+)/.exec(state)?.[1],
      ...(xyOf(state) ? { xy: xyOf(state)! } : {}),
      previous: fields.get(`${name}'s previous action`) ?? '',
      failures: fields.get(`${name}'s previous failures`) ?? 'None',
    };
  });
  const last = messages[messages.length - 1];
  return {
    task: fields.get('Task') ?? '',
    agents,
    open: listOf(fields.get("Robots' open subtasks") ?? ''),
    completed: listOf(fields.get("Robots' completed subtasks") ?? ''),
    subtask: fields.get("Robots' subtask") ?? '',
    memory: fields.get("Robots' combined memory") ?? '',
    failureReasons: fields.get("Robots' failure reasons") ?? '',
    corrections: correctionsOf(fields.get("Robots' corrective actions") ?? ''),
    history: fields.get("Robots' history") ?? '',
    retry: last?.role === 'user' && last !== dictMsg,
  };
}

function xyOf(state: string): [number, number] | undefined {
  const m = /co-ordinates: \((-?[\d.]+), (-?[\d.]+)\)/.exec(state);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/** "['A_1', 'B_2']" -> ["A_1", "B_2"]; "None" -> []. */
export function listOf(text: string): string[] {
  const t = text.trim();
  if (t === '' || t === 'None' || t === '[]') return [];
  return [...t.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g)].map((m) => (m[1] ?? m[2] ?? '').trim()).filter(Boolean);
}

/** "Tomato_1 on DiningTable_1; Fridge_1 closed" -> Tomato_1: ["on DiningTable_1"], Fridge_1: ["closed"]. */
function viewOf(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of text.split(';')) {
    const m = /^\s*([A-Z][A-Za-z]*_\d+)\s+(.*)$/.exec(part);
    if (m) out.set(m[1]!, m[2]!.split(',').map((s) => s.trim()).filter(Boolean));
  }
  return out;
}

function correctionsOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!text.trim().startsWith('{')) return out;
  for (const m of text.matchAll(/([A-Z][A-Za-z]*): ([^,}]+)/g)) {
    const v = m[2]!.trim();
    if (v !== 'None') out[m[1]!] = v;
  }
  return out;
}

export const typeOf = (label: string): string => label.replace(/_\d+$/, '');

/** What a previous-action line says happened. */
export interface Outcome {
  ok: boolean;
  verb: 'navigate' | 'pickup' | 'put' | 'open' | 'close' | 'slice' | 'clean' | 'on' | 'off' | 'move' | 'rotate' | 'look' | 'explore' | 'idle' | 'done' | 'declared' | 'none';
  target?: string;
  held?: string;
  /** 'interrupted': the plain "but was unsuccessful" (the walk was cut short; the object may still be in reach). */
  navFailure?: 'unknown' | 'blocked' | 'no_path' | 'interrupted';
}

export function outcomeOf(line: string): Outcome {
  const ok = /and was successful/.test(line);
  const id = '([A-Z][A-Za-z]*_\\d+)';
  let m: RegExpExecArray | null;
  if ((m = new RegExp(`navigate(?:d)? to ${id}`).exec(line))) {
    const navFailure = /doesn't exist/.test(line) ? 'unknown' : /blockage/.test(line) ? 'blocked' : /clear path/.test(line) ? 'no_path' : ok ? undefined : 'interrupted';
    return { ok, verb: 'navigate', target: m[1], ...(navFailure ? { navFailure } : {}) };
  }
  if ((m = new RegExp(`put the (\\S+) in my hand on ${id}`).exec(line))) return { ok, verb: 'put', target: m[2], held: m[1] };
  const simple: [RegExp, Outcome['verb']][] = [
    [/pick(?:ed)? up/, 'pickup'],
    [/\bopen(?:ed)?\b/, 'open'],
    [/\bclose(?:d)?\b/, 'close'],
    [/\bslice(?:d)?\b/, 'slice'],
    [/\bclean(?:ed)?\b/, 'clean'],
    [/turn(?:ed)? on/, 'on'],
    [/turn(?:ed)? off/, 'off'],
  ];
  for (const [re, verb] of simple) {
    const mm = new RegExp(`${re.source} ${id}`).exec(line);
    if (mm) return { ok, verb, target: mm[1] };
  }
  if (/\bmove(d)?\b/.test(line)) return { ok, verb: 'move' };
  if (/rotate(d)?/.test(line)) return { ok, verb: 'rotate' };
  if (/look(ed)? (up|down)/.test(line)) return { ok, verb: 'look' };
  if (/explore(d)?/.test(line)) return { ok, verb: 'explore' };
  if (/was idle/.test(line)) return { ok: true, verb: 'idle' };
  if (/declared the task done/.test(line)) return { ok: true, verb: 'declared' };
  if (/completed the task/.test(line)) return { ok: true, verb: 'done' };
  return { ok, verb: 'none' };
}

// ---- the policy's own memory notes ---------------------------------------------------------------------------

/**
 * The notes the reference Actor keeps in the shared memory, one line of "Section: ..." parts joined by " | ":
 * Seen (object ids), Done (completed actions), Open (receptacles left open), At (where each robot stands),
 * Jobs (what each robot works on), Targets (items a clearing task must move), Search (explorations, quiet ones).
 */
export interface Notes {
  seen: string[];
  done: string[];
  open: string[];
  at: Record<string, string>;
  jobs: Record<string, string>;
  targets: string[];
  explores: number;
  quiet: number;
  searchDone: boolean;
  /** Failed NavigateTo attempts per target since the last success there (blocked or no path). */
  stuck: Record<string, number>;
  /** Receptacles that took nothing more when a robot standing at them tried to put something in. */
  full: string[];
}

export function readNotes(memory: string): Notes {
  const part = (name: string): string => new RegExp(`(?:^|\\| )${name}: ([^|]*)`).exec(memory)?.[1]?.trim() ?? '';
  const list = (name: string) => part(name).split(/,\s*/).map((s) => s.trim()).filter((s) => s && s !== '-');
  const pairs = (name: string) => Object.fromEntries(part(name).split(/;\s*/).flatMap((s) => (/=/.test(s) ? [s.split('=').map((x) => x.trim()) as [string, string]] : [])));
  const search = part('Search');
  return {
    seen: list('Seen'),
    done: part('Done').split(/;\s*/).map((s) => s.trim()).filter((s) => s && s !== '-'),
    open: list('Open'),
    at: pairs('At'),
    jobs: pairs('Jobs'),
    targets: list('Targets'),
    explores: Number(/(\d+) explorations?/.exec(search)?.[1] ?? 0),
    quiet: Number(/(\d+) without new objects/.exec(search)?.[1] ?? 0),
    searchDone: /finished/.test(search),
    stuck: Object.fromEntries(Object.entries(pairs('Stuck')).map(([k, v]) => [k, Number(v) || 0])),
    full: list('Full'),
  };
}

export function writeNotes(n: Notes): string {
  const pairs = (r: Record<string, string>) => Object.entries(r).map(([k, v]) => `${k}=${v}`).join('; ') || '-';
  return [
    `Seen: ${n.seen.join(', ') || '-'}`,
    `Done: ${n.done.join('; ') || '-'}`,
    `Open: ${n.open.join(', ') || '-'}`,
    `At: ${pairs(n.at)}`,
    `Jobs: ${pairs(n.jobs)}`,
    `Targets: ${n.targets.join(', ') || '-'}`,
    `Search: ${n.explores} explorations, ${n.quiet} without new objects${n.searchDone ? ', finished' : ''}`,
    `Stuck: ${pairs(Object.fromEntries(Object.entries(n.stuck).map(([k, v]) => [k, String(v)])))}`,
    `Full: ${n.full.join(', ') || '-'}`,
  ].join(' | ');
}

/** FNV-1a hash of text to [0, 1): the flawed profile's seeded coin. */
export function coin(...parts: (string | number)[]): number {
  let h = 2166136261;
  const s = parts.join('\u0001');
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return (h >>> 0) / 4294967296;
}
