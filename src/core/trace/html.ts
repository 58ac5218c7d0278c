// A self-contained HTML page for one trace: the bundled run viewer (JS + CSS, fonts as data: URLs) and the
// events inlined, plus a small stand-in for the VS Code host that answers the viewer's `ready` with `init`. The
// same viewer as in the editor, so the CLI report and the browser tests exercise the real UI. The page runs
// under a CSP like the webview's: no network, scripts by nonce only.
import type { TraceEvent } from '../../protocol/trace.js';
import { packEvents, shareMessages, type ViewerWarning } from '../../protocol/webview.js';
import { REPORT_THEMES, themeCss, type ReportTheme } from './reportThemes.js';

export interface ViewerAssets {
  /** dist/webview/runViewer.js */
  js: string;
  /** dist/webview/runViewer.css */
  css: string;
  /** Files the CSS references as url("./name") (e.g. Monaco's codicon font), base64-encoded, by file name. */
  files: Record<string, string>;
}

export interface TraceHtmlOptions {
  runId: string;
  events: readonly TraceEvent[];
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

export function renderTraceHtml(o: TraceHtmlOptions): string {
  if (!/^[A-Za-z0-9+/=_-]{16,}$/.test(o.nonce)) throw new Error(`renderTraceHtml: nonce must be at least 16 base64 characters, got ${o.nonce.length}`);
  const theme = o.theme ?? 'dark';
  const bodyClass = theme === 'light' ? 'vscode-light' : theme === 'high-contrast' ? 'vscode-high-contrast' : 'vscode-dark';
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${o.nonce}'`,
    // Monaco and Lit add <style> elements at run time; nothing else is inline.
    "style-src 'unsafe-inline'",
    'font-src data:',
    'img-src data:',
  ].join('; ');
  // Trajectories go in packed (as the extension host sends them); their Float64Array columns are stored as
  // base64 blocks (little-endian, as on every platform VS Code runs on) and referenced from the JSON by index.
  const bins: string[] = [];
  const shared = shareMessages(packEvents(o.events));
  const data = scriptSafeJson({ type: 'init', runId: o.runId, events: shared.events, messages: shared.messages, warnings: o.warnings }, (_k, v) =>
    v instanceof Float64Array ? { $bin: bins.push(Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64')) - 1 } : v,
  );
  // The host stand-in: answers `ready` with the inlined trace, refuses requests a static page cannot serve.
  const host = `(() => {
  const bins = Array.from(document.querySelectorAll('script[data-bin]'), (el) => el.textContent);
  const bytes = (b64) => {
    if (Uint8Array.fromBase64) return Uint8Array.fromBase64(b64);
    const s = atob(b64), u = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) u[i] = s.charCodeAt(i);
    return u;
  };
  const load = () => {
    const msg = JSON.parse(document.getElementById('waypoint-trace').textContent);
    const transfer = [];
    for (const e of msg.events) {
      if (e.type !== 'trajectory_packed') continue;
      for (const k of ['tSecs', 'ee', 'gripperWidth', 'qpos', 'bodies']) {
        const ref = e[k];
        if (!ref || typeof ref.$bin !== 'number') continue;
        const u = bytes(bins[ref.$bin]);
        e[k] = new Float64Array(u.buffer, u.byteOffset, u.byteLength / 8);
        transfer.push(u.buffer);
      }
    }
    return [msg, transfer];
  };
  window.__waypointHostLog = [];
  window.__waypointHostStub = (m) => {
    window.__waypointHostLog.push(m);
    if (m.type === 'ready') {
      const [msg, transfer] = load();
      window.postMessage(msg, '*', transfer);
    } else if (m.requestId) {
      window.postMessage({ type: 'response', requestId: m.requestId, ok: false, error: 'not available in a static HTML report (' + m.type + ')' }, '*');
    }
  };
})();`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(o.title ?? `Waypoint run ${o.runId}`)}</title>
<style>body{${themeCss(theme)}}</style>
<style>${inlineCssUrls(o.assets.css, o.assets.files).replace(/<\/style/gi, '<\\/style')}</style>
</head>
<body class="${bodyClass}">
<div id="app"></div>
<script type="application/json" id="waypoint-trace">${data}</script>
${bins.map((b, i) => `<script type="application/octet-stream" data-bin="${i}">${b}</script>`).join('\n')}
<script nonce="${o.nonce}">${host}</script>
<script nonce="${o.nonce}">${o.assets.js.replace(/<\/script/gi, '<\\/script')}</script>
</body>
</html>
`;
}
