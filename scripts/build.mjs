// One esbuild run for every bundle. An entry is built only once its source exists, so features can land one by one.
import { build } from 'esbuild';
import { existsSync, mkdirSync } from 'node:fs';

const production = process.argv.includes('--production');
const esmBanner = {
  // Lets CommonJS dependencies bundled into an ES module still require Node built-ins.
  js: "import { createRequire as __wpCreateRequire } from 'node:module'; const require = __wpCreateRequire(import.meta.url);",
};
const nodeExternal = ['vscode', 'mujoco-js', 'pyodide', 'playwright-core', 'esbuild', 'tsx'];
const common = { bundle: true, sourcemap: !production, minify: production, logLevel: 'warning', target: 'node20' };

const entries = [
  { in: 'src/cli/main.ts', out: 'dist/cli.mjs', format: 'esm', platform: 'node', banner: esmBanner },
  { in: 'src/core/sandbox/worker.ts', out: 'dist/sandboxWorker.mjs', format: 'esm', platform: 'node', banner: esmBanner },
  { in: 'src/extension/main.ts', out: 'dist/extension.js', format: 'cjs', platform: 'node' },
  { in: 'src/lsp/main.ts', out: 'dist/lsp.js', format: 'cjs', platform: 'node' },
  { in: 'src/dap/main.ts', out: 'dist/dap.js', format: 'cjs', platform: 'node' },
  { in: 'webview/runViewer/main.ts', out: 'dist/webview/runViewer.js', format: 'iife', platform: 'browser', target: 'es2022' },
  { in: 'webview/compare/main.ts', out: 'dist/webview/compare.js', format: 'iife', platform: 'browser', target: 'es2022' },
];

mkdirSync('dist', { recursive: true });
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
        loader: { '.ttf': 'file', '.css': 'css' },
      }),
    ),
);
if (!process.argv.includes('--quiet')) console.error(`build: ${Date.now() - started} ms`);
