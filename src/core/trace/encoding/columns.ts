// Column groups: `width` interleaved numeric columns of n samples (ee is 4 wide, bodies 7 per body), each column
// rounded to `e` decimal digits and stored as one of
//   a JSON number         every sample has this value (a static body needs no bytes per sample);
//   "1<base64>"           varints of first-order differences of round(value * 10^e);
//   "2<base64>"           the same with second-order differences (smooth motion, constant time steps);
//   "f<base64>"           raw little-endian float64 values, exact (a value too large to round to e digits).
import { Buffer } from 'node:buffer';
import { ColumnDecodeError, decodeDeltas, encodeDeltas, encodedLength, MAX_COLUMN_INT } from './varint.js';

export interface ColumnGroup {
  /** Decimal digits kept: a value is stored as round(value * 10^e). */
  e: number;
  /** One entry per column. */
  v: (number | string)[];
}

/**
 * Rounds column `vals` to `digits` decimals in place and encodes it (whichever of constant, first- or
 * second-order varints is shortest). A column whose rounded integers would exceed MAX_COLUMN_INT is kept exact.
 */
export function encodeColumn(vals: Float64Array, digits: number): number | string {
  const n = vals.length;
  const scale = 10 ** digits;
  const ks = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    // `+ 0` turns -0 into 0, so the stored value reads back identical (Object.is) to what the writer returned.
    const k = Math.round(vals[i] * scale) + 0;
    if (!(Math.abs(k) <= MAX_COLUMN_INT)) return 'f' + Buffer.from(vals.buffer, vals.byteOffset, vals.byteLength).toString('base64');
    ks[i] = k;
  }
  let constant = true;
  for (let i = 0; i < n; i++) {
    vals[i] = ks[i] / scale;
    if (ks[i] !== ks[0]) constant = false;
  }
  if (constant && n > 0) return vals[0];
  const first = encodedLength(ks, 1);
  const second = encodedLength(ks, 2);
  return second < first ? '2' + encodeDeltas(ks, 2, second) : '1' + encodeDeltas(ks, 1, first);
}

/** Encodes `width` interleaved columns of `values` (n * width numbers) and rounds `values` in place. */
export function encodeGroup(values: Float64Array, n: number, width: number, digits: number): ColumnGroup {
  const v: (number | string)[] = [];
  const col = new Float64Array(n);
  for (let j = 0; j < width; j++) {
    for (let i = 0; i < n; i++) col[i] = values[i * width + j];
    v.push(encodeColumn(col, digits));
    for (let i = 0; i < n; i++) values[i * width + j] = col[i];
  }
  return { e: digits, v };
}

/**
 * Decodes a group into `out` (interleaved, `width` = group.v.length numbers per sample). With `pick`, only the
 * picked samples are written, in order. Throws ColumnDecodeError on a malformed group.
 */
export function decodeGroup(group: unknown, n: number, width: number, out: Float64Array, pick?: Int32Array): void {
  if (typeof group !== 'object' || group === null) throw new ColumnDecodeError('column group is not an object');
  const { e, v } = group as Partial<ColumnGroup>;
  if (typeof e !== 'number' || !Number.isInteger(e) || e < 0 || e > 15) throw new ColumnDecodeError(`column group has no valid digit count (e = ${JSON.stringify(e)})`);
  if (!Array.isArray(v) || v.length !== width) throw new ColumnDecodeError(`column group has ${Array.isArray(v) ? v.length : 'no'} columns, expected ${width}`);
  const scale = 10 ** e;
  const rows = pick ? pick.length : n;
  for (let j = 0; j < width; j++) {
    const c = v[j];
    if (typeof c === 'number') {
      if (!Number.isFinite(c)) throw new ColumnDecodeError(`column ${j} is not a finite number`);
      for (let i = 0; i < rows; i++) out[i * width + j] = c;
    } else if (typeof c === 'string' && (c[0] === '1' || c[0] === '2')) {
      decodeDeltas(c.slice(1), n, c[0] === '1' ? 1 : 2, scale, out, j, width, pick);
    } else if (typeof c === 'string' && c[0] === 'f') {
      const bytes = Buffer.from(c.slice(1), 'base64');
      if (bytes.length !== 8 * n) throw new ColumnDecodeError(`column ${j} holds ${bytes.length / 8} raw values, expected ${n}`);
      const raw = new Float64Array(n);
      new Uint8Array(raw.buffer).set(bytes);
      for (let i = 0; i < rows; i++) {
        const x = raw[pick ? pick[i] : i];
        if (!Number.isFinite(x)) throw new ColumnDecodeError(`column ${j} holds a non-finite value`);
        out[i * width + j] = x;
      }
    } else {
      throw new ColumnDecodeError(`column ${j} has an unknown encoding`);
    }
  }
}
