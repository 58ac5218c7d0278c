import assert from 'node:assert/strict';
import { test } from 'node:test';
import { promptPathCandidates, traceWorkspaceRoot } from '../../../src/extension/panels/promptPath.js';
import { renderViewerHtml, viewerCsp } from '../../../src/extension/panels/viewerHtml.js';
import { makeNonce } from '../../../src/extension/panels/webviewPage.js';

test('the viewer page allows only its own nonce script and webview resources', () => {
  const nonce = makeNonce();
  assert.match(nonce, /^[A-Za-z0-9+/]{22}==$/);
  assert.notEqual(makeNonce(), nonce);
  const html = renderViewerHtml({ cspSource: 'https://x.vscode-cdn.net', scriptUri: 'https://x/a.js?"<', cssUri: 'https://x/a.css', nonce, title: 'Run <b>' });
  const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
  assert.equal(csp, viewerCsp('https://x.vscode-cdn.net', nonce));
  assert.match(csp, /^default-src 'none'; /);
  assert.match(csp, new RegExp(`script-src 'nonce-${nonce.replace(/[+/]/g, '\\$&')}'`));
  assert.doesNotMatch(csp, /unsafe-eval|https:(?!\/\/x\.vscode-cdn)|\*/);
  // Images a role saw are drawn from the trace as data: URLs: allowed for images, and for nothing else.
  assert.match(csp, /(^|; )img-src https:\/\/x\.vscode-cdn\.net data:(;|$)/);
  assert.equal(csp.match(/data:/g)?.length, 1);
  const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
  assert.equal(scripts.length, 1);
  assert.match(scripts[0], new RegExp(`nonce="${nonce.replace(/[+/]/g, '\\$&')}"`));
  assert.match(html, /src="https:\/\/x\/a\.js\?&quot;&lt;"/);
  assert.match(html, /<title>Run &lt;b&gt;<\/title>/);
  assert.match(html, /<div id="app"><\/div>/);
  assert.throws(() => renderViewerHtml({ cspSource: 'x', scriptUri: 'a', cssUri: 'b', nonce: 'short', title: 't' }), /nonce/);
});

test('prompt paths from a colleague trace are looked up in the trace folder, the workspace and the built-ins', () => {
  assert.equal(traceWorkspaceRoot('/home/a/proj/.waypoint/runs/2026-x/trace.jsonl'), '/home/a/proj');
  assert.equal(traceWorkspaceRoot('/tmp/exported.jsonl'), undefined);
  const roots = { traceRoot: '/t', workspaceRoot: '/w', builtInPromptRoot: '/ext/src/architectures' };
  const c = promptPathCandidates('/home/bob/waypoint/src/architectures/malmm/prompts/planner.prompt', roots);
  assert.deepEqual(c, ['/home/bob/waypoint/src/architectures/malmm/prompts/planner.prompt', '/t/prompts/malmm/planner.prompt', '/w/prompts/malmm/planner.prompt', '/ext/src/architectures/malmm/prompts/planner.prompt']);
  // A trace from before the architectures had folders names the built-in prompts as prompts/<arch>/<file>.
  const old = promptPathCandidates('/home/bob/waypoint/prompts/malmm/planner.prompt', roots);
  assert.deepEqual(old, ['/home/bob/waypoint/prompts/malmm/planner.prompt', '/t/prompts/malmm/planner.prompt', '/w/prompts/malmm/planner.prompt', '/ext/src/architectures/malmm/prompts/planner.prompt']);
  assert.deepEqual(promptPathCandidates('prompts/malmm/coder.prompt', { workspaceRoot: '/w', builtInPromptRoot: '/b' }), ['/w/prompts/malmm/coder.prompt', '/b/malmm/prompts/coder.prompt']);
  assert.deepEqual(promptPathCandidates('/x/other.prompt', { builtInPromptRoot: '/b' }), ['/x/other.prompt']);
});
