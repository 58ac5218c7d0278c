// Embedding calls (LLaMAR's matcher) are retried and metered as chat calls are: withEmbeddingRetries over the real
// client against a local HTTP server (429 with Retry-After, 5xx, a refused route), and withEmbeddingMeter's grant,
// settle and budget with the endpoint's usage or the estimate.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { seededRng } from '../../../../src/core/host.js';
import { OpenAIEmbeddingClient, withEmbeddingRetries, type EmbeddingClient, type EmbeddingResult } from '../../../../src/core/llm/embeddings.js';
import type { Sleep } from '../../../../src/core/llm/retry.js';
import { estimateEmbeddingTokens, withEmbeddingMeter, type Meter } from '../../../../src/core/sweep/rateLimit.js';
import { json, startFakeServer, type FakeServer } from './helpers/fakeServer.js';
import { steppingClock } from './helpers/scriptedClient.js';

let server: FakeServer;
before(async () => {
  server = await startFakeServer();
});
after(async () => {
  await server.close();
});

const vectors = (n: number, usage?: number) => ({ object: 'list', data: Array.from({ length: n }, (_, i) => ({ object: 'embedding', index: i, embedding: [1, i, 0.5] })), model: 'e', ...(usage !== undefined ? { usage: { prompt_tokens: usage, total_tokens: usage } } : {}) });

function recordingSleep(): { sleep: Sleep; waits: number[] } {
  const waits: number[] = [];
  return { waits, sleep: async (ms) => void waits.push(ms) };
}

const client = () => new OpenAIEmbeddingClient({ baseUrl: server.url, model: 'e', clock: steppingClock() });

test('a 429 with Retry-After is waited out and asked again; the vectors and the usage come back', async () => {
  const start = server.requests.length;
  server.queue(
    (_r, res) => json(res, 429, { error: { message: 'slow down' } }, { 'retry-after': '3' }),
    (_r, res) => json(res, 200, vectors(2, 7)),
  );
  const { sleep, waits } = recordingSleep();
  const r = await withEmbeddingRetries(client(), {}, seededRng(1), sleep).embed(['open the fridge', 'OpenObject(Fridge_1)']);
  assert.equal(r.ok, true);
  assert.deepEqual(waits, [3000]);
  assert.equal(server.requests.length - start, 2);
  assert.equal(r.ok && r.promptTokens, 7);
});

test('5xx errors are retried up to the attempt count, then the error says it gave up', async () => {
  const start = server.requests.length;
  server.queue(...Array.from({ length: 3 }, () => (_r: unknown, res: Parameters<Parameters<FakeServer['queue']>[0]>[1]) => json(res, 503, { error: { message: 'busy' } })));
  const { sleep, waits } = recordingSleep();
  const r = await withEmbeddingRetries(client(), { maxAttempts: 3 }, seededRng(1), sleep).embed(['x']);
  assert.equal(r.ok, false);
  assert.equal(server.requests.length - start, 3);
  assert.equal(waits.length, 2);
  assert.match(!r.ok ? r.error.message : '', /gave up after 3 attempts/);
  assert.equal(!r.ok && r.unsupported, false, 'a busy server may serve embeddings later');
});

test('an endpoint without the route is not asked again (unsupported, no retry)', async () => {
  const start = server.requests.length;
  server.queue((_r, res) => json(res, 404, { error: { message: 'no route /v1/embeddings' } }));
  const { sleep, waits } = recordingSleep();
  const r = await withEmbeddingRetries(client(), {}, seededRng(1), sleep).embed(['x']);
  assert.equal(r.ok, false);
  assert.equal(!r.ok && r.unsupported, true);
  assert.equal(server.requests.length - start, 1);
  assert.deepEqual(waits, []);
});

test('an abort while waiting to retry ends the call as cancelled', async () => {
  server.queue((_r, res) => json(res, 500, { error: { message: 'oops' } }));
  const ac = new AbortController();
  const sleep: Sleep = async () => ac.abort();
  const r = await withEmbeddingRetries(client(), {}, seededRng(1), sleep).embed(['x'], { signal: ac.signal });
  assert.equal(!r.ok && r.error.kind, 'cancelled');
});

function fakeMeter(): Meter & { acquired: number[]; settled: number[]; spentTokens: [number, number][] } {
  const m = {
    acquired: [] as number[],
    settled: [] as number[],
    spentTokens: [] as [number, number][],
    async acquire(est: number) {
      m.acquired.push(est);
      return { settle: (t: number) => void m.settled.push(t) };
    },
    spent(p: number, c: number) {
      m.spentTokens.push([p, c]);
    },
  };
  return m;
}

const fixed = (r: EmbeddingResult): EmbeddingClient => ({ model: 'e', embed: async () => r });

test('the meter is asked before each embedding request and charged the endpoint usage, else the estimate', async () => {
  const texts = ['go to the kitchen', 'NavigateTo(Kitchen)'];
  const est = estimateEmbeddingTokens(texts);
  assert.equal(est, Math.ceil((17 + 19) / 4));
  const m = fakeMeter();
  await withEmbeddingMeter(fixed({ ok: true, vectors: [[1], [2]], promptTokens: 12 }), m).embed(texts);
  await withEmbeddingMeter(fixed({ ok: true, vectors: [[1], [2]] }), m).embed(texts);
  await withEmbeddingMeter(fixed({ ok: false, unsupported: false, error: { kind: 'server', message: '500' } }), m).embed(texts);
  assert.deepEqual(m.acquired, [est, est, est]);
  assert.deepEqual(m.settled, [12, est, est], 'a failed request still took its place in the window');
  assert.deepEqual(m.spentTokens, [[12, 0], [est, 0], [0, 0]], 'a failed request costs nothing');
});
