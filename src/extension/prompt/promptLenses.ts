// What the CodeLens provider shows on a .prompt file, computed from its text alone (pure): `▶ Run live test` and
// `Preview` on the first line, and on each `{{#ablation}}` line its state in the active variant, which one click
// flips. The provider (promptLensProvider.ts) only turns these specs into vscode.CodeLens objects.
import { architectureManifests } from '../../architectures/manifests.js';
import { analyzePrompt, findAblations } from '../../core/prompt/analyze.js';
import { readFrontMatter } from '../../core/prompt/analyze/frontMatter.js';
import type { AblationStates } from './variantsFile.js';

export interface LensSpec {
  /** 0-based line. */
  line: number;
  title: string;
  tooltip?: string;
  command: string;
  args: unknown[];
}

export interface PromptHeader {
  arch?: string;
  role?: string;
}

export function promptHeader(text: string): PromptHeader {
  const fm = readFrontMatter(text);
  return { arch: fm.arch, role: fm.role };
}

/** VS Code's debug icon (a codicon), which every platform draws; the ⏵ character is missing from common Linux fonts. */
export const DEBUG_LENS_TITLE = '$(debug-alt) Debug live test';

export function ablationLensTitle(id: string, on: boolean): string {
  return `${on ? '●' : '○'} ${id}: ${on ? 'on' : 'off'}`;
}

/** `uri` is passed back as the commands' first argument (a string, so specs stay plain data). */
export function computePromptLenses(text: string, uri: string, states: AblationStates): LensSpec[] {
  const lenses: LensSpec[] = [
    { line: 0, title: '▶ Run live test', tooltip: 'Run one episode with the saved prompts, the active variant, the default task and seed', command: 'waypoint.runLiveTest', args: [uri] },
    { line: 0, title: DEBUG_LENS_TITLE, tooltip: 'Run one episode under the debugger: breakpoints in this file stop before its role is called; step by turn and robot call; Restart Frame forks from a turn with the prompt as it is then', command: 'waypoint.debugLiveTest', args: [uri] },
    { line: 0, title: 'Preview', tooltip: 'Show this prompt rendered for a turn of a run, or with placeholder values', command: 'waypoint.previewPrompt', args: [uri] },
  ];
  for (const ab of findAblations(text)) {
    if (!ab.id) continue;
    const on = states.isOn(ab.id, ab.defaultOn);
    lenses.push({
      line: ab.line,
      title: ablationLensTitle(ab.id, on),
      tooltip: `${ab.label ? `${ab.label}: ` : ''}${on ? 'on' : 'off'} in variant '${states.variant}'. Click to turn it ${on ? 'off' : 'on'} (edits .waypoint/variants.yaml).`,
      command: 'waypoint.toggleAblation',
      args: [uri, ab.id],
    });
    lenses.push({ line: ab.line, title: '⇄ compare', tooltip: `Run a small paired sweep: every seed with '${ab.id}' on and off, then compare success rates`, command: 'waypoint.compareOnOff', args: [uri, ab.id] });
  }
  return lenses;
}

/** The first error of a prompt as one line, cause first then file:line (1-based), or undefined when it has none. */
export function firstPromptError(path: string, text: string): string | undefined {
  const error = analyzePrompt(text, { architectures: architectureManifests }).diagnostics.find((d) => d.severity === 'error');
  return error ? `${error.message} (${path}:${error.range.start.line + 1})` : undefined;
}
