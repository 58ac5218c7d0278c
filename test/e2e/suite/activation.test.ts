// Activation and manifest: the extension loads in a real VS Code and registers everything package.json promises.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { e2eEnv, EXTENSION_ID, manifest, note, promptLanguageId, within } from './helpers.js';

describe('activation', function () {
  it('loads from the development path and activates', async function () {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} is not loaded: is the repository root the extensionDevelopmentPath, and is dist/extension.js built?`);
    note('vscodeVersion', vscode.version);
    note('appName', vscode.env.appName);
    const wasActive = ext.isActive;
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    await within(30_000, `${EXTENSION_ID} did not finish activating`, ext.activate());
    const activateCallMs = performance.now() - t0;
    // CPU time of the extension host meanwhile: less sensitive than wall time to other load on the machine.
    const cpu = process.cpuUsage(cpu0);
    const activateCpuMs = (cpu.user + cpu.system) / 1000;
    assert.equal(ext.isActive, true);
    // The extension measures itself (waypoint.showActivationTime, silent); our own figure covers loading too when
    // the extension was not active yet.
    const self = await vscode.commands.executeCommand<{ activateMs: number; hostCodeMs: number; loadToActivateMs: number } | undefined>('waypoint.showActivationTime', { silent: true });
    note('activation', { wasActiveAtStart: wasActive, activateCallMs: wasActive ? undefined : Math.round(activateCallMs * 10) / 10, activateCpuMs: wasActive ? undefined : Math.round(activateCpuMs * 10) / 10, self });
    console.log(`activation: ${wasActive ? 'already active at test start' : `ext.activate() took ${activateCallMs.toFixed(1)} ms`}; extension's own measure: ${self ? `${self.activateMs.toFixed(1)} ms in activate() (host code ${self.hostCodeMs.toFixed(1)} ms, load→activate ${self.loadToActivateMs.toFixed(1)} ms)` : 'n/a'}`);
  });

  it('registers every waypoint.* command that package.json declares', async function () {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const declared = (manifest(ext).contributes?.commands ?? []).map((c) => c.command);
    assert.ok(declared.length > 0, 'package.json contributes.commands is empty: the manifest does not declare the waypoint.* commands yet');
    const bad = declared.filter((c) => !c.startsWith('waypoint.'));
    assert.deepEqual(bad, [], 'every declared command id starts with waypoint.');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = declared.filter((c) => !registered.has(c));
    assert.deepEqual(missing, [], `declared in package.json but not registered: ${missing.join(', ')}`);
    const undeclared = [...registered].filter((c) => c.startsWith('waypoint.') && !declared.includes(c)).sort();
    note('commands', { declared: declared.length, registeredButUndeclared: undeclared });
  });

  it('declares a language for .prompt files', function () {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const id = promptLanguageId(ext);
    assert.ok(id, 'package.json contributes.languages has no language with the .prompt extension');
    note('promptLanguageId', id);
  });

  it('the .prompt language id is not also a built-in language', function () {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const id = promptLanguageId(ext);
    assert.ok(id, 'package.json contributes.languages has no language with the .prompt extension');
    const others = vscode.extensions.all
      .filter((e) => e.id !== EXTENSION_ID && ((e.packageJSON as ReturnType<typeof manifest>).contributes?.languages ?? []).some((l) => l.id === id))
      .map((e) => e.id);
    assert.deepEqual(others, [], `language id '${id}' is also contributed by ${others.join(', ')} (VS Code ${vscode.version}): the workbench then runs that language's features on .prompt files, e.g. the chat prompt-file header check marks every front-matter line of coder.prompt "Unexpected token"; use an id of Waypoint's own`);
  });

  it('runs inside the expected host', function () {
    const env = e2eEnv();
    if (env.host === 'code-server') {
      assert.equal(vscode.env.appName, 'code-server');
      assert.match(vscode.version, /^1\.100\./, 'code-server 4.100.3 is VS Code 1.100.x, the minimum engines.vscode');
    }
    assert.equal(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath, env.workspace);
  });
});
