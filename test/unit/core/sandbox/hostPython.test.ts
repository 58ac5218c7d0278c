// The trusted-workspace runner: generated code in the user's own python3 (no sandbox), with the same robot API
// stubs and argument checks as the Pyodide sandbox, numpy importable where it is installed.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createHostPythonSandbox } from '../../../../src/core/sandbox/hostPython.js';
import type { ApiFunctionSpec } from '../../../../src/core/sim/simulator.js';
import { skipWithout } from '../../../helpers/prereqs.js';

const noPython = skipWithout('python3');
const noNumpy = noPython || skipWithout('numpy');
const api: ApiFunctionSpec[] = [{ name: 'move', params: [{ name: 'pose', type: 'vec3' }], signature: 'move(pose) -> None', doc: '' }];
const sandbox = createHostPythonSandbox();
after(() => sandbox.close());
const limits = { timeoutSecs: 10, memoryMiB: 512 };

test('host python: API calls come back to the host, their output joins stdout, the namespace persists when asked', { skip: noPython }, async () => {
  const seen: unknown[] = [];
  const onApiCall = async (fn: string, args: unknown[]) => {
    seen.push([fn, args]);
    return { ok: true as const, output: 'moved', value: 7 };
  };
  const r = await sandbox.run({ code: 'x = move([1, 2, 3])\nprint("got", x)\n', api, persistNamespace: true, limits, onApiCall });
  assert.equal(r.ok, true, JSON.stringify(r.error));
  assert.equal(r.stdout, 'moved\ngot 7\n');
  assert.deepEqual(seen, [['move', [[1, 2, 3]]]]);
  assert.deepEqual(r.apiCalls.map((c) => c.fn), ['move']);
  const r2 = await sandbox.run({ code: 'print(x + 1)\n', api, persistNamespace: true, limits, onApiCall });
  assert.equal(r2.stdout, '8\n');
});

test('host python: a failed call raises RuntimeError with its text and the line; bad arguments are checked before leaving', { skip: noPython }, async () => {
  const onApiCall = async () => ({ ok: false as const, error: 'unreachable pose' });
  const r = await sandbox.run({ code: 'a = 1\nmove([0, 0, 9])\n', api, persistNamespace: false, limits, onApiCall });
  assert.equal(r.ok, false);
  assert.deepEqual(r.error, { type: 'RuntimeError', message: 'unreachable pose', line: 2 });
  const bad = await sandbox.run({ code: 'move([0, 0])\n', api, persistNamespace: false, limits, onApiCall });
  assert.equal(bad.error?.type, 'ValueError');
  assert.match(bad.error!.message, /must be a list of 3 numbers/);
});

test('host python: numpy is importable (the reason to use it) and a runaway block is killed at the time limit', { skip: noNumpy }, async () => {
  const onApiCall = async () => ({ ok: true as const });
  const r = await sandbox.run({ code: 'import numpy as np\nprint(np.linspace(0, 1, 3).tolist())\n', api, persistNamespace: false, limits, onApiCall });
  assert.equal(r.stdout, '[0.0, 0.5, 1.0]\n');
  const slow = await sandbox.run({ code: 'while True:\n    pass\n', api, persistNamespace: false, limits: { timeoutSecs: 0.5, memoryMiB: 512 }, onApiCall });
  assert.equal(slow.exitCode, 124);
  const again = await sandbox.run({ code: 'print("fresh")\n', api, persistNamespace: false, limits, onApiCall });
  assert.equal(again.stdout, 'fresh\n', 'a new interpreter after the kill');
});

test('host python: an exception whose str() itself raises is reported, not a dead runner', { skip: noPython }, async () => {
  const onApiCall = async () => ({ ok: true as const });
  const code = 'class Odd(Exception):\n    def __str__(self):\n        raise ValueError("no")\nraise Odd()\n';
  const r = await sandbox.run({ code, api, persistNamespace: false, limits, onApiCall });
  assert.deepEqual(r.error, { type: 'Odd', message: '<unprintable exception>', line: 4 });
  const next = await sandbox.run({ code: 'print("still here")\n', api, persistNamespace: false, limits, onApiCall });
  assert.equal(next.stdout, 'still here\n');
});
