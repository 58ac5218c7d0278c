// RoCo's plan format (Mandi et al.): after EXECUTE, one line per robot,
//   NAME Alice ACTION PICK blue_square PATH [(0.1, 0.2, 0.9), (0.1, 0.25, 0.85)]
//   NAME Bob ACTION PLACE pink_polygon panel4
//   NAME Chad ACTION MOVE (0.3, 0.1, 0.95)
//   NAME Dave ACTION WAIT
// PUT <obj> <target> (or PUT <obj> on <target>) is PLACE's sandwich wording. PATH is optional. Tasks add verbs
// (RoCoBench's SWEEP <cube>, DUMP, OPEN <handle>) that take no argument or one object.
import type { Vec3 } from '../../scene/sceneSpec.js';

export type RocoVerb = 'PICK' | 'PLACE' | 'MOVE' | 'WAIT' | (string & {});

/** A task's own verb as the parser needs it: its arguments. */
export interface ExtraVerb {
  args: 'none' | 'object';
}

export interface RocoAction {
  robot: string;
  verb: RocoVerb;
  object?: string;
  target?: string;
  /** MOVE to a point. */
  point?: Vec3;
  path: Vec3[];
  line: string;
  /** RoCoBench's combined `PICK <object> PLACE <target>` (Sort Cubes, Arrange Cabinet): the PLACE run after the PICK. */
  then?: RocoAction;
}

export type ParsedPlan = { ok: true; actions: RocoAction[] } | { ok: false; robot: string; line: string; reason: string };

const NUM = '-?\\d+(?:\\.\\d+)?(?:e[-+]?\\d+)?';
const POINT = new RegExp(`\\(\\s*(${NUM})\\s*,\\s*(${NUM})\\s*,\\s*(${NUM})\\s*\\)`, 'gi');

function points(text: string): Vec3[] {
  return [...text.matchAll(POINT)].map((m) => [Number(m[1]), Number(m[2]), Number(m[3])] as Vec3);
}

/** Parses the plan; every robot in `robots` must get exactly one action. */
export function parsePlan(text: string, robots: string[], extra: Record<string, ExtraVerb> = {}): ParsedPlan {
  const body = text.includes('EXECUTE') ? text.slice(text.lastIndexOf('EXECUTE') + 'EXECUTE'.length) : text;
  const lines = body.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length > 0);
  const actions: RocoAction[] = [];
  for (const line of lines) {
    const m = /^NAME\s+(\S+)\s+ACTION\s+(.*)$/i.exec(line);
    if (!m) return { ok: false, robot: '?', line, reason: "each line must read 'NAME <robot> ACTION <action>'" };
    const robot = m[1]!;
    if (!robots.includes(robot)) return { ok: false, robot, line, reason: `unknown robot '${robot}'; robots: ${robots.join(', ')}` };
    if (actions.some((a) => a.robot === robot)) return { ok: false, robot, line, reason: `${robot} has more than one action` };
    let rest = m[2]!.trim();
    let path: Vec3[] = [];
    const p = /\bPATH\s*(\[.*\])\s*$/i.exec(rest);
    if (p) {
      path = points(p[1]!);
      const inner = p[1]!.slice(1, -1).trim();
      const tuples = inner.match(/\([^)]*\)/g) ?? [];
      const bad = tuples.find((t) => !new RegExp(`^\\(\\s*${NUM}\\s*,\\s*${NUM}\\s*,\\s*${NUM}\\s*\\)$`, 'i').test(t));
      if (bad) return { ok: false, robot, line, reason: `PATH point ${bad} is not three numbers (x, y, z)` };
      if (inner.length > 0 && path.length === 0) return { ok: false, robot, line, reason: 'PATH must be a list of (x, y, z) tuples' };
      rest = rest.slice(0, p.index).trim();
    } else if (/\bPATH\b/i.test(rest)) return { ok: false, robot, line, reason: 'PATH must be followed by [(x, y, z), ...]' };
    const words = rest.split(/\s+/);
    const verb = words[0]!.toUpperCase();
    const args = words.slice(1).filter((w) => w.toLowerCase() !== 'on');
    switch (verb) {
      case 'WAIT':
        if (args.length > 0 || path.length > 0) return { ok: false, robot, line, reason: 'WAIT takes no arguments' };
        actions.push({ robot, verb: 'WAIT', path, line });
        break;
      case 'PICK':
        if (args.length === 3 && /^(PLACE|PUT)$/i.test(args[1]!)) {
          // PICK x PLACE y: one action in two parts; a PATH belongs to the PLACE part.
          actions.push({ robot, verb: 'PICK', object: args[0]!, path: [], line, then: { robot, verb: 'PLACE', object: args[0]!, target: args[2]!, path, line } });
          break;
        }
        if (args.length !== 1) return { ok: false, robot, line, reason: 'PICK takes one object: PICK <object> (or PICK <object> PLACE <target>)' };
        actions.push({ robot, verb: 'PICK', object: args[0]!, path, line });
        break;
      case 'PLACE':
      case 'PUT':
        if (args.length !== 2) return { ok: false, robot, line, reason: `${verb} takes an object and a target: ${verb} <object> <target>` };
        actions.push({ robot, verb: 'PLACE', object: args[0]!, target: args[1]!, path, line });
        break;
      case 'MOVE': {
        const pt = points(rest);
        if (pt.length === 1) actions.push({ robot, verb: 'MOVE', point: pt[0]!, path, line });
        else if (args.length === 1 && !args[0]!.startsWith('(')) actions.push({ robot, verb: 'MOVE', target: args[0]!, path, line });
        else return { ok: false, robot, line, reason: 'MOVE takes one point (x, y, z) or one object' };
        break;
      }
      default: {
        const x = extra[verb];
        if (!x) return { ok: false, robot, line, reason: `unknown action '${words[0]}'; actions: ${['PICK', 'PLACE (PUT)', 'MOVE', 'WAIT', ...Object.keys(extra)].join(', ')}` };
        if (x.args === 'none') {
          if (args.length > 0) return { ok: false, robot, line, reason: `${verb} takes no arguments` };
          actions.push({ robot, verb, path, line });
        } else {
          if (args.length !== 1) return { ok: false, robot, line, reason: `${verb} takes one object: ${verb} <object>` };
          actions.push({ robot, verb, object: args[0]!, path, line });
        }
      }
    }
  }
  const missing = robots.filter((r) => !actions.some((a) => a.robot === r));
  if (missing.length > 0) return { ok: false, robot: missing[0]!, line: '', reason: `no action for ${missing.join(', ')}: every robot needs one (WAIT if idle)` };
  return { ok: true, actions };
}
