// Runs WaypointDebugSession over this process's stdin/stdout (dist/dap.js and `waypoint debug-adapter`). Stdout
// carries only the protocol: everything else that would print there (libraries, the simulator's WebAssembly
// runtime) is sent to stderr, which a DAP client shows or ignores.
import { Writable } from 'node:stream';
import { architectures } from '../architectures/registry.js';
import { nodeClock, nodeIO } from '../core/node/nodeHost.js';
import { builtInPromptRoot } from '../core/node/packageRoot.js';
import { createPyodideSandbox } from '../core/sandbox/index.js';
import { connectSimulator } from '../core/sim/connect.js';
import { WaypointDebugSession } from './session.js';

export function runAdapterOverStdio(): WaypointDebugSession {
  const write = process.stdout.write.bind(process.stdout);
  const protocolOut = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      write(chunk, () => done());
    },
  });
  // From here on, stray prints go to stderr.
  process.stdout.write = ((chunk: Uint8Array | string, ...rest: unknown[]) => (process.stderr.write as (c: Uint8Array | string, ...r: unknown[]) => boolean)(chunk, ...rest)) as typeof process.stdout.write;
  console.log = console.error;
  console.info = console.error;
  console.warn = console.error;
  const cwd = process.cwd();
  const session = new WaypointDebugSession({
    io: nodeIO,
    clock: nodeClock,
    architectures,
    builtInPromptRoot: builtInPromptRoot(),
    createSimulator: (spec, family) => connectSimulator(spec, { cwd, client: 'waypoint-debug-adapter', family }),
    createSandbox: () => createPyodideSandbox(),
    env: process.env,
    cwd,
  });
  process.on('SIGTERM', () => session.shutdown());
  session.start(process.stdin, protocolOut);
  return session;
}
