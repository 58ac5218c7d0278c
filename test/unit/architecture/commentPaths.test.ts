// Comments that name a file must name one that exists: a moved or renamed file leaves comments pointing nowhere
// (a test said to be in a folder it has left, a benchmark under its old name). Scans the comments of every source
// file under src/, webview/, test/ and scripts/ for path-like words (folders, a slash, a name with a known
// extension; or a bare name ending in .test.ts or .bench.ts) and resolves each the ways comments abbreviate: from
// the commenting file's folder or any folder above it, from src/, and for a test from the folder it mirrors
// (test/unit/x -> src/x, test/webview -> webview) or any above that.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';

const ROOT = resolve(import.meta.dirname, '../../..');
const SCANNED = ['src', 'webview', 'test', 'scripts'];
const EXTENSIONS = 'ts|mts|mjs|cjs|js|md|json|jsonl|py|prompt|yaml|yml|sh|html|css|xml';
// A word made of path segments ending in a known extension, not glued to a longer path, URL or variable
// (`$E2E_DIR/x.json`, `~/.cache/...`, `https://host/a.ts` all start right after one of the excluded characters).
// A file of another repository is written `owner/repo:path/to/file.py`: the colon marks it as not ours.
const PATH = new RegExp(`(?<![\\w./@$~*<>{}:-])((?:[\\w.-]+/)*[\\w-]+(?:\\.[\\w-]+)*\\.(?:${EXTENSIONS}))(?![\\w/*])`, 'g');
// Named on purpose though not in the repository: build output, test output, the user's workspace files.
const NOT_IN_REPO = [/^dist\//, /^test\/output\//, /^node_modules\//, /^\.waypoint\//];

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const n of readdirSync(dir)) {
    if (n === 'node_modules' || n === 'output' || n.startsWith('.')) continue;
    const p = join(dir, n);
    if (statSync(p).isDirectory()) sourceFiles(p, out);
    else if (/\.(ts|mts|mjs|cjs|js)$/.test(n) && !n.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** [line number, comment text] for each `//` comment and each line of a block comment. */
function comments(source: string): [number, string][] {
  const out: [number, string][] = [];
  let inBlock = false;
  source.split('\n').forEach((line, i) => {
    if (inBlock) {
      out.push([i + 1, line]);
      if (line.includes('*/')) inBlock = false;
      return;
    }
    const slashes = /(?:^|\s)\/\/(.*)$/.exec(line);
    if (slashes) out.push([i + 1, slashes[1]!]);
    const block = line.indexOf('/*');
    // A `/*` after a quote is most likely inside a string (a glob, a MIME type).
    if (block >= 0 && !/['"`]/.test(line.slice(0, block)) && (!slashes || block < slashes.index)) {
      out.push([i + 1, line.slice(block)]);
      if (!line.slice(block + 2).includes('*/')) inBlock = true;
    }
  });
  return out;
}

/** Folders a path in a comment of `file` may be relative to. */
function bases(file: string): string[] {
  const rel = relative(ROOT, dirname(file)).split(sep);
  const starts = [rel];
  if (rel[0] === 'test' && rel[1] === 'unit') starts.push(['src', ...rel.slice(2)]);
  else if (rel[0] === 'test' && rel.length > 1) starts.push(rel.slice(1));
  const out = new Set<string>([join(ROOT, 'src')]);
  for (const s of starts) for (let n = s.length; n >= 0; n--) out.add(join(ROOT, ...s.slice(0, n)));
  return [...out];
}

function unresolvedPaths(file: string, source: string = readFileSync(file, 'utf8')): string[] {
  const problems: string[] = [];
  for (const [line, text] of comments(source)) {
    for (const m of text.matchAll(PATH)) {
      const p = m[1]!;
      if (!p.includes('/') && !/\.(test|bench)\.ts$/.test(p)) continue;
      if (NOT_IN_REPO.some((re) => re.test(p))) continue;
      const candidates = bases(file).map((b) => resolve(b, p));
      if (candidates.some((c) => existsSync(c) || (c.endsWith('.js') && existsSync(c.replace(/\.js$/, '.ts'))))) continue;
      problems.push(`${relative(ROOT, file)}:${line}: ${p}`);
    }
  }
  return problems;
}

test('every file a comment names exists', () => {
  const files = SCANNED.flatMap((d) => sourceFiles(join(ROOT, d)));
  assert.ok(files.length > 500, `scanned ${files.length} files`);
  assert.deepEqual(files.flatMap((f) => unresolvedPaths(f)), []);
});

test('the scanner finds a path that does not resolve, and accepts the abbreviations comments use', () => {
  const file = join(ROOT, 'test/unit/core/sim/mujoco/x.test.ts');
  const src = [
    '// see robot/jointDs.ts and src/core/sim/mujoco/tasks/registry.ts, test/bench/lsp.bench.ts, taskRegistry.test.ts',
    '/** built to dist/cli.mjs, kept in .waypoint/variants.yaml, from https://example.com/a/b.ts or $HOME/x/y.json */',
    "const s = 'not/a/comment.ts';",
    '/*',
    ' * test/unit/core/sim/ik.test.ts and a renamed reference.bench.ts',
    ' */',
  ].join('\n');
  assert.deepEqual(unresolvedPaths(file, src), [
    'test/unit/core/sim/mujoco/x.test.ts:5: test/unit/core/sim/ik.test.ts',
    'test/unit/core/sim/mujoco/x.test.ts:5: reference.bench.ts',
  ]);
});
