// Exact distance between two boxes. MuJoCo's box-box collider, asked for distances through mj_geomDistance with
// a large margin, returns 0 for separated boxes whose faces are exactly parallel (a top-down hand over an
// upright block is exactly that), so boxes are measured here instead: separating-axis test for overlap, then
// the closest pair among vertex-box and edge-edge features. Frames: centre `c`, row-major rotation `R` (columns
// are the box axes), half extents `h`.

export interface Box {
  c: ArrayLike<number>;
  R: ArrayLike<number>;
  h: ArrayLike<number>;
}

const axis = (b: Box, i: number): [number, number, number] => [b.R[i]!, b.R[3 + i]!, b.R[6 + i]!];
const dot = (a: readonly number[], b: readonly number[]) => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
const cross = (a: readonly number[], b: readonly number[]): [number, number, number] => [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];

/** Projection radius of a box on a unit axis. */
function radius(b: Box, n: readonly number[]): number {
  return Math.abs(dot(axis(b, 0), n)) * b.h[0]! + Math.abs(dot(axis(b, 1), n)) * b.h[1]! + Math.abs(dot(axis(b, 2), n)) * b.h[2]!;
}

/** Largest gap along the 15 separating axes (<= 0 means the boxes overlap; then it is minus the overlap depth). */
function separation(a: Box, b: Box): number {
  const d = [b.c[0]! - a.c[0]!, b.c[1]! - a.c[1]!, b.c[2]! - a.c[2]!];
  const axes: number[][] = [];
  for (let i = 0; i < 3; i++) axes.push(axis(a, i), axis(b, i));
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++) {
      const n = cross(axis(a, i), axis(b, j));
      const len = Math.hypot(n[0], n[1], n[2]);
      if (len > 1e-9) axes.push([n[0] / len, n[1] / len, n[2] / len]);
    }
  let best = -Infinity;
  for (const n of axes) best = Math.max(best, Math.abs(dot(d, n)) - radius(a, n) - radius(b, n));
  return best;
}

function corners(b: Box): [number, number, number][] {
  const out: [number, number, number][] = [];
  for (const sx of [-1, 1])
    for (const sy of [-1, 1])
      for (const sz of [-1, 1]) {
        const l = [sx * b.h[0]!, sy * b.h[1]!, sz * b.h[2]!];
        out.push([b.c[0]! + b.R[0]! * l[0]! + b.R[1]! * l[1]! + b.R[2]! * l[2]!, b.c[1]! + b.R[3]! * l[0]! + b.R[4]! * l[1]! + b.R[5]! * l[2]!, b.c[2]! + b.R[6]! * l[0]! + b.R[7]! * l[1]! + b.R[8]! * l[2]!]);
      }
  return out;
}

/** Corner index pairs of the 12 edges (corners indexed by sx*4 + sy*2 + sz bits). */
const EDGES: [number, number][] = [
  [0, 1], [2, 3], [4, 5], [6, 7],
  [0, 2], [1, 3], [4, 6], [5, 7],
  [0, 4], [1, 5], [2, 6], [3, 7],
];

function pointBox(p: readonly number[], b: Box): number {
  const d = [p[0]! - b.c[0]!, p[1]! - b.c[1]!, p[2]! - b.c[2]!];
  let sum = 0;
  for (let i = 0; i < 3; i++) {
    const l = Math.abs(dot(d, axis(b, i))) - b.h[i]!;
    if (l > 0) sum += l * l;
  }
  return Math.sqrt(sum);
}

/** Distance between segments p0-p1 and q0-q1. */
function segSeg(p0: number[], p1: number[], q0: number[], q1: number[]): number {
  const d1 = [p1[0]! - p0[0]!, p1[1]! - p0[1]!, p1[2]! - p0[2]!];
  const d2 = [q1[0]! - q0[0]!, q1[1]! - q0[1]!, q1[2]! - q0[2]!];
  const r = [p0[0]! - q0[0]!, p0[1]! - q0[1]!, p0[2]! - q0[2]!];
  const a = dot(d1, d1);
  const e = dot(d2, d2);
  const f = dot(d2, r);
  const c = dot(d1, r);
  const b = dot(d1, d2);
  const denom = a * e - b * b;
  let s = denom > 1e-12 ? Math.min(1, Math.max(0, (b * f - c * e) / denom)) : 0;
  let t = (b * s + f) / e;
  if (t < 0) {
    t = 0;
    s = Math.min(1, Math.max(0, -c / a));
  } else if (t > 1) {
    t = 1;
    s = Math.min(1, Math.max(0, (b - c) / a));
  }
  const x = [r[0]! + d1[0]! * s - d2[0]! * t, r[1]! + d1[1]! * s - d2[1]! * t, r[2]! + d1[2]! * s - d2[2]! * t];
  return Math.hypot(x[0]!, x[1]!, x[2]!);
}

/** Distance between two boxes; negative (minus the smallest overlap along a separating axis) when they overlap. */
export function boxBoxDistance(a: Box, b: Box): number {
  const sep = separation(a, b);
  if (sep <= 0) return sep;
  const ca = corners(a);
  const cb = corners(b);
  let best = Infinity;
  for (const p of ca) best = Math.min(best, pointBox(p, b));
  for (const p of cb) best = Math.min(best, pointBox(p, a));
  for (const [i, j] of EDGES) for (const [k, l] of EDGES) best = Math.min(best, segSeg(ca[i]!, ca[j]!, cb[k]!, cb[l]!));
  return best;
}

/** The closest point of box `b` to point `p` (p itself when inside). */
function closestOnBox(p: readonly number[], b: Box): [number, number, number] {
  const d = [p[0]! - b.c[0]!, p[1]! - b.c[1]!, p[2]! - b.c[2]!];
  const out: [number, number, number] = [b.c[0]!, b.c[1]!, b.c[2]!];
  for (let i = 0; i < 3; i++) {
    const ax = axis(b, i);
    const l = Math.max(-b.h[i]!, Math.min(b.h[i]!, dot(d, ax)));
    out[0] += ax[0] * l;
    out[1] += ax[1] * l;
    out[2] += ax[2] * l;
  }
  return out;
}

/** Closest points of segments p0-p1 and q0-q1. */
function segSegPoints(p0: number[], p1: number[], q0: number[], q1: number[]): [number[], number[]] {
  const d1 = [p1[0]! - p0[0]!, p1[1]! - p0[1]!, p1[2]! - p0[2]!];
  const d2 = [q1[0]! - q0[0]!, q1[1]! - q0[1]!, q1[2]! - q0[2]!];
  const r = [p0[0]! - q0[0]!, p0[1]! - q0[1]!, p0[2]! - q0[2]!];
  const a = dot(d1, d1);
  const e = dot(d2, d2);
  const f = dot(d2, r);
  const c = dot(d1, r);
  const b = dot(d1, d2);
  const denom = a * e - b * b;
  let s = denom > 1e-12 ? Math.min(1, Math.max(0, (b * f - c * e) / denom)) : 0;
  let t = (b * s + f) / e;
  if (t < 0) {
    t = 0;
    s = Math.min(1, Math.max(0, -c / a));
  } else if (t > 1) {
    t = 1;
    s = Math.min(1, Math.max(0, (b - c) / a));
  }
  return [[p0[0]! + d1[0]! * s, p0[1]! + d1[1]! * s, p0[2]! + d1[2]! * s], [q0[0]! + d2[0]! * t, q0[1]! + d2[1]! * t, q0[2]! + d2[2]! * t]];
}

/**
 * Distance between two boxes with a witness point on each (`pa` on a, `pb` on b). Overlapping boxes give the
 * negative overlap and their centres as witnesses (the direction between them is what a caller can use).
 */
export function boxBoxWitness(a: Box, b: Box): { distance: number; pa: number[]; pb: number[] } {
  const sep = separation(a, b);
  if (sep <= 0) return { distance: sep, pa: [a.c[0]!, a.c[1]!, a.c[2]!], pb: [b.c[0]!, b.c[1]!, b.c[2]!] };
  const ca = corners(a);
  const cb = corners(b);
  let best = { distance: Infinity, pa: ca[0]! as number[], pb: cb[0]! as number[] };
  const consider = (pa: number[], pb: number[]) => {
    const d = Math.hypot(pa[0]! - pb[0]!, pa[1]! - pb[1]!, pa[2]! - pb[2]!);
    if (d < best.distance) best = { distance: d, pa, pb };
  };
  for (const p of ca) consider(p, closestOnBox(p, b));
  for (const p of cb) consider(closestOnBox(p, a), p);
  for (const [i, j] of EDGES) for (const [k, l] of EDGES) {
    const [x, y] = segSegPoints(ca[i]!, ca[j]!, cb[k]!, cb[l]!);
    consider(x, y);
  }
  return best;
}
