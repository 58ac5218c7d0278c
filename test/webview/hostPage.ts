// The run viewer as the extension opens it, for browser tests and the viewer benchmark: the panel's own page
// (renderViewerHtml: the bundle by nonce, its CSS, the webview CSP) served over local HTTP, with a small stand-in
// for VS Code's message passing. The view's `ready` and `trajectoryWindow` requests go to this Node process, which
// answers with the real host code (loadTraceForView over the trace file on disk, as RunViewerPanel does); the
// answer travels as one binary body (typed arrays as raw bytes, like VS Code's postMessage of ArrayBuffers) and is
// posted into the page with its buffer transferred. The CSP adds connect-src for that HTTP host and nothing else.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { loadTraceForView, type ViewLoad, type ViewLoadOptions } from '../../src/core/trace/viewData.js';
import { renderWebviewPage } from '../../src/extension/panels/webviewPage.js';
import { viewerCsp } from '../../src/extension/panels/viewerHtml.js';
import { shareMessages, TrajectoryWindowRequest, type HostToView } from '../../src/protocol/webview.js';
import { loadViewerAssets } from './buildViewer.js';

/** Serialises a host message: [u32 header length][header JSON][pad to 8][typed arrays' bytes]. */
export function encodeHostMessage(message: HostToView): Buffer {
  const blobs: (Float64Array | Int32Array)[] = [];
  let offset = 0;
  const header = JSON.stringify(message, (_k, v: unknown) => {
    if (!(v instanceof Float64Array || v instanceof Int32Array)) return v;
    const ref = { $bin: [v instanceof Float64Array ? 'f64' : 'i32', offset, v.length] };
    offset += Math.ceil(v.byteLength / 8) * 8;
    blobs.push(v);
    return ref;
  });
  const head = Buffer.from(header, 'utf8');
  const dataStart = Math.ceil((4 + head.length) / 8) * 8;
  const out = Buffer.alloc(dataStart + offset);
  out.writeUInt32LE(head.length, 0);
  head.copy(out, 4);
  let at = dataStart;
  for (const b of blobs) {
    Buffer.from(b.buffer, b.byteOffset, b.byteLength).copy(out, at);
    at += Math.ceil(b.byteLength / 8) * 8;
  }
  return out;
}

/** The page's side of the stand-in: fetch the host's answer, rebuild typed arrays over the body, post it in. */
const STAND_IN = `(() => {
  // Typed arrays sit at the top level of the message and of its events (the only places the host puts them), so
  // only those are looked at: a JSON.parse reviver would visit every value of a large trace.
  const decode = (buf) => {
    const hl = new DataView(buf).getUint32(0, true);
    const dataStart = Math.ceil((4 + hl) / 8) * 8;
    const msg = JSON.parse(new TextDecoder().decode(new Uint8Array(buf, 4, hl)));
    const fix = (o) => {
      for (const k in o) {
        const v = o[k];
        if (v && typeof v === 'object' && Array.isArray(v.$bin)) {
          const [kind, off, len] = v.$bin;
          o[k] = kind === 'f64' ? new Float64Array(buf, dataStart + off, len) : new Int32Array(buf, dataStart + off, len);
        }
      }
    };
    fix(msg);
    if (Array.isArray(msg.events)) for (const e of msg.events) if (e && e.type === 'trajectory_packed') fix(e);
    return msg;
  };
  const deliver = (res) => res.arrayBuffer().then((buf) => window.postMessage(decode(buf), '*', [buf]));
  window.__waypointHostLog = [];
  window.__waypointHostStub = (m) => {
    window.__waypointHostLog.push(m.type);
    if (m.type === 'ready') fetch('/host/ready', { method: 'POST' }).then(deliver);
    else if (m.type === 'trajectoryWindow') fetch('/host/window', { method: 'POST', body: JSON.stringify(m) }).then(deliver);
    else if (m.requestId) window.postMessage({ type: 'response', requestId: m.requestId, ok: false, error: 'not available in the test host (' + m.type + ')' }, '*');
  };
})();`;

export interface HostPage {
  url: string;
  /**
   * Time from the view's last `ready` to the host's answer, ms: what is left of reading and decoding the trace (begun,
   * as RunViewerPanel does, when the page was requested) plus building and serialising the message.
   */
  lastReadyMs: number;
  /** Reading and decoding the trace (the prefetch), wall ms, wherever it fell. */
  lastLoadMs: number;
  /** CPU time of the prefetch and the answer (user + system), ms: less sensitive than wall time to other processes. */
  lastReadyCpuMs: number;
  lastLoad: ViewLoad | undefined;
  /** Bytes of the last `ready` answer. */
  lastReadyBytes: number;
  close(): Promise<void>;
}

export async function serveHostPage(tracePath: string, runId: string, options: ViewLoadOptions & { minified?: boolean } = {}): Promise<HostPage> {
  const assets = await loadViewerAssets({ minified: options.minified });
  const nonce = randomBytes(18).toString('base64');
  const state: HostPage = { url: '', lastReadyMs: NaN, lastLoadMs: NaN, lastReadyCpuMs: NaN, lastLoad: undefined, lastReadyBytes: 0, close: async () => undefined };
  // As RunViewerPanel: the trace is read and decoded while the page loads; `ready` takes the result.
  let prefetch: Promise<{ load: ViewLoad; cpuMs: number }> | undefined;
  const startPrefetch = () => {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    prefetch = readFile(tracePath, 'utf8').then((text) => {
      const load = loadTraceForView(text, options);
      state.lastLoadMs = performance.now() - t0;
      const c = process.cpuUsage(c0);
      return { load, cpuMs: (c.user + c.system) / 1000 };
    });
    prefetch.catch(() => undefined);
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const origin = `http://${req.headers.host}`;
      const send = (type: string, body: string | Buffer) => {
        res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
        res.end(body);
      };
      if (req.url === '/viewer.html') {
        startPrefetch();
        send('text/html', renderWebviewPage({
          who: 'hostPage', nonce, title: `Run ${runId}`, scriptUri: '/runViewer.js',
          csp: `${viewerCsp(origin, nonce)}; connect-src ${origin}`,
          head: `<link rel="stylesheet" href="/runViewer.css">\n<script nonce="${nonce}">${STAND_IN}</script>`,
        }));
      } else if (req.url === '/runViewer.js') {
        send('text/javascript', assets.js);
      } else if (req.url === '/runViewer.css') {
        send('text/css', assets.css);
      } else if (/^\/runViewer\.\w+\.(js|css)$/.test(req.url ?? '') && assets.bundles?.[req.url!.split('.')[1]!]) {
        // The viewer's lazy bundles, from beside runViewer.js as in the panel (webview/common/lazyBundle.ts).
        const b = assets.bundles[req.url!.split('.')[1]!]!;
        const css = req.url!.endsWith('.css');
        if (css && b.css === undefined) res.writeHead(404).end();
        else send(css ? 'text/css' : 'text/javascript', css ? b.css! : b.js);
      } else if (req.url?.startsWith('/') && assets.files[req.url.slice(1)]) {
        send('font/ttf', Buffer.from(assets.files[req.url.slice(1)], 'base64'));
      } else if (req.url === '/host/ready') {
        const t0 = performance.now();
        if (!prefetch) startPrefetch();
        const pending = prefetch!;
        prefetch = undefined;
        const { load, cpuMs } = await pending;
        const c0 = process.cpuUsage();
        state.lastLoad = load;
        const shared = shareMessages(load.events);
        const body = encodeHostMessage({ type: 'init', runId, events: shared.events, messages: shared.messages, warnings: load.warnings, ...(load.overview ? { overview: load.overview } : {}) });
        state.lastReadyMs = performance.now() - t0;
        const c = process.cpuUsage(c0);
        state.lastReadyCpuMs = cpuMs + (c.user + c.system) / 1000;
        state.lastReadyBytes = body.length;
        send('application/octet-stream', body);
      } else if (req.url === '/host/window') {
        const chunks: Buffer[] = [];
        for await (const c of req) chunks.push(c as Buffer);
        const m = TrajectoryWindowRequest.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        const body = state.lastLoad
          ? encodeHostMessage({ type: 'trajectoryWindow', requestId: m.requestId, ok: true, ...state.lastLoad.window(m.tFrom, m.tTo, m.buckets) })
          : encodeHostMessage({ type: 'response', requestId: m.requestId, ok: false, error: 'no trace loaded' });
        send('application/octet-stream', body);
      } else if (req.url === '/favicon.ico') {
        res.writeHead(204).end();
      } else {
        res.writeHead(404).end(`not found: ${req.url}`);
      }
    })().catch((err: unknown) => {
      res.writeHead(500).end(String(err));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  state.url = `http://127.0.0.1:${port}/viewer.html`;
  state.close = () => new Promise<void>((r) => server.close(() => r()));
  return state;
}

export const HOST_PAGE_DIR = join(import.meta.dirname, '../output');
