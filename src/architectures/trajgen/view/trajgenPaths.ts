// LM Trajectory Generators' two views of a run, from trace events only:
// - paths: each execute_trajectory's generated pose list (the api_call's argument) beside the end-effector path the
//   arm really took while that call ran (the trajectory samples recorded after it, up to the next call), numbered in
//   order as steps; gripper calls as markers where the arm was when they ran;
// - detections: each detect_object call's boxes as printed (the estimate) beside the ground truth, with the centre,
//   size and yaw errors and the part segmentation failure, from the call records of code_execution events.
// Works for any architecture whose code calls these functions (LMTG's API); empty otherwise.
import type { DetectionRecord, TraceEvent } from '../../../protocol/trace.js';
import type { ViewEvent } from '../../../protocol/webview.js';

export type Vec3 = [number, number, number];

export interface PathStep {
  /** 1-based order among the run's execute_trajectory calls. */
  step: number;
  turn: number;
  /** The generated poses [x, y, z, yaw] as the code built them. */
  poses: [number, number, number, number][];
  /** Where the tool centre really went while the call ran. */
  executed: Vec3[];
  /** Largest distance from an executed point to the nearest generated pose, metres (how far the arm strayed). */
  maxDeviationM: number;
}

export interface GripperMark {
  turn: number;
  fn: 'open_gripper' | 'close_gripper';
  /** After this step (0: before any). */
  afterStep: number;
  at?: Vec3;
}

export interface DetectionRow extends DetectionRecord {
  turn: number;
  /** 1-based order among the run's detect_object calls. */
  call: number;
  query: string;
  centreErrM: number;
  sizeErrM: number;
  yawErrRad: number;
}

export interface TrajgenPaths {
  steps: PathStep[];
  gripper: GripperMark[];
  detections: DetectionRow[];
  /** Whether the run estimated its detections (any estimate differs from its truth). */
  estimated: boolean;
}

function wrapHalf(a: number): number {
  // Box yaw is ambiguous by a half turn.
  let r = a % Math.PI;
  if (r > Math.PI / 2) r -= Math.PI;
  if (r < -Math.PI / 2) r += Math.PI;
  return r;
}

function isPoseList(v: unknown): v is number[][] {
  return Array.isArray(v) && v.length > 0 && v.every((p) => Array.isArray(p) && p.length >= 3 && p.every((x) => typeof x === 'number'));
}

export class TrajgenPathsBuilder {
  readonly steps: PathStep[] = [];
  readonly gripper: GripperMark[] = [];
  readonly detections: DetectionRow[] = [];
  /** Bumped on every change, so views redraw only when needed. */
  version = 0;
  /** The call whose motion trajectory samples belong to (the last api_call seen). */
  private open: PathStep | GripperMark | null = null;
  private lastEe: Vec3 | undefined;

  add(e: TraceEvent | ViewEvent): void {
    if (e.type === 'api_call') {
      this.finish();
      if (e.fn === 'execute_trajectory' && isPoseList(e.args[0])) {
        const step: PathStep = { step: this.steps.length + 1, turn: e.turn, poses: e.args[0].map((p) => [p[0]!, p[1]!, p[2]!, p[3] ?? 0]), executed: [], maxDeviationM: 0 };
        this.steps.push(step);
        this.open = step;
        this.version++;
      } else if (e.fn === 'open_gripper' || e.fn === 'close_gripper') {
        const mark: GripperMark = { turn: e.turn, fn: e.fn, afterStep: this.steps.length, ...(this.lastEe ? { at: [...this.lastEe] as Vec3 } : {}) };
        this.gripper.push(mark);
        this.open = mark;
        this.version++;
      } else this.open = null;
      return;
    }
    if (e.type === 'trajectory') {
      for (const s of e.samples) this.sample([s.ee[0], s.ee[1], s.ee[2]]);
      return;
    }
    if (e.type === 'trajectory_packed') {
      for (let i = 0; i < e.n; i++) this.sample([e.ee[4 * i]!, e.ee[4 * i + 1]!, e.ee[4 * i + 2]!]);
      return;
    }
    if (e.type === 'code_execution') {
      for (const c of e.apiCalls) {
        if (c.fn !== 'detect_object' || !c.detections) continue;
        const call = new Set(this.detections.map((d) => d.call)).size + 1;
        for (const d of c.detections) {
          this.detections.push({
            ...d,
            turn: e.turn,
            call,
            query: String(c.args[0] ?? ''),
            centreErrM: Math.hypot(...([0, 1, 2].map((i) => d.estimate.pos[i]! - d.truth.pos[i]!) as Vec3)),
            sizeErrM: Math.max(...[0, 1, 2].map((i) => Math.abs(d.estimate.size[i]! - d.truth.size[i]!))),
            yawErrRad: Math.abs(wrapHalf(d.estimate.yawRad - d.truth.yawRad)),
          });
        }
        this.version++;
      }
    }
  }

  private sample(p: Vec3): void {
    this.lastEe = p;
    if (this.open && 'executed' in this.open) {
      this.open.executed.push(p);
      this.version++;
    }
  }

  /** Deviation of the call that just ended, once its motion is all in. */
  private finish(): void {
    const s = this.open;
    if (!s || !('executed' in s)) return;
    let worst = 0;
    for (const q of s.executed) {
      let best = Infinity;
      for (const p of s.poses) best = Math.min(best, Math.hypot(q[0] - p[0], q[1] - p[1], q[2] - p[2]));
      worst = Math.max(worst, best);
    }
    s.maxDeviationM = worst;
  }

  result(): TrajgenPaths {
    this.finish();
    return {
      steps: this.steps,
      gripper: this.gripper,
      detections: this.detections,
      estimated: this.detections.some((d) => d.centreErrM > 0 || d.sizeErrM > 0 || d.yawErrRad > 0),
    };
  }
}

export function projectTrajgenPaths(events: readonly (TraceEvent | ViewEvent)[]): TrajgenPaths {
  const b = new TrajgenPathsBuilder();
  for (const e of events) b.add(e);
  return b.result();
}

/** The paths projection as a run projection of its own (src/core/trace/projections/runProjection.ts). */
export const PATHS_PROJECTION = { id: 'trajgen.paths', create: () => new TrajgenPathsBuilder() };
