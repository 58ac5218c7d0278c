// A folder that cannot work is refused while loading, in one line that names the file and the cause: a missing
// file, a tensor dtype we do not read, a model that is not BERT, a corrupt safetensors header, an unsupported
// tokenizer part or module.
import assert from 'node:assert/strict';
import { readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { LocalModelError } from '../../../../../src/core/llm/localEmbedding/errors.js';
import { loadSentenceModel } from '../../../../../src/core/llm/localEmbedding/model.js';
import { copyTiny, readJson, safetensorsBytes, writeJson } from './helpers.js';

const copies: string[] = [];
after(() => copies.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Breaks a copy of the fixture and returns the one-line refusal. */
function refusal(breakIt: (dir: string) => void): { message: string; file: string; dir: string } {
  const dir = copyTiny();
  copies.push(dir);
  breakIt(dir);
  try {
    loadSentenceModel(dir);
  } catch (e) {
    assert.ok(e instanceof LocalModelError, String(e));
    assert.ok(!e.message.includes('\n'), 'one line');
    return { message: e.message, file: e.file, dir };
  }
  return assert.fail('the broken folder loaded');
}

test('a missing file is named: tokenizer.json, config.json, model.safetensors (pytorch_model.bin is not read), a pooling config', () => {
  for (const f of ['tokenizer.json', 'config.json', 'model.safetensors', join('1_Pooling', 'config.json')]) {
    const r = refusal((d) => unlinkSync(join(d, f)));
    assert.equal(r.message, `local embedding model: missing file: ${join(r.dir, f)}`);
  }
  const bin = refusal((d) => {
    unlinkSync(join(d, 'model.safetensors'));
    writeFileSync(join(d, 'pytorch_model.bin'), 'x');
  });
  assert.match(bin.message, /missing file \(pytorch_model\.bin is not read: save the model with safe_serialization=True\): .*model\.safetensors$/);
  const none = refusal((d) => rmSync(d, { recursive: true }));
  assert.equal(none.message, `local embedding model: no such folder: ${none.dir}`);
});

test('a tensor dtype other than F32, F16 and BF16 is refused, naming the tensor and the file', () => {
  const r = refusal((d) => writeFileSync(join(d, 'model.safetensors'), safetensorsBytes([{ name: 'embeddings.word_embeddings.weight', dtype: 'I8', shape: [2], bytes: new Uint8Array(2) }])));
  assert.equal(r.message, `local embedding model: unsupported tensor dtype I8 for embeddings.word_embeddings.weight (F32, F16 and BF16 are read): ${join(r.dir, 'model.safetensors')}`);
});

test('config.json of another architecture is refused with its model_type', () => {
  const r = refusal((d) => writeJson(join(d, 'config.json'), { ...readJson(join(d, 'config.json')), model_type: 'roberta', architectures: ['RobertaModel'] }));
  assert.equal(r.message, `local embedding model: model_type is "roberta" (RobertaModel), not "bert": only BERT encoders are read: ${join(r.dir, 'config.json')}`);
});

test('a corrupt safetensors header: a length past the end, a header that is not JSON, offsets outside the data, a truncated file', () => {
  const file = (d: string) => join(d, 'model.safetensors');
  const tooLong = refusal((d) => {
    const b = readFileSync(file(d));
    b.writeBigUInt64LE(BigInt(b.length * 2), 0);
    writeFileSync(file(d), b);
  });
  assert.match(tooLong.message, /^local embedding model: corrupt safetensors file \(header length \d+ exceeds the file's \d+ bytes\): .*model\.safetensors$/);
  const notJson = refusal((d) => {
    const b = readFileSync(file(d));
    b[8] = 0x7b;
    b[9] = 0x7b;
    writeFileSync(file(d), b);
  });
  assert.match(notJson.message, /corrupt safetensors file \(header is not JSON: .*\): .*model\.safetensors$/);
  const truncated = refusal((d) => writeFileSync(file(d), readFileSync(file(d)).subarray(0, -100)));
  assert.match(truncated.message, /corrupt safetensors file \(entry .*: data_offsets \[\d+,\d+\] do not hold \d+ F32 values within the \d+ data bytes\)/);
  const short = refusal((d) => writeFileSync(file(d), Buffer.alloc(3)));
  assert.match(short.message, /corrupt safetensors file \(3 bytes, shorter than the 8-byte header length\)/);
});

test("weights that do not fit config.json, a tensor that is missing, a module or tokenizer part we do not run", () => {
  const shape = refusal((d) => writeJson(join(d, 'config.json'), { ...readJson(join(d, 'config.json')), vocab_size: 300 }));
  assert.match(shape.message, /tensor embeddings\.word_embeddings\.weight has shape \[212, 32\], config\.json implies \[300, 32\]: .*model\.safetensors$/);
  const wide = refusal((d) => writeJson(join(d, 'config.json'), { ...readJson(join(d, 'config.json')), hidden_size: 64 }));
  assert.match(wide.message, /pooling dimension 32 is not the encoder's hidden_size 64 \(config\.json\): .*1_Pooling\/config\.json$/);
  const layers = refusal((d) => writeJson(join(d, 'config.json'), { ...readJson(join(d, 'config.json')), num_hidden_layers: 3 }));
  assert.match(layers.message, /tensor encoder\.layer\.2\.attention\.self\.query\.weight is missing/);
  const dense = refusal((d) => writeJson(join(d, 'modules.json'), [...readJson(join(d, 'modules.json')), { idx: 3, name: '3', path: '3_Dense', type: 'sentence_transformers.models.Dense' }]));
  assert.equal(dense.message, `local embedding model: module sentence_transformers.models.Dense is not supported (Transformer, Pooling and Normalize are): ${join(dense.dir, 'modules.json')}`);
  const bpe = refusal((d) => {
    const t = readJson(join(d, 'tokenizer.json'));
    writeJson(join(d, 'tokenizer.json'), { ...t, model: { ...t.model, type: 'BPE' } });
  });
  assert.match(bpe.message, /tokenizer model is BPE, not WordPiece \(BERT's\): .*tokenizer\.json$/);
  const pooling = refusal((d) => writeJson(join(d, '1_Pooling', 'config.json'), { embedding_dimension: 32, pooling_mode: 'attention' }));
  assert.match(pooling.message, /pooling mode "attention" is not one of cls, max, mean, mean_sqrt_len_tokens, weightedmean, lasttoken: .*1_Pooling\/config\.json$/);
  const vocab = refusal((d) => {
    const t = readJson(join(d, 'tokenizer.json'));
    writeJson(join(d, 'tokenizer.json'), { ...t, model: { ...t.model, vocab: { ...t.model.vocab, extra: 212 } } });
  });
  assert.match(vocab.message, /token id 212 is outside config\.json's vocab_size 212 \(a tokenizer of another model\?\): .*tokenizer\.json$/);
  const json = refusal((d) => writeFileSync(join(d, 'config.json'), '{"model_type": "bert",'));
  assert.match(json.message, /not valid JSON \(.*\): .*config\.json$/);
});
