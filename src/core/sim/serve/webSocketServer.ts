// Serves simulators over WebSocket: each connection gets its own simulator from `makeSim`, closed when the
// connection ends. Binds 127.0.0.1 unless told otherwise (a simulator server runs agent-chosen actions).
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { Simulator } from '../simulator.js';
import { WebSocketTransport } from '../remote/webSocketTransport.js';
import { serveSimulator, type ServeOptions, type SimulatorServer } from './serveSimulator.js';

export interface WebSocketSimServer {
  /** e.g. "ws://127.0.0.1:8765" (the real port when 0 was asked for). */
  readonly url: string;
  readonly port: number;
  /** Stops listening, closes every connection and waits for their simulators to close. */
  close(): Promise<void>;
}

export interface WebSocketListenOptions extends ServeOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Browser origins allowed to connect (default none: only clients without an Origin header). */
  allowOrigins?: string[];
  /** Connection events and simulator start failures, one line each. */
  onEvent?: (line: string) => void;
}

export function listenWebSocket(makeSim: () => Promise<Simulator>, options: WebSocketListenOptions = {}): Promise<WebSocketSimServer> {
  const host = options.host ?? '127.0.0.1';
  const servers = new Set<SimulatorServer>();
  return new Promise((resolve, reject) => {
    // Browsers always send Origin and non-browser clients do not: refusing it keeps web pages from driving a local
    // simulator (cross-site WebSocket hijacking).
    const allowed = options.allowOrigins ?? [];
    const wss = new WebSocketServer({ host, port: options.port ?? 0, verifyClient: ({ origin }: { origin?: string }) => !origin || allowed.includes(origin) });
    let listening = false;
    wss.on('error', (e) => {
      if (!listening) reject(new Error(`cannot listen on ${host}:${options.port ?? 0}: ${e.message}`));
      else options.onEvent?.(`server error: ${e.message}`);
    });
    wss.on('connection', (socket, req) => {
      const peer = `${req.socket.remoteAddress}:${req.socket.remotePort}`;
      const transport = new WebSocketTransport(`ws client ${peer}`, socket);
      makeSim().then(
        (sim) => {
          if (transport.closed) return void sim.close();
          const server = serveSimulator(sim, transport, options);
          servers.add(server);
          options.onEvent?.(`client ${peer} connected (simulator '${sim.name}')`);
          void server.done.then((reason) => {
            servers.delete(server);
            options.onEvent?.(`client ${peer} left: ${reason}`);
          });
        },
        (e: unknown) => {
          options.onEvent?.(`could not start a simulator for ${peer}: ${(e as Error)?.message ?? String(e)}`);
          socket.close(1011, 'simulator failed to start');
        },
      );
    });
    wss.once('listening', () => {
      listening = true;
      const port = (wss.address() as AddressInfo).port;
      resolve({
        url: `ws://${host.includes(':') ? `[${host}]` : host}:${port}`,
        port,
        async close() {
          await Promise.all([...servers].map((s) => s.close()));
          await new Promise<void>((r) => wss.close(() => r()));
        },
      });
    });
  });
}
