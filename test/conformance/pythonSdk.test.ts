// The Python SDK's own unit tests (stdlib unittest), run from node:test so `node scripts/test.mjs` covers them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { it } from 'node:test';
import { skipWithout } from '../helpers/prereqs.js';

it('bridges/python unittest suite passes', { skip: skipWithout('python3') }, () => {
  const r = spawnSync('python3', ['-m', 'unittest', 'discover', '-s', 'bridges/python/tests'], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.error, undefined, `could not run python3: ${r.error?.message}`);
  assert.equal(r.status, 0, `python unittest failed:\n${r.stderr}`);
  assert.match(r.stderr, /Ran \d+ tests/);
});
