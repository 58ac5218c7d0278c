// `npm run demo` builds only when an input of the last build changed (scripts/build.mjs --if-stale): right after
// the build `npm test` ran, it must say so and write nothing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { test } from 'node:test';

test('build --if-stale after a build: "up to date", exit 0, no bundle rewritten', () => {
  const before = statSync('dist/cli.mjs').mtimeMs;
  const r = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /^build: up to date$/m);
  assert.equal(statSync('dist/cli.mjs').mtimeMs, before, 'dist/cli.mjs untouched');
});
