// One timeline for an exported run: simulated time. Robot motion happens in sim time; agent turns happen while
// the simulator is paused, so each event is placed at the sim time reached when it was written (the last
// trajectory sample before it) and keeps its trace order (seq) among events at the same instant. A symbolic
// household has no trajectory samples: its clock is the step count its observations report, one step lasting
// HOUSEHOLD_STEP_SECS, so a step's actions sit at the step's start and the roles that read its outcome at its end.
// The absolute origin is the episode's start (startedAt), so viewers show real dates.
import { HOUSEHOLD_STEP_SECS } from '../../protocol/household.js';
import type { TraceEvent } from '../../protocol/trace.js';

export interface TimedEvent {
  event: TraceEvent;
  /** Sim seconds since reset at which the event happened. */
  simSecs: number;
}

/** Nanoseconds since the Unix epoch of the episode start (0 when the trace has no valid startedAt). */
export function originNs(events: readonly TraceEvent[]): bigint {
  const start = events.find((e) => e.type === 'episode_start');
  const ms = start?.type === 'episode_start' ? Date.parse(start.startedAt) : NaN;
  return Number.isFinite(ms) ? BigInt(Math.round(ms)) * 1_000_000n : 0n;
}

export function timeline(events: readonly TraceEvent[]): TimedEvent[] {
  let now = 0;
  const out: TimedEvent[] = [];
  for (const e of events) {
    if (e.type === 'trajectory' && e.samples.length > 0) {
      // The event is written after the motion: it is placed at its first sample, the motion's start.
      out.push({ event: e, simSecs: e.samples[0]!.tSecs });
      now = e.samples[e.samples.length - 1]!.tSecs;
      continue;
    }
    now = stepClockSecs(e) ?? now;
    out.push({ event: e, simSecs: now });
  }
  return out;
}

/** Sim seconds of a household observation (its step count times the step's nominal duration); undefined for others. */
export function stepClockSecs(e: TraceEvent): number | undefined {
  if (e.type !== 'observation') return undefined;
  const step = (e.state.extra?.household as { step?: unknown } | undefined)?.step;
  return typeof step === 'number' && Number.isFinite(step) ? step * HOUSEHOLD_STEP_SECS : undefined;
}

export function toNs(origin: bigint, simSecs: number): bigint {
  return origin + BigInt(Math.round(Math.max(0, simSecs) * 1e9));
}

/** {sec, nsec} as Foxglove and ROS 2 timestamps want them. */
export function stamp(ns: bigint): { sec: number; nsec: number } {
  return { sec: Number(ns / 1_000_000_000n), nsec: Number(ns % 1_000_000_000n) };
}
