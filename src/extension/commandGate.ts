// Which commands can run now, and what a disabled one says (pure). rust-analyzer swaps a command for its
// `disabled` variant while the server is down; Waypoint's commands also depend on Workspace Trust and on an open
// folder, so the gate is checked at call time and the first unmet requirement picks the message.

export type Requirement = 'trust' | 'folder' | 'server';

export interface GateState {
  trusted: boolean;
  hasFolder: boolean;
  serverRunning: boolean;
}

export function firstUnmet(needs: readonly Requirement[] | undefined, s: GateState): Requirement | undefined {
  for (const n of needs ?? []) {
    if (n === 'trust' && !s.trusted) return n;
    if (n === 'folder' && !s.hasFolder) return n;
    if (n === 'server' && !s.serverRunning) return n;
  }
  return undefined;
}

export function unmetMessage(title: string, req: Requirement): string {
  switch (req) {
    case 'trust':
      return `${title} is disabled in Restricted Mode: Waypoint runs no generated code and starts no simulator in an untrusted workspace. Trust the workspace to use it.`;
    case 'folder':
      return `${title} needs an open folder: runs, variants and prompt overrides live in its .waypoint/ and prompts/ folders.`;
    case 'server':
      return `${title} needs the .prompt language server, which is not running (see the "Waypoint" output, or run "Waypoint: Restart Language Server").`;
  }
}
