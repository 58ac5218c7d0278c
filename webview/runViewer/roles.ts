// Role names as shown (trace roles are ids like 'coder') and their badge colour, from theme chart colours.
const KNOWN: Record<string, string> = {
  supervisor: 'purple',
  planner: 'blue',
  coder: 'green',
  executor: 'orange',
  agent: 'yellow',
  verifier: 'purple',
  environment: 'grey',
  engine: 'red',
};
const PALETTE = ['blue', 'green', 'orange', 'purple', 'yellow'];

export function roleLabel(role: string): string {
  return role ? role[0].toUpperCase() + role.slice(1) : '?';
}

/** A CSS class name `role-<colour>` for the role badge. */
export function roleClass(role: string): string {
  const key = role.toLowerCase();
  let colour = KNOWN[key];
  if (!colour) {
    let hash = 0;
    for (const ch of key) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
    colour = PALETTE[hash % PALETTE.length];
  }
  return `role-${colour}`;
}
