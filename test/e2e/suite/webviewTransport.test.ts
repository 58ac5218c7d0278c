// What the run viewer relies on from the real webview transport: the host packs trajectories as Float64Array
// columns (src/protocol/webview.ts packEvents), so postMessage must deliver typed arrays as typed arrays.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { note, within } from './helpers.js';

describe('webview transport', function () {
  it('postMessage delivers a Float64Array to a webview as a Float64Array', async function () {
    const panel = vscode.window.createWebviewPanel('waypointE2e.transportProbe', 'e2e transport probe', { viewColumn: vscode.ViewColumn.Active, preserveFocus: true }, { enableScripts: true });
    try {
      const ready = new Promise<void>((r) => panel.webview.onDidReceiveMessage((m: { type?: string }) => m?.type === 'ready' && r()));
      const answer = new Promise<{ tag: string; isF64: boolean; values: number[] }>((r) => panel.webview.onDidReceiveMessage((m: { type?: string; tag: string; isF64: boolean; values: number[] }) => m?.type === 'probe' && r(m)));
      panel.webview.html = `<!DOCTYPE html><html><body><script>
        const api = acquireVsCodeApi();
        window.addEventListener('message', (e) => {
          const a = e.data && e.data.column;
          api.postMessage({ type: 'probe', tag: Object.prototype.toString.call(a), isF64: a instanceof Float64Array, values: a ? Array.from(Object.values(a)) : [] });
        });
        api.postMessage({ type: 'ready' });
      </script></body></html>`;
      await within(20_000, 'the probe webview did not load', ready);
      await panel.webview.postMessage({ column: new Float64Array([1.5, -2.25, 3]) });
      const got = await within(10_000, 'the probe webview did not answer', answer);
      note('webviewFloat64Array', got.tag);
      assert.deepEqual(got.values, [1.5, -2.25, 3], 'the values arrive');
      assert.equal(got.tag, '[object Float64Array]', `VS Code ${vscode.version} (${vscode.env.appName}) delivers a Float64Array as ${got.tag}: a webview must not require typed arrays in host messages`);
    } finally {
      panel.dispose();
    }
  });
});
