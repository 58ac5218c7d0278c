// The local embedding client: each text goes through the model once (the admissible actions recur step after
// step, and across a worker's episodes), a cancelled call says so, and `--embedding-model local:<dir>` reaches
// LLaMAR's matcher through makeEmbeddings with the folder named as given.
import assert from 'node:assert/strict';
import { relative } from 'node:path';
import { test } from 'node:test';
import { admissibleActions, matchActionWithEmbeddings } from '../../../../../src/architectures/llamar/actionMatcher.js';
import { cosine, EmbeddingCache } from '../../../../../src/core/llm/embeddings.js';
import { LocalEmbeddingClient, localEmbeddingClient } from '../../../../../src/core/llm/localEmbedding/client.js';
import { loadSentenceModel } from '../../../../../src/core/llm/localEmbedding/model.js';
import { localModelDir } from '../../../../../src/core/llm/localEmbedding/name.js';
import { makeEmbeddings } from '../../../../../src/core/runs/launch.js';
import { golden, TINY } from './helpers.js';

const clock = { nowMs: () => performance.now(), isoNow: () => new Date().toISOString() };

test('a text is embedded once: repeats within a call and later calls come from the cache, in the order asked', async () => {
  const client = new LocalEmbeddingClient('local:tiny', loadSentenceModel(TINY));
  const [a, b] = [golden.sentences[0]!, golden.sentences[1]!];
  const first = await client.embed([a.text, b.text, a.text]);
  assert.ok(first.ok);
  assert.equal(client.computed, 2);
  assert.deepEqual(first.vectors[0], first.vectors[2]);
  const again = await client.embed([b.text, a.text]);
  assert.ok(again.ok);
  assert.equal(client.computed, 2, 'nothing recomputed');
  assert.deepEqual(again.vectors, [first.vectors[1], first.vectors[0]]);
  // 40 texts: two forward passes (batches of 32), every vector the model's.
  const many = Array.from({ length: 40 }, (_, i) => `navigate to object Apple_${i}`);
  const r = await client.embed(many);
  assert.ok(r.ok);
  assert.equal(client.computed, 42);
  assert.deepEqual(r.vectors[39], Array.from(loadSentenceModel(TINY).embed([many[39]!])[0]!));
});

test('clients of one folder share the loaded model and the vectors; a cancelled call embeds nothing and says so', async () => {
  const one = localEmbeddingClient(TINY, 'local:a');
  await one.embed(['open the fridge']);
  const two = localEmbeddingClient(TINY, 'local:b');
  await two.embed(['open the fridge', 'close the fridge']);
  assert.deepEqual([one.computed, two.computed, two.model], [1, 1, 'local:b']);
  const ac = new AbortController();
  ac.abort();
  const r = await two.embed(['pick up the apple'], { signal: ac.signal });
  assert.ok(!r.ok && r.error.kind === 'cancelled' && !r.unsupported);
  assert.equal(two.computed, 1);
});

test('local:<dir> and paths starting with / ./ ../ name a folder (relative ones from the workspace); other names are endpoint models', () => {
  assert.equal(localModelDir('local:models/m', '/ws'), '/ws/models/m');
  assert.equal(localModelDir('local:/abs/m', '/ws'), '/abs/m');
  assert.equal(localModelDir('./m', '/ws'), '/ws/m');
  assert.equal(localModelDir('../m', '/ws/sub'), '/ws/m');
  assert.equal(localModelDir('/abs/m', '/ws'), '/abs/m');
  for (const name of ['nomic-embed-text', 'sentence-transformers/all-MiniLM-L6-v2', 'text-embedding-3-small', 'none']) assert.equal(localModelDir(name, '/ws'), undefined, name);
});

test("LLaMAR's matcher through makeEmbeddings with local:<dir>: the local model decides, its cosines are the scores, the header names the folder", async () => {
  const name = `local:${relative(process.cwd(), TINY)}`;
  const made = makeEmbeddings({ kind: 'reference', embeddingModel: name }, 'http://127.0.0.1:9/v1', clock, process.cwd())!;
  assert.deepEqual(made.settings, { embeddingModel: 'local:test/fixtures/tiny-sbert' });
  assert.equal(made.client.model, name);
  const opts = { explore: true, exploreArgs: [3, 2] as [number, number], embeddingThreshold: -1 };
  const known = ['Fridge_1', 'Apple_1', 'CounterTop_1'];
  const r = await matchActionWithEmbeddings('open the refrigerator', known, opts, new EmbeddingCache(made.client));
  // A random model's closest action may be refused (its verb is not Open); what matters is who decided and with what.
  assert.equal(r.matcher, 'embedding', JSON.stringify(r));
  assert.equal(r.fallback, undefined);
  // The scores are the cosines of the model's own vectors (computed here without the client), best first.
  const model = loadSentenceModel(TINY);
  const [q, ...actions] = model.embed(['open the refrigerator', ...admissibleActions(known, opts).map((a) => a.text)]).map((v) => Array.from(v));
  const best = Math.max(...actions.map((a) => cosine(q!, a)));
  assert.ok(Math.abs(r.candidates[0]!.score - best) < 1e-3, `${r.candidates[0]!.score} vs ${best}`);
});
