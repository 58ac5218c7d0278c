// RoCo's response format (Mandi et al.): a dialog turn ends with PROCEED (hand the discussion on) or with an
// EXECUTE block, one line per robot,
//   EXECUTE
//   NAME Alice ACTION PICK blue_square PATH [(0.1, 0.2, 0.9), (0.1, 0.25, 0.85)]
//   NAME Bob ACTION WAIT
// This module reads that text into structured actions (the engine's AgentAction) the way RoCo's response parser
// does, and words its failures as RoCo's feedback. A line may also be written on one line with the EXECUTE
// (a person typing in an input box): "EXECUTE NAME Alice ACTION WAIT NAME Bob ACTION PICK cup".
import type { AgentAction } from '../../protocol/trace.js';

export type Decision = 'EXECUTE' | 'PROCEED' | 'none';

/** How a dialog turn ends: an EXECUTE block wins over a PROCEED mentioned before it. */
export function decisionOf(text: string): Decision {
  if (/\bEXECUTE\b/.test(text)) return 'EXECUTE';
  if (/\bPROCEED\b/.test(text)) return 'PROCEED';
  return 'none';
}

export interface PlanFormat {
  agents: readonly string[];
  /** Verbs the task offers (PICK, PLACE, MOVE, WAIT and its own), upper case. */
  verbs: readonly string[];
  /** Verbs that take no argument (WAIT, DUMP) and those that take one object (PICK, SWEEP, OPEN). */
  noArgs: readonly string[];
  /** 'required': every action but WAIT carries a PATH of `pathPoints` points. */
  path: 'optional' | 'required';
  pathPoints?: number;
  /** Names in the scene (RoCo's parser refuses an object it does not know); absent: names are not checked here. */
  objects?: readonly string[];
}

export type ParsedExecute = { ok: true; actions: AgentAction[]; lines: string[] } | { ok: false; agent: string; line: string; reason: string };

const NUM = '-?\\d+(?:\\.\\d+)?(?:e[-+]?\\d+)?';

/** The EXECUTE block's lines (the last EXECUTE in the text), one per NAME. */
export function executeLines(text: string): string[] | null {
  const at = text.lastIndexOf('EXECUTE');
  if (at < 0) return null;
  const body = text.slice(at + 'EXECUTE'.length);
  // Lines start at each NAME <agent> ACTION, whatever whitespace separates them.
  return body
    .split(/(?=\bNAME\s+\S+\s+ACTION\b)/)
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter((l) => /^NAME\s/.test(l));
}

function point(t: string): [number, number, number] | null {
  const m = new RegExp(`^\\(\\s*(${NUM})\\s*,\\s*(${NUM})\\s*,\\s*(${NUM})\\s*\\)$`, 'i').exec(t.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

/** Parses the EXECUTE block of `text` into one action per agent, or names the first problem. */
export function parseExecute(text: string, f: PlanFormat): ParsedExecute {
  const lines = executeLines(text);
  const first = f.agents[0] ?? '?';
  if (!lines) return { ok: false, agent: first, line: text.trim().split('\n').pop() ?? '', reason: "no EXECUTE block: the final plan starts with EXECUTE, then one 'NAME <robot> ACTION <action>' line per robot" };
  if (lines.length === 0) return { ok: false, agent: first, line: 'EXECUTE', reason: "the EXECUTE block has no 'NAME <robot> ACTION <action>' lines" };
  const actions: AgentAction[] = [];
  for (const line of lines) {
    const m = /^NAME\s+(\S+)\s+ACTION\s+(.*)$/.exec(line);
    if (!m) return { ok: false, agent: first, line, reason: "each line must read 'NAME <robot> ACTION <action>'" };
    const agent = m[1]!.replace(/[,:;.]$/, '');
    if (!f.agents.includes(agent)) return { ok: false, agent, line, reason: `there is no robot named '${agent}'; robots: ${f.agents.join(', ')}` };
    if (actions.some((a) => a.agent === agent)) return { ok: false, agent, line, reason: `${agent} has more than one action` };
    let rest = m[2]!.trim();
    let path: [number, number, number][] | undefined;
    const pm = /\bPATH\b(.*)$/.exec(rest);
    if (pm) {
      const list = pm[1]!.trim();
      if (!/^\[.*\]$/.test(list)) return { ok: false, agent, line, reason: 'PATH must be followed by a list [(x, y, z), ...]' };
      const tuples = list.slice(1, -1).match(/\([^)]*\)/g) ?? [];
      if (tuples.length === 0) return { ok: false, agent, line, reason: 'PATH must be a list of (x, y, z) tuples' };
      path = [];
      for (const t of tuples) {
        const p = point(t);
        if (!p) return { ok: false, agent, line, reason: `PATH point ${t} is not three numbers (x, y, z)` };
        path.push(p);
      }
      rest = rest.slice(0, pm.index).trim();
    }
    const words = rest.split(/\s+/).filter((w) => w.length > 0);
    const verb = (words[0] ?? '').toUpperCase().replace(/^PUT$/, 'PLACE');
    if (!f.verbs.includes(verb)) return { ok: false, agent, line, reason: `unknown action '${words[0] ?? ''}'; actions: ${f.verbs.join(', ')}` };
    const args = words.slice(1).filter((w) => w.toLowerCase() !== 'on');
    let structured: unknown[];
    if (f.noArgs.includes(verb)) {
      if (args.length > 0) return { ok: false, agent, line, reason: `${verb} takes no arguments` };
      if (verb === 'WAIT' && path) return { ok: false, agent, line, reason: 'WAIT takes no PATH' };
      structured = [];
    } else if (verb === 'PLACE') {
      if (args.length !== 2) return { ok: false, agent, line, reason: 'PLACE takes an object and a target: PLACE <object> <target>' };
      structured = [args[0], args[1]];
    } else if (verb === 'MOVE') {
      const p = point(rest.slice(words[0]!.length));
      if (p) structured = [p];
      else if (args.length === 1 && !args[0]!.startsWith('(')) structured = [args[0]];
      else return { ok: false, agent, line, reason: 'MOVE takes one point (x, y, z) or one object' };
    } else if (verb === 'PICK' && args.length === 3 && /^(PLACE|PUT)$/i.test(args[1]!)) {
      // RoCoBench's combined PICK <object> PLACE <target>
      structured = [args[0], 'PLACE', args[2]];
    } else {
      if (args.length !== 1) return { ok: false, agent, line, reason: `${verb} takes one object: ${verb} <object>` };
      structured = [args[0]];
    }
    if (f.objects) {
      const unknown = structured.find((x): x is string => typeof x === 'string' && x !== 'PLACE' && !f.objects!.includes(x));
      if (unknown) return { ok: false, agent, line, reason: `there is no object named '${unknown}' in the scene; objects: ${f.objects.join(', ')}` };
    }
    if (f.path === 'required' && verb !== 'WAIT' && !path) return { ok: false, agent, line, reason: `every action except WAIT needs a PATH of ${f.pathPoints ?? 'several'} (x, y, z) waypoints in this task` };
    if (path && f.pathPoints && path.length !== f.pathPoints) return { ok: false, agent, line, reason: `each PATH must contain exactly ${f.pathPoints} coordinates, got ${path.length}` };
    actions.push({ agent, name: verb, args: path ? [...structured, path] : structured });
  }
  const missing = f.agents.filter((a) => !actions.some((x) => x.agent === a));
  if (missing.length > 0) return { ok: false, agent: missing[0]!, line: lines.join(' | '), reason: `no action for ${missing.join(', ')}: every robot needs exactly one (WAIT if idle)` };
  actions.sort((a, b) => f.agents.indexOf(a.agent) - f.agents.indexOf(b.agent));
  return { ok: true, actions, lines };
}

/** RoCo's feedback for a response that failed to parse. */
export function parseFeedback(agent: string, line: string, reason: string): string {
  return `This previous response from [${agent}] failed to parse!: '${line}' ${reason}. Re-format to strictly follow [Action Output Instruction]!`;
}

/** The plan as lines (what the history and the feedback show). */
export function planLines(actions: readonly AgentAction[]): string {
  return actions
    .map((a) => {
      const path = a.args.find((x) => Array.isArray(x) && x.length > 0 && Array.isArray(x[0])) as number[][] | undefined;
      const rest = a.args.filter((x) => x !== path).map((x) => (Array.isArray(x) ? `(${x.join(', ')})` : String(x)));
      return `NAME ${a.agent} ACTION ${[a.name, ...rest].join(' ')}${path ? ` PATH [${path.map((p) => `(${p.map((v) => +v.toFixed(3)).join(', ')})`).join(', ')}]` : ''}`;
    })
    .join('\n');
}
