// A real endpoint is never told which role is asking; test endpoints that stand in for a model tell roles apart
// the way a model reads them: from the opening words of the system prompt. Add a line per new role prompt.
import type { ChatMessage } from '../../src/protocol/trace.js';

const OPENINGS: [opening: string, arch: string, role: string][] = [
  ['You supervise a team', 'malmm', 'supervisor'],
  ['You are the Planner of a robot team', 'malmm', 'planner'],
  ['You are the Coder of a robot team', 'malmm', 'coder'],
  ['You control a robot arm', 'malmm', 'agent'],
];

export function roleFromPrompt(messages: readonly ChatMessage[]): { arch: string; role: string } | undefined {
  const system = messages.find((m) => m.role === 'system')?.content.trimStart() ?? '';
  const hit = OPENINGS.find(([opening]) => system.startsWith(opening));
  return hit ? { arch: hit[1], role: hit[2] } : undefined;
}
