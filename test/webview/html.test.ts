// The static trace page (no browser): CSP, nonce, escaping of hostile trace text, inlined assets.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderTraceHtml, scriptSafeJson } from '../../src/core/trace/html.js';
import { loadFixture } from '../unit/core/trace/projections/helpers.js';

const assets = { js: 'console.log("</script><b>")', css: '@font-face{src:url("./f.ttf")} .x{background:url(./missing.png)}', files: { 'f.ttf': 'AAEC' } };
const nonce = 'abcdefghijklmnopqrstuv';

test('the page has a webview-like CSP, nonce-only scripts, and no remote resources', () => {
  const { events, warnings } = loadFixture('malmm-pick-place.jsonl');
  const html = renderTraceHtml({ runId: 'r1', events, warnings, assets, nonce });
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
  assert.equal(csp, `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; font-src data:; img-src data:`);
  const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
  for (const s of scripts) assert.ok(s.includes(`nonce="${nonce}"`) || /type="application\/(json|octet-stream)"/.test(s), s);
  assert.doesNotMatch(html, /(src|href)="https?:/);
  assert.match(html, /url\("data:font\/ttf;base64,AAEC"\)/, 'fonts inlined');
  assert.match(html, /url\(\.\/missing\.png\)/, 'unknown files left alone');
  assert.ok(html.includes('console.log("<\\/script><b>")'), 'a </script> in the bundle cannot close the tag');
  assert.match(html, /data-bin="0"/, 'trajectory columns stored as binary blocks');
});

test('hostile trace text cannot break out of the data block', () => {
  const { events } = loadFixture('malmm-pick-place.jsonl');
  const evil = events.map((e) => (e.type === 'chat_message' ? { ...e, content: '</script><script>alert(1)</script>\u2028<!--' } : e));
  const html = renderTraceHtml({ runId: '</title><script>', events: evil, warnings: [], assets, nonce, title: '<b>t</b>' });
  assert.equal(html.split('</script>').length - 1, html.split('<script').length - 1, 'every <script> is closed exactly once');
  assert.ok(!html.includes('<script>alert(1)'));
  assert.match(html, /<title>&lt;b&gt;t&lt;\/b&gt;<\/title>/);
  assert.equal(JSON.parse(scriptSafeJson({ a: '</script>\u2028' })).a, '</script>\u2028');
});

test('a weak nonce is refused', () => {
  assert.throws(() => renderTraceHtml({ runId: 'r', events: [], warnings: [], assets, nonce: 'abc' }), /nonce must be at least 16/);
});
