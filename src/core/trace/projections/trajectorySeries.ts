// Trajectory series: end-effector x/y/z/yaw and gripper width against sim time, as columns in growable typed
// arrays so 100k+ samples append in O(new samples) and plots can decimate without copying. With several arms
// (RoCo), every arm's columns too, named after the robots the observations list.
import type { TraceEvent, WorldState } from '../../../protocol/trace.js';
import type { PackedTrajectory, ViewEvent } from '../../../protocol/webview.js';

export interface TurnSpan {
  turn: number;
  /** Sample index range [start, end). */
  start: number;
  end: number;
  tStartSecs: number;
  tEndSecs: number;
}

export interface ObjectMarker {
  name: string;
  color: string;
  /** Position in the first observation that listed the object (world frame, metres). */
  initial: [number, number, number];
  /** Position in the latest observation. */
  latest: [number, number, number];
}

class Column {
  data: Float64Array;
  constructor(cap: number) {
    this.data = new Float64Array(cap);
  }
  grow(cap: number): void {
    const next = new Float64Array(cap);
    next.set(this.data);
    this.data = next;
  }
}

export class TrajectorySeriesBuilder {
  length = 0;
  private readonly cols = { t: new Column(1024), x: new Column(1024), y: new Column(1024), z: new Column(1024), yaw: new Column(1024), width: new Column(1024) };
  private turnCol = new Int32Array(1024);
  readonly spans: TurnSpan[] = [];
  /** Sample indices where the grasped object changes, with the new value. */
  readonly graspChanges: { index: number; grasped: string | null }[] = [];
  private readonly objects = new Map<string, ObjectMarker>();
  private lastGrasped: string | null | undefined = undefined;
  /** Several arms: 5 columns per arm (x, y, z, yaw, finger width); NaN for samples recorded without them. */
  private armCols: Column[] = [];
  /** Robot names in the simulator's order (the latest observation's `robots`). */
  private robotNames: string[] = [];
  /** Sim time is expected to increase; a sample that goes back is shifted so the axis stays monotonic. */
  private tOffset = 0;
  /** Bumped on every change, so a view can tell whether to redraw. */
  version = 0;

  get t(): Float64Array { return this.cols.t.data.subarray(0, this.length); }
  get x(): Float64Array { return this.cols.x.data.subarray(0, this.length); }
  get y(): Float64Array { return this.cols.y.data.subarray(0, this.length); }
  get z(): Float64Array { return this.cols.z.data.subarray(0, this.length); }
  get yawRad(): Float64Array { return this.cols.yaw.data.subarray(0, this.length); }
  get gripperWidth(): Float64Array { return this.cols.width.data.subarray(0, this.length); }
  /** Turn of each sample. */
  get turn(): Int32Array { return this.turnCol.subarray(0, this.length); }
  /** Arms with their own columns (0 for a single-arm run, whose only arm is x..gripperWidth). */
  get armCount(): number { return this.armCols.length / 5; }

  /** Arm k's columns and name (robot k of the observations, else "arm k+1"). */
  arm(k: number): { name: string; x: Float64Array; y: Float64Array; z: Float64Array; yawRad: Float64Array; gripperWidth: Float64Array } {
    const c = (j: number) => this.armCols[5 * k + j]!.data.subarray(0, this.length);
    return { name: this.robotNames.length === this.armCount ? this.robotNames[k]! : `arm ${k + 1}`, x: c(0), y: c(1), z: c(2), yawRad: c(3), gripperWidth: c(4) };
  }

  /** The arms' values of samples `idx`, 5 per arm per sample (a window's `arms` column). */
  armsAt(idx: ArrayLike<number>): Float64Array<ArrayBuffer> {
    const w = this.armCols.length;
    const out = new Float64Array(idx.length * w);
    for (let j = 0; j < idx.length; j++) for (let c = 0; c < w; c++) out[j * w + c] = this.armCols[c]!.data[idx[j]!]!;
    return out;
  }

  add(e: TraceEvent | ViewEvent): void {
    if (e.type === 'observation') this.observe(e.state);
    else if (e.type === 'episode_end' && e.finalState) this.observe(e.finalState);
    else if (e.type === 'trajectory_packed') this.addPacked(e);
    if (e.type !== 'trajectory' || e.samples.length === 0) return;
    const start = this.begin(e.samples.length, e.samples[0].tSecs);
    const { t, x, y, z, yaw, width } = this.cols;
    const aw = e.samples[0].arms?.length ?? 0;
    this.ensureArms(aw);
    let i = start;
    for (const s of e.samples) {
      if (s.arms && s.arms.length === this.armCols.length) for (let c = 0; c < s.arms.length; c++) this.armCols[c]!.data[i] = s.arms[c]!;
      else for (const col of this.armCols) col.data[i] = NaN;
      t.data[i] = s.tSecs + this.tOffset;
      x.data[i] = s.ee[0];
      y.data[i] = s.ee[1];
      z.data[i] = s.ee[2];
      yaw.data[i] = s.ee[3];
      width.data[i] = s.gripperWidth;
      this.turnCol[i] = e.turn;
      this.grasp(i, s.grasped);
      i++;
    }
    this.finish(e.turn, start, i);
  }

  private addPacked(p: PackedTrajectory): void {
    if (p.n === 0) return;
    const start = this.begin(p.n, p.tSecs[0]);
    const { t, x, y, z, yaw, width } = this.cols;
    const ee = p.ee;
    for (let k = 0; k < p.n; k++) {
      const i = start + k;
      t.data[i] = p.tSecs[k] + this.tOffset;
      x.data[i] = ee[4 * k];
      y.data[i] = ee[4 * k + 1];
      z.data[i] = ee[4 * k + 2];
      yaw.data[i] = ee[4 * k + 3];
      width.data[i] = p.gripperWidth[k];
    }
    this.turnCol.fill(p.turn, start, start + p.n);
    this.ensureArms(p.armsWidth ?? 0);
    const aw = this.armCols.length;
    for (let c = 0; c < aw; c++) {
      const col = this.armCols[c]!.data;
      if (p.arms && p.armsWidth === aw) for (let k = 0; k < p.n; k++) col[start + k] = p.arms[k * aw + c]!;
      else col.fill(NaN, start, start + p.n);
    }
    for (const run of p.grasped) this.grasp(start + run.from, run.value);
    this.finish(p.turn, start, start + p.n);
  }

  /** Reserves room for n samples and keeps time monotonic; returns the first index. */
  private begin(n: number, firstT: number): number {
    this.reserve(this.length + n);
    const prevT = this.length > 0 ? this.cols.t.data[this.length - 1] : -Infinity;
    if (firstT + this.tOffset < prevT) this.tOffset = prevT - firstT;
    return this.length;
  }

  /** Creates the arm columns the first time samples carry `width` arm values (earlier samples: NaN). */
  private ensureArms(width: number): void {
    if (width === 0 || this.armCols.length > 0 || width % 5 !== 0) return;
    const cap = this.cols.t.data.length;
    for (let c = 0; c < width; c++) {
      const col = new Column(cap);
      col.data.fill(NaN, 0, this.length);
      this.armCols.push(col);
    }
  }

  private grasp(index: number, grasped: string | null): void {
    if (grasped === this.lastGrasped) return;
    this.graspChanges.push({ index, grasped });
    this.lastGrasped = grasped;
  }

  private finish(turn: number, start: number, end: number): void {
    const t = this.cols.t.data;
    this.length = end;
    const last = this.spans[this.spans.length - 1];
    if (last && last.turn === turn && last.end === start) {
      last.end = end;
      last.tEndSecs = t[end - 1];
    } else {
      this.spans.push({ turn, start, end, tStartSecs: t[start], tEndSecs: t[end - 1] });
    }
    this.version++;
  }

  private observe(state: WorldState): void {
    if (state.robots && state.robots.length > 1) this.robotNames = state.robots.map((r) => r.name);
    for (const o of state.objects) {
      const m = this.objects.get(o.name);
      if (m) m.latest = [...o.pos];
      else this.objects.set(o.name, { name: o.name, color: o.color, initial: [...o.pos], latest: [...o.pos] });
    }
    this.version++;
  }

  /** Makes room for n samples in all (a reader that knows the run's size avoids growing the columns step by step). */
  reserve(n: number, exact = false): void {
    const cap = this.cols.t.data.length;
    if (n <= cap) return;
    let next = cap;
    while (next < n) next *= 2;
    if (exact) next = n;
    for (const c of Object.values(this.cols)) c.grow(next);
    for (const c of this.armCols) c.grow(next);
    const tc = new Int32Array(next);
    tc.set(this.turnCol);
    this.turnCol = tc;
  }

  objectMarkers(): ObjectMarker[] {
    return [...this.objects.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Index of the sample nearest to time tSecs (binary search; t is monotonic). */
  indexAt(tSecs: number): number {
    const t = this.cols.t.data;
    let lo = 0;
    let hi = this.length - 1;
    if (hi < 0) return -1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (t[mid] < tSecs) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0 && Math.abs(t[lo - 1] - tSecs) <= Math.abs(t[lo] - tSecs)) return lo - 1;
    return lo;
  }
}

export function projectTrajectory(events: readonly (TraceEvent | ViewEvent)[]): TrajectorySeriesBuilder {
  const b = new TrajectorySeriesBuilder();
  for (const e of events) b.add(e);
  return b;
}
