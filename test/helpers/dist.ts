// Tests that run a bundle from dist/ (the CLI, the sandbox worker, the language server, the debug adapter, the run
// worker, the webviews) ask here first: a bundle older than any file it was built from (as scripts/build.mjs recorded
// in dist/.build-inputs.json) would test yesterday's code, so such a test fails with what to do instead.
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { staleBecause } from '../../scripts/buildStamp.mjs';

export const PACKAGE_ROOT = resolve(import.meta.dirname, '../..');

/** Throws "<out> is older than <input>: run `npm run build`" (or missing, or unrecorded) unless `out` is current. */
export function assertDistFresh(out: string, root: string = PACKAGE_ROOT): void {
  const why = staleBecause(root, out);
  if (why) throw new Error(`${why}: run \`npm run build\` before this test`);
}

/** The absolute path of the bundle `out` (e.g. `dist/cli.mjs`), once it is known to be current. */
export function freshDist(out: string, root: string = PACKAGE_ROOT): string {
  assertDistFresh(out, root);
  return join(root, out);
}

/** Builds the bundles among `outs` that are stale (only those: a broken entry elsewhere does not block), then checks. */
export function rebuildIfStale(outs: readonly string[], root: string = PACKAGE_ROOT): void {
  const stale = outs.filter((o) => staleBecause(root, o));
  if (stale.length === 0) return;
  const r = spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), `--only=${stale.join(',')}`, '--quiet'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`rebuilding ${stale.join(', ')} failed (exit ${r.status}): ${(r.stderr || r.error?.message || '').trim()}`);
  for (const o of outs) assertDistFresh(o, root);
}

/** dist/cli.mjs, checked with the sandbox worker it starts for architectures whose model writes code. */
export function freshCli(root: string = PACKAGE_ROOT): string {
  assertDistFresh('dist/sandboxWorker.mjs', root);
  return freshDist('dist/cli.mjs', root);
}
