// The static trace page (no browser): CSP, nonce, escaping of hostile trace text, inlined assets.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { renderTraceHtml, scriptSafeJson } from '../../src/core/trace/html.js';
import { loadFixture } from '../unit/core/trace/projections/helpers.js';

const assets = { js: 'console.log("</script><b>")', css: '@font-face{src:url("./f.ttf")} .x{background:url(./missing.png)}', files: { 'f.ttf': 'AAEC' } };
const nonce = 'abcdefghijklmnopqrstuv';

/** The blocks of a page, decompressed. */
function blocks(html: string): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const m of html.matchAll(/<script type="application\/octet-stream" data-gz="(\w+)">([A-Za-z0-9+/=]*)<\/script>/g)) out[m[1]] = gunzipSync(Buffer.from(m[2], 'base64'));
  return out;
}

test('the page has a webview-like CSP, nonce-only scripts, and no remote resources', () => {
  const { events, warnings } = loadFixture('malmm-pick-place.jsonl');
  const html = renderTraceHtml({ runId: 'r1', events, warnings, assets, nonce });
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
  assert.equal(csp, `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; font-src data:; img-src data:`);
  const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
  for (const s of scripts) assert.ok(s.includes(`nonce="${nonce}"`) || / type="application\/octet-stream" data-gz="\w+"$/.test(s), s);
  assert.doesNotMatch(html, /(src|href)="https?:/);
  const b = blocks(html);
  assert.match(b.css.toString(), /url\("data:font\/ttf;base64,AAEC"\)/, 'fonts inlined');
  assert.match(b.css.toString(), /url\(\.\/missing\.png\)/, 'unknown files left alone');
  assert.equal(b.js.toString(), assets.js, 'the bundle, byte for byte');
  // The trace message, with each trajectory column as a binary block of its own.
  const msg = JSON.parse(b.trace.toString());
  assert.equal(msg.type, 'init');
  assert.equal(msg.events.length, events.length);
  const packed = msg.events.find((e: { type: string }) => e.type === 'trajectory_packed');
  assert.equal(b[`bin${packed.tSecs.$bin}`].length, packed.n * 8, 'tSecs as little-endian float64');
});

test('the page is compressed: a fraction of the text it carries', () => {
  const { events, warnings } = loadFixture('malmm-pick-place.jsonl');
  const big = { js: 'function f(){return 1}\n'.repeat(20000), css: '.a{color:red}\n'.repeat(5000), files: {} };
  const html = renderTraceHtml({ runId: 'r1', events, warnings, assets: big, nonce });
  const plain = big.js.length + big.css.length + Object.values(blocks(html)).filter((_, i) => i >= 2).reduce((n, x) => n + x.length, 0);
  assert.ok(html.length < plain / 4, `${html.length} bytes for ${plain} bytes of content`);
});

test('hostile trace text cannot break out of the data block', () => {
  const { events } = loadFixture('malmm-pick-place.jsonl');
  const evil = events.map((e) => (e.type === 'chat_message' ? { ...e, content: '</script><script>alert(1)</script>\u2028<!--' } : e));
  const html = renderTraceHtml({ runId: '</title><script>', events: evil, warnings: [], assets, nonce, title: '<b>t</b>' });
  assert.equal(html.split('</script>').length - 1, html.split('<script').length - 1, 'every <script> is closed exactly once');
  assert.ok(!html.includes('<script>alert(1)'));
  assert.match(blocks(html).trace.toString(), /<\/script><script>alert\(1\)/, 'the text itself is kept, inside a compressed block');
  assert.match(html, /<title>&lt;b&gt;t&lt;\/b&gt;<\/title>/);
  assert.equal(JSON.parse(scriptSafeJson({ a: '</script>\u2028' })).a, '</script>\u2028');
});

test('a weak nonce is refused', () => {
  assert.throws(() => renderTraceHtml({ runId: 'r', events: [], warnings: [], assets, nonce: 'abc' }), /nonce must be at least 16/);
});
