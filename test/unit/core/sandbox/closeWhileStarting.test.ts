// Closing the sandbox while its worker is still starting kills the worker at once: a run cancelled during the
// seconds Pyodide takes to load (Ctrl+C, SIGTERM to `waypoint demo`) ends now, not after the load.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createPyodideSandbox } from '../../../../src/core/sandbox/index.js';

const dir = mkdtempSync(join(tmpdir(), 'waypoint-sandbox-start-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('close() during start-up kills a worker that never becomes ready, and warmUp rejects', { timeout: 30_000 }, async () => {
  // A worker that never says it is ready (as Pyodide loading on a busy machine, only forever).
  const workerPath = join(dir, 'never-ready.mjs');
  writeFileSync(workerPath, 'setInterval(() => {}, 1000);\n');
  const sandbox = createPyodideSandbox({ workerPath, pyodideDir: dir, startTimeoutSecs: 600 });
  const warm = sandbox.warmUp();
  warm.catch(() => undefined);
  await new Promise((r) => setTimeout(r, 300));
  // Before: close() waited for the worker to be ready, i.e. the 600 s start timeout.
  await sandbox.close();
  await assert.rejects(warm, /sandbox (is closed|worker failed to start)/);
});
