// Bundles loaded on first use, beside the viewer's main script: Monaco (2.8 MB minified) and three.js (0.6 MB) were
// inside the main bundle and, though their modules ran only on first use, the page still fetched and parsed them
// before the first paint: half of the time to open a run (webview/runViewer/README.md has the figures).
// Each lazy bundle is an IIFE that calls registerBundle(name, exports). It is run by a <script> carrying the main
// script's nonce (the webview CSP admits scripts by nonce only):
//  - in the editor panel and the test host, from `<dir of the main script>/runViewer.<name>.js` (+ `.css` if it
//    has styles, as a <link>);
//  - in the static HTML report (one file, main script inlined), from the text the report's loader hands over
//    through window.__waypointBundleSource.
declare global {
  interface Window {
    __waypointBundles?: Record<string, unknown>;
    /** The HTML report's loader: the bundle's JS (and CSS) as text. */
    __waypointBundleSource?: (name: string) => Promise<{ js: string; css?: string }>;
  }
}

import type { ViewerLazyBundle as LazyBundleName } from '../../src/protocol/webview.js';

// Read while the main bundle's top level runs: document.currentScript is null afterwards.
const mainScript = document.currentScript as HTMLScriptElement | null;
const nonce = mainScript?.nonce ?? '';
const mainSrc = mainScript?.src ?? '';
const loading = new Map<string, Promise<unknown>>();

/** Called by a lazy bundle's entry when it has run. */
export function registerBundle(name: LazyBundleName, exports: unknown): void {
  (window.__waypointBundles ??= {})[name] = exports;
}

function registered<T>(name: string): T {
  const exports = window.__waypointBundles?.[name];
  if (exports === undefined) throw new Error(`the ${name} bundle ran but registered nothing`);
  return exports as T;
}

function addScript(configure: (s: HTMLScriptElement) => void): HTMLScriptElement {
  const s = document.createElement('script');
  s.nonce = nonce;
  configure(s);
  document.head.appendChild(s);
  return s;
}

async function fromReport(name: string, source: NonNullable<Window['__waypointBundleSource']>): Promise<void> {
  const { js, css } = await source(name);
  if (css) document.head.appendChild(Object.assign(document.createElement('style'), { textContent: css }));
  addScript((s) => (s.textContent = js)); // an inline script runs as it is inserted
}

function fromUrl(name: string, hasCss: boolean): Promise<void> {
  if (!mainSrc) return Promise.reject(new Error(`cannot locate the ${name} bundle: the viewer's script has no URL`));
  const url = (ext: string) => new URL(`runViewer.${name}.${ext}`, mainSrc).href;
  const loaded = (el: HTMLElement, what: string) =>
    new Promise<void>((resolve, reject) => {
      el.addEventListener('load', () => resolve(), { once: true });
      el.addEventListener('error', () => reject(new Error(`could not load ${what}`)), { once: true });
    });
  const waits: Promise<void>[] = [];
  if (hasCss) {
    const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: url('css') });
    waits.push(loaded(link, link.href));
    document.head.appendChild(link);
  }
  addScript((s) => {
    s.src = url('js');
    waits.push(loaded(s, s.src));
  });
  return Promise.all(waits).then(() => undefined);
}

/** The exports of a lazy bundle, loading it on the first call. `hasCss`: the bundle has a stylesheet. */
export function loadBundle<T>(name: LazyBundleName, hasCss = false): Promise<T> {
  let p = loading.get(name);
  if (!p) {
    const source = window.__waypointBundleSource;
    p = (window.__waypointBundles?.[name] !== undefined ? Promise.resolve() : source ? fromReport(name, source) : fromUrl(name, hasCss)).then(() => registered<T>(name));
    // A failed load may be retried (e.g. the panel was reloaded while the file was being written).
    p.catch(() => loading.delete(name));
    loading.set(name, p);
  }
  return p as Promise<T>;
}
