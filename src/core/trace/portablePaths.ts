// Traces record absolute paths (prompt files, error locations) because the editor opens them. A report or an
// export leaves the machine, so there they become relative: to the workspace, to the installed package
// (`<waypoint>/prompts/...` for built-in prompts), or to the home folder (`~/...`). Pure: strings in, strings out.
import type { TraceEvent } from '../../protocol/trace.js';
import type { PackedTrajectory } from '../../protocol/webview.js';

export interface PathRoots {
  workspace: string;
  /** Root of the installed waypoint package (built-in prompts live under it). */
  packageRoot?: string;
  home?: string;
}

/** Replaces the roots' absolute prefixes in every string of `events` (deep), longest root first. */
export function portablePaths<T extends TraceEvent | PackedTrajectory>(events: readonly T[], roots: PathRoots): T[] {
  const rules = [
    { from: roots.workspace, to: '' },
    { from: roots.packageRoot, to: '<waypoint>/' },
    { from: roots.home, to: '~/' },
  ]
    .filter((r): r is { from: string; to: string } => !!r.from && r.from !== '/')
    .map((r) => ({ from: r.from.replace(/\/+$/, '') + '/', to: r.to }))
    .sort((a, b) => b.from.length - a.from.length);
  if (rules.length === 0) return [...events];
  const fix = (s: string): string => {
    if (!s.includes('/')) return s;
    let out = s;
    for (const r of rules) out = out.split(r.from).join(r.to);
    return out;
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return fix(v);
    if (Array.isArray(v)) return v.length > 0 && typeof v[0] === 'number' ? v : v.map(walk);
    if (v && typeof v === 'object' && !ArrayBuffer.isView(v)) {
      const o: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) o[k] = walk(x);
      return o;
    }
    return v;
  };
  return events.map((e) => walk(e) as T);
}
