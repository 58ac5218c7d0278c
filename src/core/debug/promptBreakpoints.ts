// Where a line breakpoint in a `.prompt` file can stop: before the role that file belongs to is called, if this
// session's run calls it. A line inside an `{{#ablation}}` block counts only while that block's text is sent
// (the "on" part when the ablation is on, the `{{else}}` part when it is off). Pure: text and session facts in,
// a verdict per line out, with the reason when it cannot stop.
import { findAblations } from '../prompt/analyze.js';
import { readFrontMatter } from '../prompt/analyze/frontMatter.js';

export interface PromptSession {
  arch: string;
  /** Topology in use (e.g. malmm) and the roles it calls. */
  topology: string;
  roles: readonly string[];
  /** Role id -> the prompt file this run uses for it (absolute, normalised). */
  promptPaths: Readonly<Record<string, string>>;
  variant: string;
  /** Ablation switches of the variant (ids not listed are on). */
  ablations: Readonly<Record<string, boolean>>;
}

export interface LineVerdict {
  line: number;
  verified: boolean;
  /** The role whose calls the breakpoint stops before. */
  role?: string;
  message?: string;
}

/** Verdicts for 1-based `lines` of the prompt file at `path` (normalised like the session's paths). */
export function verifyPromptLines(path: string, text: string | undefined, lines: readonly number[], s: PromptSession): LineVerdict[] {
  const all = (message: string): LineVerdict[] => lines.map((line) => ({ line, verified: false, message }));
  if (text === undefined) return all(`cannot read ${path}`);
  const fm = readFrontMatter(text);
  if (fm.arch && fm.arch !== s.arch) return all(`this prompt is for architecture '${fm.arch}' (waypoint.arch); this session debugs '${s.arch}'`);
  const role = Object.entries(s.promptPaths).find(([, p]) => p === path)?.[0];
  if (!role) {
    const fileRole = fm.role;
    if (fileRole && s.promptPaths[fileRole]) {
      return all(`this run reads the ${fileRole} prompt from ${s.promptPaths[fileRole]}, not this file (a workspace prompts/${s.arch}/ file overrides the built-in one)`);
    }
    if (fileRole) return all(`role '${fileRole}' is not called in topology '${s.topology}' (roles: ${s.roles.join(', ')})`);
    return all(`not one of this run's prompt files (${Object.values(s.promptPaths).join(', ')})`);
  }
  if (!s.roles.includes(role)) return all(`role '${role}' is not called in topology '${s.topology}' (roles: ${s.roles.join(', ')})`);
  const lineCount = text.split('\n').length;
  const ablations = findAblations(text);
  return lines.map((line) => {
    if (line < 1 || line > lineCount) return { line, verified: false, message: `line ${line} is past the end of the file (${lineCount} lines)` };
    const l0 = line - 1;
    for (const ab of ablations) {
      if (!ab.id || l0 < ab.range.start.line || l0 > ab.range.end.line) continue;
      const on = s.ablations[ab.id] !== false;
      // The tag lines themselves belong to the block as a whole; the text between them to one side.
      const inElse = ab.elseRange !== undefined && l0 > ab.elseRange.start.line && l0 < ab.elseRange.end.line;
      const inOn = l0 > ab.openRange.start.line && (ab.elseRange ? l0 < ab.elseRange.start.line : l0 < ab.range.end.line);
      if (inOn && !on) return { line, verified: false, role, message: `ablation '${ab.id}' is off in variant '${s.variant}': this text is not sent, so the breakpoint cannot stop` };
      if (inElse && on) return { line, verified: false, role, message: `the {{else}} part of ablation '${ab.id}', which is on in variant '${s.variant}': this text is not sent` };
    }
    return { line, verified: true, role };
  });
}
