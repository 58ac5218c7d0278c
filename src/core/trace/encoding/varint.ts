// Integer sequences as zigzag LEB128 varints of their first- or second-order differences, in base64 (standard
// alphabet, padded). Smooth signals at 50 Hz have small differences, so most values take one or two bytes.
// Arithmetic (not 32-bit bitwise) throughout: integers up to 2^53 stay exact. docs/trace.md has the definition.
import { Buffer } from 'node:buffer';

/** Largest |integer| a column may hold, so second-order differences stay below 2^53. */
export const MAX_COLUMN_INT = 2 ** 50;

export type DeltaOrder = 1 | 2;

class ByteSink {
  bytes = new Uint8Array(256);
  length = 0;
  push(b: number): void {
    if (this.length === this.bytes.length) {
      const next = new Uint8Array(this.bytes.length * 2);
      next.set(this.bytes);
      this.bytes = next;
    }
    this.bytes[this.length++] = b;
  }
}

function pushVarint(out: ByteSink, d: number): void {
  // zigzag: 0, -1, 1, -2, 2 ... -> 0, 1, 2, 3, 4 ...
  let z = d >= 0 ? 2 * d : -2 * d - 1;
  while (z >= 128) {
    out.push((z % 128) + 128);
    z = Math.floor(z / 128);
  }
  out.push(z);
}

/** Encodes integers `ks` (each |k| <= MAX_COLUMN_INT) with differences of the given order; returns base64. */
export function encodeDeltas(ks: ArrayLike<number>, order: DeltaOrder): string {
  const out = new ByteSink();
  let k1 = 0, k2 = 0;
  for (let i = 0; i < ks.length; i++) {
    const k = ks[i];
    pushVarint(out, order === 1 ? k - k1 : k - 2 * k1 + k2);
    k2 = k1;
    k1 = k;
  }
  return Buffer.from(out.bytes.buffer, 0, out.length).toString('base64');
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
