// The example workspace: what `Waypoint: Open Example Workspace…` (and the getting-started walkthrough) writes into
// a folder, and what the end-to-end tests open. The shipped template `examples/workspace/` (README, variants file)
// plus the current built-in prompts of each architecture, so the example never lags behind them.
import { join } from 'node:path';
import { builtInPromptDir } from '../architecture/promptFiles.js';
import type { HostIO } from '../host.js';
import { builtInPromptRoot } from '../node/packageRoot.js';

/** Files of the template, relative to examples/workspace/ (a list, since HostIO has no recursive listing). */
export const EXAMPLE_TEMPLATE_FILES = ['README.md', '.waypoint/variants.yaml'] as const;
export const EXAMPLE_ARCHS = ['malmm'] as const;

export interface ExampleWorkspace {
  /** Files written, relative to the target folder. */
  written: string[];
  /** The prompt a first live run starts from. */
  firstPrompt: string;
}

/**
 * Writes the example into `target` (created if missing). An existing file is left as it is unless `overwrite`, so
 * a user's edits in an earlier copy survive; `written` lists only what was written now.
 */
export async function writeExampleWorkspace(io: HostIO, packageRoot: string, target: string, options: { overwrite?: boolean } = {}): Promise<ExampleWorkspace> {
  const files: { from: string; to: string }[] = EXAMPLE_TEMPLATE_FILES.map((f) => ({ from: join(packageRoot, 'examples', 'workspace', f), to: f }));
  for (const arch of EXAMPLE_ARCHS) {
    const dir = builtInPromptDir(builtInPromptRoot(packageRoot), arch);
    const prompts = (await io.list(dir)).filter((f) => f.endsWith('.prompt'));
    if (prompts.length === 0) throw new Error(`no built-in prompts in ${dir}`);
    for (const f of prompts) files.push({ from: join(dir, f), to: join('prompts', arch, f) });
  }
  const written: string[] = [];
  for (const { from, to } of files) {
    const path = join(target, to);
    if (!options.overwrite && (await io.exists(path))) continue;
    const text = await io.readText(from).catch((err: unknown) => {
      throw new Error(`the example's file ${from} is missing from the installation: ${err instanceof Error ? err.message : String(err)}`);
    });
    await io.mkdirp(join(path, '..'));
    await io.writeText(path, text);
    written.push(to);
  }
  return { written, firstPrompt: join(target, 'prompts', 'malmm', 'coder.prompt') };
}
