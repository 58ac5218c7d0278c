// A workspace's own architecture in the real extension host: examples/architectures/cap copied into the folder's
// .waypoint/architectures/ is loaded (the file watcher, no reload of the window), a live run with arch cap ends with
// a trace of cap, a syntax error added to its loop is an error diagnostic at that line in the Problems view while
// the built-ins stay, and removing the folder takes it out again.
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { readTrace } from '../../../src/core/trace/reader.js';
import { activeExtension, e2eEnv, waitFor, within } from './helpers.js';

interface ArchApi {
  architectures: { loaded: string[]; refused: { id: string; file: string; line?: number; message: string }[] };
}

describe('workspace architectures', function () {
  let folder: string;
  before(async function () {
    await activeExtension();
    folder = join(e2eEnv().workspace, '.waypoint', 'architectures', 'cap');
  });
  after(function () {
    rmSync(join(e2eEnv().workspace, '.waypoint', 'architectures'), { recursive: true, force: true });
  });

  it('cap copied into .waypoint/architectures is loaded, runs live, a syntax error is a diagnostic at its line, removal unloads it', async function () {
    this.timeout(300_000);
    const api = (await activeExtension()).exports as ArchApi;
    cpSync(join(e2eEnv().repoRoot, 'examples', 'architectures', 'cap'), folder, { recursive: true });
    await waitFor('cap loaded by the file watcher', 30_000, () => api.architectures.loaded.includes('cap'));

    const handle = await within(60_000, 'waypoint.runLiveTest did not return', vscode.commands.executeCommand<{ started?: Promise<string | undefined>; done?: Promise<unknown> } | undefined>('waypoint.runLiveTest', undefined, { arch: 'cap', task: 'stack_blocks', seed: 0 }));
    const tracePath = await within(120_000, 'the cap run did not start', handle!.started!);
    assert.ok(tracePath);
    const events = await waitFor('episode_end of the cap run', 240_000, () => {
      if (!existsSync(tracePath)) return undefined;
      const { events: ev } = readTrace(readFileSync(tracePath, 'utf8'));
      return ev.some((e) => e.type === 'episode_end') ? ev : undefined;
    }, 250);
    const start = events[0];
    assert.equal(start?.type === 'episode_start' && start.arch, 'cap');
    const end = events.find((e) => e.type === 'episode_end');
    assert.equal(end?.type === 'episode_end' && end.success, true, `cap with the reference model succeeds: ${end?.type === 'episode_end' ? end.reason : ''}`);

    const loop = join(folder, 'loop.ts');
    const good = readFileSync(loop, 'utf8');
    // Edited as a user does: in the editor, then saved.
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(loop));
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, doc.lineAt(doc.lineCount - 1).range.end, '\nexport const broken = ;\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await doc.save(), 'loop.ts saved');
    const diags = await waitFor('an error diagnostic on loop.ts', 30_000, () => {
      const d = vscode.languages.getDiagnostics(vscode.Uri.file(loop)).filter((x) => x.source === 'waypoint');
      return d.length > 0 ? d : undefined;
    }).catch((err: unknown) => {
      throw new Error(`${err instanceof Error ? err.message : String(err)}; the extension reports loaded [${api.architectures.loaded.join(', ')}], refused ${JSON.stringify(api.architectures.refused)}`);
    });
    assert.equal(diags[0]!.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(diags[0]!.range.start.line + 1, good.split('\n').length + 1, 'at the line of the syntax error');
    assert.match(diags[0]!.message, /architecture 'cap' refused/);
    assert.deepEqual(api.architectures.refused.map((r) => r.id), ['cap']);
    assert.ok(!api.architectures.loaded.includes('cap'));

    rmSync(folder, { recursive: true, force: true });
    await waitFor('the diagnostic cleared after the folder is removed', 30_000, () => vscode.languages.getDiagnostics(vscode.Uri.file(loop)).length === 0);
    assert.deepEqual(api.architectures.refused, []);
  });
});
