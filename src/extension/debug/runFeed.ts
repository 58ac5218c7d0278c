// A debug session's run as the run viewer sees it: the trace file read as it grows, cut at the debugger's
// position when that lies behind the newest event (stepping back, or walking a recording), so plots show the
// position reached so far. No `vscode` here.
import { readFile } from 'node:fs/promises';
import { readTrace } from '../../core/trace/reader.js';
import type { TraceEvent } from '../../protocol/trace.js';
import type { PositionEventBody } from '../../protocol/dap.js';

type Listener<T> = (v: T) => void;

export class DebugRunFeed {
  events: TraceEvent[] = [];
  readonly done: Promise<void>;
  private resolveDone!: () => void;
  private readonly eventListeners = new Set<Listener<TraceEvent[]>>();
  private readonly resetListeners = new Set<() => void>();
  /** Show events up to this sequence number (Infinity: everything written). */
  private limitSeq: number;
  private timer: ReturnType<typeof setInterval> | undefined;
  private reading: Promise<void> | undefined;
  private finished = false;

  /** `live`: an episode runs (poll the file while it runs); else a recording walked from its first event. */
  constructor(
    readonly tracePath: string,
    live: boolean,
    private readonly log: (line: string) => void = () => undefined,
  ) {
    this.done = new Promise((r) => (this.resolveDone = r));
    this.limitSeq = live ? Infinity : 0;
    if (live) this.timer = setInterval(() => void this.refresh(), 500);
  }

  onEvents(l: Listener<TraceEvent[]>): () => void {
    this.eventListeners.add(l);
    return () => this.eventListeners.delete(l);
  }

  onReset(l: () => void): () => void {
    this.resetListeners.add(l);
    return () => this.resetListeners.delete(l);
  }

  /** The debugger stopped: show what it has reached. */
  async moveTo(p: Pick<PositionEventBody, 'seq' | 'headSeq' | 'live'>): Promise<void> {
    this.limitSeq = p.live && p.seq >= p.headSeq ? Infinity : p.seq;
    await this.refresh();
  }

  refresh(): Promise<void> {
    // One read at a time; a request during a read waits for it and reads again.
    const run = async (): Promise<void> => {
      let all: TraceEvent[];
      try {
        all = readTrace(await readFile(this.tracePath, 'utf8')).events;
      } catch (err) {
        this.log(`run viewer: cannot read ${this.tracePath}: ${err instanceof Error ? err.message : String(err)}`);
        return;
      }
      const shown = all.filter((e) => e.seq <= this.limitSeq);
      const last = this.events[this.events.length - 1];
      if (shown.length < this.events.length || (last && shown[this.events.length - 1]?.seq !== last.seq)) {
        this.events = shown;
        for (const l of this.resetListeners) l();
        return;
      }
      const fresh = shown.slice(this.events.length);
      if (fresh.length === 0) return;
      this.events.push(...fresh);
      for (const l of this.eventListeners) l(fresh);
    };
    const next = (this.reading ?? Promise.resolve()).then(run);
    this.reading = next;
    return next;
  }

  /** The session ended (or moved on to a fork): show the whole trace and stop following it. */
  async finish(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    if (this.timer) clearInterval(this.timer);
    this.limitSeq = Infinity;
    await this.refresh();
    this.resolveDone();
  }
}
