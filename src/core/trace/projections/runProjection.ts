// All projections of one run, fed incrementally: append() passes each new event to every builder once.
// The run viewer, the CLI transcript and the HTML report read their view models from here.
import type { TraceEvent } from '../../../protocol/trace.js';
import type { ViewEvent } from '../../../protocol/webview.js';
import { ActctxPlanBuilder } from '../../../architectures/actctx/view/actctxPlan.js';
import { HouseholdStepsBuilder } from '../../../architectures/llamar/view/householdSteps.js';
import { MotionScoreBuilder } from './motionScores.js';
import { PerceptionBuilder } from './perception.js';
import { ReachZonesBuilder } from './reachZones.js';
import { RetryDiffBuilder } from './retryDiffs.js';
import { RunSummaryBuilder } from './runSummary.js';
import { StateDiffBuilder } from './stateDiffs.js';
import { TrajectorySeriesBuilder } from './trajectorySeries.js';
import { TrajgenViewBuilder } from '../../../architectures/trajgen/view/trajgenViews.js';
import { TrajgenPathsBuilder } from '../../../architectures/trajgen/view/trajgenPaths.js';
import { TurnTimelineBuilder } from './turns.js';

export class RunProjection {
  readonly timeline = new TurnTimelineBuilder();
  readonly retries = new RetryDiffBuilder();
  readonly states: StateDiffBuilder;
  readonly series = new TrajectorySeriesBuilder();
  readonly summary = new RunSummaryBuilder();
  readonly motion = new MotionScoreBuilder();
  /** Action Contextualization's plans, executions and runs (empty for other architectures). */
  readonly actctx = new ActctxPlanBuilder();
  /** LLaMAR's steps, subtasks and floor plan (household runs only). */
  readonly household = new HouseholdStepsBuilder();
  /** Perception mode's estimate against the truth (runs with --perception estimated only). */
  readonly perception = new PerceptionBuilder();
  /** LM Trajectory Generators' generated poses and success-detector verdicts (empty for other architectures). */
  readonly trajgen = new TrajgenViewBuilder();
  /** Multi-arm runs: reach zones, objects and every robot's executed path, top down. */
  readonly reach = new ReachZonesBuilder();
  /** LM Trajectory Generators' generated vs executed paths and detections (runs calling the LMTG API). */
  readonly trajgenPaths = new TrajgenPathsBuilder();
  eventCount = 0;
  /** Highest seq seen; events at or below it are ignored, so a re-sent batch is harmless. */
  lastSeq = -1;

  constructor(options: { moveThresholdM?: number } = {}) {
    this.states = new StateDiffBuilder(options.moveThresholdM ?? 0.001);
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
      this.actctx.add(e);
      this.household.add(e);
      this.perception.add(e);
      this.trajgen.add(e);
      this.reach.add(e);
      this.trajgenPaths.add(e);
      added++;
    }
    this.eventCount += added;
    return added;
  }
}

export function projectRun(events: readonly (TraceEvent | ViewEvent)[], options?: { moveThresholdM?: number }): RunProjection {
  const p = new RunProjection(options);
  p.append(events);
  return p;
}
