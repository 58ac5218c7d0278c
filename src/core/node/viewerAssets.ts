// The bundled run viewer (dist/webview/runViewer.{js,css} and the fonts its CSS names), for static HTML reports.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ViewerAssets } from '../trace/html.js';

export function loadViewerAssets(packageRoot: string): ViewerAssets {
  const dir = join(packageRoot, 'dist', 'webview');
  const jsPath = join(dir, 'runViewer.js');
  if (!existsSync(jsPath)) throw new Error(`the run viewer is not built: ${jsPath} is missing (run \`npm run build\`)`);
  const css = readFileSync(join(dir, 'runViewer.css'), 'utf8');
  const files: Record<string, string> = {};
  for (const m of css.matchAll(/url\("?\.\/([\w.-]+\.(?:ttf|woff2?))"?\)/g)) files[m[1]] = readFileSync(join(dir, m[1])).toString('base64');
  return { js: readFileSync(jsPath, 'utf8'), css, files };
}
