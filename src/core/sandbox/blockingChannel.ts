// Worker side of the pipe protocol: JSON lines written with writeSync and read with *blocking* readSync on the
// inherited pipe fds. Blocking is the point: the worker's event loop never turns after start-up, so a robot API call
// can wait for the host's answer in the middle of synchronous Python code.
import { readSync, writeSync } from 'node:fs';

const NEWLINE = 0x0a;

export class BlockingChannel {
  private pending: Buffer = Buffer.alloc(0);
  private readonly chunk = Buffer.alloc(64 * 1024);
  // Atomics.wait is a real sleep without the event loop; used only if a fd turns out to be non-blocking (EAGAIN).
  private readonly sleeper = new Int32Array(new SharedArrayBuffer(4));

  constructor(
    private readonly readFd: number,
    private readonly writeFd: number,
  ) {}

  send(message: unknown): void {
    let bytes = Buffer.from(JSON.stringify(message) + '\n', 'utf8');
    while (bytes.length > 0) {
      try {
        const n = writeSync(this.writeFd, bytes);
        bytes = bytes.subarray(n);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
        Atomics.wait(this.sleeper, 0, 0, 2);
      }
    }
  }

  /** The next message, or undefined at end of stream (the host closed the pipe or died). */
  receive(): unknown {
    for (;;) {
      const nl = this.pending.indexOf(NEWLINE);
      if (nl >= 0) {
        const line = this.pending.subarray(0, nl).toString('utf8');
        this.pending = this.pending.subarray(nl + 1);
        return JSON.parse(line) as unknown;
      }
      let n: number;
      try {
        n = readSync(this.readFd, this.chunk, 0, this.chunk.length, null);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN') {
          Atomics.wait(this.sleeper, 0, 0, 2);
          continue;
        }
        if (code === 'EOF') return undefined;
        throw e;
      }
      if (n === 0) return undefined;
      this.pending = Buffer.concat([this.pending, this.chunk.subarray(0, n)]);
    }
  }
}
