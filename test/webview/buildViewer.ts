// Makes sure dist/webview/runViewer.{js,css} are fresh for the browser tests: if they are missing or older than
// their sources, builds only that entry with the options scripts/build.mjs uses (so a broken entry elsewhere in
// the tree does not block the viewer tests), then reads the bundle and its assets for html.ts.
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { VIEWER_LAZY_BUNDLES } from '../../src/protocol/webview.js';
import type { ViewerAssets } from '../../src/core/trace/html.js';

export const ROOT = resolve(import.meta.dirname, '../..');
const OUT_JS = join(ROOT, 'dist/webview/runViewer.js');
const OUT_CSS = join(ROOT, 'dist/webview/runViewer.css');
const SOURCES = ['webview', 'src/protocol', 'src/core/trace/projections'];

function newestSourceMs(): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const n of readdirSync(dir)) {
      const p = join(dir, n);
      const s = statSync(p);
      if (s.isDirectory()) walk(p);
      else newest = Math.max(newest, s.mtimeMs);
    }
  };
  for (const d of SOURCES) walk(join(ROOT, d));
  return newest;
}

/** The viewer's entry and its lazy bundles (scripts/build.mjs builds them the same way), by output name. */
const ENTRIES: Record<string, string> = {
  'runViewer': 'webview/runViewer/main.ts',
  ...Object.fromEntries(VIEWER_LAZY_BUNDLES.map((n) => [`runViewer.${n}`, `webview/runViewer/bundles/${n}.ts`])),
};

function buildEntries(outdir: string, sourcemap: boolean) {
  return build({
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([out, src]) => [out, join(ROOT, src)])),
    outdir,
    bundle: true,
    sourcemap,
    // As scripts/build.mjs builds it.
    minify: true,
    logLevel: 'error',
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    loader: { '.ttf': 'file', '.css': 'css' },
  });
}

export async function ensureViewerBuilt(): Promise<void> {
  const outs = [OUT_JS, OUT_CSS, ...VIEWER_LAZY_BUNDLES.map((n) => join(ROOT, `dist/webview/runViewer.${n}.js`))];
  const newest = newestSourceMs();
  if (outs.every((f) => existsSync(f) && statSync(f).mtimeMs >= newest)) return;
  await buildEntries(join(ROOT, 'dist/webview'), true);
}

/** The minified viewer, as `npm run package` ships it (benchmarks measure this one). */
const MIN_DIR = join(ROOT, 'test/output/viewer-min');

async function buildMinifiedViewer(): Promise<void> {
  await buildEntries(MIN_DIR, false);
}

export async function loadViewerAssets(options: { minified?: boolean } = {}): Promise<ViewerAssets> {
  let dir = join(ROOT, 'dist/webview');
  if (options.minified) {
    await buildMinifiedViewer();
    dir = MIN_DIR;
  } else {
    await ensureViewerBuilt();
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
