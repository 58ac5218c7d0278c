// Time and memory limits: the block is stopped and reported, and the next block runs on a fresh worker.
// Needs `npm run build` (the worker runs from dist/sandboxWorker.mjs; refused when older than its sources).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPyodideSandbox } from '../../../../src/core/sandbox/index.js';
import type { CodeSandbox } from '../../../../src/core/sandbox/sandbox.js';
import { FakeRobot, request } from './fakeRobot.js';
import { assertDistFresh } from '../../../helpers/dist.js';

assertDistFresh('dist/sandboxWorker.mjs');

describe('sandbox limits', () => {
  let sandbox: CodeSandbox;
  before(async () => {
    sandbox = createPyodideSandbox();
    await sandbox.warmUp();
  });
  after(() => sandbox.close());

  const limits = { timeoutSecs: 2, memoryMiB: 400 };
  // The memory tests allocate 400 MiB, which takes longer than 2 s on a loaded machine: a time limit there would
  // stop them first (exit 124) and test nothing about memory.
  const memoryLimits = { timeoutSecs: 60, memoryMiB: 400 };
  async function assertStillRuns(): Promise<void> {
    const r = await sandbox.run(request('print("alive")', new FakeRobot(), { limits }));
    assert.equal(r.stdout, 'alive\n', JSON.stringify(r.error));
  }

  it('kills an infinite loop at the time limit, keeps what it printed, and runs the next block', async () => {
    const r = await sandbox.run(request('print("looping")\nwhile True:\n    pass', new FakeRobot(), { limits }));
    assert.equal(r.ok, false);
    assert.equal(r.exitCode, 124);
    assert.deepEqual(r.error, { type: 'TimeoutError', message: 'time limit of 2 s exceeded' });
    assert.equal(r.stdout, 'looping\n');
    await assertStillRuns();
  });

  it('says that persisted globals are lost when a limit restarts the sandbox', async () => {
    const persist = { limits, persistNamespace: true };
    assert.equal((await sandbox.run(request('keep = 1', new FakeRobot(), persist))).ok, true);
    const r = await sandbox.run(request('while True: pass', new FakeRobot(), persist));
    assert.equal(r.exitCode, 124);
    assert.match(r.error?.message ?? '', /^time limit of 2 s exceeded; the sandbox restarted, so globals from earlier blocks are gone$/);
    const next = await sandbox.run(request('print(keep)', new FakeRobot(), persist));
    assert.equal(next.error?.type, 'NameError');
  });

  it('stops unbounded Python allocation with a MemoryError at the limit', async () => {
    const r = await sandbox.run(request('x = []\nwhile True:\n    x.append(bytearray(10**6))', new FakeRobot(), { limits: memoryLimits }));
    assert.equal(r.exitCode, 1);
    assert.equal(r.error?.type, 'MemoryError');
    assert.equal(r.error?.line, 3);
    assert.match(r.error?.message ?? '', /memory limit of 400 MiB/);
    await assertStillRuns();
  });

  it('reports a single huge allocation as an error', async () => {
    const huge = await sandbox.run(request('x = bytearray(10**10)', new FakeRobot(), { limits: memoryLimits }));
    assert.equal(huge.exitCode, 1);
    assert.ok(['MemoryError', 'OverflowError'].includes(huge.error?.type ?? ''), JSON.stringify(huge.error));
    const big = await sandbox.run(request('x = bytearray(2 * 10**9)', new FakeRobot(), { limits: memoryLimits }));
    assert.equal(big.exitCode, 1);
    assert.equal(big.error?.type, 'MemoryError');
    await assertStillRuns();
  });

  it('kills the process when memory outside the Python heap passes the limit', async () => {
    const code = 'import js\nkeep = []\nwhile True:\n    keep.append(js.Uint8Array.new(2**26).fill(1))';
    const r = await sandbox.run(request(code, new FakeRobot(), { limits: memoryLimits }));
    assert.equal(r.exitCode, 137);
    assert.equal(r.error?.type, 'MemoryError');
    assert.match(r.error?.message ?? '', /^memory limit of 400 MiB exceeded \(\d+ MiB resident\)$/);
    await assertStillRuns();
  });
});
