// Integer sequences as zigzag LEB128 varints of their first- or second-order differences, in base64 (standard
// alphabet, padded). Smooth signals at 50 Hz have small differences, so most values take one or two bytes.
// Arithmetic (not 32-bit bitwise) throughout: integers up to 2^53 stay exact. docs/trace.md has the definition.
import { Buffer } from 'node:buffer';

/** Largest |integer| a column may hold, so second-order differences stay below 2^53. */
export const MAX_COLUMN_INT = 2 ** 50;

export type DeltaOrder = 1 | 2;

/** Zigzag: 0, -1, 1, -2, 2 ... -> 0, 1, 2, 3, 4 ... */
function zigzag(d: number): number {
  return d >= 0 ? 2 * d : -2 * d - 1;
}

/** Bytes of z as a LEB128 varint. */
function varintBytes(z: number): number {
  if (z < 128) return 1;
  if (z < 16384) return 2;
  if (z < 2097152) return 3;
  let n = 1;
  while (z >= 128) {
    z = Math.floor(z / 128);
    n++;
  }
  return n;
}

/** The difference of `order` at sample i (with k[-1] = k[-2] = 0). */
function delta(ks: ArrayLike<number>, i: number, order: DeltaOrder): number {
  const k1 = i > 0 ? ks[i - 1] : 0;
  if (order === 1) return ks[i] - k1;
  return ks[i] - 2 * k1 + (i > 1 ? ks[i - 2] : 0);
}

/** Bytes the varints of `ks`'s differences of `order` take (to pick the shorter order before encoding). */
export function encodedLength(ks: ArrayLike<number>, order: DeltaOrder): number {
  let n = 0;
  for (let i = 0; i < ks.length; i++) n += varintBytes(zigzag(delta(ks, i, order)));
  return n;
}

/** Encodes integers `ks` (each |k| <= MAX_COLUMN_INT) with differences of the given order; returns base64. */
export function encodeDeltas(ks: ArrayLike<number>, order: DeltaOrder, byteLength = encodedLength(ks, order)): string {
  const out = Buffer.allocUnsafe(byteLength);
  let p = 0;
  for (let i = 0; i < ks.length; i++) {
    let z = zigzag(delta(ks, i, order));
    while (z >= 128) {
      out[p++] = (z % 128) + 128;
      z = Math.floor(z / 128);
    }
    out[p++] = z;
  }
  return out.toString('base64', 0, p);
}

export class ColumnDecodeError extends Error {}

/**
 * Decodes n integers from `base64` (differences of `order`) and writes value/scale of sample i to
 * out[offset + i * stride]. With `pick` (ascending sample indices), only those samples are written, to
 * out[offset + j * stride] for the j-th picked index; the stream is still read to its end.
 */
export function decodeDeltas(base64: string, n: number, order: DeltaOrder, scale: number, out: Float64Array, offset: number, stride: number, pick?: Int32Array): void {
  const bytes = Buffer.from(base64, 'base64');
  const len = bytes.length;
  let p = 0, k1 = 0, k2 = 0;
  let j = 0;
  let next = pick ? (pick.length ? pick[0] : -1) : -1;
  for (let i = 0; i < n; i++) {
    if (p >= len) throw new ColumnDecodeError(`column ends after ${i} of ${n} values`);
    let b = bytes[p++];
    let z = b;
    if (b >= 128) {
      z = b - 128;
      let mul = 128;
      do {
        if (p >= len) throw new ColumnDecodeError(`column ends inside a value (sample ${i} of ${n})`);
        b = bytes[p++];
        z += (b & 127) * mul;
        mul *= 128;
        if (mul > 2 ** 63) throw new ColumnDecodeError(`column value too large (sample ${i} of ${n})`);
      } while (b >= 128);
    }
    // zigzag back: 0, 1, 2, 3 ... -> 0, -1, 1, -2 ...
    const d = z % 2 === 0 ? z / 2 : -(z + 1) / 2;
    const k = order === 1 ? k1 + d : d + 2 * k1 - k2;
    k2 = k1;
    k1 = k;
    if (pick === undefined) out[offset + i * stride] = k / scale;
    else if (i === next) {
      out[offset + j * stride] = k / scale;
      j++;
      next = j < pick.length ? pick[j] : -1;
    }
  }
  if (p !== len) throw new ColumnDecodeError(`column has ${len - p} bytes after its ${n} values`);
}
