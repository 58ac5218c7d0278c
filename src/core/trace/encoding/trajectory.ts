// A trajectory event's samples as columns (one line, `columns` instead of `samples`): time, end effector, gripper
// width, joint positions, body poses and every arm's tool point as column groups (columns.ts), the grasped object as runs, contacts by
// sample index. Values are rounded to TRAJECTORY_DIGITS on write; the writer hands the engine the rounded event,
// so what a view shows live is what it shows when the trace is opened later.
import type { EventOf, TrajectorySample } from '../../../protocol/trace.js';
import { decodeGroup, encodeGroup, type ColumnGroup } from './columns.js';
import { ColumnDecodeError } from './varint.js';

type TrajectoryEvent = EventOf<'trajectory'>;

/**
 * Decimal digits kept per column group: time 1 µs; positions 10 µm; angles (yaw, joints) 1e-5 rad; gripper width
 * 10 µm; body poses 10 µm and quaternion components to 1e-5 (about 2e-5 rad).
 */
export const TRAJECTORY_DIGITS = { tSecs: 6, ee: 5, gripperWidth: 5, qpos: 5, bodies: 5, arms: 5 } as const;

/** The `columns` object of a trajectory line. */
export interface TrajectoryColumns {
  n: number;
  tSecs: ColumnGroup;
  ee: ColumnGroup;
  gripperWidth: ColumnGroup;
  qpos: ColumnGroup;
  /** Runs of the grasped object: [first sample index, object name or null], ascending from 0. */
  grasped: [number, string | null][];
  bodies?: ColumnGroup;
  /** Every arm's x, y, z, yaw and finger width (5 per arm), in scenes with several arms. */
  arms?: ColumnGroup;
  /**
   * Runs of the contacts list: [first sample index, pairs, or null for samples without a list], ascending from 0
   * (contacts change far less often than the samples come). Absent when no sample has a list.
   */
  contacts?: [number, [string, string][] | null][];
}

/**
 * Encodes a trajectory's samples as columns. Returns the line's object (the event with `columns` in place of
 * `samples`) and the event as the reader will return it (values rounded); undefined when the samples cannot be
 * columns (no samples, or samples that differ in the length of qpos or bodies): such an event is written as is.
 */
export function encodeTrajectory(e: TrajectoryEvent): { line: Record<string, unknown>; shown: TrajectoryEvent } | undefined {
  const s = e.samples;
  const n = s.length;
  if (n === 0) return undefined;
  const qw = s[0].qpos.length;
  const bw = s[0].bodies?.length;
  const aw = s[0].arms?.length;
  for (const x of s) if (x.qpos.length !== qw || x.bodies?.length !== bw || x.arms?.length !== aw) return undefined;
  const t = new Float64Array(n), ee = new Float64Array(4 * n), width = new Float64Array(n), qpos = new Float64Array(n * qw);
  const bodies = bw === undefined ? undefined : new Float64Array(n * bw);
  const arms = aw === undefined ? undefined : new Float64Array(n * aw);
  const grasped: TrajectoryColumns['grasped'] = [];
  const contacts: NonNullable<TrajectoryColumns['contacts']> = [];
  let anyContacts = false;
  let lastContacts: string | undefined;
  for (let i = 0; i < n; i++) {
    const x = s[i];
    t[i] = x.tSecs;
    ee.set(x.ee, 4 * i);
    width[i] = x.gripperWidth;
    qpos.set(x.qpos, i * qw);
    if (bodies) bodies.set(x.bodies!, i * bw!);
    if (arms) arms.set(x.arms!, i * aw!);
    if (i === 0 || x.grasped !== s[i - 1].grasped) grasped.push([i, x.grasped]);
    const key = x.contacts ? JSON.stringify(x.contacts) : 'null';
    if (key !== lastContacts) contacts.push([i, x.contacts ? x.contacts.map((c) => [c[0], c[1]]) : null]);
    lastContacts = key;
    if (x.contacts) anyContacts = true;
  }
  const D = TRAJECTORY_DIGITS;
  const columns: TrajectoryColumns = {
    n,
    tSecs: encodeGroup(t, n, 1, D.tSecs),
    ee: encodeGroup(ee, n, 4, D.ee),
    gripperWidth: encodeGroup(width, n, 1, D.gripperWidth),
    qpos: encodeGroup(qpos, n, qw, D.qpos),
    grasped,
    ...(bodies ? { bodies: encodeGroup(bodies, n, bw!, D.bodies) } : {}),
    ...(arms ? { arms: encodeGroup(arms, n, aw!, D.arms) } : {}),
    ...(anyContacts ? { contacts } : {}),
  };
  // encodeGroup rounded the arrays in place: the samples the reader will rebuild.
  const samples: TrajectorySample[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const x = s[i];
    const r: TrajectorySample = {
      tSecs: t[i],
      qpos: Array.from(qpos.subarray(i * qw, (i + 1) * qw)),
      ee: [ee[4 * i], ee[4 * i + 1], ee[4 * i + 2], ee[4 * i + 3]],
      gripperWidth: width[i],
      grasped: x.grasped,
    };
    if (bodies) r.bodies = Array.from(bodies.subarray(i * bw!, (i + 1) * bw!));
    if (arms) r.arms = Array.from(arms.subarray(i * aw!, (i + 1) * aw!));
    if (x.contacts) r.contacts = x.contacts.map((c) => [c[0], c[1]]);
    samples[i] = r;
  }
  const { samples: _omit, ...rest } = e;
  return { line: { ...rest, columns }, shown: { ...e, samples } };
}

/** Decoded columns, shaped like the viewer's packed trajectory (src/protocol/webview.ts PackedTrajectory). */
export interface DecodedTrajectory {
  /** Number of samples decoded (the picked ones, with `pick`). */
  n: number;
  tSecs: Float64Array<ArrayBuffer>;
  ee: Float64Array<ArrayBuffer>;
  gripperWidth: Float64Array<ArrayBuffer>;
  qposWidth: number;
  qpos: Float64Array<ArrayBuffer>;
  grasped: { from: number; value: string | null }[];
  bodiesWidth?: number;
  bodies?: Float64Array<ArrayBuffer>;
  armsWidth?: number;
  arms?: Float64Array<ArrayBuffer>;
  contacts?: { index: number; pairs: [string, string][] }[];
}

function isInt(x: unknown, below: number): x is number {
  return typeof x === 'number' && Number.isInteger(x) && x >= 0 && x < below;
}

function groupWidth(g: unknown, name: string): number {
  const v = (g as { v?: unknown } | null)?.v;
  if (!Array.isArray(v)) throw new ColumnDecodeError(`columns.${name} is not a column group`);
  return v.length;
}

/** Sample count of a trajectory line's columns (throws ColumnDecodeError when it has none). */
export function columnCount(columns: unknown): number {
  const n = (columns as { n?: unknown } | null)?.n;
  if (!isInt(n, 2 ** 31)) throw new ColumnDecodeError('columns.n is not a sample count');
  return n;
}

/**
 * Decodes a trajectory line's columns straight into typed arrays (no per-sample objects). Options: `qpos: false`
 * skips the joint positions (qposWidth 0; no view draws them), `bodies: false` the body poses, `pick` decodes only those sample indices
 * (ascending; grasped runs and contacts are re-indexed to the picked samples, contacts of other samples dropped).
 * Throws ColumnDecodeError, naming what is wrong, on malformed columns.
 */
export function decodeTrajectoryColumns(columns: unknown, opts: { qpos?: boolean; bodies?: boolean; pick?: Int32Array } = {}): DecodedTrajectory {
  const n = columnCount(columns);
  const c = columns as Record<string, unknown>;
  const pick = opts.pick;
  if (pick) for (let j = 0; j < pick.length; j++) if (!(pick[j] >= 0 && pick[j] < n && (j === 0 || pick[j] > pick[j - 1]))) throw new ColumnDecodeError('pick indices must ascend within the samples');
  const rows = pick ? pick.length : n;
  const tSecs = new Float64Array(rows), ee = new Float64Array(4 * rows), gripperWidth = new Float64Array(rows);
  decodeGroup(c.tSecs, n, 1, tSecs, pick);
  decodeGroup(c.ee, n, 4, ee, pick);
  decodeGroup(c.gripperWidth, n, 1, gripperWidth, pick);
  const qw = groupWidth(c.qpos, 'qpos');
  const wantQpos = opts.qpos !== false;
  const qpos = new Float64Array(wantQpos ? rows * qw : 0);
  if (wantQpos) decodeGroup(c.qpos, n, qw, qpos, pick);

  const runs = c.grasped;
  if (!Array.isArray(runs) || runs.length === 0) throw new ColumnDecodeError('columns.grasped has no runs');
  const grasped: DecodedTrajectory['grasped'] = [];
  for (let k = 0; k < runs.length; k++) {
    const r = runs[k] as unknown;
    if (!Array.isArray(r) || r.length !== 2 || !isInt(r[0], n) || (r[1] !== null && typeof r[1] !== 'string')) throw new ColumnDecodeError(`columns.grasped[${k}] is not [sample index, name or null]`);
    if (k === 0 ? r[0] !== 0 : r[0] <= grasped[grasped.length - 1].from) throw new ColumnDecodeError('columns.grasped runs must start at sample 0 and ascend');
    grasped.push({ from: r[0], value: r[1] as string | null });
  }

  let contactRuns: { from: number; pairs: [string, string][] | null }[] | undefined;
  if (c.contacts !== undefined) {
    if (!Array.isArray(c.contacts) || c.contacts.length === 0) throw new ColumnDecodeError('columns.contacts has no runs');
    contactRuns = [];
    let prev = -1;
    for (const [k, entry] of (c.contacts as unknown[]).entries()) {
      const ok = Array.isArray(entry) && entry.length === 2 && isInt(entry[0], n) && (k === 0 ? entry[0] === 0 : entry[0] > prev) &&
        (entry[1] === null || (Array.isArray(entry[1]) && (entry[1] as unknown[]).every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && typeof p[1] === 'string')));
      if (!ok) throw new ColumnDecodeError(`columns.contacts[${k}] is not [sample index, [[body, body], ...] or null] in ascending order from 0`);
      prev = entry[0] as number;
      contactRuns.push({ from: prev, pairs: entry[1] === null ? null : (entry[1] as [string, string][]).map((p) => [p[0], p[1]]) });
    }
  }

  let bodies: Float64Array<ArrayBuffer> | undefined;
  let bodiesWidth: number | undefined;
  if (c.bodies !== undefined && opts.bodies !== false) {
    bodiesWidth = groupWidth(c.bodies, 'bodies');
    bodies = new Float64Array(rows * bodiesWidth);
    decodeGroup(c.bodies, n, bodiesWidth, bodies, pick);
  }

  let arms: Float64Array<ArrayBuffer> | undefined;
  let armsWidth: number | undefined;
  if (c.arms !== undefined) {
    armsWidth = groupWidth(c.arms, 'arms');
    if (armsWidth % 5 !== 0) throw new ColumnDecodeError('columns.arms is not 5 columns per arm');
    arms = new Float64Array(rows * armsWidth);
    decodeGroup(c.arms, n, armsWidth, arms, pick);
  }

  const out: DecodedTrajectory = { n: rows, tSecs, ee, gripperWidth, qposWidth: wantQpos ? qw : 0, qpos, grasped };
  if (pick) {
    out.grasped = [];
    let run = 0;
    for (let j = 0; j < pick.length; j++) {
      while (run + 1 < grasped.length && grasped[run + 1].from <= pick[j]) run++;
      const value = grasped[run].value;
      if (j === 0 || out.grasped[out.grasped.length - 1].value !== value) out.grasped.push({ from: j, value });
    }
  }
  // Per sample (the packed form's layout); samples of one run share their pairs list.
  let contacts: DecodedTrajectory['contacts'];
  if (contactRuns) {
    contacts = [];
    let run = 0;
    for (let j = 0; j < rows; j++) {
      const i = pick ? pick[j] : j;
      while (run + 1 < contactRuns.length && contactRuns[run + 1].from <= i) run++;
      const pairs = contactRuns[run].pairs;
      if (pairs) contacts.push({ index: j, pairs });
    }
  }
  if (bodies) {
    out.bodiesWidth = bodiesWidth;
    out.bodies = bodies;
  }
  if (arms) {
    out.armsWidth = armsWidth;
    out.arms = arms;
  }
  if (contacts?.length) out.contacts = contacts;
  return out;
}

/** The body poses of a trajectory line's columns (all samples, or the picked ones); undefined when it has none. */
export function decodeTrajectoryBodies(columns: unknown, pick?: Int32Array): { bodiesWidth: number; bodies: Float64Array<ArrayBuffer> } | undefined {
  const n = columnCount(columns);
  const g = (columns as Record<string, unknown>).bodies;
  if (g === undefined) return undefined;
  const bodiesWidth = groupWidth(g, 'bodies');
  const bodies = new Float64Array((pick ? pick.length : n) * bodiesWidth);
  decodeGroup(g, n, bodiesWidth, bodies, pick);
  return { bodiesWidth, bodies };
}

/** Rebuilds a trajectory line's samples, as the writer returned them (throws ColumnDecodeError). */
export function decodeTrajectorySamples(columns: unknown): TrajectorySample[] {
  const d = decodeTrajectoryColumns(columns);
  const qw = d.qposWidth;
  const bw = d.bodiesWidth;
  const contacts = new Map((d.contacts ?? []).map((x) => [x.index, x.pairs]));
  const samples: TrajectorySample[] = new Array(d.n);
  let run = 0;
  for (let i = 0; i < d.n; i++) {
    while (run + 1 < d.grasped.length && d.grasped[run + 1].from <= i) run++;
    const s: TrajectorySample = {
      tSecs: d.tSecs[i],
      qpos: Array.from(d.qpos.subarray(i * qw, (i + 1) * qw)),
      ee: [d.ee[4 * i], d.ee[4 * i + 1], d.ee[4 * i + 2], d.ee[4 * i + 3]],
      gripperWidth: d.gripperWidth[i],
      grasped: d.grasped[run].value,
    };
    if (d.bodies && bw !== undefined) s.bodies = Array.from(d.bodies.subarray(i * bw, (i + 1) * bw));
    if (d.arms && d.armsWidth !== undefined) s.arms = Array.from(d.arms.subarray(i * d.armsWidth, (i + 1) * d.armsWidth));
    const c = contacts.get(i);
    if (c) s.contacts = c.map((p) => [p[0], p[1]]);
    samples[i] = s;
  }
  return samples;
}
