// RoCo's response format (Mandi et al.): a dialog turn ends with PROCEED (hand the discussion on) or with an
// EXECUTE block, one line per robot,
//   EXECUTE
//   NAME Alice ACTION PICK blue_square PATH [(0.1, 0.2, 0.9), (0.1, 0.25, 0.85)]
//   NAME Bob ACTION WAIT
// This module reads that text into structured actions (the engine's AgentAction) the way RoCo's response parser
// does, and words its failures as RoCo's feedback. A line may also be written on one line with the EXECUTE
// (a person typing in an input box): "EXECUTE NAME Alice ACTION WAIT NAME Bob ACTION PICK cup".
import { plainText } from '../../core/architecture/answerText.js';
import type { AgentAction } from '../../protocol/trace.js';

export type Decision = 'EXECUTE' | 'PROCEED' | 'none';

/**
 * How a dialog turn ends: an EXECUTE followed by NAME … ACTION lines wins over a PROCEED mentioned anywhere; a
 * bare EXECUTE ("before we EXECUTE …") counts only when there is no PROCEED (then the parser says what is missing).
 */
export function decisionOf(text: string): Decision {
  const lines = executeLines(text);
  if (lines && lines.length > 0) return 'EXECUTE';
  const plain = plainText(text);
  if (/\bPROCEED\b/.test(plain)) return 'PROCEED';
  if (/\bEXECUTE\b/.test(plain)) return 'EXECUTE';
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

/**
 * One line of an answer without its markdown: quote marks, headings, list bullets and numbers, bold/italic stars and
 * backticks; "Name: Alice, Action: pick cup" becomes "NAME Alice ACTION pick cup".
 */
function plainRow(row: string): string {
  return row
    .replace(/^\s*(?:>\s*)*(?:#{1,6}\s+)?(?:(?:[-*+\u2022]|\d+[.)])\s+)?/, '')
    .replace(/[*`]/g, '')
    .replace(/\bname\s*:?\s+([A-Za-z][\w-]*)[,;:]?\s+action\b\s*:?/gi, 'NAME $1 ACTION ')
    .trim();
}

const PLAN_LINE = /\bNAME\s+\S+\s+ACTION\b/;

/** Trailing punctuation and a short remark after the action ("… WAIT (nothing to do)", "… PICK cup - closest"). */
function withoutRemark(line: string): string {
  return line
    .replace(/\s+(?:--?|\u2014|\u2013|#|\/\/)\s+.*$/, '')
    .replace(/\s*\((?=[^)]*[A-Za-z]{3})[^)]*\)\s*$/, '')
    .replace(/[.;,:]+$/, '')
    .trim();
}

/**
 * The EXECUTE block's lines, one per NAME: after the last EXECUTE that has NAME … ACTION lines after it (an earlier
 * or later mention in prose does not count). Markdown around the lines is dropped; a line that continues a PATH is
 * joined to its action; the block ends at the first other text after its lines (an explanation).
 */
export function executeLines(text: string): string[] | null {
  const rows = plainText(text).split('\n').map(plainRow);
  const marks: { row: number; col: number }[] = [];
  rows.forEach((r, i) => {
    for (const m of r.matchAll(/\bEXECUTE\b/g)) marks.push({ row: i, col: m.index! + m[0].length });
  });
  if (marks.length === 0) return null;
  const after = (m: { row: number; col: number }) => [rows[m.row]!.slice(m.col), ...rows.slice(m.row + 1)];
  const mark = [...marks].reverse().find((m) => after(m).some((r) => PLAN_LINE.test(r))) ?? marks[marks.length - 1]!;
  const out: string[] = [];
  for (const raw of after(mark)) {
    const row = raw.replace(/\s+/g, ' ').trim();
    if (PLAN_LINE.test(row)) {
      // Lines start at each NAME <agent> ACTION, so a plan typed on one line reads too.
      const parts = row.split(/(?=\bNAME\s+\S+\s+ACTION\b)/).map((l) => l.trim()).filter((l) => /^NAME\s/.test(l));
      out.push(...parts);
    } else if (row === '' || row === 'EXECUTE' || /^[:\-=]+$/.test(row)) {
      continue;
    } else if (out.length > 0 && /^(?:PATH\b|[[(])/.test(row)) {
      out[out.length - 1] = `${out[out.length - 1]} ${row}`;
    } else if (out.length > 0) {
      break;
    }
  }
  return out.map(withoutRemark);
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
    const written = m[1]!.replace(/[,:;.]$/, '');
    const agent = f.agents.find((a) => a.toLowerCase() === written.toLowerCase()) ?? written;
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
      // Object names as the scene spells them, whatever the case the model wrote.
      structured = structured.map((x) => (typeof x === 'string' ? (f.objects!.find((o) => o.toLowerCase() === x.toLowerCase()) ?? x) : x));
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
