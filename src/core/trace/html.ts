// A self-contained HTML page for one trace: the bundled run viewer (JS + CSS, fonts as data: URLs) and the
// events inlined (compressed), plus a small loader that unpacks them and stands in for the VS Code host, answering
// the viewer's `ready` with `init`. The same viewer as in the editor, so the CLI report and the browser tests
// exercise the real UI. The page runs under a CSP like the webview's: no network, scripts by nonce only.
import { gzipSync } from 'node:zlib';
import { packEvents, shareMessages, type PackedTrajectory, type ViewerWarning, type ViewEvent } from '../../protocol/webview.js';
import { TRAJECTORY_DIGITS } from './encoding/trajectory.js';
import { REPORT_THEMES, themeCss, type ReportTheme } from './reportThemes.js';

export interface ViewerAssets {
  /** dist/webview/runViewer.js */
  js: string;
  /** dist/webview/runViewer.css */
  css: string;
  /** Files the CSS references as url("./name") (e.g. Monaco's codicon font), base64-encoded, by file name. */
  files: Record<string, string>;
  /** The viewer's lazy bundles (dist/webview/runViewer.<name>.{js,css}, webview/common/lazyBundle.ts), by name. */
  bundles?: Record<string, { js: string; css?: string }>;
}

export interface TraceHtmlOptions {
  runId: string;
  /** Trace events, or what the viewer's host sends (trajectories packed, e.g. from loadTraceForView). */
  events: readonly ViewEvent[];
  warnings: readonly ViewerWarning[];
  assets: ViewerAssets;
  /** Script nonce for the CSP: pass fresh random bytes (e.g. crypto.randomBytes(16).toString('base64')). */
  nonce: string;
  title?: string;
  /** Body theme class, like VS Code's: dark (default), light or high contrast. */
  theme?: ReportTheme;
}

export { REPORT_THEMES, type ReportTheme };

const MIME: Record<string, string> = { ttf: 'font/ttf', woff: 'font/woff', woff2: 'font/woff2', svg: 'image/svg+xml', png: 'image/png' };

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** JSON safe inside a <script> element: no "</script", no "<!--", no U+2028/9 surprises. */
export function scriptSafeJson(value: unknown, replacer?: (key: string, value: unknown) => unknown): string {
  return JSON.stringify(value, replacer).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** Inlines `url("./file")` references of the CSS as data: URLs; unknown files are left as they are. */
function inlineCssUrls(css: string, files: Record<string, string>): string {
  return css.replace(/url\(\s*(["']?)\.\/([\w.-]+)\1\s*\)/g, (whole, _q: string, name: string) => {
    const b64 = files[name];
    if (b64 === undefined) return whole;
    const ext = name.split('.').pop() ?? '';
    return `url("data:${MIME[ext] ?? 'application/octet-stream'};base64,${b64}")`;
  });
}

/**
 * Blocks of the page, each gzip-compressed and base64-encoded in a `<script type="application/octet-stream">`:
 * the CSS, the viewer's JS, the trace message (JSON) and each Float64Array column of the packed trajectories.
 * The trace text repeats itself (every role call carries the conversation so far) and the bundle is large, so
 * compressed the page is a fraction of its plain size (src/core/trace/README.md has the numbers).
 */
const stripMapUrl = (js: string) => js.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');

function block(kind: string, bytes: Uint8Array | string): string {
  const gz = gzipSync(typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes, { level: 9 });
  return `<script type="application/octet-stream" data-gz="${kind}">${gz.toString('base64')}</script>`;
}

/** A column of a packed trajectory in the page: a binary block, and how to read it back. */
interface ColumnRef {
  $bin: number;
  /** Set when the block holds int32 differences along time of round(value * s), `w` numbers per sample. */
  s?: number;
  w?: number;
}

const INT32_MAX = 2 ** 31 - 1;

/**
 * A column as the trace stores it: each value rounded to the trace's digits as an integer, minus the same column's
 * value one sample earlier (int32), which compresses several times better than raw float64 and reads back to the
 * same numbers (k / 10^e, as the trace reader computes them). A column that does not round-trip so (values with
 * more digits than the trace keeps, or too large) goes as raw float64.
 */
function columnRef(v: Float64Array, width: number, digits: number, bins: Uint8Array[]): ColumnRef {
  const scale = 10 ** digits;
  const d = new Int32Array(v.length);
  let exact = true;
  for (let i = 0; i < v.length && exact; i++) {
    const k = Math.round(v[i] * scale);
    const before = i >= width ? Math.round(v[i - width] * scale) : 0;
    const diff = k - before;
    // Object.is: a -0 would read back as 0 (the trace's writer stores none).
    exact = Object.is((k + 0) / scale, v[i]) && Math.abs(diff) <= INT32_MAX;
    d[i] = diff;
  }
  if (!exact) return { $bin: bins.push(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)) - 1 };
  return { $bin: bins.push(new Uint8Array(d.buffer)) - 1, s: scale, w: width };
}

/**
 * A column back from its block (run in the page: the loader carries this function's source, so it must use nothing
 * from outside it): raw float64, or int32 differences along time, `w` numbers per sample, of round(value * s).
 */
export function readColumn(buf: ArrayBuffer, ref: { s?: number; w?: number }): Float64Array {
  if (!ref.s || !ref.w) return new Float64Array(buf);
  const d = new Int32Array(buf);
  const out = new Float64Array(d.length);
  const acc = new Float64Array(ref.w);
  for (let i = 0; i < d.length; i++) {
    const j = i % ref.w;
    acc[j] += d[i];
    out[i] = acc[j] / ref.s;
  }
  return out;
}

/** The packed trajectory with its columns as blocks; joint positions left out (no view draws them). */
function withColumnRefs(e: PackedTrajectory, bins: Uint8Array[]): unknown {
  return {
    ...e,
    qposWidth: 0,
    qpos: [],
    tSecs: columnRef(e.tSecs, 1, TRAJECTORY_DIGITS.tSecs, bins),
    ee: columnRef(e.ee, 4, TRAJECTORY_DIGITS.ee, bins),
    gripperWidth: columnRef(e.gripperWidth, 1, TRAJECTORY_DIGITS.gripperWidth, bins),
    ...(e.bodies ? { bodies: columnRef(e.bodies, e.bodiesWidth ?? 7, TRAJECTORY_DIGITS.bodies, bins) } : {}),
    ...(e.arms ? { arms: columnRef(e.arms, e.armsWidth ?? 5, TRAJECTORY_DIGITS.arms, bins) } : {}),
  };
}

export function renderTraceHtml(o: TraceHtmlOptions): string {
  if (!/^[A-Za-z0-9+/=_-]{16,}$/.test(o.nonce)) throw new Error(`renderTraceHtml: nonce must be at least 16 base64 characters, got ${o.nonce.length}`);
  const theme = o.theme ?? 'dark';
  const bodyClass = theme === 'light' ? 'vscode-light' : theme === 'high-contrast' ? 'vscode-high-contrast' : 'vscode-dark';
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${o.nonce}'`,
    // Monaco and Lit add <style> elements at run time, and so does the loader (the page's own CSS).
    "style-src 'unsafe-inline'",
    'font-src data:',
    'img-src data:',
  ].join('; ');
  // Trajectories go in packed (as the extension host sends them); their columns are stored as blocks of their own
  // (little-endian, as on every platform VS Code runs on; see columnRef) and referenced by index. Chat messages are
  // listed once and referred to by index from the role calls (shareMessages), as the panel sends them.
  const bins: Uint8Array[] = [];
  const shared = shareMessages(packEvents(o.events));
  const events = shared.events.map((e) => (e.type === 'trajectory_packed' ? withColumnRefs(e, bins) : e));
  const data = JSON.stringify({ type: 'init', runId: o.runId, events, messages: shared.messages, warnings: o.warnings }, (_k, v) =>
    v instanceof Float64Array ? { $bin: bins.push(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)) - 1 } : v,
  );
  // The loader: unpacks the CSS and the viewer (run with this script's nonce) and stands in for the VS Code host,
  // answering `ready` with the trace and refusing requests a static page cannot serve.
  const loader = `(() => {
  const nonce = document.currentScript.nonce;
  const app = document.getElementById('app');
  if (typeof DecompressionStream !== 'function') {
    app.textContent = 'This report needs a browser that can decompress (Chrome 80, Firefox 113, Safari 16.4 or newer).';
    return;
  }
  const blocks = {};
  for (const el of document.querySelectorAll('script[data-gz]')) blocks[el.dataset.gz] = el.textContent;
  const bytes = (b64) => {
    if (Uint8Array.fromBase64) return Uint8Array.fromBase64(b64);
    const s = atob(b64), u = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) u[i] = s.charCodeAt(i);
    return u;
  };
  const gunzip = (name) => new Response(new Blob([bytes(blocks[name])]).stream().pipeThrough(new DecompressionStream('gzip')));
  // The viewer's lazy bundles (webview/common/lazyBundle.ts) are blocks of this page too.
  window.__waypointBundleSource = async (name) => {
    if (!blocks['js.' + name]) throw new Error('the report has no ' + name + ' bundle');
    return { js: await (await gunzip('js.' + name)).text(), css: blocks['css.' + name] ? await (await gunzip('css.' + name)).text() : undefined };
  };
  const trace = (async () => {
    const msg = JSON.parse(await (await gunzip('trace')).text());
    const transfer = [];
    const columns = [];
    const column = ${readColumn.toString()};
    for (const e of msg.events) {
      if (e.type !== 'trajectory_packed') continue;
      if (Array.isArray(e.qpos)) e.qpos = new Float64Array(e.qpos);
      for (const k of ['tSecs', 'ee', 'gripperWidth', 'qpos', 'bodies', 'arms']) {
        const ref = e[k];
        if (!ref || typeof ref.$bin !== 'number') continue;
        columns.push(gunzip('bin' + ref.$bin).arrayBuffer().then((buf) => {
          e[k] = column(buf, ref);
          transfer.push(e[k].buffer);
        }));
      }
    }
    await Promise.all(columns);
    return [msg, transfer];
  })();
  window.__waypointHostLog = [];
  window.__waypointHostStub = (m) => {
    window.__waypointHostLog.push(m);
    if (m.type === 'ready') {
      trace.then(([msg, transfer]) => window.postMessage(msg, '*', transfer), (err) => { app.textContent = 'The report could not be read: ' + err; });
    } else if (m.requestId) {
      window.postMessage({ type: 'response', requestId: m.requestId, ok: false, error: 'not available in a static HTML report (' + m.type + ')' }, '*');
    }
  };
  (async () => {
    const style = document.createElement('style');
    style.textContent = await (await gunzip('css')).text();
    document.head.appendChild(style);
    const script = document.createElement('script');
    script.nonce = nonce;
    script.textContent = await (await gunzip('js')).text();
    document.body.appendChild(script);
  })().catch((err) => { app.textContent = 'The report could not be read: ' + err; });
})();`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(o.title ?? `Waypoint run ${o.runId}`)}</title>
<style>body{${themeCss(theme)}}</style>
</head>
<body class="${bodyClass}">
<div id="app"></div>
${block('css', inlineCssUrls(o.assets.css, o.assets.files))}
${block('js', stripMapUrl(o.assets.js))}
${Object.entries(o.assets.bundles ?? {})
  .map(([name, b]) => [block(`js.${name}`, stripMapUrl(b.js)), b.css === undefined ? '' : block(`css.${name}`, inlineCssUrls(b.css, o.assets.files))].filter(Boolean).join('\n'))
  .join('\n')}
${block('trace', data)}
${bins.map((b, i) => block(`bin${i}`, b)).join('\n')}
<script nonce="${o.nonce}">${loader}</script>
</body>
</html>
`;
}
