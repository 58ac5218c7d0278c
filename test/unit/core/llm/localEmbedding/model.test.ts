// The local embedding model against sentence-transformers itself: on the tiny random fixture our token ids are the
// Python tokenizer's and our vectors are sentence-transformers' within 1e-4 per component (golden file written by
// scripts/make-tiny-sbert.py). Pooling, normalisation and the F16/BF16 readers are checked on their own.
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { linear } from '../../../../../src/core/llm/localEmbedding/bert.js';
import { loadSentenceModel, pool } from '../../../../../src/core/llm/localEmbedding/model.js';
import { halfToFloat, readSafetensors } from '../../../../../src/core/llm/localEmbedding/safetensors.js';
import { copyTiny, floatToHalf, golden, readJson, safetensorsBytes, TINY, writeJson } from './helpers.js';

const model = loadSentenceModel(TINY);
const copies: string[] = [];
after(() => copies.forEach((d) => rmSync(d, { recursive: true, force: true })));
const copy = () => {
  const d = copyTiny();
  copies.push(d);
  return d;
};

const maxDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  assert.equal(a.length, b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
};

test('the fixture covers what the tokenizer must get right: accents, an unknown character, punctuation, truncation', () => {
  const texts = golden.sentences.map((s) => s.text);
  assert.ok(texts.some((t) => /[éïà]/.test(t)) && texts.some((t) => t.includes('λ')) && texts.some((t) => t.includes('(')));
  assert.ok(golden.sentences.some((s) => s.inputIds.length === golden.maxSeqLength && s.inputIds.includes(1)), 'a truncated sentence and an [UNK]');
  assert.equal(model.maxLength, golden.maxSeqLength);
});

test("token ids are the Python tokenizer's for every golden sentence ([CLS] ... [SEP], [UNK], truncation)", () => {
  for (const s of golden.sentences) assert.deepEqual(model.tokenize(s.text), s.inputIds, s.text);
});

test("vectors are sentence-transformers' within 1e-4 per component (mean pooling, then Normalize)", () => {
  const vs = model.embed(golden.sentences.map((s) => s.text));
  golden.sentences.forEach((s, i) => assert.ok(maxDiff(vs[i]!, s.embedding) < 1e-4, `${s.text}: ${maxDiff(vs[i]!, s.embedding)}`));
  assert.deepEqual([model.dimensions, model.pooling, model.normalize], [32, ['mean'], true]);
});

test("a sentence's vector does not depend on the others in its batch (each attends only to its own tokens)", () => {
  const alone = model.embed([golden.sentences[1]!.text])[0]!;
  const batched = model.embed(golden.sentences.map((s) => s.text))[1]!;
  assert.ok(maxDiff(alone, batched) < 1e-6);
});

test('without the Normalize module the vector is the same direction, not unit length', () => {
  const dir = copy();
  const modules = readJson(join(dir, 'modules.json')) as { type: string }[];
  writeJson(join(dir, 'modules.json'), modules.filter((m) => !m.type.endsWith('Normalize')));
  const raw = loadSentenceModel(dir).embed([golden.sentences[0]!.text])[0]!;
  const norm = Math.hypot(...raw);
  assert.ok(Math.abs(norm - 1) > 0.05, `norm ${norm}`);
  assert.ok(maxDiff(raw.map((x) => x / norm), golden.sentences[0]!.embedding) < 1e-4);
});

test("pooling modes: cls is the first token, lasttoken the last, mean/max/mean_sqrt_len/weightedmean over all, concatenated in sentence-transformers' order", () => {
  // Three tokens of width 2 after one row that belongs to the previous sentence.
  const hidden = new Float32Array([9, 9, 1, 6, 3, 2, 5, 4]);
  const at = (modes: Parameters<typeof pool>[4]) => Array.from(pool(hidden, 1, 3, 2, modes));
  assert.deepEqual(at(['cls']), [1, 6]);
  assert.deepEqual(at(['lasttoken']), [5, 4]);
  assert.deepEqual(at(['mean']), [3, 4]);
  assert.deepEqual(at(['max']), [5, 6]);
  assert.deepEqual(at(['mean_sqrt_len_tokens']).map((x) => +x.toFixed(5)), [9 / Math.sqrt(3), 12 / Math.sqrt(3)].map((x) => +x.toFixed(5)));
  assert.deepEqual(at(['weightedmean']).map((x) => +x.toFixed(5)), [(1 + 6 + 15) / 6, (6 + 4 + 12) / 6].map((x) => +x.toFixed(5)));
  assert.deepEqual(at(['cls', 'mean']), [1, 6, 3, 4]);
});

test('a pooling config in the pre-6 form (one boolean per mode) is read the same; cls pooling gives other vectors', () => {
  const dir = copy();
  const file = join(dir, '1_Pooling', 'config.json');
  writeJson(file, { word_embedding_dimension: 32, pooling_mode_cls_token: false, pooling_mode_mean_tokens: true, pooling_mode_max_tokens: false, pooling_mode_mean_sqrt_len_tokens: false });
  const s = golden.sentences[2]!;
  assert.ok(maxDiff(loadSentenceModel(dir).embed([s.text])[0]!, s.embedding) < 1e-4);
  writeJson(file, { embedding_dimension: 32, pooling_mode: 'cls' });
  const cls = loadSentenceModel(dir);
  assert.deepEqual(cls.pooling, ['cls']);
  assert.ok(maxDiff(cls.embed([s.text])[0]!, s.embedding) > 1e-2);
});

/** The fixture's weights rewritten in another dtype. */
function rewrite(dtype: 'F16' | 'BF16'): string {
  const dir = copy();
  const file = join(dir, 'model.safetensors');
  const tensors = readSafetensors(readFileSync(file), file);
  const out = [...tensors].map(([name, t]) => {
    const bits = new Uint16Array(t.data.length);
    t.data.forEach((x, i) => (bits[i] = dtype === 'F16' ? floatToHalf(x) : new Uint32Array(new Float32Array([x]).buffer)[0]! >>> 16));
    return { name, dtype, shape: t.shape, bytes: new Uint8Array(bits.buffer) };
  });
  writeFileSync(file, safetensorsBytes(out));
  return dir;
}

test('F16 and BF16 weights are widened to F32: vectors stay within their rounding of the F32 ones', () => {
  for (const [dtype, tol] of [['F16', 5e-3], ['BF16', 5e-2]] as const) {
    const m = loadSentenceModel(rewrite(dtype));
    const vs = m.embed(golden.sentences.map((s) => s.text));
    golden.sentences.forEach((s, i) => assert.ok(maxDiff(vs[i]!, s.embedding) < tol, `${dtype} ${s.text}: ${maxDiff(vs[i]!, s.embedding)}`));
  }
  // binary16 edge values.
  assert.deepEqual([0x3c00, 0xc000, 0x0001, 0x7c00, 0x0000].map(halfToFloat), [1, -2, 2 ** -24, Infinity, 0]);
  assert.ok(Number.isNaN(halfToFloat(0x7e00)));
});

test('the blocked matrix product is the plain one for every shape (row and column counts not multiples of the blocks)', () => {
  for (const [rows, inDim, outDim] of [[7, 5, 3], [4, 2, 2], [1, 3, 1], [9, 4, 5]] as const) {
    const x = Float32Array.from({ length: rows * inDim }, (_, i) => Math.sin(i + 1));
    const w = Float32Array.from({ length: outDim * inDim }, (_, i) => Math.cos(i * 0.7));
    const b = Float32Array.from({ length: outDim }, (_, i) => i - 1);
    const y = linear(x, rows, { w, b, inDim, outDim });
    for (let r = 0; r < rows; r++)
      for (let o = 0; o < outDim; o++) {
        let s = b[o]!;
        for (let k = 0; k < inDim; k++) s += x[r * inDim + k]! * w[o * inDim + k]!;
        assert.ok(Math.abs(y[r * outDim + o]! - s) < 1e-5, `${rows}x${inDim}x${outDim} at ${r},${o}`);
      }
  }
});
