// Generated code that attacks the host, delivered the way real code arrives: the model's Coder role returns it
// (the first few Coder answers are the attacks, later ones the reference policy's). Each attack must end as a
// failed code_execution with a labelled error, leave no trace on the host, and the episode must go on to succeed
// (the sandbox recovers; patches do not leak into later blocks).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { expectSuccess, faultCase, ofType, RECORDED_AND_RECOVERED, type Run } from '../helpers/harness.js';
import { HOME_SECRET, HOME_SECRET_TEXT, ROOT } from '../helpers/isolate.js';
import { REFERENCE, runAgainst } from './modelFaults.js';

interface Attack {
  code: string;
  /** Expected Python error type (exact) or pattern over "type: message". */
  error: string | RegExp;
  exitCode?: number;
}

const block = (code: string) => `Here is the code for this step.\n\`\`\`python\n${code}\n\`\`\``;

/** An episode whose first Coder answers are `attacks` (max 4, under the consecutive-error limit of 5). */
async function attackEpisode(workspace: string, attacks: Attack[], options: { codeTimeoutSecs?: number } = {}): Promise<Run> {
  assert.ok(attacks.length <= 4);
  const { run } = await runAgainst(
    workspace,
    (c) => (c.role === 'malmm/coder' && c.roleIndex <= attacks.length ? { kind: 'text', text: block(attacks[c.roleIndex - 1].code) } : REFERENCE),
    { launch: { options: { codeTimeoutSecs: options.codeTimeoutSecs ?? 5 } } },
  );
  const execs = ofType(run.events, 'code_execution');
  for (let i = 0; i < attacks.length; i++) {
    const e = execs[i];
    const a = attacks[i];
    assert.ok(e, `attack ${i + 1} was executed`);
    assert.equal(e.code.trim(), a.code.trim());
    assert.equal(e.ok, false, `attack ${i + 1} failed (stdout: ${e.stdout.slice(0, 200)})`);
    const got = `${e.error?.type}: ${e.error?.message}`;
    if (process.env.FAULTS_VERBOSE) console.log(`    attack ${i + 1}: exit ${e.exitCode} ${got.slice(0, 160)}`);
    if (typeof a.error === 'string') assert.equal(e.error?.type, a.error, got);
    else assert.match(got, a.error);
    if (a.exitCode !== undefined) assert.equal(e.exitCode, a.exitCode, got);
    assert.ok(!e.stdout.includes(HOME_SECRET_TEXT), 'the host secret never reached the sandbox');
  }
  // The sandbox recovered: the reference policy's blocks ran and the task was solved.
  expectSuccess(run);
  assert.ok(execs.slice(attacks.length).every((e) => e.ok), 'every block after the attacks ran normally');
  return run;
}

const probe = (name: string) => join(ROOT, `probe-${name}-${process.pid}`);

export function hostileCodeCases(): void {
  describe('hostile generated code through the whole episode', () => {
    it('an infinite loop: killed at the time limit (exit 124), the sandbox restarts, the episode succeeds', () =>
      faultCase('code-loop', async (ws) => {
        await attackEpisode(ws, [{ code: 'n = 0\nwhile True:\n    n += 1', error: /^TimeoutError: time limit of 2 s exceeded/, exitCode: 124 }], { codeTimeoutSecs: 2 });
        return RECORDED_AND_RECOVERED;
      }));

    it('unbounded memory: stopped with a MemoryError at the limit, the episode succeeds', () =>
      faultCase('code-memory', async (ws) => {
        await attackEpisode(ws, [{ code: 'hoard = []\nwhile True:\n    hoard.append(bytearray(8 * 1024 * 1024))', error: 'MemoryError' }]);
        return RECORDED_AND_RECOVERED;
      }));

    it('os: system, popen, fork and exec all fail; no process runs on the host', () =>
      faultCase('code-os', async (ws) => {
        const marker = probe('os');
        await attackEpisode(ws, [
          { code: `import os\nos.system("touch ${marker}")`, error: 'OSError' },
          { code: `import os\nprint(os.popen("touch ${marker}; id").read())`, error: /Error/ },
          { code: 'import os\nos.fork()', error: /Error/ },
          { code: `import os\nos.execv("/bin/sh", ["sh", "-c", "touch ${marker}"])`, error: /Error/ },
        ]);
        assert.equal(existsSync(marker), false);
        return RECORDED_AND_RECOVERED;
      }));

    it('subprocess: run, Popen and check_output fail; no process runs on the host', () =>
      faultCase('code-subprocess', async (ws) => {
        const marker = probe('subprocess');
        await attackEpisode(ws, [
          { code: `import subprocess\nsubprocess.run(["touch", "${marker}"])`, error: 'OSError' },
          { code: `import subprocess\nsubprocess.Popen("touch ${marker}", shell=True).wait()`, error: /Error/ },
          { code: 'import subprocess\nprint(subprocess.check_output(["cat", "/etc/passwd"]))', error: /Error/ },
        ]);
        assert.equal(existsSync(marker), false);
        return RECORDED_AND_RECOVERED;
      }));

    it('files: the host home is invisible, host paths cannot be written or mounted', () =>
      faultCase('code-files', async (ws) => {
        const written = probe('written');
        await attackEpisode(ws, [
          { code: `print(open(${JSON.stringify(HOME_SECRET)}).read())`, error: 'FileNotFoundError' },
          // The write lands in Pyodide's in-memory file system at best; raising shows whether it "worked".
          { code: `import os\nos.makedirs(${JSON.stringify(ROOT)}, exist_ok=True)\nopen(${JSON.stringify(written)}, "w").write("x")\nraise RuntimeError("write returned: " + str(os.path.exists(${JSON.stringify(written)})))`, error: /^RuntimeError: write returned/ },
          { code: `import pyodide_js\npyodide_js.mountNodeFS("/host", ${JSON.stringify(ROOT)})\nprint(open("/host/home/secret.txt").read())`, error: /Error/ },
          { code: `import pyodide_js\nfrom pyodide.ffi import to_js\nFS = pyodide_js.FS\nFS.mkdir("/h2")\nFS.mount(FS.filesystems.NODEFS, to_js({"root": "/"}), "/h2")\nprint(open("/h2${HOME_SECRET}").read())`, error: /Error/ },
        ]);
        assert.equal(existsSync(written), false, 'no file appeared on the host');
        return RECORDED_AND_RECOVERED;
      }));

    it('sockets: Python socket, urllib and JavaScript fetch reach no server', async () => {
      let connections = 0;
      const canary = createServer((s) => {
        connections++;
        s.destroy();
      });
      await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
      const port = (canary.address() as AddressInfo).port;
      try {
        await faultCase('code-sockets', async (ws) => {
          await attackEpisode(ws, [
            { code: `import socket\ns = socket.create_connection(("127.0.0.1", ${port}), timeout=1)\ns.send(b"exfiltrate")`, error: 'OSError' },
            { code: `import urllib.request\nurllib.request.urlopen("http://127.0.0.1:${port}/", timeout=1).read()`, error: /Error/ },
            { code: `import js\njs.fetch("http://127.0.0.1:${port}/")`, error: /Error/ },
            { code: `import socket\ns = socket.socket(socket.AF_INET, socket.SOCK_STREAM)\ns.bind(("127.0.0.1", 0))\ns.listen(1)\nprint(s.accept())`, error: /Error/ },
          ]);
          return RECORDED_AND_RECOVERED;
        });
        assert.equal(connections, 0, 'the canary server saw no connection');
      } finally {
        canary.close();
      }
    });

    it('monkey-patching the injected API and builtins, and tampering with the worker\'s JavaScript: later blocks are unaffected', () =>
      faultCase('code-monkeypatch', async (ws) => {
        const patch = [
          'import builtins, sys',
          'execute_trajectory.__globals__["_wp_call"] = lambda *a: None',
          'def task_completed():',
          '    pass',
          'builtins.task_completed = task_completed',
          'builtins.print = lambda *a, **k: None',
          'builtins.open = None',
          'sys.setrecursionlimit(60)',
          'raise RuntimeError("patched the API and builtins")',
        ].join('\n');
        // The worker's own JSON.stringify now returns numbers: its next message is not protocol, so the host
        // kills and replaces it.
        const tamper = 'import js\njs.JSON.stringify = js.Math.random\nraise RuntimeError("tampered")';
        const run = await attackEpisode(ws, [
          { code: patch, error: /^RuntimeError: patched the API and builtins/ },
          { code: tamper, error: /^(RuntimeError|SandboxError)/ },
        ]);
        const later = ofType(run.events, 'code_execution').slice(2);
        assert.ok(later.every((e) => e.apiCalls.length > 0 && e.apiCalls.every((c) => c.ok)), 'later blocks reached the simulator');
        assert.equal(later.at(-1)?.apiCalls.at(-1)?.fn, 'task_completed', 'the real task_completed reached the host');
        return RECORDED_AND_RECOVERED;
      }));

    it('the robot API abused: raw host calls with infinite numbers, unknown functions and huge strings are refused', () =>
      faultCase('code-api-abuse', async (ws) => {
        const raw = 'h = execute_trajectory.__globals__["_wp_host_call"]';
        const run = await attackEpisode(ws, [
          { code: `${raw}\nr = h('["execute_trajectory", [[1e999, -1e999, 0.3], 0]]')\nraise RuntimeError(r)`, error: /^RuntimeError: .*"ok": ?false/ },
          { code: `${raw}\nr = h('["__import__", ["os"]]')\nraise RuntimeError(r)`, error: /^RuntimeError: .*not an API function/ },
          { code: 'close_gripper("x" * 100000)', error: 'RuntimeError' },
          { code: 'execute_trajectory([float("nan"), 0.0, 0.3], 0.0)', error: /Error/ },
        ]);
        const calls = ofType(run.events, 'code_execution').slice(0, 3).flatMap((e) => e.apiCalls);
        assert.ok(calls.length >= 3 && calls.every((c) => !c.ok), 'the abusive calls are recorded as failed API calls');
        return RECORDED_AND_RECOVERED;
      }));

    it('os._exit and a recursion bomb: the interpreter ends or raises, the worker is replaced, the episode succeeds', () =>
      faultCase('code-exit', async (ws) => {
        await attackEpisode(ws, [
          { code: 'import os\nos._exit(3)', error: 'SystemExit' },
          { code: 'def f(n):\n    return f(n + 1)\nf(0)', error: 'RecursionError' },
        ]);
        return RECORDED_AND_RECOVERED;
      }));
  });
}
