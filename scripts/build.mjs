// One esbuild run for every bundle. An entry is built only once its source exists, so features can land one by one.
import { build } from 'esbuild';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';

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

const entries = [
  { in: 'src/cli/main.ts', out: 'dist/cli.mjs', format: 'esm', platform: 'node', banner: esmBanner },
  { in: 'src/core/sandbox/worker.ts', out: 'dist/sandboxWorker.mjs', format: 'esm', platform: 'node', banner: esmBanner },
  { in: 'src/extension/main.ts', out: 'dist/extension.js', format: 'cjs', platform: 'node', banner: cjsBanner, define: cjsDefine },
  { in: 'src/extension/live/workerEntry.ts', out: 'dist/runWorker.js', format: 'cjs', platform: 'node', banner: cjsBanner, define: cjsDefine },
  { in: 'src/extension/vendor/languageClient.ts', out: 'dist/languageClient.js', format: 'cjs', platform: 'node', banner: cjsBanner, define: cjsDefine },
  { in: 'src/extension/vendor/exporter.ts', out: 'dist/exporter.js', format: 'cjs', platform: 'node', banner: cjsBanner, define: cjsDefine },
  { in: 'src/lsp/main.ts', out: 'dist/lsp.js', format: 'cjs', platform: 'node', banner: cjsBanner, define: cjsDefine },
  { in: 'src/dap/main.ts', out: 'dist/dap.js', format: 'cjs', platform: 'node', banner: cjsBanner, define: cjsDefine },
  { in: 'webview/runViewer/main.ts', out: 'dist/webview/runViewer.js', format: 'iife', platform: 'browser', target: 'es2022' },
  { in: 'webview/compare/main.ts', out: 'dist/webview/compare.js', format: 'iife', platform: 'browser', target: 'es2022' },
];

mkdirSync('dist', { recursive: true });
// The package is ESM ("type": "module"); the .js bundles in dist/ are CommonJS for VS Code's require().
writeFileSync('dist/package.json', JSON.stringify({ type: 'commonjs' }) + '\n');
const started = Date.now();
await Promise.all(
  entries
    .filter((e) => existsSync(e.in))
    .map((e) =>
      build({
        ...common,
        entryPoints: [e.in],
        outfile: e.out,
        format: e.format,
        platform: e.platform,
        target: e.target ?? common.target,
        external: e.platform === 'node' ? nodeExternal : [],
        banner: e.banner,
        define: e.define,
        loader: { '.ttf': 'file', '.css': 'css' },
      }),
    ),
);
if (!process.argv.includes('--quiet')) console.error(`build: ${Date.now() - started} ms`);
