// Perception mode's estimate against the truth, from the trace alone: every observation event that carries an
// `estimate` (what the agents saw) beside its `state` (the simulator's truth) and `perception` notes (drop-outs,
// jitter-filter keeps) becomes one row; per object and over the run, the centre, yaw and size errors and how often
// it was dropped or kept. Pure; fed incrementally. Shown by webview/runViewer/perception/perceptionTab.ts.
import { perceptionErrors } from '../../perception/estimator.js';
import type { EventOf, ObjectState, TraceEvent, WorldState } from '../../../protocol/trace.js';
import type { ViewEvent } from '../../../protocol/webview.js';

export interface PerceivedObject {
  name: string;
  /** The object's colour name as the simulator reports it. */
  color: string;
  truth: { pos: [number, number, number]; yawRad: number; size: [number, number, number] };
  /** Absent when the object was dropped (the agents did not see it). */
  estimate?: { pos: [number, number, number]; yawRad: number; size: [number, number, number] };
  centreErrM?: number;
  yawErrRad?: number;
  sizeErrM?: number;
  dropped?: 'occluded' | 'missed';
  /** The jitter filter kept the previous estimate. */
  kept?: boolean;
}

export interface PerceivedObservation {
  seq: number;
  turn: number;
  agent?: string;
  objects: PerceivedObject[];
  meanCentreErrM?: number;
  maxCentreErrM?: number;
  dropped: number;
  kept: number;
}

export interface PerceivedObjectStats {
  name: string;
  /** Observations the object was in (truth). */
  observations: number;
  seen: number;
  droppedOccluded: number;
  droppedMissed: number;
  kept: number;
  meanCentreErrM?: number;
  maxCentreErrM?: number;
  meanYawErrRad?: number;
}

export interface PerceptionView {
  /** `episode_start.options.perception` (undefined in traces from before the mode existed). */
  mode?: string;
  observations: PerceivedObservation[];
  objects: PerceivedObjectStats[];
  overall: { observations: number; seen: number; droppedOccluded: number; droppedMissed: number; kept: number; meanCentreErrM?: number; maxCentreErrM?: number; meanYawErrRad?: number };
}

const mean = (xs: number[]): number | undefined => (xs.length > 0 ? xs.reduce((a, b) => a + b, 0) / xs.length : undefined);
const pose = (o: ObjectState) => ({ pos: [...o.pos] as [number, number, number], yawRad: o.euler[2], size: [...o.size] as [number, number, number] });

/** One observation's rows: every object of the truth, with its estimate and errors or why it is missing. */
export function perceivedObservation(seq: number, turn: number, truth: WorldState, estimate: WorldState, notes: readonly { name: string; dropped?: 'occluded' | 'missed'; kept?: boolean }[], agent?: string): PerceivedObservation {
  const errors = perceptionErrors(truth, estimate);
  const objects = truth.objects.map((t, i): PerceivedObject => {
    const e = estimate.objects.find((o) => o.name === t.name);
    const note = notes.find((n) => n.name === t.name);
    const err = errors[i]!;
    return {
      name: t.name,
      color: t.color,
      truth: pose(t),
      ...(e ? { estimate: pose(e) } : {}),
      ...(err.centreErrM !== undefined ? { centreErrM: err.centreErrM, yawErrRad: err.yawErrRad, sizeErrM: err.sizeErrM } : {}),
      ...(note?.dropped ? { dropped: note.dropped } : !e ? { dropped: 'missed' as const } : {}),
      ...(note?.kept ? { kept: true } : {}),
    };
  });
  const errs = objects.flatMap((o) => (o.centreErrM !== undefined ? [o.centreErrM] : []));
  return {
    seq,
    turn,
    ...(agent ? { agent } : {}),
    objects,
    ...(errs.length > 0 ? { meanCentreErrM: mean(errs), maxCentreErrM: Math.max(...errs) } : {}),
    dropped: objects.filter((o) => o.dropped).length,
    kept: objects.filter((o) => o.kept).length,
  };
}

export class PerceptionBuilder {
  private mode: string | undefined;
  private readonly rows: PerceivedObservation[] = [];
  private cached: PerceptionView | undefined;

  /** Whether the run has anything to show: perception mode `estimated`, or observations with estimates. */
  get active(): boolean {
    return this.mode === 'estimated' || this.rows.length > 0;
  }

  add(e: TraceEvent | ViewEvent): void {
    if (e.type === 'episode_start') {
      const m = (e as EventOf<'episode_start'>).options?.perception;
      if (typeof m === 'string') {
        this.mode = m;
        this.cached = undefined;
      }
      return;
    }
    if (e.type !== 'observation') return;
    const o = e as EventOf<'observation'>;
    if (!o.estimate || !o.state) return;
    this.rows.push(perceivedObservation(o.seq, o.turn, o.state, o.estimate, o.perception ?? [], o.agent));
    this.cached = undefined;
  }

  result(): PerceptionView {
    if (this.cached) return this.cached;
    const names: string[] = [];
    for (const r of this.rows) for (const o of r.objects) if (!names.includes(o.name)) names.push(o.name);
    const objects = names.map((name): PerceivedObjectStats => {
      const all = this.rows.flatMap((r) => r.objects.filter((o) => o.name === name));
      const errs = all.flatMap((o) => (o.centreErrM !== undefined ? [o.centreErrM] : []));
      const yaws = all.flatMap((o) => (o.yawErrRad !== undefined ? [o.yawErrRad] : []));
      return {
        name,
        observations: all.length,
        seen: all.filter((o) => o.estimate).length,
        droppedOccluded: all.filter((o) => o.dropped === 'occluded').length,
        droppedMissed: all.filter((o) => o.dropped === 'missed').length,
        kept: all.filter((o) => o.kept).length,
        ...(errs.length > 0 ? { meanCentreErrM: mean(errs), maxCentreErrM: Math.max(...errs) } : {}),
        ...(yaws.length > 0 ? { meanYawErrRad: mean(yaws) } : {}),
      };
    });
    const all = this.rows.flatMap((r) => r.objects);
    const errs = all.flatMap((o) => (o.centreErrM !== undefined ? [o.centreErrM] : []));
    const yaws = all.flatMap((o) => (o.yawErrRad !== undefined ? [o.yawErrRad] : []));
    this.cached = {
      ...(this.mode !== undefined ? { mode: this.mode } : {}),
      observations: [...this.rows],
      objects,
      overall: {
        observations: this.rows.length,
        seen: all.filter((o) => o.estimate).length,
        droppedOccluded: all.filter((o) => o.dropped === 'occluded').length,
        droppedMissed: all.filter((o) => o.dropped === 'missed').length,
        kept: all.filter((o) => o.kept).length,
        ...(errs.length > 0 ? { meanCentreErrM: mean(errs), maxCentreErrM: Math.max(...errs) } : {}),
        ...(yaws.length > 0 ? { meanYawErrRad: mean(yaws) } : {}),
      },
    };
    return this.cached;
  }
}

export function projectPerception(events: readonly (TraceEvent | ViewEvent)[]): PerceptionView {
  const b = new PerceptionBuilder();
  for (const e of events) b.add(e);
  return b.result();
}
