// The role marker is how a prompt says which architecture and role it was rendered for, so the reference
// model and replay can answer per role without a side channel: the first system-prompt line that matches
// `[waypoint-role: <architecture>/<role>]`.
import type { ChatMessage } from '../../protocol/trace.js';

export const ROLE_MARKER_RE = /^\[waypoint-role: ([a-z0-9_-]+)\/([a-z0-9_-]+)\]$/m;

export interface RoleRef {
  architecture: string;
  role: string;
}

/** The marker line to put in a role's system prompt. */
export function roleMarkerLine(architecture: string, role: string): string {
  return `[waypoint-role: ${architecture}/${role}]`;
}

/** The (architecture, role) of the first marker found in the system messages, in order; undefined if none. */
export function findRoleMarker(messages: readonly ChatMessage[]): RoleRef | undefined {
  for (const m of messages) {
    if (m.role !== 'system') continue;
    // Prompt files written on Windows may end lines with CRLF; `$` alone would not match before the \r.
    const hit = ROLE_MARKER_RE.exec(m.content.replace(/\r\n/g, '\n'));
    if (hit) return { architecture: hit[1]!, role: hit[2]! };
  }
  return undefined;
}
