// Generated code in the user's own `python3`, for a trusted workspace that wants numpy (Pyodide has none offline).
// NOT a sandbox: the code runs with the user's permissions, files and network. Hosts offer it only behind an
// explicit flag or setting, print a warning, and never in VS Code's Restricted Mode (docs/security.md).
// The robot API stubs and their argument checks are the Pyodide sandbox's own (apiStubs.ts, API_HELPERS); API
// calls travel as JSON lines over the child's fd 3/4 so the block's prints stay plain stdout.
import { spawn, type ChildProcess } from 'node:child_process';
import type { ApiCallRecord } from '../../protocol/trace.js';
import { pythonApiStubs } from './apiStubs.js';
import { API_HELPERS, DESCRIBE_ERROR } from './pythonHarness.js';
import type { CodeSandbox, RunCodeRequest, RunCodeResult } from './sandbox.js';

export const HOST_PYTHON_WARNING =
  'generated code runs in your own python3 with your permissions (no sandbox): it can read and write your files and use the network. Use it only in a workspace you trust.';

/** Python side: reads one JSON request per line on fd 3, answers on fd 4. */
const HOST_HARNESS = String.raw`
import sys, io, json, os, builtins, traceback
_req = os.fdopen(3, 'r', encoding='utf-8')
_out = os.fdopen(4, 'w', encoding='utf-8')
def _send(obj):
    _out.write(json.dumps(obj) + '\n'); _out.flush()
def _recv():
    line = _req.readline()
    if not line:
        sys.exit(0)
    return json.loads(line)
_persistent = None
_captured = None
def _host_call(payload):
    sys.stdout.flush()
    _send({'t': 'call', 'payload': payload})
    reply = _recv()
    if reply.get('ok') and reply.get('output'):
        out = reply['output']
        _captured.write(out if out.endswith('\n') else out + '\n')
    return json.dumps({k: v for k, v in reply.items() if k != 'output'})
${DESCRIBE_ERROR}while True:
    req = _recv()
    if req['t'] == 'reset':
        _persistent = None
        _send({'t': 'done'})
        continue
    api_ns = {'__name__': '_waypoint_api', '_wp_host_call': _host_call, '_wp_dumps': json.dumps, '_wp_loads': json.loads}
    exec(compile(req['helpers'], '<waypoint-api>', 'exec'), api_ns)
    exec(compile(req['stubs'], '<waypoint-api>', 'exec'), api_ns)
    if req['persist']:
        if _persistent is None:
            _persistent = {'__name__': '__main__'}
        ns = _persistent
    else:
        ns = {'__name__': '__main__'}
    for name in req['api']:
        ns[name] = api_ns[name]
    _captured = io.StringIO()
    old = sys.stdout
    sys.stdout = _captured
    result = {'t': 'done', 'exitCode': 0}
    try:
        exec(compile(req['code'], '<code>', 'exec', dont_inherit=True), ns)
    except SystemExit as e:
        if e.code not in (None, 0):
            result = {'t': 'done', 'exitCode': 1, 'error': {'type': 'SystemExit', 'message': str(e.code)}}
    except BaseException as e:
        result = {'t': 'done', 'exitCode': 1, 'error': _wp_describe(e)}
    finally:
        sys.stdout = old
    result['stdout'] = _captured.getvalue()
    _send(result)
`;

export interface HostPythonOptions {
  /** The interpreter (default: `python3` on PATH). */
  python?: string;
}

interface Message {
  t: string;
  payload?: string;
  exitCode?: number;
  stdout?: string;
  error?: { type: string; message: string; line?: number };
}

export function createHostPythonSandbox(options: HostPythonOptions = {}): CodeSandbox {
  let child: ChildProcess | undefined;
  let buffer = '';
  let waiting: ((m: Message) => void) | undefined;
  let exited: ((why: string) => void) | undefined;
  /** Why the current interpreter is gone (it never started, or exited): a later wait fails at once instead of hanging. */
  let dead: string | undefined;
  const queue: Message[] = [];
  const python = options.python ?? 'python3';

  const start = (): ChildProcess => {
    if (child && child.exitCode === null && !child.killed && dead === undefined) return child;
    buffer = '';
    dead = undefined;
    const c = spawn(python, ['-u', '-c', HOST_HARNESS], { stdio: ['ignore', 'inherit', 'pipe', 'pipe', 'pipe'] });
    const die = (why: string) => {
      if (child !== c) return;
      dead ??= why;
      exited?.(dead);
    };
    // A write to an interpreter that is gone fails with EPIPE: its exit (or spawn error) already says why.
    (c.stdio[3] as NodeJS.WritableStream).on('error', () => undefined);
    let stderr = '';
    c.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    (c.stdio[4] as NodeJS.ReadableStream).on('data', (d: Buffer) => {
      buffer += d.toString();
      let i;
      while ((i = buffer.indexOf('\n')) >= 0) {
        const m = JSON.parse(buffer.slice(0, i)) as Message;
        buffer = buffer.slice(i + 1);
        if (waiting) {
          const w = waiting;
          waiting = undefined;
          w(m);
        } else queue.push(m);
      }
    });
    c.on('error', (err) => die(`cannot start ${python}: ${err.message}`));
    c.on('exit', (code, signal) => die(`${python} exited (${signal ?? code})${stderr ? `: ${stderr.trim().split('\n').pop()}` : ''}`));
    child = c;
    return c;
  };
  const send = (c: ChildProcess, obj: unknown) => (c.stdio[3] as NodeJS.WritableStream).write(JSON.stringify(obj) + '\n');
  const next = () =>
    new Promise<Message>((resolve, reject) => {
      const q = queue.shift();
      if (q) return resolve(q);
      if (dead !== undefined) return reject(new Error(dead));
      waiting = resolve;
      exited = (why) => reject(new Error(why));
    });

  return {
    async warmUp() {
      const c = start();
      // Without a pid the interpreter did not start (not on PATH): say so now, as a sandbox that cannot start.
      if (c.pid !== undefined) return;
      await new Promise<void>((resolve, reject) => {
        if (dead !== undefined) return reject(new Error(dead));
        c.once('spawn', () => resolve());
        c.once('error', (err) => reject(new Error(`cannot start ${python}: ${err.message}`)));
      });
    },
    async run(request: RunCodeRequest): Promise<RunCodeResult> {
      const t0 = performance.now();
      const c = start();
      const apiCalls: ApiCallRecord[] = [];
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        c.kill('SIGKILL');
      }, request.limits.timeoutSecs * 1000);
      try {
        send(c, { t: 'run', code: request.code, stubs: pythonApiStubs(request.api), helpers: API_HELPERS, api: request.api.map((f) => f.name), persist: request.persistNamespace });
        for (;;) {
          const m = await next();
          if (m.t === 'call') {
            const [fn, args, line] = JSON.parse(m.payload!) as [string, unknown[], number | null];
            const r = await request.onApiCall(fn, args, { index: apiCalls.length, ...(line !== null ? { line } : {}) });
            apiCalls.push({ fn, args, ok: r.ok, ...(r.ok ? (r.value !== undefined ? { value: r.value } : {}) : { error: r.error }) } as ApiCallRecord);
            send(c, r.ok ? { ok: true, output: r.output, value: r.value } : { ok: false, error: r.error });
            continue;
          }
          const ok = m.exitCode === 0;
          return { ok, exitCode: m.exitCode ?? 1, stdout: m.stdout ?? '', ...(m.error ? { error: m.error } : {}), durationMs: performance.now() - t0, apiCalls };
        }
      } catch (err) {
        const message = timedOut ? `the block ran longer than ${request.limits.timeoutSecs} s` : err instanceof Error ? err.message : String(err);
        child = undefined;
        return { ok: false, exitCode: timedOut ? 124 : 137, stdout: '', error: { type: timedOut ? 'TimeoutError' : 'HostPythonError', message }, durationMs: performance.now() - t0, apiCalls };
      } finally {
        clearTimeout(timer);
      }
    },
    async resetNamespace() {
      if (!child || child.exitCode !== null) return;
      send(child, { t: 'reset' });
      await next();
    },
    async close() {
      child?.kill();
      child = undefined;
    },
  };
}
