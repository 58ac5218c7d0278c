// What `npm run package` would put in the .vsix (vsce ls, offline): everything the manifest and the runtime name,
// and nothing else (STYLE rule 20). Needs a build (`npm run build`) for the dist/ files.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { architectureManifests } from '../../../src/architectures/manifests.js';

test('the package holds the entry points, grammar, prompts, MuJoCo and Pyodide, and no sources', () => {
  const r = spawnSync(process.execPath, [join(process.cwd(), 'node_modules/@vscode/vsce/vsce'), 'ls'], { encoding: 'utf8' });
  assert.equal(r.status, 0, `vsce ls failed: ${r.stderr}`);
  const files = new Set(r.stdout.split('\n').map((l) => l.trim()).filter(Boolean));
  const pkg = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8'));
  const need = [
    pkg.main.replace(/^\.\//, ''),
    'dist/package.json',
    'dist/lsp.js',
    'dist/sandboxWorker.mjs',
    'dist/exporter.js',
    // "Waypoint: Check Model Endpoint" runs `waypoint doctor` from it.
    'dist/cli.mjs',
    'dist/webview/runViewer.js',
    'dist/webview/runViewer.css',
    // The viewer's lazy bundles (webview/common/lazyBundle.ts), loaded from beside runViewer.js.
    'dist/webview/runViewer.monaco.js',
    'dist/webview/runViewer.monaco.css',
    'dist/webview/runViewer.replay3d.js',
    ...pkg.contributes.grammars.map((g: { path: string }) => g.path.replace(/^\.\//, '')),
    ...pkg.contributes.languages.map((l: { configuration: string }) => l.configuration.replace(/^\.\//, '')),
    pkg.contributes.viewsContainers.activitybar[0].icon,
    'node_modules/mujoco-js/package.json',
    'node_modules/mujoco-js/dist/mujoco_wasm.js',
    'node_modules/pyodide/pyodide.mjs',
    'node_modules/pyodide/pyodide.asm.wasm',
    'node_modules/pyodide/python_stdlib.zip',
    // Workspace architectures are compiled with esbuild when they load (src/core/node/loadModule.ts).
    'node_modules/esbuild/package.json',
    'node_modules/esbuild/lib/main.js',
    `node_modules/@esbuild/${process.platform}-${process.arch}/package.json`,
    `node_modules/@esbuild/${process.platform}-${process.arch}/${process.platform === 'win32' ? 'esbuild.exe' : 'bin/esbuild'}`,
  ];
  // Every built-in role prompt, read at run time from its architecture's folder (src/core/node/packageRoot.ts).
  for (const m of architectureManifests.list()) need.push(...m.roles.map((r) => `src/architectures/${m.id}/prompts/${r.promptFile}`));
  // The extension entry's chunks (scripts/build.mjs splits it): every one it can import must ship.
  need.push(...readdirSync(join(process.cwd(), 'dist', 'ext')).filter((f) => f.endsWith('.mjs')).map((f) => `dist/ext/${f}`));
  const missing = need.filter((f) => !files.has(f));
  assert.deepEqual(missing, [], `missing from the package (run \`npm run build\` first if dist/ files are missing)`);
  const builtInPrompt = /^src\/architectures\/[^/]+\/prompts\/[^/]+\.prompt$/;
  const stray = [...files].filter((f) => (/^(src|test|webview|scripts|docs|bridges)\//.test(f) && !builtInPrompt.test(f)) || f.endsWith('.map') || f.endsWith('.ts') || (f.startsWith('node_modules/') && !/^node_modules\/(mujoco-js|pyodide|esbuild|@esbuild)\//.test(f)));
  assert.deepEqual(stray, [], 'nothing but runtime files');
});
