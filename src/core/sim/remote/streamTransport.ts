// Newline-delimited JSON over a pair of byte streams: a simulator's stdin/stdout seen from either side.
// JSON.stringify never emits a raw newline, so one message is exactly one line.
import type { Readable, Writable } from 'node:stream';
import { LineSplitter, TransportBase } from './transport.js';

export class StreamTransport extends TransportBase {
  private readonly splitter = new LineSplitter();

  constructor(
    label: string,
    private readonly input: Readable,
    private readonly output: Writable,
  ) {
    super(label);
    input.setEncoding('utf8');
    input.on('data', (chunk: string) => {
      for (const line of this.splitter.push(chunk)) this.deliver(line);
    });
    input.on('end', () => {
      const rest = this.splitter.flush();
      if (rest.trim()) this.deliver(rest);
      this.endOfInput();
    });
    input.on('error', (e: Error) => this.markClosed(`read failed: ${e.message}`));
    // EPIPE when the peer died: reported as a close, never as an unhandled 'error' event.
    output.on('error', (e: Error) => this.markClosed(`write failed: ${e.message}`));
  }

  /** Subclasses (the child-process transport) wait for the exit status to give a better reason. */
  protected endOfInput(): void {
    this.markClosed('end of stream');
  }

  send(message: string): void {
    if (this.closed) throw new Error(`${this.label}: send after close`);
    this.output.write(`${message}\n`);
  }

  async close(): Promise<void> {
    if (!this.output.writableEnded) this.output.end();
    this.markClosed('closed by this side');
  }
}
