// The one interface through which an episode is driven: free run, step, pause, breakpoints, cancel.
// The engine calls `afterEvent` once each event is durably in the trace; the controller decides whether the
// episode may go on. The CLI runs freely; the debugger and the live view step and set breakpoints.
import type { TraceEvent } from '../../protocol/trace.js';

export type StopReason = 'entry' | 'step' | 'breakpoint' | 'exception' | 'pause';
export type StepGranularity = 'event' | 'turn';
/** Where a step ends: the next event, the next role call, or the next event a predicate accepts (a debugger's step in/out). */
export type StepTarget = StepGranularity | ((event: TraceEvent) => boolean);

export interface Breakpoint {
  id: number;
  label: string;
  /** A predicate on the event just written: stop before the engine acts on it. */
  matches(event: TraceEvent): boolean;
}

export type RuntimeEvent =
  | { type: 'trace_event'; event: TraceEvent }
  | { type: 'stopped'; reason: StopReason; event: TraceEvent; breakpointId?: number }
  | { type: 'continued' }
  | { type: 'ended'; status: 'success' | 'failure' | 'cancelled' | 'error' };

type Listener = (e: RuntimeEvent) => void;

export class EpisodeController {
  private stepping: StepTarget | undefined;
  private pauseRequested = false;
  private resume: (() => void) | undefined;
  private readonly listeners = new Set<Listener>();
  private readonly abortController = new AbortController();
  private breakpoints: Breakpoint[] = [];
  private stopOnNextEvent: boolean;
  /** Stop when an event reports a failure (failed code, model error, engine error). */
  breakOnFailure = false;
  /** How many times the episode has stopped so far: the engine re-reads prompt files after a stop. */
  private stops = 0;
  /** Requests to re-read prompt files without a stop (a debugger's fork switching from replayed turns to live ones). */
  private staleMarks = 0;

  constructor(options: { stopOnEntry?: boolean } = {}) {
    this.stopOnNextEvent = options.stopOnEntry ?? false;
  }

  get signal(): AbortSignal {
    return this.abortController.signal;
  }

  get isStopped(): boolean {
    return this.resume !== undefined;
  }

  /** Increases each time the episode stops (breakpoint, step, pause). */
  get stopCount(): number {
    return this.stops;
  }

  /** Changes whenever prompt files may have changed under the episode (after each stop, or when marked stale). */
  get promptEpoch(): number {
    return this.stops + this.staleMarks;
  }

  /** The engine re-reads every prompt file before its next role call, without stopping. */
  markPromptsStale(): void {
    this.staleMarks++;
  }

  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  setBreakpoints(breakpoints: Breakpoint[]): void {
    this.breakpoints = [...breakpoints];
  }

  /** Listeners hear about an event after the call that caused it has returned (as DAP clients expect). */
  private emit(e: RuntimeEvent): void {
    setImmediate(() => {
      for (const l of this.listeners) l(e);
    });
  }

  notifyEnded(status: 'success' | 'failure' | 'cancelled' | 'error'): void {
    this.emit({ type: 'ended', status });
  }

  async afterEvent(event: TraceEvent): Promise<void> {
    this.emit({ type: 'trace_event', event });
    // Yield to the event loop once per event: listeners see it, and a cancel or pause issued by them (or by the
    // UI) is honoured even when every step of the episode resolves without I/O.
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (this.signal.aborted) return;
    const stop = this.stopFor(event);
    if (!stop) return;
    this.stopOnNextEvent = false;
    this.pauseRequested = false;
    this.stepping = undefined;
    this.stops++;
    await new Promise<void>((resolve) => {
      this.resume = resolve;
      this.emit({ type: 'stopped', reason: stop.reason, event, breakpointId: stop.breakpointId });
    });
  }

  private stopFor(event: TraceEvent): { reason: StopReason; breakpointId?: number } | undefined {
    if (this.stopOnNextEvent) return { reason: event.type === 'episode_start' ? 'entry' : 'step' };
    if (this.pauseRequested) return { reason: 'pause' };
    if (this.stepping === 'event') return { reason: 'step' };
    if (this.stepping === 'turn' && event.type === 'role_call') return { reason: 'step' };
    if (typeof this.stepping === 'function' && this.stepping(event)) return { reason: 'step' };
    const bp = this.breakpoints.find((b) => b.matches(event));
    if (bp) return { reason: 'breakpoint', breakpointId: bp.id };
    if (this.breakOnFailure && isFailure(event)) return { reason: 'exception' };
    return undefined;
  }

  private release(): void {
    const r = this.resume;
    this.resume = undefined;
    if (r) {
      this.emit({ type: 'continued' });
      r();
    }
  }

  continue(): void {
    this.stepping = undefined;
    this.release();
  }

  step(target: StepTarget = 'event'): void {
    this.stepping = target;
    this.release();
  }

  pause(): void {
    if (!this.isStopped) this.pauseRequested = true;
  }

  cancel(): void {
    this.abortController.abort();
    this.release();
  }
}

export function isFailure(event: TraceEvent): boolean {
  switch (event.type) {
    case 'code_execution':
    case 'model_response':
    case 'parsed_output':
      return !event.ok;
    case 'error':
      return true;
    case 'check':
      return !event.ok;
    default:
      return false;
  }
}
