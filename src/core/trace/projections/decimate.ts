// Decimation to the pixel width, so a plot of 100k samples draws a few thousand points and still shows every
// spike: per bucket keep the first, min, max and last sample (in index order). NaN/±Infinity values are skipped
// (never chosen as min/max); a bucket with only non-finite values keeps its first sample so gaps stay visible.

/**
 * Indices of the samples to draw for series `ys` over sorted times `ts`, restricted to [tFrom, tTo], with
 * `buckets` equal-width time buckets (use the plot's width in pixels). Returns every index when there are
 * fewer samples than 4 × buckets.
 */
export function decimateMinMax(ts: ArrayLike<number>, ys: ArrayLike<number>, buckets: number, tFrom = -Infinity, tTo = Infinity): Int32Array {
  const n = Math.min(ts.length, ys.length);
  let lo = lowerBound(ts, n, tFrom);
  let hi = upperBound(ts, n, tTo);
  // Keep one sample either side so lines run to the plot's edges.
  if (lo > 0) lo--;
  if (hi < n) hi++;
  const count = hi - lo;
  if (count <= 0) return new Int32Array(0);
  if (buckets < 1 || count <= buckets * 4) {
    const all = new Int32Array(count);
    for (let i = 0; i < count; i++) all[i] = lo + i;
    return all;
  }
  const t0 = ts[lo];
  const span = ts[hi - 1] - t0;
  const width = span > 0 ? span / buckets : 1;
  const out = new Int32Array(buckets * 4);
  let k = 0;
  let b = -1;
  let first = -1, last = -1, min = -1, max = -1;
  const flush = () => {
    if (first < 0) return;
    // Emit the (up to) four picks in index order without duplicates.
    const picks = [first, min, max, last].filter((v) => v >= 0).sort((p, q) => p - q);
    let prev = -1;
    for (const p of picks) if (p !== prev) out[k++] = prev = p;
  };
  for (let i = lo; i < hi; i++) {
    const bi = Math.min(buckets - 1, Math.floor((ts[i] - t0) / width));
    if (bi !== b) {
      flush();
      b = bi;
      first = i;
      min = max = -1;
    }
    last = i;
    const v = ys[i];
    if (!Number.isFinite(v)) continue;
    if (min < 0 || v < ys[min]) min = i;
    if (max < 0 || v > ys[max]) max = i;
  }
  flush();
  return out.slice(0, k);
}

/**
 * Indices for a 2D path (e.g. top-down x-y) drawn in sample order: `buckets` equal index ranges, keeping per
 * range the first and last sample and those with min/max x and y, so the path's extent is kept exactly.
 */
export function decimatePath(xs: ArrayLike<number>, ys: ArrayLike<number>, buckets: number): Int32Array {
  const n = Math.min(xs.length, ys.length);
  if (buckets < 1 || n <= buckets * 6) {
    const all = new Int32Array(n);
    for (let i = 0; i < n; i++) all[i] = i;
    return all;
  }
  const out: number[] = [];
  const size = n / buckets;
  for (let b = 0; b < buckets; b++) {
    const s = Math.floor(b * size);
    const e = Math.min(n, Math.floor((b + 1) * size));
    if (e <= s) continue;
    let xmin = s, xmax = s, ymin = s, ymax = s;
    for (let i = s; i < e; i++) {
      if (xs[i] < xs[xmin]) xmin = i;
      if (xs[i] > xs[xmax]) xmax = i;
      if (ys[i] < ys[ymin]) ymin = i;
      if (ys[i] > ys[ymax]) ymax = i;
    }
    const picks = [s, xmin, xmax, ymin, ymax, e - 1].sort((p, q) => p - q);
    let prev = -1;
    for (const p of picks) if (p !== prev) out.push((prev = p));
  }
  return Int32Array.from(out);
}

function lowerBound(a: ArrayLike<number>, n: number, v: number): number {
  let lo = 0, hi = n;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (a[m] < v) lo = m + 1;
    else hi = m;
  }
  return lo;
}

function upperBound(a: ArrayLike<number>, n: number, v: number): number {
  let lo = 0, hi = n;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (a[m] <= v) lo = m + 1;
    else hi = m;
  }
  return lo;
}
