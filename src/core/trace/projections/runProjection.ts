// All projections of one run, fed incrementally: append() passes each new event to every builder once.
// The run viewer, the CLI transcript and the HTML report read their view models from here. An architecture's own
// projections (its views' view models) are not known here: the viewer passes them in as ProjectionKinds
// (src/architectures/views.ts lists them) and its views read them back with `of(kind)`.
import type { TraceEvent } from '../../../protocol/trace.js';
import type { ViewEvent } from '../../../protocol/webview.js';
import { MotionScoreBuilder } from './motionScores.js';
import { PerceptionBuilder } from './perception.js';
import { ReachZonesBuilder } from './reachZones.js';
import { RetryDiffBuilder } from './retryDiffs.js';
import { RunSummaryBuilder } from './runSummary.js';
import { StateDiffBuilder } from './stateDiffs.js';
import { TrajectorySeriesBuilder } from './trajectorySeries.js';
import { TurnTimelineBuilder } from './turns.js';

/** A projection fed every event of the run once, in order. */
export interface ProjectionBuilder {
  add(e: TraceEvent | ViewEvent): void;
}

/** A kind of projection a run may carry beside the built-in ones: its id and how to start one. */
export interface ProjectionKind<B extends ProjectionBuilder = ProjectionBuilder> {
  id: string;
  create(): B;
}

export class RunProjection {
  readonly timeline = new TurnTimelineBuilder();
  readonly retries = new RetryDiffBuilder();
  readonly states: StateDiffBuilder;
  readonly series = new TrajectorySeriesBuilder();
  readonly summary = new RunSummaryBuilder();
  readonly motion = new MotionScoreBuilder();
  /** Perception mode's estimate against the truth (runs with --perception estimated only). */
  readonly perception = new PerceptionBuilder();
  /** Multi-arm runs: reach zones, objects and every robot's executed path, top down. */
  readonly reach = new ReachZonesBuilder();
  /** The projections passed in (an architecture's), by kind id. */
  readonly #extra = new Map<string, ProjectionBuilder>();
  eventCount = 0;
  /** Highest seq seen; events at or below it are ignored, so a re-sent batch is harmless. */
  lastSeq = -1;

  constructor(options: { moveThresholdM?: number; projections?: readonly ProjectionKind[] } = {}) {
    this.states = new StateDiffBuilder(options.moveThresholdM ?? 0.001);
    for (const k of options.projections ?? []) {
      if (this.#extra.has(k.id)) throw new Error(`projection '${k.id}' is passed twice`);
      this.#extra.set(k.id, k.create());
    }
  }

  /** The run's projection of `kind`; one that was not passed in is a bug of the caller, named. */
  of<B extends ProjectionBuilder>(kind: ProjectionKind<B>): B {
    const b = this.#extra.get(kind.id);
    if (!b) throw new Error(`projection '${kind.id}' was not passed to this RunProjection (known: ${[...this.#extra.keys()].join(', ') || 'none'})`);
    return b as B;
  }

  /** Returns how many events were new. */
  append(events: readonly (TraceEvent | ViewEvent)[]): number {
    let added = 0;
    // Room for the batch's samples at once (a long run's init would otherwise grow the columns ~7 times).
    let samples = 0;
    for (const e of events) if (e.seq > this.lastSeq) samples += e.type === 'trajectory_packed' ? e.n : e.type === 'trajectory' ? e.samples.length : 0;
    if (samples > 0) this.series.reserve(this.series.length + samples);
    for (const e of events) {
      if (e.seq <= this.lastSeq) continue;
      this.lastSeq = e.seq;
      this.timeline.add(e);
      this.retries.add(e);
      this.states.add(e);
      this.series.add(e);
      this.summary.add(e);
      this.motion.add(e);
      this.perception.add(e);
      this.reach.add(e);
      for (const b of this.#extra.values()) b.add(e);
      added++;
    }
    this.eventCount += added;
    return added;
  }
}

export function projectRun(events: readonly (TraceEvent | ViewEvent)[], options?: { moveThresholdM?: number; projections?: readonly ProjectionKind[] }): RunProjection {
  const p = new RunProjection(options);
  p.append(events);
  return p;
}
