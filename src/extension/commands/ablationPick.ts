// Choosing an ablation when a command is started without one (palette, walkthrough): every {{#ablation}} in the
// prompts a run of the configured architecture uses (the workspace's prompts/<arch>/ over the built-in ones), with
// its file, label and current state in the active variant.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { architectures } from '../../architectures/registry.js';
import { nodeIO } from '../../core/node/nodeHost.js';
import { findAblations } from '../../core/prompt/analyze.js';
import { resolvePromptPaths } from '../../core/runs/promptPaths.js';
import type { Ctx } from '../ctx.js';
import { ablationStates } from '../prompt/variantsFile.js';
import { loadVariantsAt } from '../prompt/variantsIo.js';

export interface PickedAblation {
  uri: vscode.Uri;
  id: string;
}

/** The chosen ablation; `null` when the user dismissed the pick, `undefined` when there is none to choose. */
export async function pickAblation(ctx: Ctx, root: string, title: string): Promise<PickedAblation | null | undefined> {
  const arch = architectures.get(ctx.config.settings.run.architecture);
  const paths = await resolvePromptPaths(nodeIO, arch, { workspace: root, builtInPromptRoot: ctx.builtInPromptRoot });
  const read = await loadVariantsAt(root);
  const states = read.error ? undefined : ablationStates(read.set, arch.builtInVariants);
  const items: (vscode.QuickPickItem & PickedAblation)[] = [];
  for (const path of [...new Set(Object.values(paths))]) {
    const text = await readFile(path, 'utf8').catch(() => '');
    for (const a of findAblations(text)) {
      if (!a.id || items.some((i) => i.id === a.id)) continue;
      const on = states?.isOn(a.id);
      items.push({ label: `${on === false ? '○' : '●'} ${a.id}`, description: `${on === false ? 'off' : 'on'} · ${basename(path)}:${a.line + 1}`, detail: a.label, uri: vscode.Uri.file(path), id: a.id });
    }
  }
  if (items.length === 0) return undefined;
  const pick = await vscode.window.showQuickPick(items, { title, placeHolder: `Ablations in the ${arch.id} prompts this folder's runs use (variant ${states?.variant ?? 'default'})`, matchOnDescription: true, matchOnDetail: true });
  return pick ? { uri: pick.uri, id: pick.id } : null;
}
