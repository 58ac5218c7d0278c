// Defence inside the worker process, on top of Node's permission model (docs/security.md). Python running in
// Pyodide can always reach JavaScript objects (every JsProxy has a `.constructor`), so what matters is what those
// objects can do: no network, no process control, no code generation, no real `process`.
import childProcess from 'node:child_process';
import cluster from 'node:cluster';
import dgram from 'node:dgram';
import dns from 'node:dns';
import fs from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import inspector from 'node:inspector';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import tls from 'node:tls';
import vm from 'node:vm';
import workerThreads from 'node:worker_threads';

type Bag = Record<string, unknown>;

function denied(what: string): () => never {
  return function denied(): never {
    throw new Error(`${what} is disabled in the Waypoint sandbox`);
  };
}

/** Replace the named functions (or every function when `names` is omitted) of `target` by throwing stubs. */
function deny(target: object, label: string, names?: string[]): void {
  const bag = target as Bag;
  for (const name of names ?? Object.getOwnPropertyNames(target)) {
    if (name === 'constructor' || name === 'prototype') continue;
    const desc = Object.getOwnPropertyDescriptor(target, name);
    if (!desc || !('value' in desc) || typeof desc.value !== 'function') continue;
    Object.defineProperty(bag, name, { value: denied(`${label}.${name}`), writable: false, configurable: false, enumerable: desc.enumerable });
  }
}

/**
 * Network and process-spawning modules: patched on their shared exports objects, so every holder of the module
 * (including Emscripten's socket layer, which would otherwise reach `ws` -> `http` -> `net`) gets the stubs.
 * Safe before Pyodide loads (it loads from files).
 */
export function neutraliseNetworkAndSpawning(): void {
  deny(net, 'net', ['connect', 'createConnection', 'createServer']);
  deny(net.Socket.prototype, 'net.Socket', ['connect']);
  deny(net.Server.prototype, 'net.Server', ['listen']);
  deny(tls, 'tls', ['connect', 'createServer']);
  for (const [mod, label] of [
    [http, 'http'],
    [https, 'https'],
  ] as const) {
    deny(mod, label, ['request', 'get', 'createServer']);
    deny(mod.Agent.prototype, `${label}.Agent`, ['createConnection']);
  }
  deny(http2, 'http2', ['connect', 'createServer', 'createSecureServer']);
  deny(dgram, 'dgram', ['createSocket']);
  deny(dgram.Socket.prototype, 'dgram.Socket', ['bind', 'connect', 'send', 'addMembership', 'addSourceSpecificMembership']);
  deny(dns, 'dns');
  deny(dns.promises, 'dns.promises');
  deny(dns.Resolver.prototype, 'dns.Resolver');
  deny(dns.promises.Resolver.prototype, 'dns.promises.Resolver');
  deny(inspector, 'inspector', ['open', 'waitForDebugger']);
  deny(inspector.Session.prototype, 'inspector.Session', ['connect', 'connectToMainThread', 'post']);
  deny(childProcess, 'child_process');
  deny(cluster, 'cluster', ['fork', 'setupPrimary', 'setupMaster']);
  deny(workerThreads, 'worker_threads', ['Worker']);
  syncBuiltinESMExports();
  for (const name of ['fetch', 'WebSocket', 'EventSource']) delete (globalThis as Bag)[name];
}

/** Pyodide's start-up reads `process.binding('constants').fs`, which the permission model denies; serve only that. */
export function installBindingShim(proc: NodeJS.Process): void {
  const constants = Object.freeze({ fs: fs.constants });
  Object.defineProperty(proc, 'binding', {
    value: (name: string) => {
      if (name === 'constants') return constants;
      throw new Error(`process.binding(${JSON.stringify(name)}) is disabled in the Waypoint sandbox`);
    },
    writable: true,
    configurable: true,
  });
}

/** Refuse WebAssembly heap growth past `capBytes()`: Emscripten then fails the allocation and Python raises MemoryError. */
export function capWasmMemory(capBytes: () => number): void {
  const grow = WebAssembly.Memory.prototype.grow;
  Object.defineProperty(WebAssembly.Memory.prototype, 'grow', {
    value: function cappedGrow(this: WebAssembly.Memory, deltaPages: number): number {
      if (this.buffer.byteLength + deltaPages * 65536 > capBytes()) throw new RangeError('sandbox memory cap reached');
      return grow.call(this, deltaPages);
    },
    writable: false,
    configurable: false,
  });
}

/**
 * After Pyodide has loaded and before untrusted code runs: no code generation from strings via vm, no process
 * control, and the global `process` becomes an inert stand-in with the few fields Emscripten reads at run time.
 * Returns the real exit function for the worker's own shutdown.
 */
export function lockDownProcess(proc: NodeJS.Process): (code: number) => never {
  const reallyExit = (proc as unknown as { reallyExit(code: number): never }).reallyExit.bind(proc);
  deny(vm, 'vm');
  deny(vm.Script.prototype, 'vm.Script');
  syncBuiltinESMExports();
  deny(proc, 'process', [
    'abort', 'binding', '_linkedBinding', 'chdir', 'dlopen', 'exit', 'reallyExit', 'kill', '_kill', '_debugProcess',
    '_debugEnd', '_startProfilerIdleNotifier', '_stopProfilerIdleNotifier', 'getBuiltinModule', 'setuid', 'setgid',
    'seteuid', 'setegid', 'setgroups', 'initgroups', 'setSourceMapsEnabled', 'loadEnvFile', 'openStdin', 'send',
    'disconnect', 'umask',
  ]);
  const inert = {
    version: proc.version,
    versions: Object.freeze({ node: proc.versions.node }),
    platform: proc.platform,
    browser: false,
    argv: Object.freeze([] as string[]),
    env: Object.freeze({}),
    exitCode: undefined as number | undefined,
    getuid: () => 0,
    umask: () => 0o022,
  };
  Object.defineProperty(globalThis, 'process', { value: inert, writable: false, configurable: false, enumerable: false });
  return reallyExit;
}
