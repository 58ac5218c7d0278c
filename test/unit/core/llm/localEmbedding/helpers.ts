// The tiny random sentence-transformers fixture (scripts/make-tiny-sbert.py), its golden outputs, and copies of it
// to break one file at a time.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const TINY = join(process.cwd(), 'test', 'fixtures', 'tiny-sbert');

export interface Golden {
  maxSeqLength: number;
  sentences: { text: string; inputIds: number[]; embedding: number[] }[];
}
export const golden: Golden = JSON.parse(readFileSync(join(process.cwd(), 'test', 'fixtures', 'tiny-sbert-golden.json'), 'utf8'));

/** A copy of the fixture in a temporary folder (the caller removes it). */
export function copyTiny(): string {
  const dir = mkdtempSync(join(tmpdir(), 'waypoint-tiny-sbert-'));
  cpSync(TINY, dir, { recursive: true });
  return dir;
}

export const readJson = (file: string): any => JSON.parse(readFileSync(file, 'utf8'));
export const writeJson = (file: string, value: unknown) => writeFileSync(file, JSON.stringify(value, null, 1));

/** A safetensors file from tensors given as raw little-endian bytes. */
export function safetensorsBytes(tensors: { name: string; dtype: string; shape: number[]; bytes: Uint8Array }[]): Buffer {
  let at = 0;
  const header: Record<string, unknown> = { __metadata__: { format: 'pt' } };
  for (const t of tensors) {
    header[t.name] = { dtype: t.dtype, shape: t.shape, data_offsets: [at, at + t.bytes.length] };
    at += t.bytes.length;
  }
  const json = Buffer.from(JSON.stringify(header));
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(json.length));
  return Buffer.concat([len, json, ...tensors.map((t) => Buffer.from(t.bytes))]);
}

/** float32 -> IEEE binary16 bits, rounding to nearest even (normal range only: the fixture's weights are small). */
export function floatToHalf(x: number): number {
  const f = new Float32Array([x]);
  const u = new Uint32Array(f.buffer)[0]!;
  const sign = (u >>> 16) & 0x8000;
  const exp = ((u >>> 23) & 0xff) - 127 + 15;
  const mant = u & 0x7fffff;
  if (exp <= 0) return sign; // flushed to zero: below 6e-5 in magnitude
  let h = sign | (exp << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (h & 1))) h++;
  return h;
}
