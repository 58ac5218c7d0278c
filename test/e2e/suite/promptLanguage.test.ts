// The `.prompt` language in a real editor: language id, CodeLenses (run, ablation toggles), toggling through the
// lens command edits .waypoint/variants.yaml, and the language server's diagnostics on a broken prompt.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { parse } from 'yaml';
import { activeExtension, codeLenses, e2eEnv, EXTENSION_ID, lensTitles, manifest, note, promptLanguageId, waitFor, within, wsUri } from './helpers.js';

const CODER = ['prompts', 'malmm', 'coder.prompt'];
const RUN_LENS = '▶ Run live test';

function ablationIds(text: string): string[] {
  return [...text.matchAll(/\{\{#ablation\s+"([^"]+)"/g)].map((m) => m[1]);
}

/** Whether `id` is off in the active variant of the workspace's .waypoint/variants.yaml. */
function offInActiveVariant(id: string): boolean {
  const doc = (parse(readFileSync(join(e2eEnv().workspace, '.waypoint', 'variants.yaml'), 'utf8')) ?? {}) as { active?: string; variants?: Record<string, { off?: string[]; on?: string[] } | null> };
  const v = doc.variants?.[doc.active ?? 'default'] ?? {};
  return (v.off ?? []).includes(id) && !(v.on ?? []).includes(id);
}

/** Whether `id` is on in the active variant: a block marked default="off" is on only when the variant lists it under on. */
function onInActiveVariant(id: string, promptText: string): boolean {
  const defaultOff = new RegExp(`\\{\\{#ablation\\s+"${id.replace(/\./g, '\\.')}"[^}]*default="off"`).test(promptText);
  const doc = (parse(readFileSync(join(e2eEnv().workspace, '.waypoint', 'variants.yaml'), 'utf8')) ?? {}) as { active?: string; variants?: Record<string, { off?: string[]; on?: string[] } | null> };
  const v = doc.variants?.[doc.active ?? 'default'] ?? {};
  if ((v.on ?? []).includes(id)) return true;
  return !defaultOff && !(v.off ?? []).includes(id);
}

async function lensesWith(uri: vscode.Uri, what: string, pred: (titles: string[]) => boolean): Promise<vscode.CodeLens[]> {
  return waitFor(what, 15_000, async () => {
    const lenses = await codeLenses(uri);
    return pred(lensTitles(lenses)) ? lenses : undefined;
  });
}

describe('prompt language', function () {
  let languageId = 'prompt';
  before(async function () {
    languageId = promptLanguageId(await activeExtension()) ?? languageId;
  });

  it('opens .prompt files in the extension\'s language', async function () {
    const doc = await vscode.workspace.openTextDocument(wsUri(...CODER));
    await vscode.window.showTextDocument(doc);
    assert.equal(doc.languageId, languageId);
  });

  it('CodeLens: ▶ Run live test on the first line and one toggle per {{#ablation}}', async function () {
    const uri = wsUri(...CODER);
    const doc = await vscode.workspace.openTextDocument(uri);
    const ids = ablationIds(doc.getText());
    assert.ok(ids.length >= 3, 'the fixture coder.prompt has ablation blocks');
    const lenses = await lensesWith(uri, `a '${RUN_LENS}' CodeLens on ${CODER.join('/')}`, (t) => t.includes(RUN_LENS));
    const titles = lensTitles(lenses);
    note('coderLenses', titles);
    const run = lenses.find((l) => l.command?.title === RUN_LENS)!;
    assert.equal(run.range.start.line, 0);
    assert.equal(run.command?.command, 'waypoint.runLiveTest');
    for (const id of ids) {
      const lens = lenses.find((l) => new RegExp(`^[●○] ${id.replace(/\./g, '\\.')}: (on|off)$`).test(l.command?.title ?? ''));
      assert.ok(lens, `no toggle lens for ablation '${id}' (lenses: ${titles.join(' | ')})`);
      assert.match(doc.lineAt(lens.range.start.line).text, new RegExp(`#ablation\\s+"${id.replace(/\./g, '\\.')}"`), `the '${id}' lens sits on its {{#ablation}} line`);
      assert.equal(/^●/.test(lens.command!.title), onInActiveVariant(id, doc.getText()), `lens state of '${id}' matches variants.yaml and the block's default`);
    }
  });

  it('CodeLens: ⏵ Debug live test (needs the debugger)', async function () {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const titles = lensTitles(await codeLenses(wsUri(...CODER)));
    const debuggers = (manifest(ext).contributes?.debuggers ?? []).length;
    assert.ok(titles.some((t) => /Debug live test/.test(t)), `no '⏵ Debug live test' lens (package.json contributes ${debuggers} debugger(s); lenses: ${titles.join(' | ')})`);
    const lens = (await codeLenses(wsUri(...CODER))).find((l) => /Debug live test/.test(l.command?.title ?? ''))!;
    assert.equal(lens.command?.command, 'waypoint.debugLiveTest');
    assert.equal(lens.range.start.line, 0);
  });

  it('a toggle lens flips its ablation in .waypoint/variants.yaml, and flips it back', async function () {
    const uri = wsUri(...CODER);
    const id = 'coder.step_by_step';
    const before = offInActiveVariant(id);
    const lenses = await lensesWith(uri, `a toggle lens for ${id}`, (t) => t.some((x) => x.includes(` ${id}: `)));
    const lens = lenses.find((l) => l.command?.title.includes(` ${id}: `))!;
    await within(10_000, `${lens.command!.command} did not finish`, vscode.commands.executeCommand(lens.command!.command, ...(lens.command!.arguments ?? [])));
    assert.equal(offInActiveVariant(id), !before, `${id} flipped in variants.yaml`);
    // The lens shows the new state (the provider refreshes on the variants change).
    const flippedTitle = `${before ? '●' : '○'} ${id}: ${before ? 'on' : 'off'}`;
    const after = await lensesWith(uri, `the lens to read '${flippedTitle}'`, (t) => t.includes(flippedTitle));
    const again = after.find((l) => l.command?.title === flippedTitle)!;
    await within(10_000, 'toggling back did not finish', vscode.commands.executeCommand(again.command!.command, ...(again.command!.arguments ?? [])));
    assert.equal(offInActiveVariant(id), before, `${id} is back to its first state`);
  });

  it('diagnostics: errors on a broken prompt (cleared when fixed), none on the shipped MALMM prompts', async function () {
    const env = e2eEnv();
    // Open the shipped prompts first: the server answers didOpen in order, so once the broken file's errors are in,
    // these files have been analysed too.
    const shipped = ['coder.prompt', 'planner.prompt', 'supervisor.prompt', 'sa.prompt'].map((n) => wsUri('prompts', 'malmm', n));
    for (const u of shipped) await vscode.workspace.openTextDocument(u);
    const dir = join(env.workspace, 'scratch');
    const file = join(dir, 'broken.prompt');
    await mkdir(dir, { recursive: true });
    await writeFile(file, readFileSync(join(env.repoRoot, 'test', 'fixtures', 'prompts', 'yamlError.prompt'), 'utf8'));
    const uri = vscode.Uri.file(file);
    try {
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc);
      assert.equal(doc.languageId, languageId);
      const errors = await waitFor('error diagnostics on scratch/broken.prompt (is the language server running?)', 20_000, () => {
        const d = vscode.languages.getDiagnostics(uri).filter((x) => x.severity === vscode.DiagnosticSeverity.Error);
        return d.length > 0 ? d : undefined;
      });
      note('brokenPromptDiagnostics', errors.map((d) => `${d.range.start.line + 1}: ${d.message}`));
      const shippedErrors = shipped.flatMap((u) => vscode.languages.getDiagnostics(u).filter((d) => d.severity === vscode.DiagnosticSeverity.Error).map((d) => `${u.path.split('/').pop()}:${d.range.start.line + 1}: ${d.message} (${d.source ?? 'no source'})`));
      assert.deepEqual(shippedErrors, [], 'no error diagnostics on the shipped MALMM prompts');
      assert.ok(errors.some((d) => d.range.start.line >= 1 && d.range.start.line <= 6), `an error points into the front matter (got ${errors.map((d) => `${d.range.start.line + 1}: ${d.message}`).join('; ')})`);
      // Fix the text in the editor (unsaved): the errors go away.
      const good = readFileSync(join(env.repoRoot, 'test', 'fixtures', 'prompts', 'good.prompt'), 'utf8');
      const edit = new vscode.WorkspaceEdit();
      edit.replace(uri, new vscode.Range(0, 0, doc.lineCount, 0), good);
      assert.ok(await vscode.workspace.applyEdit(edit));
      const left = () => vscode.languages.getDiagnostics(uri).filter((x) => x.severity === vscode.DiagnosticSeverity.Error).map((d) => `${d.range.start.line + 1}: ${d.message}`);
      await waitFor('the errors to clear after the fix', 20_000, () => left().length === 0).catch((e: Error) => {
        throw new Error(`${e.message}; errors left: ${left().join('; ')}`);
      });
    } finally {
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      await rm(dir, { recursive: true, force: true });
    }
  });
});
