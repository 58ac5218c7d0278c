// Imports point one way (STYLE rule 1): protocol <- core <- architectures <- {extension, lsp, dap, cli}; webviews
// see protocol, the pure projections and the architectures' views only. Scans every import specifier of every
// source file; the layer rules are also checked on a made-up graph, so a rule that stopped refusing would show.
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
  // `from '...'`, a dynamic import(), require(), and a side-effect `import '...'` (a stylesheet, a module run for its effects).
  return [...src.matchAll(/(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm)].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4]);
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

/** Every relative import of the source files under `dirs`, as repo-relative paths (a `.js` specifier names its `.ts`). */
function importEdges(dirs: string[]): Edge[] {
  const out: Edge[] = [];
  for (const d of dirs) {
    for (const f of files(join(root, d))) {
      for (const spec of imports(f)) {
        const target = spec.startsWith('.') ? relative(root, resolve(dirname(f), spec)).replace(/\.js$/, '.ts') : spec;
        out.push({ from: relative(root, f), to: target });
      }
    }
  }
  return out;
}

interface Edge {
  from: string;
  /** Repo-relative path, or the bare specifier of a package (`chart.js`, `node:fs`). */
  to: string;
}

/** The architecture folder a path is in (not the registry files beside the folders). */
const archOf = (p: string) => /^src\/architectures\/([^/]+)\//.exec(p)?.[1];
const isView = (p: string) => /^src\/architectures\/[^/]+\/view\//.test(p);
/** Code bundled into the webviews: webview/, the architectures' views and the view registry. */
const webviewSide = (p: string) => p.startsWith('webview/') || isView(p) || p === 'src/architectures/views.ts';
/** What webview code may import besides itself: wire contracts, pure projections and the statistics they use. */
const WEBVIEW_MAY_IMPORT = ['src/protocol/', 'src/core/trace/projections/', 'src/core/metrics/'];

/**
 * The layers of issue 23, one line per import that breaks them: the engine (src/core) knows architectures only
 * through the registry and contract types a host passes in, so it imports nothing of src/architectures; an
 * architecture never imports another; an architecture's view/ is for the webviews (webview code and the view
 * registry import it, nothing else); webview code imports the protocol, pure projections, views and browser
 * libraries, never the simulator, the engine or Node.
 */
function layerProblems(edges: readonly Edge[]): string[] {
  const out: string[] = [];
  for (const { from, to } of edges) {
    const say = (why: string) => out.push(`${from} -> ${to}: ${why}`);
    if (from.startsWith('src/core/') && to.startsWith('src/architectures/')) say('src/core knows architectures only through the registry a host passes in');
    const [a, b] = [archOf(from), archOf(to)];
    if (a && b && a !== b) say('an architecture never imports another');
    if (isView(to) && !webviewSide(from)) say("an architecture's view/ is imported only by webview code and src/architectures/views.ts");
    if (webviewSide(from)) {
      const local = to.startsWith('src/') || to.startsWith('webview/');
      if (to.startsWith('node:')) say('webview code runs in a browser: no Node built-ins');
      else if (local && !webviewSide(to) && !WEBVIEW_MAY_IMPORT.some((d) => to.startsWith(d))) say(`webview code imports ${WEBVIEW_MAY_IMPORT.join(', ')}, views and browser libraries only`);
    }
  }
  return out;
}

test('the layers hold: core never imports an architecture, an architecture never another, views only from webview code, webviews only protocol, projections and views', () => {
  const edges = importEdges(['src', 'webview']);
  assert.ok(edges.some((e) => e.from === 'webview/runViewer/extraTabs.ts' && e.to === 'src/architectures/views.ts'), 'the scan sees the viewer reach the view registry');
  assert.ok(edges.some((e) => e.from.startsWith('src/architectures/malmm/') && e.to.startsWith('src/core/architecture/')), 'the scan sees an architecture reach the contract');
  assert.deepEqual(layerProblems(edges), []);
});

test('the layer rules refuse each kind of crossing and allow the sanctioned ones', () => {
  const allowed: Edge[] = [
    { from: 'src/architectures/roco/loop.ts', to: 'src/core/architecture/types.ts' },
    { from: 'src/architectures/roco/index.ts', to: 'src/architectures/roco/reference/index.ts' },
    { from: 'src/architectures/registry.ts', to: 'src/architectures/roco/index.ts' },
    { from: 'src/architectures/views.ts', to: 'src/architectures/roco/view/index.ts' },
    { from: 'webview/runViewer/extraTabs.ts', to: 'src/architectures/views.ts' },
    { from: 'src/architectures/roco/view/roundsTab.ts', to: 'webview/common/dom.ts' },
    { from: 'src/architectures/llamar/view/householdMetrics.ts', to: 'src/core/metrics/clopperPearson.ts' },
    { from: 'src/cli/run.ts', to: 'src/architectures/registry.ts' },
    { from: 'webview/runViewer/plots.ts', to: 'chart.js' },
  ];
  assert.deepEqual(layerProblems(allowed), []);
  const broken: Edge[] = [
    { from: 'src/core/runs/launch.ts', to: 'src/architectures/registry.ts' },
    { from: 'src/core/trace/projections/runProjection.ts', to: 'src/architectures/actctx/view/actctxPlan.ts' },
    { from: 'src/architectures/trajgen/reference/main.ts', to: 'src/architectures/roco/reference/flawed.ts' },
    { from: 'src/architectures/roco/loop.ts', to: 'src/architectures/roco/view/rocoRounds.ts' },
    { from: 'src/architectures/llamar/view/stepsTab.ts', to: 'src/core/sim/household/world.ts' },
    { from: 'webview/runViewer/viewer.ts', to: 'src/core/engine/episode.ts' },
    { from: 'webview/runViewer/viewer.ts', to: 'node:fs' },
  ];
  assert.deepEqual(layerProblems(broken).map((p) => p.slice(p.indexOf(': ') + 2)), [
    'src/core knows architectures only through the registry a host passes in',
    'src/core knows architectures only through the registry a host passes in',
    "an architecture's view/ is imported only by webview code and src/architectures/views.ts",
    'an architecture never imports another',
    "an architecture's view/ is imported only by webview code and src/architectures/views.ts",
    'webview code imports src/protocol/, src/core/trace/projections/, src/core/metrics/, views and browser libraries only',
    'webview code imports src/protocol/, src/core/trace/projections/, src/core/metrics/, views and browser libraries only',
    'webview code runs in a browser: no Node built-ins',
  ]);
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
