// Variant commands: flip an ablation in the active variant, switch the active variant, copy a built-in prompt
// into the workspace to edit it.
import { findAblations } from '../../core/prompt/analyze.js';
import { copyFile, mkdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { isWaypointPrompt } from '../promptLanguage.js';
import { architectures } from '../../architectures/registry.js';
import type { VariantSpec } from '../../core/prompt/variants.js';
import type { Ctx } from '../ctx.js';
import { promptHeader } from '../prompt/promptLenses.js';
import { variantChoices } from '../prompt/variantChoices.js';
import { ablationStates, setAblationText, setActiveVariantText } from '../prompt/variantsFile.js';
import { editVariantsFile, loadVariantsAt } from '../prompt/variantsIo.js';
import { pickAblation } from './ablationPick.js';
import { toUri } from './args.js';

function builtInsFor(arch: string | undefined): Record<string, VariantSpec> {
  if (!arch) return {};
  try {
    return architectures.get(arch).builtInVariants;
  } catch {
    return {};
  }
}

/** Flips `id` in the active variant of the prompt's folder; returns the new state. */
export async function toggleAblation(ctx: Ctx, uriArg: unknown, idArg: unknown): Promise<boolean | undefined> {
  let uri = toUri(uriArg) ?? vscode.window.activeTextEditor?.document.uri;
  let id = typeof idArg === 'string' && idArg ? idArg : undefined;
  if (!id) {
    // Started without a lens (walkthrough, a link): choose among the ablations of the prompts runs use.
    const root = ctx.workspaceRoot(uri);
    if (!root) throw new Error('Toggle Ablation needs an open folder: the switch is saved in its .waypoint/variants.yaml');
    const picked = await pickAblation(ctx, root, 'Waypoint: Toggle Ablation');
    if (picked === null) return undefined;
    if (!picked) throw new Error(`no {{#ablation}} blocks in the ${ctx.config.settings.run.architecture} prompts this folder's runs use`);
    ({ uri, id } = picked);
  }
  if (!uri) throw new Error('Toggle Ablation needs a prompt and an ablation id (click the lens on an {{#ablation}} line)');
  const root = ctx.workspaceRoot(uri);
  if (!root) throw new Error('Toggle Ablation needs an open folder: the switch is saved in its .waypoint/variants.yaml');
  const doc = await vscode.workspace.openTextDocument(uri);
  const builtIns = builtInsFor(promptHeader(doc.getText()).arch);
  const read = await loadVariantsAt(root);
  if (read.error) throw new Error(`cannot toggle: ${read.error}`);
  const states = ablationStates(read.set, builtIns);
  if (states.problem) throw new Error(`cannot toggle: ${states.problem}`);
  const defaultOn = findAblations(doc.getText()).find((a) => a.id === id)?.defaultOn ?? true;
  const on = !states.isOn(id, defaultOn);
  const path = await editVariantsFile(root, (text) => setAblationText(text, states.variant, builtIns[states.variant], id, on, defaultOn));
  ctx.output.info(`ablation ${id} ${on ? 'on' : 'off'} in variant '${states.variant}' (${path})`);
  ctx.fireVariantsChanged();
  return on;
}

/** Switches the active variant (quick pick of default, built-in and workspace variants, or the name given). */
export async function selectVariant(ctx: Ctx, nameArg?: unknown): Promise<string | undefined> {
  const root = ctx.workspaceRoot();
  if (!root) throw new Error('Select Variant needs an open folder: the choice is saved in its .waypoint/variants.yaml');
  const read = await loadVariantsAt(root);
  if (read.error) throw new Error(`cannot switch variants: ${read.error}`);
  let name = typeof nameArg === 'string' ? nameArg : undefined;
  if (!name) {
    const editorArch = promptHeader(isWaypointPrompt(vscode.window.activeTextEditor?.document) ? vscode.window.activeTextEditor!.document.getText() : '').arch;
    const builtIns: Record<string, VariantSpec> = {};
    for (const a of editorArch ? [architectures.get(editorArch)] : architectures.list()) Object.assign(builtIns, a.builtInVariants);
    const items = variantChoices(read.set, builtIns).map((v) => ({
      label: `${v.active ? '$(pass-filled) ' : ''}${v.name}`,
      description: [v.source, v.agent ? `agent ${v.agent}` : undefined, v.off.length ? `off: ${v.off.join(', ')}` : undefined].filter(Boolean).join(' · '),
      detail: v.description,
      name: v.name,
    }));
    const pick = await vscode.window.showQuickPick(items, { title: 'Waypoint: Active Prompt Variant', placeHolder: `Active: ${read.set.active}` });
    if (!pick) return undefined;
    name = pick.name;
  }
  const chosen = name;
  await editVariantsFile(root, (text) => setActiveVariantText(text, chosen));
  ctx.fireVariantsChanged();
  return chosen;
}

/** Copies a built-in role prompt to <folder>/prompts/<arch>/ (where runs look first) and opens it. */
export async function overridePrompt(ctx: Ctx, arg?: unknown): Promise<string | undefined> {
  const node = arg as { kind?: string; arch?: string; path?: string } | undefined;
  const source = node?.kind === 'prompt' && node.path ? node.path : toUri(arg)?.fsPath;
  if (!source) throw new Error('Copy Prompt to Workspace needs a built-in prompt (use the Agents view context menu)');
  const root = ctx.workspaceRoot();
  if (!root) throw new Error('Copy Prompt to Workspace needs an open folder');
  const arch = node?.arch ?? promptHeader(await readFile(source, 'utf8')).arch ?? basename(dirname(source));
  const target = join(root, 'prompts', arch, basename(source));
  let exists = false;
  try {
    exists = (await stat(target)).isFile();
  } catch {
    exists = false;
  }
  if (!exists) {
    await mkdir(dirname(target), { recursive: true });
    await copyFile(source, target);
    ctx.output.info(`copied ${source} to ${target}`);
  }
  await vscode.window.showTextDocument(vscode.Uri.file(target));
  ctx.fireVariantsChanged();
  return target;
}
