// Where an architecture's prompt files are. Built-in ones sit in the architecture's folder, `<root>/<arch>/prompts/
// <file>` (the host names the root, src/architectures of the package); a workspace overrides them with
// `prompts/<arch>/<file>`. Pure path arithmetic, shared by runs, the debugger, the language server and the views.
import { join } from 'node:path';

/** The folder holding an architecture's built-in prompt files. */
export function builtInPromptDir(root: string, arch: string): string {
  return join(root, arch, 'prompts');
}

/** The architecture and prompt file a path names: a workspace's `prompts/<arch>/<file>` or a built-in `<arch>/prompts/<file>`. */
export function promptFileOf(path: string): { arch: string; file: string; builtIn: boolean } | undefined {
  const workspace = /(?:^|[\\/])prompts[\\/]([^\\/]+)[\\/]([^\\/]+)$/.exec(path);
  if (workspace) return { arch: workspace[1]!, file: workspace[2]!, builtIn: false };
  const builtIn = /(?:^|[\\/])([^\\/]+)[\\/]prompts[\\/]([^\\/]+)$/.exec(path);
  return builtIn ? { arch: builtIn[1]!, file: builtIn[2]!, builtIn: true } : undefined;
}
