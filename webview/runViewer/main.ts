// Run viewer webview entry (bundled to dist/webview/runViewer.js as an IIFE). Registers the VS Code elements,
// builds the viewer, validates every host message, posts `ready` (with the run id kept in setState, so a revived
// panel asks for its run again) and handles init / append / selectTurn.
import '@vscode-elements/elements/dist/vscode-tabs/index.js';
import '@vscode-elements/elements/dist/vscode-tab-header/index.js';
import '@vscode-elements/elements/dist/vscode-tab-panel/index.js';
import '@vscode-elements/elements/dist/vscode-collapsible/index.js';
import '@vscode-elements/elements/dist/vscode-split-layout/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import './runViewer.css';
import type { RunViewerUiState } from '../../src/protocol/webview.js';
import { openChannel } from '../common/rpc.js';
import { getWebviewApi } from '../common/vscode.js';
import { installDebugHook } from './debugHook.js';
import { RunViewer } from './viewer.js';

const scriptStartMs = performance.now();

function start(): void {
  const api = getWebviewApi<RunViewerUiState>();
  const root = document.getElementById('app') ?? document.body.appendChild(document.createElement('div'));
  root.id = 'app';
  const viewer = new RunViewer(root, api, undefined);
  const channel = openChannel(api, (m) => viewer.handle(m), (why) => viewer.note(why));
  viewer.setChannel(channel);
  installDebugHook(viewer, () => channel.invalidCount);
  viewer.timings.scriptStartMs = scriptStartMs;
  viewer.timings.readyPostedMs = performance.now();
  channel.post({ type: 'ready', runId: viewer.runId });
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
else start();
