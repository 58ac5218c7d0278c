// Behaviour of the Pyodide sandbox as the engine uses it: output, errors with lines, synchronous robot API calls,
// namespaces. Needs `npm run build` (the worker runs from dist/sandboxWorker.mjs; refused when older than its sources).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPyodideSandbox } from '../../../../src/core/sandbox/index.js';
import type { CodeSandbox } from '../../../../src/core/sandbox/sandbox.js';
import { FakeRobot, request } from './fakeRobot.js';
import { assertDistFresh } from '../../../helpers/dist.js';

assertDistFresh('dist/sandboxWorker.mjs');

describe('Pyodide sandbox', () => {
  let sandbox: CodeSandbox;
  before(async () => {
    sandbox = createPyodideSandbox();
    await sandbox.warmUp();
  });
  after(() => sandbox.close());

  it('captures print output on stdout and stderr in order', async () => {
    const r = await sandbox.run(request('import sys\nprint("a")\nprint("b", file=sys.stderr)\nprint("c", end="")', new FakeRobot()));
    assert.equal(r.ok, true);
    assert.equal(r.exitCode, 0);
    assert.equal(r.stdout, 'a\nb\nc');
    assert.equal(r.error, undefined);
  });

  it('reports a NameError with its line in the submitted block', async () => {
    const r = await sandbox.run(request('x = 1\ny = 2\nprint(z)\n', new FakeRobot()));
    assert.equal(r.ok, false);
    assert.equal(r.exitCode, 1);
    assert.deepEqual(r.error, { type: 'NameError', message: "name 'z' is not defined", line: 3 });
  });

  it('reports a SyntaxError with its line', async () => {
    const r = await sandbox.run(request('x = 1\nif x\n    pass\n', new FakeRobot()));
    assert.equal(r.exitCode, 1);
    assert.equal(r.error?.type, 'SyntaxError');
    assert.equal(r.error?.line, 2);
  });

  it('runs robot API calls synchronously, in order, interleaved with prints', async () => {
    const robot = new FakeRobot();
    const code = [
      'print("start")',
      'execute_trajectory([0.1, 0.2, 0.3], 0.5)',
      'close_gripper("red_block")',
      'report_state()',
      'open_gripper()',
      'report_state()',
      'print("end")',
    ].join('\n');
    const r = await sandbox.run(request(code, robot));
    assert.equal(r.ok, true, JSON.stringify(r.error));
    assert.equal(r.stdout, 'start\ngripper closed, holding red_block\ngripper open, holding nothing\nend\n');
    assert.deepEqual(
      robot.calls.map((c) => c.fn),
      ['execute_trajectory', 'close_gripper', 'report_state', 'open_gripper', 'report_state'],
    );
    assert.deepEqual(robot.calls[0]?.args, [[0.1, 0.2, 0.3], 0.5]);
    assert.deepEqual(
      r.apiCalls.map((c) => [c.fn, c.ok]),
      [['execute_trajectory', true], ['close_gripper', true], ['report_state', true], ['open_gripper', true], ['report_state', true]],
    );
  });

  it('turns an {ok:false} answer into a RuntimeError at the calling line, which code can catch', async () => {
    const robot = new FakeRobot();
    const r = await sandbox.run(request('open_gripper()\nclose_gripper("ghost")\nprint("not reached")', robot));
    assert.equal(r.exitCode, 1);
    assert.deepEqual(r.error, { type: 'RuntimeError', message: 'no object named ghost in the scene', line: 2 });
    assert.equal(r.stdout, '');
    assert.deepEqual(r.apiCalls[1], { fn: 'close_gripper', args: ['ghost'], ok: false, error: 'no object named ghost in the scene' });

    const caught = await sandbox.run(request('try:\n    close_gripper("ghost")\nexcept RuntimeError as e:\n    print("caught:", e)', robot));
    assert.equal(caught.ok, true);
    assert.equal(caught.stdout, 'caught: no object named ghost in the scene\n');
  });

  it('returns what the host answers as the call\'s value (checks return booleans, numbers, text), and records it', async () => {
    const values: Record<string, boolean | number | string | null> = { open_gripper: true, close_gripper: 0.25 };
    const robot = new FakeRobot();
    const r = await sandbox.run(
      request('a = open_gripper()\nb = close_gripper("red block")\nprint(a, type(a).__name__, b)', robot, {
        onApiCall: async (fn: string) => ({ ok: true, value: values[fn] }),
      }),
    );
    assert.equal(r.ok, true, r.error?.message);
    assert.equal(r.stdout, 'True bool 0.25\n');
    assert.deepEqual(r.apiCalls.map((c) => c.value), [true, 0.25]);
  });

  it('gives Python TypeErrors for wrong arity and wrong argument types, without calling the host', async () => {
    const robot = new FakeRobot();
    const arity = await sandbox.run(request('execute_trajectory([0.1, 0.2, 0.3])', robot));
    assert.deepEqual(arity.error, { type: 'TypeError', message: "execute_trajectory() missing 1 required positional argument: 'orientation'", line: 1 });
    const wrongType = await sandbox.run(request('pos = "up"\nexecute_trajectory(pos, 0.0)', robot));
    assert.deepEqual(wrongType.error, { type: 'TypeError', message: "execute_trajectory() argument 'position' must be a list of numbers, not str", line: 2 });
    const item = await sandbox.run(request('execute_trajectory([0.1, "y", 0.3], 0.0)', robot));
    assert.equal(item.error?.message, "execute_trajectory() argument 'position'[1] must be a number, not str");
    const vec = await sandbox.run(request('look([1, 2])', robot));
    assert.equal(vec.error?.type, 'ValueError');
    assert.equal(vec.error?.message, "look() argument 'target' must be a list of 3 numbers, got 2 items");
    const nan = await sandbox.run(request('execute_trajectory([0.1, 0.2, float("nan")], 0.0)', robot));
    assert.equal(nan.error?.message, "execute_trajectory() argument 'position'[2] must be finite, not nan");
    const bool = await sandbox.run(request('close_gripper(True)', robot));
    assert.equal(bool.error?.message, "close_gripper() argument 'object_name' must be a str, not bool");
    assert.equal(robot.calls.length, 0);
  });

  it('sends tuples as lists, ints as numbers, and drops omitted optional arguments', async () => {
    const robot = new FakeRobot();
    const r = await sandbox.run(request('execute_trajectory((1, 2, 3), 0)\nlook([0, 0, 1])\nlook([0, 0, 1], True)', robot));
    assert.equal(r.ok, true, JSON.stringify(r.error));
    assert.deepEqual(robot.calls, [
      { fn: 'execute_trajectory', args: [[1, 2, 3], 0] },
      { fn: 'look', args: [[0, 0, 1]] },
      { fn: 'look', args: [[0, 0, 1], true] },
    ]);
  });

  it('reports a host that throws as a failed call, not a crash', async () => {
    const r = await sandbox.run(
      request('open_gripper()', new FakeRobot(), {
        onApiCall: () => Promise.reject(new Error('simulator went away')),
      }),
    );
    assert.equal(r.exitCode, 1);
    assert.deepEqual(r.error, { type: 'RuntimeError', message: 'host error in open_gripper: simulator went away', line: 1 });
  });

  it('starts every block from fresh globals when namespaces do not persist', async () => {
    const robot = new FakeRobot();
    const first = await sandbox.run(request('target = [0.1, 0.2, 0.3]', robot));
    assert.equal(first.ok, true);
    const second = await sandbox.run(request('open_gripper()\nexecute_trajectory(target, 0.0)', robot));
    assert.deepEqual(second.error, { type: 'NameError', message: "name 'target' is not defined", line: 2 });
  });

  it('keeps globals when namespaces persist, until resetNamespace()', async () => {
    const robot = new FakeRobot();
    const persist = { persistNamespace: true };
    assert.equal((await sandbox.run(request('target = [0.1, 0.2, 0.3]\ndef up(p):\n    return [p[0], p[1], p[2] + 0.1]', robot, persist))).ok, true);
    const second = await sandbox.run(request('execute_trajectory(up(target), 0.0)\nprint(target)', robot, persist));
    assert.equal(second.ok, true, JSON.stringify(second.error));
    assert.equal(second.stdout, '[0.1, 0.2, 0.3]\n');
    await sandbox.resetNamespace();
    const third = await sandbox.run(request('print(target)', robot, persist));
    assert.deepEqual(third.error, { type: 'NameError', message: "name 'target' is not defined", line: 1 });
  });

  it('treats sys.exit(0) as success and sys.exit(2) as a failure', async () => {
    const ok = await sandbox.run(request('import sys\nprint("bye")\nsys.exit(0)\nprint("no")', new FakeRobot()));
    assert.equal(ok.exitCode, 0);
    assert.equal(ok.stdout, 'bye\n');
    const bad = await sandbox.run(request('import sys\nsys.exit(2)', new FakeRobot()));
    assert.equal(bad.exitCode, 1);
    assert.deepEqual(bad.error, { type: 'SystemExit', message: '2' });
  });

  it('gives input() an error instead of waiting for a terminal', async () => {
    const r = await sandbox.run(request('input("> ")', new FakeRobot()));
    assert.equal(r.exitCode, 1);
    assert.equal(r.error?.line, 1);
  });

  it('truncates output past 1 MiB with a note', async () => {
    const r = await sandbox.run(request('print("x" * 600_000)\nprint("y" * 600_000)\nprint("after")', new FakeRobot()));
    assert.equal(r.ok, true);
    assert.equal(r.stdout.length, 1024 * 1024 + '\n[output truncated at 1048576 bytes]\n'.length);
    assert.match(r.stdout, /^x{600000}\ny+\n\[output truncated at 1048576 bytes\]\n$/);
  });

  it('rejects invalid limits and a memory limit below what Pyodide needs', async () => {
    await assert.rejects(sandbox.run(request('pass', new FakeRobot(), { limits: { timeoutSecs: 0, memoryMiB: 512 } })), /invalid limits.timeoutSecs 0/);
    await assert.rejects(sandbox.run(request('pass', new FakeRobot(), { limits: { timeoutSecs: 5, memoryMiB: 64 } })), /invalid limits.memoryMiB 64: the sandbox uses ~\d+ MiB/);
    assert.equal((await sandbox.run(request('print(1)', new FakeRobot()))).stdout, '1\n');
  });
});
