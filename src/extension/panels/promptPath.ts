// Where a prompt path named in a trace lives on this machine (pure). Traces record absolute paths from the machine
// that ran them; a colleague's trace names their checkout, so after the path itself this tries the same
// prompts/<arch>/<file> in the trace's folder, this workspace and the built-in prompts.
import { isAbsolute, join, normalize } from 'node:path';

export interface PromptPathRoots {
  /** Folder holding the trace's .waypoint/ (from <root>/.waypoint/runs/<id>/trace.jsonl), when it has that shape. */
  traceRoot?: string;
  workspaceRoot?: string;
  builtInPromptRoot: string;
}

/** The folder that holds .waypoint/ for a trace at <root>/.waypoint/runs/<id>/trace.jsonl, else undefined. */
export function traceWorkspaceRoot(tracePath: string): string | undefined {
  const m = /^(.*)[\\/]\.waypoint[\\/]runs[\\/][^\\/]+[\\/][^\\/]+$/.exec(tracePath);
  return m ? m[1] || '/' : undefined;
}

export function promptPathCandidates(path: string, roots: PromptPathRoots): string[] {
  const out: string[] = [];
  const add = (p: string | undefined) => {
    if (p && !out.includes(normalize(p))) out.push(normalize(p));
  };
  if (isAbsolute(path)) add(path);
  else {
    if (roots.traceRoot) add(join(roots.traceRoot, path));
    if (roots.workspaceRoot) add(join(roots.workspaceRoot, path));
  }
  const m = /(?:^|[\\/])prompts[\\/]([^\\/]+)[\\/]([^\\/]+\.prompt)$/.exec(path);
  if (m) {
    if (roots.traceRoot) add(join(roots.traceRoot, 'prompts', m[1], m[2]));
    if (roots.workspaceRoot) add(join(roots.workspaceRoot, 'prompts', m[1], m[2]));
    add(join(roots.builtInPromptRoot, m[1], m[2]));
  }
  return out;
}
