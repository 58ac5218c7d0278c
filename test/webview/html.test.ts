// The static trace page (no browser): CSP, nonce, escaping of hostile trace text, inlined assets.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import { readColumn, renderTraceHtml, scriptSafeJson } from '../../src/core/trace/html.js';
import { packEvents, type PackedTrajectory } from '../../src/protocol/webview.js';
import type { TraceEvent } from '../../src/protocol/trace.js';
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
  assert.equal(b[`bin${packed.tSecs.$bin}`].length, packed.n * 4, 'tSecs as int32 differences');
});

/** Each packed trajectory's columns as the page's loader reads them back. */
function pageColumns(html: string): Record<string, Float64Array>[] {
  const b = blocks(html);
  const msg = JSON.parse(b.trace!.toString());
  const bytes = (i: number) => new Uint8Array(b[`bin${i}`]!).buffer;
  return msg.events
    .filter((e: { type: string }) => e.type === 'trajectory_packed')
    .map((e: Record<string, { $bin: number; s?: number; w?: number }>) => Object.fromEntries(['tSecs', 'ee', 'gripperWidth', 'bodies'].filter((k) => e[k]).map((k) => [k, readColumn(bytes(e[k]!.$bin), e[k]!)])));
}

test('trajectory columns go as the trace keeps them (rounded integers, differences along time) and read back to the same numbers', () => {
  const fixture = loadFixture('malmm-pick-place.jsonl');
  const warnings = fixture.warnings;
  // Samples as today's writer records them (the fixture predates both): rounded to the trace's digits, with body
  // poses (two bodies, 7 numbers each).
  const round = (v: number, digits: number) => (Math.round(v * 10 ** digits) + 0) / 10 ** digits;
  const events = fixture.events.map((e): TraceEvent => (e.type === 'trajectory' ? {
    ...e,
    samples: e.samples.map((x) => {
      const ee = x.ee.map((v) => round(v, 5)) as [number, number, number, number];
      return { ...x, tSecs: round(x.tSecs, 6), ee, gripperWidth: round(x.gripperWidth, 5), bodies: [...ee.slice(0, 3), 1, 0, 0, 0, 0.1, 0.2, 0.75, round(Math.cos(ee[3]!), 5), 0, 0, round(Math.sin(ee[3]!), 5)] };
    }),
  } : e));
  const html = renderTraceHtml({ runId: 'r1', events, warnings, assets, nonce });
  const want = packEvents(events).filter((e): e is PackedTrajectory => e.type === 'trajectory_packed');
  const got = pageColumns(html);
  assert.equal(got.length, want.length);
  got.forEach((cols, i) => {
    for (const k of ['tSecs', 'ee', 'gripperWidth', 'bodies'] as const) assert.deepEqual(cols[k], want[i]![k], `trajectory ${i} ${k}`);
  });
  assert.ok(want.every((e) => e.bodies && e.bodies.length === 14 * e.n));
  // The recorded columns, compressed, several times smaller than as the float64 the page used to carry.
  const b = blocks(html);
  const refs = JSON.parse(b.trace!.toString()).events.filter((e: { type: string }) => e.type === 'trajectory_packed');
  const gz = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).length;
  let raw = 0;
  let page = 0;
  want.forEach((e, i) => {
    for (const k of ['tSecs', 'ee', 'gripperWidth'] as const) {
      raw += gz(new Uint8Array(e[k].buffer));
      page += gz(b[`bin${refs[i][k].$bin}`]!);
    }
  });
  assert.ok(page * 3 < raw, `${page} bytes compressed against ${raw} as float64`);
});

test('a column with more digits than the trace keeps goes as float64, exact', () => {
  const { events, warnings } = loadFixture('malmm-pick-place.jsonl');
  const odd = events.map((e): TraceEvent => (e.type === 'trajectory' ? { ...e, samples: e.samples.map((x, i) => ({ ...x, tSecs: x.tSecs + (i === 1 ? 1e-9 : 0) })) } : e));
  const html = renderTraceHtml({ runId: 'r1', events: odd, warnings, assets, nonce });
  const want = packEvents(odd).filter((e): e is PackedTrajectory => e.type === 'trajectory_packed');
  pageColumns(html).forEach((cols, i) => assert.deepEqual(cols.tSecs, want[i]!.tSecs));
  const msg = JSON.parse(blocks(html).trace!.toString());
  const first = msg.events.find((e: { type: string }) => e.type === 'trajectory_packed');
  assert.deepEqual([first.tSecs.s, blocks(html)[`bin${first.tSecs.$bin}`]!.length], [undefined, first.n * 8], 'raw float64');
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
