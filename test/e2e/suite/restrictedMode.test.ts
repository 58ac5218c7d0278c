// Workspace Trust: in Restricted Mode (trust on, folder not trusted) Waypoint runs no generated code and starts no
// simulator. This file runs in its own phase, against a code-server started with workspace trust enabled.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { e2eEnv, EXTENSION_ID, manifest, note, runFolders, within, wsUri } from './helpers.js';

describe('Restricted Mode', function () {
  it('the folder opens untrusted', function () {
    assert.equal(e2eEnv().phase, 'restricted', 'this file runs in the restricted phase only (grep "Restricted Mode")');
    assert.equal(vscode.workspace.isTrusted, false, 'the workspace is not trusted (code-server started with workspace trust on)');
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} is loaded`);
    note('untrustedWorkspaces', manifest(ext).capabilities?.untrustedWorkspaces ?? '(not declared: VS Code disables the extension in Restricted Mode)');
  });

  it('waypoint.runLiveTest starts no episode and writes no run', async function () {
    const before = runFolders();
    let outcome: string;
    try {
      const r = await within(20_000, 'waypoint.runLiveTest did not return in Restricted Mode', vscode.commands.executeCommand('waypoint.runLiveTest', wsUri('prompts', 'malmm', 'coder.prompt')));
      assert.equal(r, undefined, 'the command returns no run handle');
      outcome = 'refused by the command (no run handle)';
    } catch (e) {
      // An extension that does not support untrusted workspaces is not activated: its command does not exist.
      const message = e instanceof Error ? e.message : String(e);
      assert.match(message, /command 'waypoint\.runLiveTest' not found/, `unexpected failure: ${message}`);
      outcome = 'command unavailable (extension disabled in Restricted Mode)';
    }
    note('restrictedRunLiveTest', outcome);
    // The gate answers before anything starts, so checking once after the command settled is enough.
    assert.deepEqual(runFolders(), before, 'no run folder was created under .waypoint/runs');
  });
});
