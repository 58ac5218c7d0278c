// Reads a RoCo prompt the way a model would: who am I, what is the task, what do I see, what did the others say,
// what feedback came back. The reference policies decide from this only (they share no code with the simulator
// or the architecture), so a prompt edit that hides something from the agents hides it from them too.
import type { ChatMessage } from '../../../protocol/trace.js';

export type V3 = [number, number, number];

export interface Thing {
  name: string;
  pos: V3;
  /** "is on panel5", "is in bin", "is held by Bob", "is on the table" */
  relation?: string;
  /** Full extents of a place (fixtures are listed with their size). */
  size?: V3;
}

export interface Turn {
  agent: string;
  text: string;
}

export interface Situation {
  /** The robot speaking ("Planner" for the central planner). */
  agent: string;
  /** Every robot named in the prompt, in the order they are named. */
  robots: string[];
  task: string;
  /** Free objects and places of the scene this agent sees. */
  things: Map<string, Thing>;
  facts: string[];
  /** Each gripper told: its position (UNKNOWN when the scene gives none), what it holds, the task's note ("in front of red_cube"). */
  grippers: Map<string, { pos: V3; holding: string | null; note?: string }>;
  /**
   * Reach of each robot as written ("panel1, panel2, panel3", "x from -0.60 to 0.10"): its own from the prompt, the
   * others' from what they said in the dialog ("I can reach ..."), or from the prompt where a variant tells them.
   */
  reach: Map<string, string>;
  /** Each robot's own goal where the task gives one ("place blue_square on panel2"), learnt the same way. */
  goals: Map<string, string>;
  /** The scene text gives positions (false: relations and names only, as RoCo's Sort Cubes). */
  positions: boolean;
  /** Where each robot stands in words ("on the left side of the table"), when told. */
  stands: Map<string, string>;
  /** Where each robot stands (x, y of its base), when told. */
  base: Map<string, [number, number]>;
  embodiment: Map<string, string>;
  verbs: string[];
  /** PICK is offered as the one-round `PICK <object> PLACE <target>`. */
  combinedPick: boolean;
  pathRequired: boolean;
  pathPoints: number;
  /** This round's feedback on earlier plans. */
  feedback: string[];
  /** Executed plans of past rounds, oldest first. */
  history: string[];
  previousChat: Turn[];
  chat: Turn[];
  /** Robots that stated their reach in the chat of past rounds ([History]). */
  historyMentions: Set<string>;
  lastCall: boolean;
  central: boolean;
}

const NUM = '-?\\d+(?:\\.\\d+)?';
const TRIPLE = new RegExp(`\\((${NUM}),\\s*(${NUM}),\\s*(${NUM})\\)`);

/** A position the prompt did not give. */
export const UNKNOWN: V3 = [NaN, NaN, NaN];
export const knownPos = (p: V3 | undefined): p is V3 => !!p && p.every(Number.isFinite);

/** What a robot says about itself in the dialog, so the others learn its reach and goal (RoCo App. 10.4). */
export function selfStatement(s: Situation, robot: string): string {
  const goal = s.goals.get(robot);
  const reach = s.reach.get(robot);
  return [goal ? `My goal is to ${goal}.` : '', reach ? `I can reach ${reach}.` : ''].filter(Boolean).join(' ');
}

export function v3(text: string): V3 | null {
  const m = TRIPLE.exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

/** The text between a `[Header]` line and the next header (or the end). */
function section(text: string, header: string): string | null {
  const at = text.indexOf(`[${header}]`);
  if (at < 0) return null;
  const rest = text.slice(at + header.length + 2);
  // The next top-level header ([Scene] and [Robots] are parts of the observation).
  const next = rest.search(/\n\[(?!Scene\]|Robots\])[A-Z][A-Za-z ]+\]\n|\n== Current Round ==/);
  return (next < 0 ? rest : rest.slice(0, next)).replace(/^\n/, '');
}

function chatTurns(text: string | null): Turn[] {
  if (!text) return [];
  const out: Turn[] = [];
  for (const part of text.split(/\n?(?=^\[[A-Za-z]+\]:\n)/m)) {
    const m = /^\[([A-Za-z]+)\]:\n([\s\S]*)$/.exec(part.trim());
    if (m) out.push({ agent: m[1]!, text: m[2]!.trim() });
  }
  return out;
}

export function readSituation(messages: ChatMessage[]): Situation {
  const system = messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
  const user = messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');
  const central = /^You plan for a team of robots/.test(system.trimStart());
  const agent = central ? 'Planner' : (/You are (\w+)/.exec(user)?.[1] ?? /You are robot (\w+)/.exec(system)?.[1] ?? '?');
  const task = /(?:Your joint task|Their task): (.+)/.exec(system)?.[1]?.trim() ?? '';
  const reach = new Map<string, string>();
  const embodiment = new Map<string, string>();
  const base = new Map<string, [number, number]>();
  const robotLine = (name: string, what: string, where: string) => {
    reach.set(name, where);
    const b = / based at \((-?[\d.]+), (-?[\d.]+)\)$/.exec(what);
    embodiment.set(name, b ? what.slice(0, b.index) : what);
    if (b) base.set(name, [Number(b[1]), Number(b[2])]);
  };
  for (const m of system.matchAll(/^You are (\w+), a (.+?)\. You can reach (.+?)\.$/gm)) robotLine(m[1]!, m[2]!, m[3]!);
  for (const m of system.matchAll(/^(\w+) is a (.+?) and can reach (.+?)\.$/gm)) robotLine(m[1]!, m[2]!, m[3]!);
  for (const m of system.matchAll(/^(\w+), a (.+?)\. You can reach (.+?)\.$/gm)) robotLine(m[1]!, m[2]!, m[3]!);
  const goals = new Map<string, string>();
  const stands = new Map<string, string>();
  const where = /^You stand (.+?)\.$/m.exec(system)?.[1];
  if (where) stands.set(agent, where);
  for (const m of system.matchAll(/^(\w+) stands (.+?)\.$/gm)) stands.set(m[1]!, m[2]!);
  const own = /^Your goal is to (.+?)\.$/m.exec(system)?.[1];
  if (own) goals.set(agent, own);
  for (const m of system.matchAll(/^(\w+)'s goal is to (.+?)\.$/gm)) goals.set(m[1]!, m[2]!);
  const options = section(system, 'Action Options') ?? '';
  const verbs = [...options.matchAll(/^\d+\) ([A-Z]+)/gm)].map((m) => m[1]!);
  const pathRequired = /carries a PATH of exactly (\d+)/.test(system);
  const pathPoints = Number(/PATH of exactly (\d+)/.exec(system)?.[1] ?? 4);
  const things = new Map<string, Thing>();
  const facts: string[] = [];
  const grippers = new Map<string, { pos: V3; holding: string | null; note?: string }>();
  const obs = section(system, 'Current Observation') ?? '';
  let inRobots = false;
  let positions = false;
  /** Relation lines without a position: the objects of a scene told without coordinates, else task facts. */
  const bareRelations: [string, string, string][] = [];
  for (const raw of obs.split('\n')) {
    const line = raw.trim();
    if (line === '[Scene]' || line === '') continue;
    if (line === '[Robots]') {
      inRobots = true;
      continue;
    }
    if (inRobots) {
      const g = /^(Your|(\w+)'s) gripper is (?:at (\([^)]*\)), )?holding ([^,]+)(?:, (.+))?$/.exec(line);
      if (g) grippers.set(g[1] === 'Your' ? agent : g[2]!, { pos: g[3] ? v3(g[3])! : UNKNOWN, holding: g[4] === 'nothing' ? null : g[4]!.trim(), ...(g[5] ? { note: g[5] } : {}) });
      continue;
    }
    const names = /^Places: (.+)$/.exec(line);
    if (names) {
      for (const n of names[1]!.split(/,\s*/)) things.set(n, { name: n, pos: UNKNOWN, size: UNKNOWN });
      continue;
    }
    const place = /^(\S+) is at (\([^)]*\)), size ([\d.]+) x ([\d.]+) x ([\d.]+) m$/.exec(line);
    if (place) {
      things.set(place[1]!, { name: place[1]!, pos: v3(place[2]!)!, size: [Number(place[3]), Number(place[4]), Number(place[5])] });
      positions = true;
      continue;
    }
    const rel = /^(\S+) (is .+), at (\([^)]*\))$/.exec(line);
    if (rel) {
      things.set(rel[1]!, { name: rel[1]!, pos: v3(rel[3]!)!, relation: rel[2]! });
      positions = true;
      continue;
    }
    // Without coordinates (Sort Cubes as the paper describes it): "blue_square is on panel5".
    const bare = /^(\w+) (is (?:on|in|held by|inside) .+)$/.exec(line);
    if (bare) bareRelations.push([bare[1]!, bare[2]!, line]);
    else facts.push(line);
    continue;
  }
  for (const [name, relation, line] of bareRelations) {
    if (positions) facts.push(line);
    else things.set(name, { name, pos: UNKNOWN, relation });
  }
  const robots: string[] = [];
  const add = (n: string) => n && n !== 'Planner' && !robots.includes(n) && robots.push(n);
  if (central) for (const n of (/robots, (.+?), that share/.exec(system)?.[1] ?? '').split(/,\s*|\s+and\s+/)) add(n.trim());
  else {
    add(agent);
    for (const n of (/work together with (.+?) on a shared table/.exec(system)?.[1] ?? '').split(/,\s*|\s+and\s+/)) add(n.trim());
  }
  const feedback = system
    .split(/\n(?=This proposed plan failed|This previous response from)/)
    .slice(1)
    .map((s) => s.split(/\n\[(?:Current Chat|Previous Chat)\]/)[0]!.trim());
  // The history runs to "== Current Round ==" (its rounds hold [Chat History] and [Executed Action] blocks).
  const historyAt = system.indexOf('[History]\n');
  const historyText = historyAt < 0 ? '' : system.slice(historyAt + 10, (system.indexOf('\n== Current Round ==', historyAt) + 1 || system.length + 1) - 1);
  const previousChat = chatTurns(section(system, 'Previous Chat'));
  const chat = chatTurns(section(system, 'Current Chat'));
  // What the others said about themselves, in past rounds and this one; what the prompt itself says comes first.
  const historyMentions = new Set(chatTurns(historyText).filter((t) => /\bI can reach\b/.test(t.text)).map((t) => t.agent));
  for (const t of [...chatTurns(historyText), ...previousChat, ...chat]) {
    const r = /\bI can reach (.+?)\.(?:\s|$)/.exec(t.text)?.[1];
    const g = /\bMy goal is to (.+?)\.(?:\s|$)/.exec(t.text)?.[1];
    if (r && !reach.has(t.agent)) reach.set(t.agent, r);
    if (g && !goals.has(t.agent)) goals.set(t.agent, g);
  }
  const history = [...historyText.matchAll(/\[Executed Action\]\n([\s\S]*?)(?=\n== Round#|$)/g)].map((m) => m[1]!.trim());
  return {
    agent,
    robots,
    task,
    things,
    facts,
    grippers,
    reach,
    goals,
    stands,
    positions: positions || [...grippers.values()].some((g) => knownPos(g.pos)) || [...things.values()].some((t) => knownPos(t.pos)),
    base,
    embodiment,
    verbs,
    combinedPick: /\) PICK <object> PLACE/.test(options),
    pathRequired,
    pathPoints,
    feedback,
    history,
    previousChat,
    chat,
    historyMentions,
    lastCall: /this is the last turn of the dialog/i.test(user),
    central,
  };
}

/** The latest `NAME <robot> ACTION ...` line each robot proposed for itself in the chat. */
export function proposals(turns: Turn[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const t of turns) {
    for (const m of t.text.matchAll(/NAME (\w+) ACTION ([^\n]+)/g)) {
      if (m[1] === t.agent || !out.has(m[1]!)) out.set(m[1]!, `NAME ${m[1]} ACTION ${m[2]!.trim()}`);
    }
  }
  return out;
}

/** `n` evenly spaced points from `from` to `to` (the last one is `to`). */
export function pathTo(from: V3, to: V3, n: number): V3[] {
  return Array.from({ length: n }, (_, i) => {
    const f = (i + 1) / n;
    return [from[0] + f * (to[0] - from[0]), from[1] + f * (to[1] - from[1]), from[2] + f * (to[2] - from[2])].map((v) => Math.round(v * 1000) / 1000) as V3;
  });
}

export function pathText(points: V3[]): string {
  return `PATH [${points.map((p) => `(${p.map((v) => v.toFixed(3)).join(', ')})`).join(', ')}]`;
}

export const dist = (a: V3, b: V3) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
