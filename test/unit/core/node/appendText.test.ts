// nodeIO.appendText keeps trace files open and closes the least recently used past a cap. With many episodes in
// flight in one sweep worker, a handle gets evicted while another episode's write through it is still pending: the
// write must land, not fail with "file closed" (which ended every episode of a 32-in-flight sweep as engine_error).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { nodeIO } from '../../../../src/core/node/nodeHost.js';

const dir = mkdtempSync(join(tmpdir(), 'waypoint-append-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('300 files appended to at once, 20 lines each in rounds: every line lands in order, none fails', async () => {
  const files = Array.from({ length: 300 }, (_, i) => join(dir, `trace-${i}.jsonl`));
  for (let line = 0; line < 20; line++) {
    // Each round starts one write per file without waiting, as episodes in flight do, then waits for all.
    await Promise.all(files.map((f, i) => nodeIO.appendText(f, `${i}:${line}\n`)));
  }
  for (const [i, f] of files.entries()) {
    assert.deepEqual(readFileSync(f, 'utf8').trimEnd().split('\n'), Array.from({ length: 20 }, (_, line) => `${i}:${line}`));
  }
});

test('writeText over a file being appended to replaces it, and later appends go to the new file', async () => {
  const f = join(dir, 'rewrite.jsonl');
  await nodeIO.appendText(f, 'a\n');
  await nodeIO.writeText(f, 'b\n');
  await nodeIO.appendText(f, 'c\n');
  assert.equal(readFileSync(f, 'utf8'), 'b\nc\n');
});
