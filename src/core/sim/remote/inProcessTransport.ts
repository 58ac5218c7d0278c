// Two connected in-process ends. Messages still travel as strings, one microtask later, so the in-process path
// exercises exactly the JSON the wire transports carry.
import { TransportBase, type MessageTransport } from './transport.js';

class InProcessEnd extends TransportBase {
  peer: InProcessEnd | undefined;
  send(message: string): void {
    if (this.closed) throw new Error(`${this.label}: send after close`);
    const peer = this.peer;
    queueMicrotask(() => peer?.receive(message));
  }
  receive(message: string): void {
    this.deliver(message);
  }
  async close(): Promise<void> {
    this.shutdown('closed by this side');
  }
  shutdown(reason: string): void {
    if (this.closed) return;
    this.markClosed(reason);
    const peer = this.peer;
    queueMicrotask(() => peer?.shutdown('closed by the other side'));
  }
}

/** [client end, server end]. Closing either closes both. */
export function createInProcessTransportPair(label = 'in-process'): [MessageTransport, MessageTransport] {
  const a = new InProcessEnd(label);
  const b = new InProcessEnd(label);
  a.peer = b;
  b.peer = a;
  return [a, b];
}
