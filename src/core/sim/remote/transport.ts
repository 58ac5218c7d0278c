// A message channel carrying one JSON-RPC message (a string) at a time. stdio frames messages as lines,
// WebSocket as text frames, the in-process pair passes them through. Both ends use the same shape.

export interface MessageTransport {
  /** Shown in error messages, e.g. "stdio:python3 sim.py" or "ws://127.0.0.1:8765". */
  readonly label: string;
  send(message: string): void;
  /** One listener; set before messages can arrive (transports buffer nothing). */
  onMessage(listener: (message: string) => void): void;
  /** Called exactly once when the channel ends, with the cause ("exited with code 1 ...", "closed"). */
  onClose(listener: (reason: string) => void): void;
  readonly closed: boolean;
  close(): Promise<void>;
}

/** Shared bookkeeping: single listeners and a close that is reported once. */
export abstract class TransportBase implements MessageTransport {
  private messageListener: (message: string) => void = () => {};
  private closeListener: (reason: string) => void = () => {};
  private closeReason: string | undefined;

  constructor(readonly label: string) {}

  abstract send(message: string): void;
  abstract close(): Promise<void>;

  get closed(): boolean {
    return this.closeReason !== undefined;
  }
  onMessage(listener: (message: string) => void): void {
    this.messageListener = listener;
  }
  onClose(listener: (reason: string) => void): void {
    this.closeListener = listener;
    if (this.closeReason !== undefined) listener(this.closeReason);
  }
  protected deliver(message: string): void {
    if (!this.closed) this.messageListener(message);
  }
  protected markClosed(reason: string): void {
    if (this.closeReason !== undefined) return;
    this.closeReason = reason;
    this.closeListener(reason);
  }
}

/** Splits a text stream into lines (LF or CRLF); keeps a partial last line until its newline arrives. */
export class LineSplitter {
  private rest = '';
  push(chunk: string): string[] {
    const text = this.rest + chunk;
    const parts = text.split('\n');
    this.rest = parts.pop() ?? '';
    return parts.map((p) => (p.endsWith('\r') ? p.slice(0, -1) : p)).filter((p) => p.trim().length > 0);
  }
  /** What is left without a newline when the stream ends. */
  flush(): string {
    const r = this.rest;
    this.rest = '';
    return r;
  }
}

/** First `n` characters of a message for error texts, on one line. */
export function snippet(text: string, n = 80): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n)}...` : one;
}
