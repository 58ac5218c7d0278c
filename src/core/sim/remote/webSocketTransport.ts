// One JSON-RPC message per WebSocket text frame (the `ws` package). Used by the client and, per connection,
// by the server in src/core/sim/serve/.
import WebSocket from 'ws';
import { TransportBase } from './transport.js';

export class WebSocketTransport extends TransportBase {
  constructor(
    label: string,
    private readonly socket: WebSocket,
  ) {
    super(label);
    socket.on('message', (data) => {
      const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
      this.deliver(buf.toString('utf8'));
    });
    socket.on('close', (code, reason) => {
      const why = reason.length > 0 ? `: ${reason.toString('utf8')}` : '';
      this.markClosed(`connection closed (code ${code}${why})`);
    });
    socket.on('error', (e) => this.markClosed(`connection error: ${e.message}`));
  }

  /** Opens `url`; rejects with the cause when the server is not there within `timeoutSecs`. */
  static connect(url: string, timeoutSecs = 10): Promise<WebSocketTransport> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { handshakeTimeout: timeoutSecs * 1000 });
      const fail = (e: Error) => {
        socket.removeAllListeners();
        socket.on('error', () => {});
        socket.terminate();
        reject(new Error(`cannot connect to simulator at ${url}: ${e.message || 'connection failed'}`));
      };
      socket.once('error', fail);
      socket.once('open', () => {
        socket.off('error', fail);
        resolve(new WebSocketTransport(url, socket));
      });
    });
  }

  send(message: string): void {
    if (this.closed || this.socket.readyState !== WebSocket.OPEN) throw new Error(`${this.label}: send after close`);
    this.socket.send(message);
  }

  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.close(1000, 'done');
      // A peer that never completes the closing handshake is cut off rather than waited for.
      const cut = setTimeout(() => this.socket.terminate(), 2000);
      this.socket.once('close', () => clearTimeout(cut));
    });
    this.markClosed('closed by this side');
  }
}
