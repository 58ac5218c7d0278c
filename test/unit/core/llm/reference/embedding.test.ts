// The reference server's /v1/embeddings: a deterministic fixture (hashed bag of normalised words with a synonym
// table), served in the OpenAI wire format so the openai SDK reads it, in float and in its default base64.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import OpenAI from 'openai';
import { cosine } from '../../../../../src/core/llm/embeddings.js';
import { DIMENSIONS, embeddingWords, referenceEmbedding } from '../../../../../src/core/llm/reference/embedding.js';
import { startReferenceServer, type ReferenceServer } from '../../../../../src/core/llm/reference/server.js';

let server: ReferenceServer;
let sdk: OpenAI;
before(async () => {
  server = await startReferenceServer({ port: 0 });
  sdk = new OpenAI({ baseURL: server.url, apiKey: 'unused', maxRetries: 0 });
});
after(() => server.close());

test('the fixture folds synonyms, phrases, CamelCase, ids and plurals into the same words', () => {
  assert.deepEqual([...embeddingWords('Open the refrigerator').keys()], ['open', 'fridge']);
  assert.deepEqual([...embeddingWords('go to the TV').keys()], ['navigate', 'television']);
  assert.deepEqual([...embeddingWords('pick up the computer').keys()], ['pickup', 'laptop']);
  assert.deepEqual([...embeddingWords('put object on CounterTop_1').keys()], ['put', 'on', 'counter', 'top', 'counter_top_1']);
  assert.deepEqual([...embeddingWords('wash the tomatoes').keys()], ['clean', 'tomato']);
  // A dish is a plate or a bowl: half of each (as unit shares).
  const dish = embeddingWords('dish');
  assert.ok(Math.abs(dish.get('plate')! - Math.SQRT1_2) < 1e-12 && Math.abs(dish.get('bowl')! - Math.SQRT1_2) < 1e-12);
  assert.equal(cosine(referenceEmbedding('open the refrigerator'), referenceEmbedding('open the fridge')), 1);
  assert.ok(cosine(referenceEmbedding('sing a song'), referenceEmbedding('move in Ahead direction')) < 0.1);
  const v = referenceEmbedding('grab the couch');
  assert.equal(v.length, DIMENSIONS);
  assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-9);
  assert.deepEqual(referenceEmbedding('the of a'), new Array(DIMENSIONS).fill(0));
});

test('POST /v1/embeddings through the SDK: one vector per input, in order, the same in float and base64', async () => {
  const input = ['open the refrigerator', 'open object Fridge_1', 'rotate in Left direction'];
  const f = await sdk.embeddings.create({ model: 'reference-embedding', input, encoding_format: 'float' });
  assert.deepEqual(f.data.map((d) => d.index), [0, 1, 2]);
  assert.deepEqual(f.data[0]!.embedding, referenceEmbedding(input[0]!));
  assert.ok(cosine(f.data[0]!.embedding, f.data[1]!.embedding) > 0.8);
  assert.ok(f.usage.prompt_tokens > 0);
  // The SDK's default asks for base64 and decodes it to float32.
  const b = await sdk.embeddings.create({ model: 'reference-embedding', input: input[0]! });
  assert.deepEqual(b.data[0]!.embedding, Array.from(new Float32Array(referenceEmbedding(input[0]!))));
});

test('embeddings refusals: another model is 404 model_not_found, a bad body 400, a server without them 404 on the route', async () => {
  await assert.rejects(sdk.embeddings.create({ model: 'text-embedding-3-small', input: 'x' }), (e: InstanceType<typeof OpenAI.APIError>) => e.status === 404 && /embeds only with "reference-embedding"/.test(e.message));
  const bad = await fetch(`${server.url}/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model": "reference-embedding", "input": 3}' });
  assert.equal(bad.status, 400);
  assert.match(((await bad.json()) as { error: { message: string } }).error.message, /invalid embeddings request at input/);
  const bare = await startReferenceServer({ port: 0, embeddings: false });
  try {
    const r = await fetch(`${bare.url}/embeddings`, { method: 'POST', body: '{}' });
    assert.equal(r.status, 404);
    const models = (await (await fetch(`${bare.url}/models`)).json()) as { data: { id: string }[] };
    assert.ok(!models.data.some((m) => m.id === 'reference-embedding'));
  } finally {
    await bare.close();
  }
});
