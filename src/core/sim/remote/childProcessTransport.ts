// A simulator started as a child process: JSON-RPC lines on its stdin/stdout, stderr kept for error messages
// (a Python traceback's last line is usually the cause) and passed to a listener as log lines.
import { spawn, type ChildProcess } from 'node:child_process';
import { splitCommandLine } from './commandLine.js';
import { StreamTransport } from './streamTransport.js';
import { LineSplitter } from './transport.js';

export interface ChildProcessOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Each stderr line of the child, as it arrives. */
  onStderr?: (line: string) => void;
  /** How long close() waits for a voluntary exit before SIGTERM (and as long again before SIGKILL). */
  exitGraceSecs?: number;
}

const STDERR_TAIL_LINES = 5;

export class ChildProcessTransport extends StreamTransport {
  private readonly stderrTail: string[] = [];
  private exitPromise: Promise<void>;

  private constructor(
    label: string,
    private readonly child: ChildProcess,
    private readonly options: ChildProcessOptions,
  ) {
    super(label, child.stdout!, child.stdin!);
    const splitter = new LineSplitter();
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      for (const line of splitter.push(chunk)) {
        this.stderrTail.push(line);
        if (this.stderrTail.length > STDERR_TAIL_LINES) this.stderrTail.shift();
        options.onStderr?.(line);
      }
    });
    this.exitPromise = new Promise((resolve) => {
      child.on('error', (e) => {
        this.markClosed(`could not start '${child.spawnfile}': ${e.message}`);
        resolve();
      });
      // 'close' comes after the exit and after stdout/stderr were read to the end, so no answer is lost.
      child.on('close', (code, signal) => {
        const status = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        const tail = this.stderrTail.filter((l) => l.trim()).slice(-3).join(' | ');
        this.markClosed(tail ? `${status}; stderr: ${tail}` : status);
        resolve();
      });
    });
  }

  /** Starts `commandLine` (split without a shell, see commandLine.ts). */
  static spawn(commandLine: string, options: ChildProcessOptions = {}): ChildProcessTransport {
    const argv = splitCommandLine(commandLine);
    if (argv.length === 0) throw new Error('empty simulator command line after "stdio:"');
    const child = spawn(argv[0]!, argv.slice(1), { cwd: options.cwd, env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    return new ChildProcessTransport(`stdio:${commandLine}`, child, options);
  }

  protected override endOfInput(): void {
    // Wait for 'close' so the reason carries the exit status.
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  override async close(): Promise<void> {
    const graceMs = (this.options.exitGraceSecs ?? 2) * 1000;
    if (!this.child.stdin!.writableEnded) this.child.stdin!.end();
    if (this.child.exitCode === null && this.child.signalCode === null && this.child.pid !== undefined) {
      const term = setTimeout(() => this.child.kill('SIGTERM'), graceMs);
      const kill = setTimeout(() => this.child.kill('SIGKILL'), 2 * graceMs);
      await this.exitPromise;
      clearTimeout(term);
      clearTimeout(kill);
    }
    await this.exitPromise;
  }
}
