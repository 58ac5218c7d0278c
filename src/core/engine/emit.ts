// Trace emission: the one writer every event goes through (stamped with round, step and agent, written, shown to
// the controller, then the caps checked), the episode's counters, and the event shapes built from simulator data.
import type { PendingEvent, TraceEvent } from '../../protocol/trace.js';
import type { ArchitectureDefinition } from '../architecture/types.js';
import type { Clock } from '../host.js';
import type { CollisionReport, Observation } from '../sim/simulator.js';
import type { TraceSink } from '../trace/writer.js';
import type { EpisodeCaps } from './caps.js';
import type { EpisodeController } from './controller.js';
import { CapReached, EpisodeAbort, messageOf } from './endReasons.js';

export interface Metrics {
  turns: number;
  modelCalls: number;
  cachedCalls: number;
  promptTokens: number;
  completionTokens: number;
  codeBlocks: number;
  codeErrors: number;
  formatErrors: number;
  rounds: number;
  steps: number;
  humanTurns: number;
  /** Simulated seconds that restores wound the clock back (the clock at the end plus these is all that was simulated). */
  simRewoundSecs: number;
}

export function newMetrics(): Metrics {
  return { turns: 0, modelCalls: 0, cachedCalls: 0, promptTokens: 0, completionTokens: 0, codeBlocks: 0, codeErrors: 0, formatErrors: 0, rounds: 0, steps: 0, humanTurns: 0, simRewoundSecs: 0 };
}

export interface Emitter {
  emit: (pending: PendingEvent) => Promise<TraceEvent>;
  /** Events written so far. */
  readonly count: number;
  /** Stops checking the caps: the closing events (final check, end) are exempt. */
  disarm(): void;
}

/** The episode's event writer. Caps are checked after each event while the episode runs (armed at first). */
export function makeEmitter(o: { sink: TraceSink; clock: Clock; controller: EpisodeController; caps: EpisodeCaps; metrics: Metrics; stamp: { agent?: string } }): Emitter {
  const { sink, clock, controller, caps, metrics, stamp } = o;
  let eventCount = 0;
  let capsArmed = true;
  const emit = async (pending: PendingEvent): Promise<TraceEvent> => {
    const stamped = {
      ...(metrics.rounds > 0 ? { round: metrics.rounds } : {}),
      ...(metrics.steps > 0 ? { step: metrics.steps } : {}),
      ...(stamp.agent !== undefined ? { agent: stamp.agent } : {}),
      ...pending,
    } as PendingEvent;
    const event = await sink.write(stamped);
    eventCount++;
    const stops = controller.stopCount;
    const waitFrom = clock.nowMs();
    await controller.afterEvent(event);
    // Time stopped at a breakpoint is not the episode's running time.
    if (controller.stopCount !== stops) caps.stoppedFor(clock.nowMs() - waitFrom);
    if (capsArmed && !controller.signal.aborted) {
      const hit = caps.reached();
      if (hit) throw new CapReached(hit.reason, hit.message);
    }
    return event;
  };
  return {
    emit,
    get count() {
      return eventCount;
    },
    disarm() {
      capsArmed = false;
    },
  };
}

/** A collision as a failed `collision` check: the message names the pair and the depth; the fields carry them too. */
export function collisionCheck(turn: number, c: CollisionReport): PendingEvent {
  const depth = c.depthM !== undefined ? `, depth ${(c.depthM * 1000).toFixed(1)} mm` : '';
  return {
    type: 'check', turn, name: 'collision', ok: false,
    message: `collision: ${c.a} <-> ${c.b} at t=${c.tSecs.toFixed(2)} s${depth}`,
    pair: [c.a, c.b], tSecs: c.tSecs,
    ...(c.depthM !== undefined ? { depthM: c.depthM } : {}),
    ...(c.kind ? { collisionKind: c.kind } : {}),
  } as PendingEvent;
}

/** The observation as the agents see it: the perception estimate in place of the truth, when there is one. */
export function seen(observation: Observation): Observation {
  return observation.estimate ? { ...observation, state: observation.estimate } : observation;
}

/** The perception fields of an observation event (absent with ground truth). */
export function perceived(observation: Observation): { estimate?: Observation['state']; perception?: Observation['perception'] } {
  return observation.estimate ? { estimate: observation.estimate, perception: observation.perception ?? [] } : {};
}

/** The `rendered` field of an observation event: the architecture's text for its roles, when it renders one. */
export function rendered(arch: ArchitectureDefinition, observation: Observation, ablations: Readonly<Record<string, boolean>>): { rendered?: string } {
  if (!arch.renderObservation) return {};
  try {
    return { rendered: arch.renderObservation(seen(observation), observation.agent, ablations) };
  } catch (err) {
    throw new EpisodeAbort('simulator_error', `the ${arch.id} observation could not be rendered from the simulator's state: ${messageOf(err)}`);
  }
}
