// The engine's caps on one episode (limits maxWallSecs and maxSimSecs, ENGINE_LIMITS in src/core/architecture/limits.ts): the
// wall-clock time the episode has been running, stops in a debugger and a person's turns left out, and the
// simulated time in all (retries and restores add up). The engine asks `reached()` after every trace event; a timer
// also cancels a model call that is still in flight at the wall-clock cap (`signal`).
import type { EpisodeEndReason } from '../../protocol/trace.js';
import type { Clock } from '../host.js';

export interface CapHit {
  reason: Extract<EpisodeEndReason, 'wall_clock_cap' | 'sim_time_cap'>;
  message: string;
}

export interface CapOptions {
  clock: Clock;
  maxWallSecs: number;
  maxSimSecs: number;
  /** Simulated seconds in all so far; undefined before the simulator was reset. */
  simTotalSecs: () => number | undefined;
  /** The episode is stopped (a debugger's breakpoint or step): the clock does not run for the cap. */
  stopped: () => boolean;
}

/** While stopped, the timer looks again this often. */
const RECHECK_MS = 250;

export class EpisodeCaps {
  private readonly t0: number;
  private heldMs = 0;
  private holds = 0;
  private holdStart = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly wallAbort = new AbortController();
  private hit: CapHit | undefined;

  constructor(private readonly o: CapOptions) {
    this.t0 = o.clock.nowMs();
  }

  /** Aborted when the wall-clock cap is reached (a model call in flight gets this, linked with the user's cancel). */
  get signal(): AbortSignal {
    return this.wallAbort.signal;
  }

  /** Starts the timer that cancels work in flight at the wall-clock cap. */
  start(): void {
    this.schedule(this.o.maxWallSecs * 1000 - this.activeMs());
  }

  /** Ends the timer (the episode is over, or its loop has returned). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Wall-clock milliseconds the episode has run, stops and holds left out. */
  activeMs(): number {
    const now = this.o.clock.nowMs();
    return now - this.t0 - this.heldMs - (this.holds > 0 ? now - this.holdStart : 0);
  }

  /** Time that does not count until the returned function is called (a person typing an agent's turn). */
  hold(): () => void {
    if (this.holds++ === 0) this.holdStart = this.o.clock.nowMs();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds === 0) this.heldMs += this.o.clock.nowMs() - this.holdStart;
    };
  }

  /** A stop that is over (the engine measures how long the controller held an event) is left out too. */
  stoppedFor(ms: number): void {
    this.heldMs += Math.max(0, ms);
  }

  /** The cap this episode has reached, if any (once reached, it stays reached). */
  reached(): CapHit | undefined {
    if (this.hit) return this.hit;
    const activeSecs = this.activeMs() / 1000;
    if (this.wallAbort.signal.aborted || activeSecs >= this.o.maxWallSecs) {
      this.hit = { reason: 'wall_clock_cap', message: `the episode ran ${activeSecs.toFixed(1)} s of wall-clock time; its cap is maxWallSecs = ${this.o.maxWallSecs} s` };
    } else {
      const sim = this.o.simTotalSecs();
      if (sim !== undefined && sim >= this.o.maxSimSecs) this.hit = { reason: 'sim_time_cap', message: `the episode simulated ${sim.toFixed(1)} s in all; its cap is maxSimSecs = ${this.o.maxSimSecs} s` };
    }
    return this.hit;
  }

  /** A signal aborted by `other` or by the wall-clock cap. */
  linked(other: AbortSignal): AbortSignal {
    if (other.aborted || this.signal.aborted) return AbortSignal.abort();
    const both = new AbortController();
    const abort = () => {
      both.abort();
      other.removeEventListener('abort', abort);
      this.signal.removeEventListener('abort', abort);
    };
    other.addEventListener('abort', abort, { once: true });
    this.signal.addEventListener('abort', abort, { once: true });
    return both.signal;
  }

  private schedule(ms: number): void {
    this.stop();
    this.timer = setTimeout(() => this.onTimer(), Math.max(0, Math.min(ms, 2 ** 31 - 1)));
    // The timer alone never keeps a process alive.
    (this.timer as { unref?: () => void }).unref?.();
  }

  private onTimer(): void {
    this.timer = undefined;
    if (this.o.stopped() || this.holds > 0) return this.schedule(RECHECK_MS);
    const left = this.o.maxWallSecs * 1000 - this.activeMs();
    if (left > 0) return this.schedule(left);
    this.wallAbort.abort();
  }
}
