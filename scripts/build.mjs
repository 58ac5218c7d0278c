// One esbuild run for every bundle. An entry is built only once its source exists, so features can land one by one.
// dist/.build-inputs.json records, per bundle, every file esbuild read for it (the metafile's inputs) and when that
// build began (scripts/buildStamp.mjs). `--if-stale` (what `npm run demo` and scripts/test.mjs use) builds only the
// bundles older than one of their inputs; `--only=<out>,...` builds the named outputs (the webview tests' rebuild).
import { build } from 'esbuild';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { recordOutputs, staleBecause } from './buildStamp.mjs';

const production = process.argv.includes('--production');
const esmBanner = {
  // Lets CommonJS dependencies bundled into an ES module still require Node built-ins.
  js: "import { createRequire as __wpCreateRequire } from 'node:module'; const require = __wpCreateRequire(import.meta.url);",
};
// CommonJS bundles (VS Code loads extensions with require) get import.meta.url from their own file name.
const cjsBanner = { js: "const __wpImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" };
const cjsDefine = { 'import.meta.url': '__wpImportMetaUrl' };
const nodeExternal = ['vscode', 'mujoco-js', 'pyodide', 'playwright-core', 'esbuild', 'tsx'];
const common = { bundle: true, sourcemap: !production, minify: production, logLevel: 'warning', target: 'node20' };
// Webview bundles are always minified (with a source map in development): the HTML report inlines them, and
// minified the run viewer is 4 MB instead of 9 MB.
const browserOptions = { minify: true };

const entries = [
  { in: 'src/cli/main.ts', out: 'dist/cli.mjs', format: 'esm', platform: 'node', banner: esmBanner },
  { in: 'src/core/sandbox/worker.ts', out: 'dist/sandboxWorker.mjs', format: 'esm', platform: 'node', banner: esmBanner },
  // The extension host entry is an ES module split into chunks (dist/ext/): VS Code (>= 1.100) imports it, and only
  // what activate() needs is loaded at activation; every feature's code loads with its first use. One CommonJS
  // file held all of it (2 MB), and compiling that was most of the activation time.
  { in: 'src/extension/main.ts', out: 'dist/extension.mjs', format: 'esm', platform: 'node', banner: esmBanner, split: 'ext' },
  { in: 'src/extension/live/workerEntry.ts', out: 'dist/runWorker.js', format: 'cjs', platform: 'node', banner: cjsBanner, define: cjsDefine },
  { in: 'src/extension/vendor/languageClient.ts', out: 'dist/languageClient.js', format: 'cjs', platform: 'node', banner: cjsBanner, define: cjsDefine },
  { in: 'src/extension/vendor/exporter.ts', out: 'dist/exporter.js', format: 'cjs', platform: 'node', banner: cjsBanner, define: cjsDefine },
  { in: 'src/lsp/main.ts', out: 'dist/lsp.js', format: 'cjs', platform: 'node', banner: cjsBanner, define: cjsDefine },
  { in: 'src/dap/main.ts', out: 'dist/dap.js', format: 'cjs', platform: 'node', banner: cjsBanner, define: cjsDefine },
  { in: 'webview/runViewer/main.ts', out: 'dist/webview/runViewer.js', format: 'iife', platform: 'browser', target: 'es2022' },
  // The viewer's lazy bundles (webview/common/lazyBundle.ts): loaded beside runViewer.js on first use, so a run opens
  // without fetching and parsing them. Monaco's CSS lands in runViewer.monaco.css.
  { in: 'webview/runViewer/bundles/monaco.ts', out: 'dist/webview/runViewer.monaco.js', format: 'iife', platform: 'browser', target: 'es2022' },
  { in: 'webview/runViewer/bundles/replay3d.ts', out: 'dist/webview/runViewer.replay3d.js', format: 'iife', platform: 'browser', target: 'es2022' },
  { in: 'webview/compare/main.ts', out: 'dist/webview/compare.js', format: 'iife', platform: 'browser', target: 'es2022' },
  { in: 'webview/sweepMatrix/main.ts', out: 'dist/webview/sweepMatrix.js', format: 'iife', platform: 'browser', target: 'es2022' },
];

const present = entries.filter((e) => existsSync(e.in));
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
let todo = only ? present.filter((e) => only.includes(e.out)) : present;
if (only && todo.length !== only.length) {
  console.error(`build: --only names no bundle: ${only.filter((o) => !present.some((e) => e.out === o)).join(', ')}`);
  process.exit(2);
}
let why = '';
if (process.argv.includes('--if-stale')) {
  const stale = todo.map((e) => [e, staleBecause('.', e.out, { production })]).filter(([, reason]) => reason);
  if (stale.length === 0) {
    if (!process.argv.includes('--quiet')) console.error('build: up to date');
    process.exit(0);
  }
  todo = stale.map(([e]) => e);
  why = ` (${todo.length} of ${present.length} bundles; ${stale[0][1]})`;
}

mkdirSync('dist', { recursive: true });
// Chunk names carry a content hash: clear the old ones so the package ships only the current set.
for (const e of todo) if (e.split) rmSync(`dist/${e.split}`, { recursive: true, force: true });
// The package is ESM ("type": "module"); the .js bundles in dist/ are CommonJS for VS Code's require().
writeFileSync('dist/package.json', JSON.stringify({ type: 'commonjs' }) + '\n');
const started = Date.now();
const results = await Promise.all(
  todo.map((e) =>
    build({
      ...common,
      ...(e.split
        ? { entryPoints: { [e.out.replace(/^dist\/|\.mjs$/g, '')]: e.in }, outdir: 'dist', splitting: true, outExtension: { '.js': '.mjs' }, chunkNames: `${e.split}/[name]-[hash]` }
        : { entryPoints: [e.in], outfile: e.out }),
      format: e.format,
      platform: e.platform,
      target: e.target ?? common.target,
      external: e.platform === 'node' ? nodeExternal : [],
      banner: e.banner,
      define: e.define,
      ...(e.platform === 'browser' ? browserOptions : {}),
      loader: { '.ttf': 'file', '.css': 'css' },
      metafile: true,
    }),
  ),
);
const record = (r) => ({ builtAtMs: started, production, inputs: Object.keys(r.metafile.inputs).filter((f) => !f.includes(':')).sort() });
// Bundles whose entry is gone lose their record; the others keep theirs.
recordOutputs('.', Object.fromEntries(todo.map((e, i) => [e.out, record(results[i])])), (out) => present.some((e) => e.out === out));
if (!process.argv.includes('--quiet')) console.error(`build: ${Date.now() - started} ms${why}`);
