// What each bundle in dist/ was built from, and whether it still matches its sources. scripts/build.mjs records,
// per output, esbuild's metafile inputs and the time the build began; `build --if-stale`, scripts/test.mjs and every
// test that runs a bundle from dist/ (test/helpers/dist.ts) ask `staleBecause` before trusting the bundle.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const STAMP = 'dist/.build-inputs.json';
// Inputs of every bundle besides the files it read: the build script, the manifest, and the installed packages'
// lock (an npm install or ci).
export const ALWAYS = ['scripts/build.mjs', 'package.json', 'node_modules/.package-lock.json'];
const OPTIONAL = new Set(['node_modules/.package-lock.json']);

/** The stamp under `root`, or undefined when there is none or it cannot be read. */
export function readStamp(root) {
  try {
    const stamp = JSON.parse(readFileSync(join(root, STAMP), 'utf8'));
    return stamp && typeof stamp.outputs === 'object' && stamp.outputs !== null ? stamp : undefined;
  } catch {
    return undefined;
  }
}

/** Adds (or replaces) the records of `outputs` and keeps the others; written whole, then renamed into place. */
export function recordOutputs(root, outputs, keep = () => true) {
  const old = readStamp(root)?.outputs ?? {};
  const merged = Object.fromEntries(Object.entries(old).filter(([out]) => keep(out)));
  Object.assign(merged, outputs);
  const tmp = join(root, `${STAMP}.${process.pid}.tmp`);
  mkdirSync(dirname(tmp), { recursive: true });
  writeFileSync(tmp, JSON.stringify({ outputs: merged }) + '\n');
  renameSync(tmp, join(root, STAMP));
}

/**
 * Why the bundle `out` (as build.mjs names it, e.g. `dist/cli.mjs`) cannot be trusted, as a sentence that starts
 * with `out`; undefined when it was built, after its last build no input changed, and none is gone. With
 * `production`, a bundle built in the other mode is stale too.
 */
export function staleBecause(root, out, options = {}) {
  const stamp = options.stamp ?? readStamp(root);
  if (!existsSync(join(root, out))) return `${out} is missing`;
  const record = stamp?.outputs[out];
  if (!record) return `${out} has no record of its sources in ${STAMP}`;
  if (options.production !== undefined && record.production !== options.production) return `${out} was built in the other mode (production: ${record.production})`;
  for (const f of [...ALWAYS, ...record.inputs]) {
    let mtimeMs;
    try {
      mtimeMs = statSync(join(root, f)).mtimeMs;
    } catch {
      if (OPTIONAL.has(f)) continue;
      return `${out} was built from ${f}, which is gone`;
    }
    // Compared with the start of the build: a file saved while esbuild was reading counts as changed.
    if (mtimeMs > record.builtAtMs) return `${out} is older than ${f}`;
  }
  return undefined;
}
