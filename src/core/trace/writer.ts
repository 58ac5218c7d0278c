// Append-only JSONL writer. Each event is validated, stamped with seq and time, encoded (encoding/: messages by
// hash, trajectories as columns) and appended, content records first and the event line last, in one append,
// before the engine acts on it: a killed process leaves a trace that misses at most the event in flight. After
// episode_end it writes the run summary beside a run folder's trace.jsonl (summaryFile.ts).
import { TraceEvent, type EventOf, type PendingEvent } from '../../protocol/trace.js';
import type { Clock, HostIO } from '../host.js';
import { TraceEncoder } from './encoding/index.js';
import { defaultSummaryPath, summaryOf } from './summaryFile.js';

export interface TraceSink {
  write(event: PendingEvent): Promise<TraceEvent>;
}

export interface TraceWriterOptions {
  /** Where to write the run summary after episode_end; default summary.json beside a trace.jsonl, null for none. */
  summaryPath?: string | null;
}

export class JsonlTraceWriter implements TraceSink {
  private seq = 0;
  private readonly t0: number;
  /** Serialises encoding and appends, so lines keep their order and a record is written before its first use. */
  private tail: Promise<unknown> = Promise.resolve();
  private readonly encoder = new TraceEncoder();
  private start: EventOf<'episode_start'> | undefined;
  private readonly summaryPath: string | undefined;
  /** Why the run summary could not be written, if it could not (listing then reads the trace). */
  summaryError: Error | undefined;

  constructor(
    private readonly io: HostIO,
    readonly path: string,
    private readonly clock: Clock,
    options: TraceWriterOptions = {},
  ) {
    this.t0 = clock.nowMs();
    this.summaryPath = options.summaryPath === null ? undefined : (options.summaryPath ?? defaultSummaryPath(path));
  }

  /**
   * Returns the event as a reader of the file will see it: trajectory values rounded to the stored precision
   * (encoding/trajectory.ts TRAJECTORY_DIGITS), everything else as given.
   */
  async write(pending: PendingEvent): Promise<TraceEvent> {
    const event = TraceEvent.parse({ ...pending, seq: this.seq++, tMs: Math.max(0, this.clock.nowMs() - this.t0) });
    const done = this.tail.then(async () => {
      // Encoded in order: the encoder knows which content records are already on disk.
      const encoded = this.encoder.encode(event);
      await this.io.appendText(this.path, encoded.text);
      encoded.commit();
      if (event.type === 'episode_start') this.start = event;
      if (event.type === 'episode_end' && this.start && this.summaryPath) {
        // The trace is complete without it: a run with no summary is listed from its trace. Kept for the host.
        await this.io.writeText(this.summaryPath, JSON.stringify(summaryOf(this.start, event)) + '\n').catch((err: unknown) => {
          this.summaryError = err instanceof Error ? err : new Error(String(err));
        });
      }
      return encoded.shown;
    });
    this.tail = done.catch(() => undefined);
    return done;
  }
}

/** Keeps events in memory (tests, previews, forks before they are saved); trajectory values are not rounded. */
export class MemoryTraceSink implements TraceSink {
  readonly events: TraceEvent[] = [];
  private seq = 0;
  constructor(private readonly clock?: Clock) {}
  async write(pending: PendingEvent): Promise<TraceEvent> {
    const event = TraceEvent.parse({ ...pending, seq: this.seq++, tMs: this.clock ? this.clock.nowMs() : 0 });
    this.events.push(event);
    return event;
  }
}
