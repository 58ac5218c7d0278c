// Structured RoCo actions ({agent, name, args}) written as the plan text the five checks read, so a joint step
// through EpisodeContext.actJointly is checked exactly like an EXECUTE block an agent wrote.
//   PICK   args [object, path?]          PLACE args [object, target, path?]
//   PICK   args [object, 'PLACE', target, path?]   (RoCoBench's combined PICK <object> PLACE <target>)
//   MOVE   args [[x, y, z] | target, path?]   WAIT args []
// `path` is a list of [x, y, z] waypoints. Robots without an action WAIT.
import type { AgentAction } from '../../../../../protocol/trace.js';

const num = (v: unknown): string | undefined => (typeof v === 'number' && Number.isFinite(v) ? String(Math.round(v * 1e4) / 1e4) : undefined);

function point(v: unknown): string | undefined {
  if (!Array.isArray(v) || v.length !== 3) return undefined;
  const xs = v.map(num);
  return xs.every((x) => x !== undefined) ? `(${xs.join(', ')})` : undefined;
}

function pathText(v: unknown): string | undefined {
  if (v === undefined) return '';
  if (!Array.isArray(v)) return undefined;
  const pts = v.map(point);
  return pts.every((p) => p !== undefined) ? ` PATH [${pts.join(', ')}]` : undefined;
}

/** The plan text, or the first action that cannot be written (with why). */
export function rocoPlanText(actions: readonly AgentAction[], robots: readonly string[]): { ok: true; text: string } | { ok: false; agent: string; error: string } {
  const lines: string[] = [];
  for (const a of actions) {
    const verb = a.name.toUpperCase();
    const word = (v: unknown) => (typeof v === 'string' && /^\S+$/.test(v) ? v : undefined);
    let body: string | undefined;
    let rest: unknown[] = [];
    if (verb === 'WAIT') body = a.args.length === 0 ? 'WAIT' : undefined;
    else if (verb === 'PICK' && a.args[1] === 'PLACE') {
      // RoCoBench's combined PICK <object> PLACE <target>
      body = word(a.args[0]) && word(a.args[2]) && `PICK ${a.args[0]} PLACE ${a.args[2]}`;
      rest = a.args.slice(3);
    } else if (verb === 'PICK') {
      body = word(a.args[0]) && `PICK ${a.args[0]}`;
      rest = a.args.slice(1);
    } else if (verb === 'PLACE' || verb === 'PUT') {
      body = word(a.args[0]) && word(a.args[1]) && `PLACE ${a.args[0]} ${a.args[1]}`;
      rest = a.args.slice(2);
    } else if (verb === 'MOVE') {
      const target = point(a.args[0]) ?? word(a.args[0]);
      body = target && `MOVE ${target}`;
      rest = a.args.slice(1);
    } else if (/^[A-Z]+$/.test(verb)) {
      // A task's own verb (SWEEP <cube>, DUMP, OPEN <handle>): no argument or one object; the checks know which.
      const obj = typeof a.args[0] === 'string' ? word(a.args[0]) : undefined;
      body = obj ? `${verb} ${obj}` : typeof a.args[0] === 'string' ? undefined : verb;
      rest = a.args.slice(obj ? 1 : 0);
    } else return { ok: false, agent: a.agent, error: `unknown action '${a.name}'; actions: PICK, PLACE, MOVE, WAIT and the task's own` };
    if (!body || rest.length > 1) return { ok: false, agent: a.agent, error: `${verb} got arguments ${JSON.stringify(a.args)}; expected ${USAGE[verb as keyof typeof USAGE] ?? '[object?, path?]'}` };
    const path = pathText(rest[0]);
    if (path === undefined) return { ok: false, agent: a.agent, error: `${verb}: the path must be a list of [x, y, z] points` };
    lines.push(`NAME ${a.agent} ACTION ${body}${path}`);
  }
  for (const r of robots) if (!actions.some((a) => a.agent === r)) lines.push(`NAME ${r} ACTION WAIT`);
  return { ok: true, text: `EXECUTE\n${lines.join('\n')}` };
}

const USAGE = {
  PICK: '[object, path?]',
  PLACE: '[object, target, path?]',
  PUT: '[object, target, path?]',
  MOVE: '[[x, y, z] or target, path?]',
  WAIT: '[]',
} as const;
