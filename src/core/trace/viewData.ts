// What the run viewer's host sends for a recorded trace: its events with trajectories packed as typed-array columns,
// decoded straight from the trace's columns (no per-sample objects). A run with more samples than a view needs
// (maxViewSamples) goes as an overview: per time bucket the first, last, lowest and highest sample of every plotted
// series, every trajectory's first and last sample and every change of the grasped object, so each spike and turn
// boundary is drawn; `window()` then serves the full samples of whatever time span the user zooms into.
// Joint positions (qpos) are not sent: no view draws them.
import type { EventOf, TraceEvent } from '../../protocol/trace.js';
import { counters, packTrajectory, type PackedTrajectory, type TrajectoryWindowMessage, type ViewEvent } from '../../protocol/webview.js';
import { ColumnDecodeError, decodeTrajectoryBodies, decodeTrajectoryColumns, type DecodedTrajectory } from './encoding/index.js';
import { decimateMinMax } from './projections/decimate.js';
import { TrajectorySeriesBuilder } from './projections/trajectorySeries.js';
import { columnWarning, isColumnar, scanTrace, type ColumnarTrajectory, type TraceWarning } from './reader.js';

/** Above this many samples in a run, the view gets an overview and asks for windows. */
export const MAX_VIEW_SAMPLES = 200_000;
/** Time buckets of the overview (each keeps up to 4 samples per plotted series). */
export const OVERVIEW_BUCKETS = 2048;

export interface ViewLoadOptions {
  maxViewSamples?: number;
  overviewBuckets?: number;
}

export type TrajectoryWindow = Omit<TrajectoryWindowMessage, 'type' | 'requestId' | 'ok' | 'error'>;

export interface ViewLoad {
  events: ViewEvent[];
  warnings: TraceWarning[];
  /** Present when the trajectories are an overview. */
  overview?: { total: number; sent: number };
  /** Samples in the run. */
  totalSamples: number;
  /** The samples of [tFrom, tTo] on the view's time axis, all of them or min/max-decimated to `buckets`. */
  window(tFrom: number, tTo: number, buckets: number): TrajectoryWindow;
}

/** A trajectory on its way to the view: the event and its columns (decoded except body poses of columnar ones). */
interface Slot {
  event: EventOf<'trajectory'>;
  columnar?: ColumnarTrajectory;
  /** Plain samples that could not be packed (they differ in qpos or bodies length): sent as they are. */
  ragged?: EventOf<'trajectory'>;
  d?: DecodedTrajectory;
  /** First index of its samples in the run's series. */
  start: number;
}

function toPacked(event: EventOf<'trajectory'>, d: DecodedTrajectory, total: number): PackedTrajectory {
  return {
    seq: event.seq, tMs: event.tMs, type: 'trajectory_packed', turn: event.turn, ...counters(event), rateHz: event.rateHz,
    n: d.n, ...(total !== d.n ? { total } : {}),
    tSecs: d.tSecs, ee: d.ee, gripperWidth: d.gripperWidth, qposWidth: 0, qpos: new Float64Array(0), grasped: d.grasped,
    ...(d.bodies ? { bodiesWidth: d.bodiesWidth, bodies: d.bodies } : {}),
    ...(d.arms ? { armsWidth: d.armsWidth, arms: d.arms } : {}),
    ...(d.contacts?.length ? { contacts: d.contacts } : {}),
  };
}

/** The picked samples of decoded columns (body poses included when present). */
function subset(d: DecodedTrajectory, pick: Int32Array): DecodedTrajectory {
  const m = pick.length;
  const tSecs = new Float64Array(m), ee = new Float64Array(4 * m), gripperWidth = new Float64Array(m);
  const bw = d.bodiesWidth ?? 0;
  const bodies = d.bodies ? new Float64Array(m * bw) : undefined;
  const aw = d.armsWidth ?? 0;
  const arms = d.arms ? new Float64Array(m * aw) : undefined;
  const grasped: DecodedTrajectory['grasped'] = [];
  const contactAt = new Map((d.contacts ?? []).map((c) => [c.index, c.pairs]));
  const contacts: NonNullable<DecodedTrajectory['contacts']> = [];
  let run = 0;
  for (let j = 0; j < m; j++) {
    const i = pick[j];
    tSecs[j] = d.tSecs[i];
    for (let k = 0; k < 4; k++) ee[4 * j + k] = d.ee[4 * i + k];
    gripperWidth[j] = d.gripperWidth[i];
    if (bodies) bodies.set(d.bodies!.subarray(i * bw, (i + 1) * bw), j * bw);
    if (arms) arms.set(d.arms!.subarray(i * aw, (i + 1) * aw), j * aw);
    while (run + 1 < d.grasped.length && d.grasped[run + 1].from <= i) run++;
    const value = d.grasped[run].value;
    if (j === 0 || grasped[grasped.length - 1].value !== value) grasped.push({ from: j, value });
    const pairs = contactAt.get(i);
    if (pairs) contacts.push({ index: j, pairs });
  }
  return { n: m, tSecs, ee, gripperWidth, qposWidth: 0, qpos: new Float64Array(0), grasped, ...(bodies ? { bodiesWidth: bw, bodies } : {}), ...(arms ? { armsWidth: aw, arms } : {}), ...(contacts.length ? { contacts } : {}) };
}

/** Decoded columns of plain (schema v1) samples; undefined when they differ in qpos or bodies length. */
function fromSamples(e: EventOf<'trajectory'>): DecodedTrajectory | undefined {
  const p = packTrajectory(e);
  return p && { n: p.n, tSecs: p.tSecs, ee: p.ee, gripperWidth: p.gripperWidth, qposWidth: 0, qpos: new Float64Array(0), grasped: p.grasped, bodiesWidth: p.bodiesWidth, bodies: p.bodies, armsWidth: p.armsWidth, arms: p.arms, contacts: p.contacts };
}

export function loadTraceForView(text: string, options: ViewLoadOptions = {}): ViewLoad {
  const max = options.maxViewSamples ?? MAX_VIEW_SAMPLES;
  const { events: scanned, warnings } = scanTrace(text);

  // Decode every trajectory's plotted columns once, and build the run's series (the time axis as the view builds
  // it) from them: the overview's picks and the zoom windows are taken from it.
  const series = new TrajectorySeriesBuilder();
  series.reserve(scanned.reduce((n, e) => n + (isColumnar(e) ? e.n : e.type === 'trajectory' ? e.samples.length : 0), 0), true);
  const slots = new Map<TraceEvent | ColumnarTrajectory, Slot>();
  for (const e of scanned) {
    if (isColumnar(e)) {
      try {
        const slot: Slot = { event: e.event, columnar: e, d: decodeTrajectoryColumns(e.columns, { qpos: false, bodies: false }), start: series.length };
        slots.set(e, slot);
        series.add(toPacked(e.event, slot.d!, slot.d!.n));
      } catch (err) {
        if (!(err instanceof ColumnDecodeError)) throw err;
        warnings.push(columnWarning(e.line, err));
      }
    } else if (e.type === 'trajectory') {
      const d = fromSamples(e);
      slots.set(e, d ? { event: e, d, start: series.length } : { event: e, ragged: e, start: series.length });
      series.add(d ? toPacked(e, d, d.n) : e);
    } else {
      series.add(e);
    }
  }
  const totalSamples = series.length;
  const overview = totalSamples > max;

  let keep: Uint8Array | undefined;
  if (overview) {
    keep = new Uint8Array(series.length);
    const buckets = options.overviewBuckets ?? OVERVIEW_BUCKETS;
    for (const col of plotted(series)) for (const i of decimateMinMax(series.t, col, buckets)) keep[i] = 1;
    // Every trajectory's first and last sample: the view rebuilds the same time axis (and turn spans) from them.
    for (const slot of slots.values()) {
      const n = slot.d?.n ?? 0;
      if (n === 0) continue;
      keep[slot.start] = 1;
      keep[slot.start + n - 1] = 1;
    }
    for (const g of series.graspChanges) {
      keep[g.index] = 1;
      if (g.index > 0) keep[g.index - 1] = 1;
    }
  }

  const events: ViewEvent[] = [];
  let sent = 0;
  for (const e of scanned) {
    const slot = slots.get(e as TraceEvent | ColumnarTrajectory);
    if (!slot) {
      if (!isColumnar(e)) events.push(e);
      continue;
    }
    if (slot.ragged) {
      events.push(slot.ragged);
      sent += slot.ragged.samples.length;
      continue;
    }
    const d = slot.d!;
    let pick: Int32Array | undefined;
    if (keep) {
      let count = 0;
      for (let i = 0; i < d.n; i++) count += keep[slot.start + i];
      pick = new Int32Array(count);
      for (let i = 0, k = 0; i < d.n; i++) if (keep[slot.start + i]) pick[k++] = i;
    }
    let out = pick ? subset(d, pick) : d;
    if (slot.columnar) {
      try {
        const b = decodeTrajectoryBodies(slot.columnar.columns, pick);
        if (b) out = { ...out, ...b };
      } catch (err) {
        if (!(err instanceof ColumnDecodeError)) throw err;
        warnings.push(columnWarning(slot.columnar.line, err));
      }
    }
    sent += out.n;
    events.push(toPacked(slot.event, out, d.n));
  }
  warnings.sort((a, b) => a.line - b.line);

  return {
    events,
    warnings,
    totalSamples,
    ...(overview ? { overview: { total: totalSamples, sent } } : {}),
    window: (tFrom, tTo, buckets) => windowOf(series, tFrom, tTo, buckets),
  };
}

function windowOf(s: TrajectorySeriesBuilder, tFrom: number, tTo: number, buckets: number): TrajectoryWindow {
  const t = s.t;
  let lo = 0, hi = s.length;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (t[m] < tFrom) lo = m + 1;
    else hi = m;
  }
  const first = lo;
  hi = s.length;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (t[m] <= tTo) lo = m + 1;
    else hi = m;
  }
  const count = lo - first;
  let idx: Int32Array;
  const full = count <= 4 * buckets;
  if (full) {
    // One sample either side, so the lines run to the plot's edges.
    const a = Math.max(0, first - 1), b = Math.min(s.length, first + count + 1);
    idx = new Int32Array(b - a);
    for (let i = 0; i < idx.length; i++) idx[i] = a + i;
  } else {
    const keep = new Uint8Array(s.length);
    for (const col of plotted(s)) for (const i of decimateMinMax(t, col, buckets, tFrom, tTo)) keep[i] = 1;
    let k = 0;
    for (let i = 0; i < keep.length; i++) k += keep[i];
    idx = new Int32Array(k);
    for (let i = 0, j = 0; i < keep.length; i++) if (keep[i]) idx[j++] = i;
  }
  const take = (c: Float64Array) => Float64Array.from(idx, (i) => c[i]);
  return {
    tFrom, tTo, count, full, t: take(t), x: take(s.x), y: take(s.y), z: take(s.z), yawRad: take(s.yawRad), gripperWidth: take(s.gripperWidth), turn: Int32Array.from(idx, (i) => s.turn[i]),
    ...(s.armCount ? { armsWidth: 5 * s.armCount, arms: s.armsAt(idx) } : {}),
  };
}

/** Every plotted series' column: the end effector's and gripper's, and each arm's when there are several. */
function plotted(s: TrajectorySeriesBuilder): Float64Array[] {
  const cols = [s.x, s.y, s.z, s.yawRad, s.gripperWidth];
  for (let k = 0; k < s.armCount; k++) {
    const a = s.arm(k);
    cols.push(a.x, a.y, a.z, a.yawRad, a.gripperWidth);
  }
  return cols;
}
