// Compare on/off from its CodeLens command, in the real extension host: a one-seed paired sweep (the ablation on,
// then off) with the reference model, ending with a sweep.json and a comparison panel.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { activeExtension, codeLenses, waitFor, within, wsUri } from './helpers.js';

const SWEEP_TIMEOUT_MS = 300_000;

function compareTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('waypoint.compare'));
}

describe('compare on/off', function () {
  before(async function () {
    await activeExtension();
  });

  it('the ⇄ compare lens runs a paired sweep to a sweep.json and opens the comparison', async function () {
    this.timeout(SWEEP_TIMEOUT_MS + 60_000);
    const uri = wsUri('prompts', 'malmm', 'coder.prompt');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const lens = await waitFor('a ⇄ compare lens', 15_000, async () => (await codeLenses(uri)).find((l) => l.command?.title === '⇄ compare'));
    const [lensUri, ablation] = lens.command!.arguments ?? [];
    assert.equal(typeof ablation, 'string');
    const handle = await within(
      60_000,
      'waypoint.compareOnOff did not return',
      vscode.commands.executeCommand<{ done: Promise<{ ok: boolean; path?: string; message?: string; file?: { status?: string } }> } | undefined>(lens.command!.command, lensUri, ablation, { seeds: 1, task: 'stack_blocks_2' }),
    );
    assert.ok(handle?.done, 'the command hands back the sweep');
    const result = await within(SWEEP_TIMEOUT_MS, 'the sweep did not finish', handle.done);
    assert.equal(result.ok, true, `the sweep completed: ${result.message ?? ''}`);
    assert.ok(result.path && existsSync(result.path), `sweep.json exists: ${result.path}`);
    const file = JSON.parse(readFileSync(result.path, 'utf8')) as { ablation: string; status: string; comparison: { pairs: unknown[] } };
    assert.equal(file.ablation, ablation);
    assert.equal(file.status, 'complete');
    assert.equal(file.comparison.pairs.length, 1, 'one seed, one pair of runs');
    console.log(`compare: ${ablation} on/off over 1 seed -> ${result.path}`);
    await waitFor('a comparison panel (webview tab of type waypoint.compare)', 20_000, () => compareTabs().length > 0);
  });
});
