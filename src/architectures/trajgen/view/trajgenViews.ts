// LM Trajectory Generators' views, projected from the trace: every pose the model sent to execute_trajectory
// (from its api_call events, or the numeric mode's actions; not the loop's own return to the start pose between
// attempts, an action with origin 'loop') as per-axis series against the pose index, with the
// gripper state each pose ran under (open_gripper / close_gripper calls between lists, or a pose's fifth element),
// and each success-detector verdict beside the object tracks it read (the `success_detection` check carries them)
// and its answer text. Pure; no I/O.
import type { TraceEvent } from '../../../protocol/trace.js';
import type { ViewEvent } from '../../../protocol/webview.js';

export interface PoseSegment {
  turn: number;
  /** 1-based count of execute_trajectory calls in the run. */
  call: number;
  /** Index of the segment's first pose in the series. */
  start: number;
  count: number;
}

export interface PoseSeries {
  x: number[];
  y: number[];
  z: number[];
  yaw: number[];
  /** 1 open, 0 closed, per pose. */
  gripper: number[];
  segments: PoseSegment[];
}

export interface DetectorTrackView {
  query: string;
  object: string;
  tSecs: number[];
  pos: [number, number, number][];
  yaw: number[];
}

export interface DetectorVerdictView {
  turn: number;
  attempt: number;
  ok: boolean;
  verdict: string;
  message: string;
  tracks: DetectorTrackView[];
  /** The detector's answer (its description of the expected change and its judgement). */
  answer?: string;
}

export class TrajgenViewBuilder {
  private readonly series: PoseSeries = { x: [], y: [], z: [], yaw: [], gripper: [], segments: [] };
  private readonly verdicts: DetectorVerdictView[] = [];
  private readonly answers = new Map<string, string>();
  private gripperOpen = 1;
  private calls = 0;

  get active(): boolean {
    return this.series.segments.length > 0 || this.verdicts.length > 0;
  }

  add(e: TraceEvent | ViewEvent): void {
    if (e.type === 'api_call') this.call(e.fn, e.args, e.turn);
    else if (e.type === 'action') for (const a of e.actions) this.call(a.name, a.args, e.turn, e.origin === 'loop');
    else if (e.type === 'model_response' && e.role === 'detector' && e.text) this.answers.set(e.callId, e.text);
    else if (e.type === 'check' && e.name === 'success_detection') {
      const x = e as typeof e & { attempt?: number; verdict?: string; tracks?: DetectorTrackView[]; callId?: string };
      this.verdicts.push({
        turn: e.turn,
        attempt: x.attempt ?? this.verdicts.length + 1,
        ok: e.ok,
        verdict: x.verdict ?? (e.ok ? 'completed' : 'failed'),
        message: e.message,
        tracks: Array.isArray(x.tracks) ? x.tracks : [],
        ...(x.callId && this.answers.has(x.callId) ? { answer: this.answers.get(x.callId) } : {}),
      });
    }
  }

  /** `byLoop`: the loop's own move; its gripper calls still set the state later poses run under. */
  private call(fn: string, args: readonly unknown[], turn: number, byLoop = false): void {
    if (fn === 'open_gripper') this.gripperOpen = 1;
    else if (fn === 'close_gripper') this.gripperOpen = 0;
    if (byLoop || fn !== 'execute_trajectory' || !Array.isArray(args[0])) return;
    const s = this.series;
    const start = s.x.length;
    for (const p of args[0] as unknown[]) {
      if (!Array.isArray(p) || p.length < 4 || !p.slice(0, 4).every((v) => typeof v === 'number')) continue;
      s.x.push(p[0] as number);
      s.y.push(p[1] as number);
      s.z.push(p[2] as number);
      s.yaw.push(p[3] as number);
      if (p.length >= 5 && (p[4] === 0 || p[4] === 1)) this.gripperOpen = p[4];
      s.gripper.push(this.gripperOpen);
    }
    this.calls++;
    if (s.x.length > start) s.segments.push({ turn, call: this.calls, start, count: s.x.length - start });
  }

  poses(): PoseSeries {
    return this.series;
  }

  detections(): DetectorVerdictView[] {
    return this.verdicts;
  }
}

/** Poses and verdicts as a run projection of its own (src/core/trace/projections/runProjection.ts). */
export const POSES_PROJECTION = { id: 'trajgen.poses', create: () => new TrajgenViewBuilder() };
