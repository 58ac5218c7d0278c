// Imports point one way (STYLE rule 1): protocol <- core <- {extension, lsp, dap, cli}; webviews see protocol
// (and the pure projections) only. Scans every import specifier of every source file.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { test } from 'node:test';

function files(dir: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (/\.(ts|mts)$/.test(n) && !n.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

function imports(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  return [...src.matchAll(/(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
}

const root = process.cwd();
const folderOf = (abs: string) => relative(root, abs).split('/').slice(0, 2).join('/');

test('src/core imports no vscode, LSP/DAP library or entry folder', () => {
  const banned = [/^vscode$/, /^vscode-languageserver/, /^vscode-languageclient/, /^@vscode\/debugadapter/];
  const problems: string[] = [];
  for (const f of files(join(root, 'src/core'))) {
    for (const spec of imports(f)) {
      if (banned.some((b) => b.test(spec))) problems.push(`${relative(root, f)} imports ${spec}`);
      if (spec.startsWith('.')) {
        const target = relative(root, resolve(dirname(f), spec));
        if (/^src\/(extension|lsp|dap|cli)\//.test(target)) problems.push(`${relative(root, f)} imports entry folder ${target}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

test('src/protocol depends on zod and itself only', () => {
  const problems: string[] = [];
  for (const f of files(join(root, 'src/protocol'))) {
    for (const spec of imports(f)) {
      if (spec === 'zod') continue;
      if (spec.startsWith('.') && folderOf(resolve(dirname(f), spec)) === 'src/protocol') continue;
      problems.push(`${relative(root, f)} imports ${spec}`);
    }
  }
  assert.deepEqual(problems, []);
});

test('webviews import protocol, pure projections and browser libraries only', () => {
  const problems: string[] = [];
  for (const f of files(join(root, 'webview'))) {
    for (const spec of imports(f)) {
      if (!spec.startsWith('.')) continue;
      const target = relative(root, resolve(dirname(f), spec));
      if (target.startsWith('webview/') || target.startsWith('src/protocol/') || target.startsWith('src/core/trace/projections/')) continue;
      problems.push(`${relative(root, f)} imports ${target}`);
    }
  }
  assert.deepEqual(problems, []);
});

test('entry folders do not import each other', () => {
  const entries = ['extension', 'lsp', 'dap', 'cli'];
  const problems: string[] = [];
  for (const e of entries) {
    let list: string[] = [];
    try {
      list = files(join(root, 'src', e));
    } catch {
      continue;
    }
    for (const f of list) {
      for (const spec of imports(f)) {
        if (!spec.startsWith('.')) continue;
        const target = relative(root, resolve(dirname(f), spec));
        const other = entries.find((x) => x !== e && target.startsWith(`src/${x}/`));
        // `waypoint debug-adapter` hosts the debug adapter over stdio: the one sanctioned crossing.
        if (other && `${relative(root, f)} -> ${target}` === 'src/cli/debugAdapter.ts -> src/dap/stdio.js') continue;
        if (other) problems.push(`${relative(root, f)} imports ${target}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

test('zod is imported as a namespace (import * as z): the named import keeps every locale in the bundles', () => {
  // `import { z } from 'zod'` defeats esbuild's tree-shaking of zod 4 (all locales and the JSON-schema code stay):
  // the run viewer's bundle was 895 KB with it and 540 KB without, the CLI 4.0 MB vs 3.4 MB.
  const problems: string[] = [];
  for (const dir of ['src', 'webview']) {
    for (const f of files(join(root, dir))) {
      if (/import\s+(type\s+)?\{[^}]*\bz\b[^}]*\}\s+from\s+['"]zod['"]/.test(readFileSync(f, 'utf8'))) problems.push(relative(root, f));
    }
  }
  assert.deepEqual(problems, []);
});

test('the Testing view’s discovery and result mapping import no vscode (unit-tested in plain Node)', () => {
  const pure = ['testsFile', 'catalog', 'discovery', 'results', 'resultsStore'];
  const problems: string[] = [];
  for (const name of pure) {
    const f = join(root, 'src/extension/testing', `${name}.ts`);
    for (const spec of imports(f)) {
      if (spec === 'vscode') problems.push(`${relative(root, f)} imports vscode`);
      if (spec.startsWith('.') && /^src\/extension\/testing\/(controller|runner|openRun)(\.js)?$/.test(relative(root, resolve(dirname(f), spec)))) problems.push(`${relative(root, f)} imports ${spec}`);
    }
  }
  assert.deepEqual(problems, []);
});
