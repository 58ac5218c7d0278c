// `waypoint serve-sim`: exposes a simulator over the simulator protocol, on this process's stdin/stdout or on a
// WebSocket port. Status lines go to `out`; with stdio the caller must point `out` at stderr, since stdout
// carries the protocol.
import type { Simulator } from '../core/sim/simulator.js';
import { StreamTransport } from '../core/sim/remote/streamTransport.js';
import { listenWebSocket } from '../core/sim/serve/webSocketServer.js';
import { serveSimulator, type ServeOptions } from '../core/sim/serve/serveSimulator.js';

export interface ServeSimArgs {
  transport: 'stdio' | 'ws';
  /** WebSocket port; default 8765, 0 picks a free one. */
  port?: number;
  /** WebSocket host; default 127.0.0.1 (loopback only). */
  host?: string;
}

/**
 * Serves until the client closes (stdio) or until `signal` aborts / SIGINT / SIGTERM (ws).
 * `options` passes robots, API sets and the snapshot mode through to serveSimulator.
 */
export async function serveSim(
  args: ServeSimArgs,
  makeSim: () => Promise<Simulator>,
  out: (line: string) => void,
  options: ServeOptions & { signal?: AbortSignal } = {},
): Promise<void> {
  if (args.transport === 'stdio') {
    // stdout carries the protocol: console output of the simulator (and Emscripten's printf) goes to stderr instead.
    const saved = { log: console.log, info: console.info, debug: console.debug };
    console.log = console.info = console.debug = (...a: unknown[]) => console.error(...a);
    try {
      const sim = await makeSim();
      const server = serveSimulator(sim, new StreamTransport('stdio', process.stdin, process.stdout), options);
      out(`serving simulator '${sim.name}' on stdio`);
      const reason = await server.done;
      out(`simulator '${sim.name}' stopped: ${reason}`);
    } finally {
      Object.assign(console, saved);
    }
    return;
  }
  if (args.transport !== 'ws') throw new Error(`unknown transport '${String(args.transport)}': expected stdio or ws`);
  const ws = await listenWebSocket(makeSim, { ...options, host: args.host ?? '127.0.0.1', port: args.port ?? 8765, onEvent: out });
  out(`serving simulators on ${ws.url} (one per connection)`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      options.signal?.removeEventListener('abort', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    if (options.signal?.aborted) stop();
    else options.signal?.addEventListener('abort', stop);
  });
  await ws.close();
  out('stopped');
}
