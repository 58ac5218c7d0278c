// Stable colours: one per robot (by team position, as the CSS classes fp-agent-0..4), one per object type.
export const AGENT_COLORS = ['#4e9af1', '#f1a34e', '#5cc97b', '#c77dde', '#e6d25a'];

export function agentColor(i: number): string {
  return AGENT_COLORS[i % AGENT_COLORS.length]!;
}

/** A hue from the type's name, so a type has the same colour in every run. */
export function typeColor(type: string, alpha = 1): string {
  let h = 0;
  for (let i = 0; i < type.length; i++) h = (h * 31 + type.charCodeAt(i)) % 360;
  return `hsla(${h}, 55%, 55%, ${alpha})`;
}
