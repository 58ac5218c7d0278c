// The getting-started walkthrough in a real VS Code: contributed with its four steps, each step's command
// registered, the example workspace written by its first command, and the walkthrough opens. (The UI scenarios
// check that steps done by CodeLens are ticked and that a step's button runs its command.)
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activeExtension, e2eEnv, EXTENSION_ID, note } from './helpers.js';

interface Walkthrough {
  id: string;
  steps: { id: string; completionEvents: string[] }[];
}

describe('getting-started walkthrough', function () {
  it('is contributed, and every step is completed by a registered waypoint command', async function () {
    const ext = await activeExtension();
    const [walk] = ((ext.packageJSON as { contributes: { walkthroughs?: Walkthrough[] } }).contributes.walkthroughs ?? []) as Walkthrough[];
    assert.ok(walk, 'package.json contributes.walkthroughs is empty');
    const registered = new Set(await vscode.commands.getCommands(true));
    const commands = walk.steps.map((s) => s.completionEvents.map((e) => /^onCommand:(.+)$/.exec(e)?.[1]).find(Boolean));
    assert.deepEqual(commands, ['waypoint.openExampleWorkspace', 'waypoint.runLiveTest', 'waypoint.toggleAblation', 'waypoint.compareOnOff']);
    for (const c of commands) assert.ok(registered.has(c!), `${c} is registered`);
    note('walkthrough', { id: `${EXTENSION_ID}#${walk.id}`, steps: walk.steps.map((s) => s.id) });
  });

  it('Open Example Workspace writes the example (MALMM prompts as built in, variants file, README)', async function () {
    const target = join(mkdtempSync(join(tmpdir(), 'waypoint-e2e-example-')), 'waypoint-example');
    try {
      const r = await vscode.commands.executeCommand<{ folder: string; written: string[] } | undefined>('waypoint.openExampleWorkspace', target, { open: false });
      assert.equal(r?.folder, target);
      assert.ok(r.written.includes('prompts/malmm/coder.prompt') && r.written.includes('.waypoint/variants.yaml'), r.written.join(', '));
      const repo = e2eEnv().repoRoot;
      assert.equal(readFileSync(join(target, 'prompts/malmm/planner.prompt'), 'utf8'), readFileSync(join(repo, 'src/architectures/malmm/prompts/planner.prompt'), 'utf8'));
      assert.ok(existsSync(join(target, 'README.md')));
    } finally {
      rmSync(join(target, '..'), { recursive: true, force: true });
    }
  });

  it('opens in the workbench (Welcome: Open Walkthrough)', async function () {
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', `${EXTENSION_ID}#gettingStarted`, false);
    const tab = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => /walkthrough|welcome/i.test(t.label) || /Waypoint/.test(t.label));
    note('walkthroughTab', tab?.label);
    assert.ok(tab, `no walkthrough tab among: ${vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label).join(', ')}`);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
