// Makes sure dist/webview/runViewer.{js,css} and the lazy bundles are fresh for the browser tests: if they are
// missing or older than any file they were built from, rebuilds only those outputs through scripts/build.mjs (so a
// broken entry elsewhere in the tree does not block the viewer tests), then reads the bundle and its assets for
// html.ts. The benchmarks' minified copy is built here with the same options.
import { build } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { VIEWER_LAZY_BUNDLES } from '../../src/protocol/webview.js';
import type { ViewerAssets } from '../../src/core/trace/html.js';
import { rebuildIfStale } from '../helpers/dist.js';

export const ROOT = resolve(import.meta.dirname, '../..');

/** The viewer's entry and its lazy bundles (scripts/build.mjs builds them the same way), by output name. */
const ENTRIES: Record<string, string> = {
  'runViewer': 'webview/runViewer/main.ts',
  ...Object.fromEntries(VIEWER_LAZY_BUNDLES.map((n) => [`runViewer.${n}`, `webview/runViewer/bundles/${n}.ts`])),
};

/** The viewer built into `outdir` with the options scripts/build.mjs uses, without source maps. */
function buildMinifiedViewer(outdir: string) {
  return build({
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([out, src]) => [out, join(ROOT, src)])),
    outdir,
    bundle: true,
    // As scripts/build.mjs builds it.
    minify: true,
    logLevel: 'error',
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    loader: { '.ttf': 'file', '.css': 'css' },
  });
}

export function ensureViewerBuilt(): void {
  rebuildIfStale(['dist/webview/runViewer.js', ...VIEWER_LAZY_BUNDLES.map((n) => `dist/webview/runViewer.${n}.js`)], ROOT);
}

/** The minified viewer, as `npm run package` ships it (benchmarks measure this one). */
const MIN_DIR = join(ROOT, 'test/output/viewer-min');

export async function loadViewerAssets(options: { minified?: boolean } = {}): Promise<ViewerAssets> {
  let dir = join(ROOT, 'dist/webview');
  if (options.minified) {
    await buildMinifiedViewer(MIN_DIR);
    dir = MIN_DIR;
  } else {
    ensureViewerBuilt();
  }
  const css = readFileSync(join(dir, 'runViewer.css'), 'utf8');
  const files: Record<string, string> = {};
  for (const m of css.matchAll(/url\("?\.\/([\w.-]+\.ttf)"?\)/g)) files[m[1]] = readFileSync(join(dir, m[1])).toString('base64');
  const bundles: NonNullable<ViewerAssets['bundles']> = {};
  for (const name of VIEWER_LAZY_BUNDLES) {
    const cssPath = join(dir, `runViewer.${name}.css`);
    const bundleCss = existsSync(cssPath) ? readFileSync(cssPath, 'utf8') : undefined;
    if (bundleCss) for (const m of bundleCss.matchAll(/url\("?\.\/([\w.-]+\.ttf)"?\)/g)) files[m[1]] = readFileSync(join(dir, m[1])).toString('base64');
    bundles[name] = { js: readFileSync(join(dir, `runViewer.${name}.js`), 'utf8'), ...(bundleCss ? { css: bundleCss } : {}) };
  }
  return { js: readFileSync(join(dir, 'runViewer.js'), 'utf8'), css, files, bundles };
}
