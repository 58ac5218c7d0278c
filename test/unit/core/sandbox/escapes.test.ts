// Escape attempts from generated code. Each must fail, and the sandbox must run the next block normally.
// Needs `npm run build` (the worker runs from dist/sandboxWorker.mjs; refused when older than its sources).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPyodideSandbox } from '../../../../src/core/sandbox/index.js';
import { defaultPyodideDir } from '../../../../src/core/sandbox/locate.js';
import type { CodeSandbox, RunCodeResult } from '../../../../src/core/sandbox/sandbox.js';
import { FakeRobot, request } from './fakeRobot.js';
import { assertDistFresh } from '../../../helpers/dist.js';

assertDistFresh('dist/sandboxWorker.mjs');

describe('sandbox escapes', () => {
  let sandbox: CodeSandbox;
  let dir: string;
  let server: Server;
  let port = 0;
  let connections = 0;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'waypoint-sandbox-'));
    writeFileSync(join(dir, 'secret.txt'), 'top secret');
    server = createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    sandbox = createPyodideSandbox();
    await sandbox.warmUp();
  });
  after(async () => {
    await sandbox.close();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (code: string): Promise<RunCodeResult> => sandbox.run(request(code, new FakeRobot()));
  async function assertStillRuns(): Promise<void> {
    const r = await run('print(6 * 7)');
    assert.equal(r.stdout, '42\n', JSON.stringify(r.error));
  }

  it('cannot turn a JS object into code: constructor.constructor("return process") fails', async () => {
    const r = await run('from pyodide.ffi import to_js\nf = to_js({}).constructor.constructor("return process")\nprint(f())');
    assert.equal(r.exitCode, 1);
    assert.match(r.error?.message ?? '', /Code generation from strings disallowed/);
    assert.equal(r.error?.line, 2);
    assert.equal(r.stdout, '');
    const viaEval = await run('import js\njs.eval("1 + 1")');
    assert.match(viaEval.error?.message ?? '', /Code generation from strings disallowed/);
    await assertStillRuns();
  });

  it('finds no require, fetch, WebSocket or real process through `import js`', async () => {
    const code = [
      'import js',
      'found = [n for n in ("require", "fetch", "WebSocket", "EventSource") if hasattr(js, n)]',
      'p = js.process',
      'names = ("getBuiltinModule", "binding", "_linkedBinding", "dlopen", "exit", "reallyExit", "kill", "mainModule", "stdout", "pid")',
      'found += ["process." + n for n in names if hasattr(p, n)]',
      'print(found, len(js.Object.keys(p.env)), list(p.argv))',
    ].join('\n');
    const r = await run(code);
    assert.equal(r.ok, true, JSON.stringify(r.error));
    assert.equal(r.stdout, '[] 0 []\n');
    await assertStillRuns();
  });

  it('process.exit() from JavaScript and os._exit() from Python do not take the host down', async () => {
    const jsExit = await run('import js\njs.process.exit(1)');
    assert.equal(jsExit.exitCode, 1);
    assert.equal(jsExit.error?.type, 'AttributeError');
    await assertStillRuns();
    const osExit = await run('import os\nprint("before")\nos._exit(3)');
    assert.equal(osExit.exitCode, 1);
    assert.deepEqual(osExit.error, { type: 'SystemExit', message: 'os._exit(3) ended the Python interpreter' });
    assert.equal(osExit.stdout, 'before\n');
    await assertStillRuns();
  });

  it('Python file writes stay inside the in-memory file system; no file appears on the host', async () => {
    const inHostTmp = join(tmpdir(), `waypoint-probe-${process.pid}.txt`);
    const inDir = join(dir, 'from_python.txt');
    const code = [
      'import os',
      `open(${JSON.stringify(inHostTmp)}, "w").write("x")`,
      `os.makedirs(${JSON.stringify(dir)}, exist_ok=True)`,
      `open(${JSON.stringify(inDir)}, "w").write("x")`,
      `print(open(${JSON.stringify(inDir)}).read(), os.path.exists(${JSON.stringify(join(dir, 'secret.txt'))}))`,
    ].join('\n');
    const r = await run(code);
    // The writes succeed, in Emscripten's in-memory file system; the host's folder is not visible at all.
    assert.equal(r.ok, true, JSON.stringify(r.error));
    assert.equal(r.stdout, 'x False\n');
    assert.equal(existsSync(inHostTmp), false);
    assert.deepEqual(readdirSync(dir), ['secret.txt']);
    await assertStillRuns();
  });

  it("cannot mount host folders through Pyodide's NODEFS; its own folder mounts read-only", async () => {
    const mountHost = await run(`import pyodide_js\npyodide_js.mountNodeFS("/host", ${JSON.stringify(dir)})\nprint(open("/host/secret.txt").read())`);
    assert.equal(mountHost.exitCode, 1);
    assert.equal(mountHost.stdout, '');
    const viaFs = await run(
      `import pyodide_js\nfrom pyodide.ffi import to_js\nFS = pyodide_js.FS\nFS.mkdir("/h2")\nFS.mount(FS.filesystems.NODEFS, to_js({"root": ${JSON.stringify(dir)}}), "/h2")\nprint(open("/h2/secret.txt").read())`,
    );
    assert.equal(viaFs.exitCode, 1);
    assert.doesNotMatch(viaFs.stdout, /top secret/);

    const pyodideDir = defaultPyodideDir();
    const before = readdirSync(pyodideDir).sort();
    const own = await run(
      `import pyodide_js\npyodide_js.mountNodeFS("/own", ${JSON.stringify(pyodideDir)})\nprint("pyodide" in open("/own/package.json").read())\nf = open("/own/evil.txt", "w")\nf.write("x")\nf.close()`,
    );
    assert.equal(own.exitCode, 1);
    assert.match(own.stdout, /^True\n/);
    assert.equal(own.error?.line, 6);
    assert.deepEqual(readdirSync(pyodideDir).sort(), before);
    await assertStillRuns();
  });

  it('cannot start processes: os.system, posix.system, subprocess', async () => {
    const marker = join(dir, 'spawned');
    for (const code of [
      `import os\nos.system("touch ${marker}")`,
      `import posix\nposix.system("touch ${marker}")`,
      `import subprocess\nsubprocess.run(["touch", "${marker}"])`,
    ]) {
      const r = await run(code);
      assert.equal(r.exitCode, 1, code);
      assert.equal(r.error?.type, 'OSError', code);
      assert.equal(r.error?.line, 2, code);
    }
    assert.equal(existsSync(marker), false);
    await assertStillRuns();
  });

  it('cannot open sockets: Python socket and urllib reach no server', async () => {
    const sock = await run(`import socket\ns = socket.socket()\ns.connect(("127.0.0.1", ${port}))\ns.send(b"hello")`);
    assert.equal(sock.exitCode, 1);
    assert.equal(sock.error?.type, 'OSError');
    const url = await run(`import urllib.request\nurllib.request.urlopen("http://127.0.0.1:${port}/", timeout=1)`);
    assert.equal(url.exitCode, 1);
    await assertStillRuns();
    assert.equal(connections, 0);
  });

  it('never runs scheduled JavaScript or asyncio work: the event loop does not turn while blocks run', async () => {
    const r = await run(
      'import js, asyncio\nfrom pyodide.ffi import run_sync\njs.setTimeout(lambda: print("timer ran"), 0)\nasync def f():\n    print("coroutine ran")\nasyncio.ensure_future(f())\nrun_sync(js.Promise.resolve(1))',
    );
    assert.equal(r.exitCode, 1);
    assert.equal(r.error?.line, 7);
    assert.match(r.error?.message ?? '', /stack switching not supported/);
    const next = await run('print("next")');
    assert.equal(next.stdout, 'next\n');
  });

  it('monkey-patching the injected API, builtins or sys.stdout does not reach the next block', async () => {
    const robot = new FakeRobot();
    const patch = [
      'import builtins, sys',
      'execute_trajectory.__globals__["_wp_call"] = lambda *a: None',
      'def open_gripper():',
      '    print("fake")',
      'builtins.print = lambda *a, **k: None',
      'builtins.len = None',
      'sys.stdout = open("/dev/null", "w")',
    ].join('\n');
    assert.equal((await sandbox.run(request(patch, robot))).ok, true);
    const r = await sandbox.run(request('open_gripper()\nexecute_trajectory([0, 0, 1], 0)\nprint(len([1, 2]))', robot));
    assert.equal(r.ok, true, JSON.stringify(r.error));
    assert.equal(r.stdout, '2\n');
    assert.deepEqual(
      robot.calls.map((c) => c.fn),
      ['open_gripper', 'execute_trajectory'],
    );
  });
});
