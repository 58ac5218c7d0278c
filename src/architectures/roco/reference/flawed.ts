// The `reference-flawed` profile's RoCo mistakes, after the failure modes the paper reports: an action on
// something the robot cannot reach (self-knowledge errors), a waypoint path through the other robot's arm
// (waypoint planning weakness), a wrong target name, and a final plan in the wrong format. Each is made only on a
// plan's first attempt (no feedback yet), at a rate seeded from a hash of the conversation and the request seed,
// so the same run makes the same mistakes and the feedback loop can correct them. A fixture, not a finding.
import type { ChatMessage } from '../../../protocol/trace.js';
import { conversationHash } from '../../../core/llm/reference/conversationHash.js';
import { dist, knownPos, pathText, type Situation, type V3 } from './prompt.js';

/** Share of first attempts with a mistake. */
export const FLAW_RATE = 0.35;

const round3 = (p: V3): V3 => p.map((v) => Math.round(v * 1000) / 1000) as V3;

/** Wrong names a careless agent writes for a target. */
function misname(name: string): string {
  if (/^panel(\d+)$/.test(name)) return name.replace('panel', 'panel_');
  if (name === 'cutting_board') return 'board';
  if (name === 'bin') return 'basket';
  return `${name}s`;
}

export function flaw(s: Situation, own: { line: string; why: string }, messages: ChatMessage[], seed = 0): { line: string; why: string } {
  const me = s.agent === 'Planner' ? (/NAME (\w+)/.exec(own.line)?.[1] ?? s.agent) : s.agent;
  const u = conversationHash(messages, seed, me);
  if (u >= FLAW_RATE) return own;
  const kind = Math.floor((u / FLAW_RATE) * 3);
  const m = /^NAME (\w+) ACTION (\w+)(.*)$/.exec(own.line);
  if (!m) return own;
  const [, robot, verb, rest] = m as unknown as [string, string, string, string];
  // (0) an object out of reach: the thing farthest from this robot
  if (kind === 0 && (verb === 'PICK' || verb === 'WAIT')) {
    const from = s.grippers.get(robot)?.pos ?? [0, 0, 1];
    const onPlace = [...s.things.values()].filter((t) => !t.size && /is on /.test(t.relation ?? ''));
    // Without positions (Sort Cubes as the paper tells it): something on a place its reach does not name.
    const reach = s.reach.get(robot) ?? '';
    const loose = knownPos(from) ? onPlace.sort((a, b) => dist(b.pos, from) - dist(a.pos, from)) : onPlace.filter((t) => !reach.split(/,\s*/).includes(/is on (\w+)/.exec(t.relation ?? '')?.[1] ?? ''));
    if (loose[0]) return { line: `NAME ${robot} ACTION PICK ${loose[0].name}`, why: `I will pick ${loose[0].name}; I think I can reach it.` };
  }
  // (1) a path through the other robot's arm
  if (kind === 1 && verb !== 'WAIT') {
    const other = [...s.grippers.entries()].find(([r]) => r !== robot)?.[1]?.pos;
    const start = s.grippers.get(robot)?.pos;
    if (other && start) {
      const through: V3[] = [round3(start), round3([(start[0] + other[0]) / 2, (start[1] + other[1]) / 2, other[2]]), round3(other), round3([other[0], other[1], other[2] - 0.05])];
      const base = rest.replace(/\s*PATH \[.*\]$/, '');
      return { line: `NAME ${robot} ACTION ${verb}${base} ${pathText(through.slice(0, s.pathPoints || 4))}`, why: `${own.why} I take the direct route.` };
    }
  }
  // (2) a wrong target name
  if (verb === 'PLACE' || verb === 'PUT') {
    const parts = rest.trim().split(/\s+/);
    if (parts.length >= 2) {
      parts[1] = misname(parts[1]!);
      return { line: `NAME ${robot} ACTION ${verb} ${parts.join(' ')}`, why: own.why };
    }
  }
  if (verb === 'PICK') {
    const name = rest.trim().split(/\s+/)[0]!;
    return { line: `NAME ${robot} ACTION PICK ${misname(name)}${rest.trim().slice(name.length)}`, why: own.why };
  }
  return own;
}

/** A final plan in the wrong format (RoCo: weaker models drop the keywords): "Alice: PICK x" lines, no NAME / ACTION. */
export function flawFormat(block: string, messages: ChatMessage[], seed = 0): string {
  if (conversationHash(messages, seed, 'format') >= FLAW_RATE / 3) return block;
  return block.replace(/^NAME (\w+) ACTION /gm, '$1: ');
}
