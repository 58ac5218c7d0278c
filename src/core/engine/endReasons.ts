// How an episode ends early: the labelled aborts the engine throws from deep inside a step, the cancel while the
// episode starts, and the simulator calls whose failure ends the episode. Caught once, in runEpisode.
import type { EpisodeEndReason } from '../../protocol/trace.js';
import { ENGINE_END_REASONS } from '../../protocol/trace.js';
import type { ArchitectureDefinition } from '../architecture/types.js';

/** The user cancelled before the agent's loop began (nothing went wrong, so no error event). */
export class CancelledWhileStarting extends Error {}

/** Ends the episode from deep inside a step with a closed reason (prompt, model or simulator failure). */
export class EpisodeAbort extends Error {
  constructor(
    readonly reason: EpisodeEndReason,
    message: string,
    readonly file?: string,
    readonly line?: number,
  ) {
    super(message);
  }
}

/** One of the engine's caps was reached: the episode ends with its reason, like an architecture's own cap (no error). */
export class CapReached extends EpisodeAbort {}

/** `p`, or a CancelledWhileStarting as soon as `signal` aborts (p keeps running; its result is dropped). */
export function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new CancelledWhileStarting());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new CancelledWhileStarting());
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => (signal.removeEventListener('abort', onAbort), resolve(v)),
      (e) => (signal.removeEventListener('abort', onAbort), reject(e)),
    );
  });
}

/** A simulator call outside the agent's code: its failure ends the episode as a simulator error, named. */
export async function simStep<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw new EpisodeAbort('simulator_error', `simulator failed during ${what}: ${messageOf(err)}`);
  }
}

export function isDeclaredReason(arch: ArchitectureDefinition, reason: string): boolean {
  return (ENGINE_END_REASONS as readonly string[]).includes(reason) || reason in arch.endReasons;
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
