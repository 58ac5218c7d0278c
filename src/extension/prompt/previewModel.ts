// Text of the prompt preview documents (pure). A preview shows the messages a role call sends: recorded in a
// trace's role_call event, or rendered from the current prompt with placeholder or last-run values.
import type { ChatMessage, TraceEvent } from '../../protocol/trace.js';

export type RoleCallEvent = Extract<TraceEvent, { type: 'role_call' }>;

export interface RoleCallChoice {
  turn: number;
  callId: string;
  role: string;
  seq: number;
  messages: ChatMessage[];
  variables: Record<string, unknown>;
  promptPath: string;
}

/** Role calls of a trace (for one role when given), in trace order. */
export function roleCalls(events: readonly TraceEvent[], role?: string): RoleCallChoice[] {
  return events
    .filter((e): e is RoleCallEvent => e.type === 'role_call' && (role === undefined || e.role === role))
    .map((e) => ({ turn: e.turn, callId: e.callId, role: e.role, seq: e.seq, messages: e.messages, variables: e.variables, promptPath: e.promptPath }));
}

/** «name» for every declared variable, so the rendered text shows where each value goes. */
export function placeholderValues(variables: readonly { name: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of variables) out[v.name] = `«${v.name}»`;
  return out;
}

/** Values as a template sees them: strings kept, anything else as compact JSON. */
export function valuePreview(value: unknown, maxChars = 400): string {
  const s = typeof value === 'string' ? value : JSON.stringify(value);
  return s === undefined ? 'undefined' : s.length > maxChars ? `${s.slice(0, maxChars)}… (${s.length} chars)` : s;
}

export function estimateTokens(messages: readonly ChatMessage[]): number {
  return Math.ceil(messages.reduce((n, m) => n + m.content.length, 0) / 4);
}

/** Markdown: a header block, then one section per message. */
export function formatPreview(header: string[], messages: readonly ChatMessage[]): string {
  const lines = header.map((h) => `> ${h}`);
  lines.push(`> ${messages.length} message${messages.length === 1 ? '' : 's'}, ~${estimateTokens(messages)} tokens (chars/4 estimate)`, '');
  messages.forEach((m, i) => {
    lines.push(`## ${i + 1}. ${m.role}${m.name ? ` (${m.name})` : ''}`, '', m.content, '');
  });
  return lines.join('\n');
}
