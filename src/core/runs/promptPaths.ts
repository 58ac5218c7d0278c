// Which .prompt file each role of an architecture uses: the workspace's prompts/<arch>/ overrides the built-in
// one of the same name. Kept apart from launch.ts so editors can ask without loading the model stack.
import { join } from 'node:path';
import { builtInPromptDir } from '../architecture/promptFiles.js';
import type { ArchitectureManifest } from '../architecture/types.js';
import type { HostIO } from '../host.js';

/** Takes a manifest's id and roles only, so editors ask without loading the architecture's loop. */
export async function resolvePromptPaths(io: HostIO, arch: Pick<ArchitectureManifest, 'id' | 'roles'>, options: { workspace: string; promptDir?: string; builtInPromptRoot: string }): Promise<Record<string, string>> {
  const workspaceDir = join(options.workspace, 'prompts', arch.id);
  const dir = options.promptDir ?? ((await io.exists(workspaceDir)) ? workspaceDir : builtInPromptDir(options.builtInPromptRoot, arch.id));
  const paths: Record<string, string> = {};
  for (const role of arch.roles) {
    const candidate = join(dir, role.promptFile);
    // A workspace folder may override only some roles; the rest come from the built-in prompts.
    paths[role.id] = (await io.exists(candidate)) ? candidate : join(builtInPromptDir(options.builtInPromptRoot, arch.id), role.promptFile);
  }
  return paths;
}

