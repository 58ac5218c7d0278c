// Makes sure dist/webview/runViewer.{js,css} are fresh for the browser tests: if they are missing or older than
// their sources, builds only that entry with the options scripts/build.mjs uses (so a broken entry elsewhere in
// the tree does not block the viewer tests), then reads the bundle and its assets for html.ts.
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
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

export async function ensureViewerBuilt(): Promise<void> {
  if (existsSync(OUT_JS) && existsSync(OUT_CSS) && statSync(OUT_JS).mtimeMs >= newestSourceMs()) return;
  await build({
    entryPoints: [join(ROOT, 'webview/runViewer/main.ts')],
    outfile: OUT_JS,
    bundle: true,
    sourcemap: true,
    // As scripts/build.mjs builds it.
    minify: true,
    logLevel: 'error',
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    loader: { '.ttf': 'file', '.css': 'css' },
  });
}

/** The minified viewer, as `npm run package` ships it (benchmarks measure this one). */
const MIN_DIR = join(ROOT, 'test/output/viewer-min');

async function buildMinifiedViewer(): Promise<void> {
  await build({
    entryPoints: [join(ROOT, 'webview/runViewer/main.ts')],
    outfile: join(MIN_DIR, 'runViewer.js'),
    bundle: true,
    minify: true,
    logLevel: 'error',
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    loader: { '.ttf': 'file', '.css': 'css' },
  });
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
  return { js: readFileSync(join(dir, 'runViewer.js'), 'utf8'), css, files };
}
