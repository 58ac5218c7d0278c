// The bundled run viewer (dist/webview/runViewer.{js,css}, its lazy bundles and the fonts their CSS names), for static HTML reports.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ViewerAssets } from '../trace/html.js';
import { VIEWER_LAZY_BUNDLES } from '../../protocol/webview.js';

export function loadViewerAssets(packageRoot: string): ViewerAssets {
  const dir = join(packageRoot, 'dist', 'webview');
  const jsPath = join(dir, 'runViewer.js');
  if (!existsSync(jsPath)) throw new Error(`the run viewer is not built: ${jsPath} is missing (run \`npm run build\`)`);
  const css = readFileSync(join(dir, 'runViewer.css'), 'utf8');
  const files: Record<string, string> = {};
  for (const m of css.matchAll(/url\("?\.\/([\w.-]+\.(?:ttf|woff2?))"?\)/g)) files[m[1]] = readFileSync(join(dir, m[1])).toString('base64');
  const bundles: NonNullable<ViewerAssets['bundles']> = {};
  for (const name of VIEWER_LAZY_BUNDLES) {
    const js = join(dir, `runViewer.${name}.js`);
    if (!existsSync(js)) throw new Error(`the run viewer is not fully built: ${js} is missing (run \`npm run build\`)`);
    const cssPath = join(dir, `runViewer.${name}.css`);
    const bundleCss = existsSync(cssPath) ? readFileSync(cssPath, 'utf8') : undefined;
    if (bundleCss) for (const m of bundleCss.matchAll(/url\("?\.\/([\w.-]+\.(?:ttf|woff2?))"?\)/g)) files[m[1]] = readFileSync(join(dir, m[1])).toString('base64');
    bundles[name] = { js: readFileSync(js, 'utf8'), ...(bundleCss ? { css: bundleCss } : {}) };
  }
  return { js: readFileSync(jsPath, 'utf8'), css, files, bundles };
}
