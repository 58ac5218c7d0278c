// Append-only JSONL writer. Each event is validated, stamped with seq and time, and appended as one line
// before the engine acts on it, so a killed process leaves a trace that misses at most the event in flight.
import { TraceEvent, type PendingEvent } from '../../protocol/trace.js';
import type { Clock, HostIO } from '../host.js';

export interface TraceSink {
  write(event: PendingEvent): Promise<TraceEvent>;
}

export class JsonlTraceWriter implements TraceSink {
  private seq = 0;
  private readonly t0: number;
  /** Serialises appends so concurrent writes keep their order on disk. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly io: HostIO,
    readonly path: string,
    private readonly clock: Clock,
  ) {
    this.t0 = clock.nowMs();
  }

  async write(pending: PendingEvent): Promise<TraceEvent> {
    const event = TraceEvent.parse({ ...pending, seq: this.seq++, tMs: Math.max(0, this.clock.nowMs() - this.t0) });
    const line = JSON.stringify(event) + '\n';
    const done = this.tail.then(() => this.io.appendText(this.path, line));
    this.tail = done.catch(() => undefined);
    await done;
    return event;
  }
}

/** Keeps events in memory (tests, previews, forks before they are saved). */
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
