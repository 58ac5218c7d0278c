// Entry of the sandbox worker process (bundled to dist/sandboxWorker.mjs). Started by workerProcess.ts under Node's
// permission model; loads Pyodide, locks the process down, then serves code blocks over fds 3/4 with blocking I/O.
// After start-up the event loop never runs again, so no async JavaScript reachable from Python can make progress.
import { join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PyodideAPI } from 'pyodide';
import { BlockingChannel } from './blockingChannel.js';
import { capWasmMemory, installBindingShim, lockDownProcess, neutraliseNetworkAndSpawning } from './harden.js';
import { FROM_WORKER_FD, TO_WORKER_FD, type FromWorker, type ToWorker, type WorkerConfig } from './protocol.js';
import { API_HELPERS, HARNESS } from './pythonHarness.js';
import { EPISODE_RESET, snapshotJsGlobals } from './episodeReset.js';

const proc = process;
const channel = new BlockingChannel(TO_WORKER_FD, FROM_WORKER_FD);
const send = (m: FromWorker): void => channel.send(m);
let wasmCapBytes = Number.POSITIVE_INFINITY;

const capture = { bytes: 0, max: 1 << 20, truncated: false };
const decoder = new TextDecoder('utf-8');

/** Forward block output to the host at once, up to the per-block cap. */
function appendOutput(text: string): void {
  if (capture.truncated || text.length === 0) return;
  const bytes = Buffer.byteLength(text, 'utf8');
  if (capture.bytes + bytes > capture.max) {
    capture.truncated = true;
    text = text.slice(0, Math.max(0, capture.max - capture.bytes)) + `\n[output truncated at ${capture.max} bytes]\n`;
  }
  capture.bytes += bytes;
  send({ t: 'out', text });
}

/** Turn a JavaScript-side failure of the interpreter into a block error. */
function runtimeFailure(e: unknown): { type: string; message: string } {
  const text = e instanceof Error ? e.message : String(e);
  const exit = /Program terminated with exit\((-?\d+)\)/.exec(text);
  if (exit) return { type: 'SystemExit', message: `os._exit(${exit[1]}) ended the Python interpreter` };
  const last = text.split('\n').filter((l) => l.trim()).pop() ?? text;
  return { type: 'SandboxError', message: `the Python runtime failed: ${last}` };
}

async function main(): Promise<void> {
  const config = JSON.parse(proc.argv[2] ?? '{}') as WorkerConfig;
  neutraliseNetworkAndSpawning();
  installBindingShim(proc);
  capWasmMemory(() => wasmCapBytes);
  const started = performance.now();
  const { loadPyodide } = (await import(pathToFileURL(join(config.pyodideDir, 'pyodide.mjs')).href)) as typeof import('pyodide');
  const pyodide: PyodideAPI = await loadPyodide({
    indexURL: config.pyodideDir.endsWith(sep) ? config.pyodideDir : config.pyodideDir + sep,
    env: { HOME: '/home/pyodide' },
  });
  const loadMs = performance.now() - started;
  pyodide.setStdout({ write: (buf: Uint8Array) => (appendOutput(decoder.decode(buf, { stream: true })), buf.length) });
  pyodide.setStderr({ write: (buf: Uint8Array) => (appendOutput(decoder.decode(buf, { stream: true })), buf.length) });
  pyodide.setStdin({ error: true });

  const harness = pyodide.globals.get('dict')();
  harness.set('_wp_helpers_src', API_HELPERS);
  pyodide.runPython(HARNESS, { globals: harness });
  const runBlock = harness.get('run_block');
  const resetNamespace = harness.get('reset_namespace');
  // Last, so the baseline it records is the state every block starts from.
  pyodide.runPython(EPISODE_RESET, { globals: harness });
  const resetEpisode = harness.get('reset_episode');
  const restoreShared = harness.get('restore_shared');

  const reallyExit = lockDownProcess(proc);
  const jsGlobals = snapshotJsGlobals();
  const memory = (pyodide as unknown as { _module: { HEAPU8: Uint8Array } })._module.HEAPU8;
  send({ t: 'ready', loadMs, rssBytes: proc.memoryUsage.rss(), wasmBytes: memory.byteLength });

  // Called from Python (stubs' _wp_call) with '[fn, args, line]'; blocks until the host answers.
  const hostCall = (request: string): string => {
    const [fn, args, line] = JSON.parse(request) as [string, unknown[], number | null | undefined];
    send({ t: 'api', fn, args, ...(typeof line === 'number' ? { line } : {}) });
    const reply = channel.receive() as ToWorker | undefined;
    if (reply === undefined) return reallyExit(0);
    if (reply.t !== 'api_result') throw new Error(`sandbox protocol error: expected api_result, got ${reply.t}`);
    if (reply.ok && reply.output) appendOutput(reply.output.endsWith('\n') ? reply.output : reply.output + '\n');
    return JSON.stringify(reply.ok ? { ok: true, value: reply.value ?? null } : { ok: false, error: reply.error });
  };

  for (;;) {
    const msg = channel.receive() as ToWorker | undefined;
    if (msg === undefined) return reallyExit(0);
    if (msg.t === 'reset') {
      resetNamespace(msg.ns);
      send({ t: 'reset_done' });
    } else if (msg.t === 'reset_episode') {
      // JavaScript first: a polluted Object.prototype would confuse Emscripten's file system under Python's reset.
      const js = jsGlobals.restore();
      let report: { restored: string[]; unrestorable: string[] };
      try {
        report = JSON.parse(resetEpisode() as string) as typeof report;
      } catch (e) {
        report = { restored: [], unrestorable: [`Python reset failed: ${runtimeFailure(e).message}`] };
      }
      send({ t: 'episode_reset', restored: [...js.restored, ...report.restored], unrestorable: [...report.unrestorable, ...js.unrestorable] });
    } else if (msg.t === 'run') {
      capture.bytes = 0;
      capture.truncated = false;
      capture.max = msg.maxOutputBytes;
      wasmCapBytes = msg.wasmCapBytes;
      try {
        const out = JSON.parse(runBlock(msg.code, msg.stubs, msg.apiNames, msg.persist, hostCall, msg.ns) as string) as {
          exitCode: 0 | 1;
          error?: { type: string; message: string; line?: number };
          recycle?: boolean;
        };
        appendOutput(decoder.decode());
        // A shared interpreter: the next block may be another episode's, so nothing but this namespace stays.
        let unrestorable: string[] = [];
        if (msg.ns !== undefined) {
          const js = jsGlobals.restore();
          try {
            unrestorable = [...(JSON.parse(restoreShared() as string) as { unrestorable: string[] }).unrestorable, ...js.unrestorable];
          } catch (e) {
            unrestorable = [`Python reset failed: ${runtimeFailure(e).message}`];
          }
        }
        send({ t: 'done', exitCode: out.exitCode, error: out.error, recycle: out.recycle === true || unrestorable.length > 0, ...(unrestorable.length > 0 ? { unrestorable } : {}) });
      } catch (e) {
        // The harness itself failed (Pyodide fatal error, os._exit, a block that broke the harness): not reusable.
        appendOutput(decoder.decode());
        send({ t: 'done', exitCode: 1, error: runtimeFailure(e), recycle: true });
      }
    }
  }
}

main().catch((e: unknown) => {
  try {
    send({ t: 'fatal', message: e instanceof Error ? e.message : String(e) });
  } finally {
    proc.exitCode = 70;
  }
});
