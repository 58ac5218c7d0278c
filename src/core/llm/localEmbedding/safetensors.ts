// The safetensors format (Hugging Face): an 8-byte little-endian header length N, N bytes of JSON
// ({name: {dtype, shape, data_offsets: [begin, end]}, "__metadata__": {...}}), then the raw tensor bytes, offsets
// relative to the end of the header. F32 is read as is; F16 and BF16 are widened to F32; any other dtype is refused.
import { LocalModelError } from './errors.js';

export interface Tensor {
  shape: number[];
  /** Row-major. */
  data: Float32Array;
}

const BYTES: Record<string, number> = { F32: 4, F16: 2, BF16: 2 };

/** Every tensor of the file by name. `file` names the file in errors. */
export function readSafetensors(bytes: Uint8Array, file: string): Map<string, Tensor> {
  const bad = (cause: string) => new LocalModelError(`corrupt safetensors file (${cause})`, file);
  if (bytes.length < 8) throw bad(`${bytes.length} bytes, shorter than the 8-byte header length`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLen = Number(view.getBigUint64(0, true));
  if (headerLen > bytes.length - 8) throw bad(`header length ${headerLen} exceeds the file's ${bytes.length} bytes`);
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(8, 8 + headerLen)));
  } catch (e) {
    throw bad(`header is not JSON: ${(e as Error).message}`);
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) throw bad('header is not a JSON object');
  const dataStart = 8 + headerLen;
  const dataLen = bytes.length - dataStart;
  const out = new Map<string, Tensor>();
  for (const [name, entry] of Object.entries(header as Record<string, unknown>)) {
    if (name === '__metadata__') continue;
    const e = entry as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
    if (typeof e !== 'object' || e === null || typeof e.dtype !== 'string' || !Array.isArray(e.shape) || !Array.isArray(e.data_offsets) || e.data_offsets.length !== 2) {
      throw bad(`entry ${name} lacks dtype, shape or data_offsets`);
    }
    const width = BYTES[e.dtype];
    if (width === undefined) throw new LocalModelError(`unsupported tensor dtype ${e.dtype} for ${name} (F32, F16 and BF16 are read)`, file);
    const shape = e.shape as unknown[];
    if (!shape.every((d) => Number.isInteger(d) && (d as number) >= 0)) throw bad(`entry ${name} has shape ${JSON.stringify(shape)}`);
    const [begin, end] = e.data_offsets as unknown[];
    const count = (shape as number[]).reduce((a, b) => a * b, 1);
    if (!Number.isInteger(begin) || !Number.isInteger(end) || (begin as number) < 0 || (end as number) > dataLen || (end as number) - (begin as number) !== count * width) {
      throw bad(`entry ${name}: data_offsets ${JSON.stringify(e.data_offsets)} do not hold ${count} ${e.dtype} values within the ${dataLen} data bytes`);
    }
    out.set(name, { shape: shape as number[], data: decode(bytes, dataStart + (begin as number), count, e.dtype) });
  }
  return out;
}

function decode(bytes: Uint8Array, at: number, count: number, dtype: string): Float32Array {
  const out = new Float32Array(count);
  const view = new DataView(bytes.buffer, bytes.byteOffset + at, count * BYTES[dtype]!);
  if (dtype === 'F32') for (let i = 0; i < count; i++) out[i] = view.getFloat32(i * 4, true);
  else if (dtype === 'BF16') {
    // bfloat16 is the top half of a float32.
    const u = new Uint32Array(out.buffer);
    for (let i = 0; i < count; i++) u[i] = view.getUint16(i * 2, true) << 16;
  } else for (let i = 0; i < count; i++) out[i] = halfToFloat(view.getUint16(i * 2, true));
  return out;
}

/** IEEE 754 binary16 -> number (subnormals, infinities and NaN included). */
export function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 0x1f) return frac === 0 ? sign * Infinity : NaN;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}
