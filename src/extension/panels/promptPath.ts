// Where a prompt path named in a trace lives on this machine (pure). Traces record absolute paths from the machine
// that ran them; a colleague's trace names their checkout, so after the path itself this tries the same
// prompts/<arch>/<file> in the trace's folder, this workspace and the built-in prompts (<arch>/prompts/<file>, or
// prompts/<arch>/<file> in a package from before the architectures had folders).
import { isAbsolute, join, normalize } from 'node:path';
import { builtInPromptDir, promptFileOf } from '../../core/architecture/promptFiles.js';

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
  const m = promptFileOf(path);
  if (m && m.file.endsWith('.prompt')) {
    if (roots.traceRoot) add(join(roots.traceRoot, 'prompts', m.arch, m.file));
    if (roots.workspaceRoot) add(join(roots.workspaceRoot, 'prompts', m.arch, m.file));
    add(join(builtInPromptDir(roots.builtInPromptRoot, m.arch), m.file));
  }
  return out;
}
