// ResponseCache and withCache: keys, hits and misses on disk (in-memory HostIO), dedupe, what is never stored.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ResponseCache, withCache, canonicalJson, CACHE_KEY_VERSION } from '../../../../src/core/llm/cache.js';
import type { ModelResult } from '../../../../src/core/llm/client.js';
import { OpenAICompatibleClient } from '../../../../src/core/llm/openai.js';
import { MemoryHost } from './helpers/memoryHost.js';
import { ScriptedClient, steppingClock, msg } from './helpers/scriptedClient.js';
import { startFakeServer, ok, type FakeServer } from './helpers/fakeServer.js';

const DIR = '/ws/.waypoint/cache';
const request = { model: 'gpt-x', messages: msg('You plan.', 'Stack.'), temperature: 0, maxTokens: 100, seed: 1 };

test('canonicalJson sorts keys at every depth and drops undefined', () => {
  assert.equal(canonicalJson({ b: 1, a: { d: [1, { z: 0, y: undefined }], c: 'x' } }), '{"a":{"c":"x","d":[1,{"z":0}]},"b":1}');
});

test('keys: versioned, stable under key order, sensitive to every input', () => {
  const cache = new ResponseCache(new MemoryHost(), DIR);
  const k = cache.keyFor('c1', request);
  assert.match(k, new RegExp(`^${CACHE_KEY_VERSION}:[0-9a-f]{64}$`));
  const reordered = { seed: 1, maxTokens: 100, temperature: 0, messages: request.messages, model: 'gpt-x' };
  assert.equal(cache.keyFor('c1', reordered), k);
  assert.equal(cache.keyFor('c1', { ...request, repeatIndex: 0 }), k, 'repeatIndex defaults to 0');
  assert.equal(cache.keyFor('c1', { ...request, sampleIndex: 0 }), k, 'sample 0 is the usual single request');
  const variants = [
    cache.keyFor('c2', request),
    cache.keyFor('c1', { ...request, model: 'gpt-y' }),
    cache.keyFor('c1', { ...request, messages: msg('You plan.', 'Stack!') }),
    cache.keyFor('c1', { ...request, temperature: 0.5 }),
    cache.keyFor('c1', { ...request, maxTokens: 101 }),
    cache.keyFor('c1', { ...request, seed: 2 }),
    cache.keyFor('c1', { ...request, repeatIndex: 1 }),
    cache.keyFor('c1', { ...request, sampleIndex: 1 }),
    cache.keyFor('c1', { ...request, sampleIndex: 2 }),
  ];
  assert.equal(new Set([k, ...variants]).size, variants.length + 1);
});

test('miss then hit: the second call is served from disk with cached: true', async () => {
  const host = new MemoryHost();
  const inner = new ScriptedClient(['answer one']);
  const client = withCache(inner, new ResponseCache(host, DIR));
  const first = await client.complete(request);
  assert.equal(first.ok && first.cached, false);
  const second = await client.complete(request);
  assert.deepEqual(second, { ok: true, text: 'answer one', usage: undefined, latencyMs: 0, cached: true, attempts: 0 });
  assert.equal(inner.requests.length, 1);
  const hash = client.keyFor(request).split(':')[1]!;
  const path = `${DIR}/${hash.slice(0, 2)}/${hash}.json`;
  assert.ok(host.files.has(path), `expected ${path}`);
  assert.equal(JSON.parse(host.files.get(path)!).text, 'answer one');
});

test('a different repeatIndex is a miss', async () => {
  const inner = new ScriptedClient(['r0', 'r1']);
  const client = withCache(inner, new ResponseCache(new MemoryHost(), DIR));
  await client.complete({ ...request, repeatIndex: 0 });
  const r = await client.complete({ ...request, repeatIndex: 1 });
  assert.equal(r.ok && r.text, 'r1');
  assert.equal(inner.requests.length, 2);
});

test('identical concurrent calls run once', async () => {
  let release!: (r: ModelResult) => void;
  const gate = new Promise<ModelResult>((resolve) => (release = resolve));
  const inner = new ScriptedClient([() => gate]);
  const client = withCache(inner, new ResponseCache(new MemoryHost(), DIR));
  const calls = [client.complete(request), client.complete(request), client.complete(request)];
  // All three joined synchronously; the one real call is still held at the gate.
  release({ ok: true, text: 'shared', latencyMs: 3, cached: false, attempts: 1 });
  const results = await Promise.all(calls);
  assert.equal(inner.requests.length, 1);
  assert.deepEqual(results.map((r) => (r.ok ? r.text : 'fail')), ['shared', 'shared', 'shared']);
  assert.deepEqual(results.map((r) => r.cached), [false, true, true]);
});

test('errors are never stored', async () => {
  const host = new MemoryHost();
  const inner = new ScriptedClient([{ kind: 'server', message: 'HTTP 500' }, 'good']);
  const client = withCache(inner, new ResponseCache(host, DIR));
  assert.equal((await client.complete(request)).ok, false);
  assert.equal(host.files.size, 0);
  const r = await client.complete(request);
  assert.equal(r.ok && r.text, 'good');
  assert.equal(inner.requests.length, 2);
});

test('empty answers are never stored', async () => {
  const host = new MemoryHost();
  const inner = new ScriptedClient(['', 'now with text']);
  const cache = new ResponseCache(host, DIR);
  const client = withCache(inner, cache);
  await client.complete(request);
  assert.equal(host.files.size, 0);
  assert.equal(await cache.set({ key: cache.keyFor('x', request), text: '', clientId: 'x', model: 'm' }), false);
  const r = await client.complete(request);
  assert.equal(r.ok && r.text, 'now with text');
});

test('evict(key) removes an entry so the next call asks the model again', async () => {
  const inner = new ScriptedClient(['unparseable', 'better']);
  const cache = new ResponseCache(new MemoryHost(), DIR);
  const client = withCache(inner, cache);
  await client.complete(request);
  assert.equal(await cache.evict(client.keyFor(request)), true);
  assert.equal(await cache.evict(client.keyFor(request)), false);
  const r = await client.complete(request);
  assert.equal(r.ok && r.text, 'better');
  assert.equal(r.cached, false);
});

test('a corrupt entry is a miss with a warning; a failed write is a warning, not a failed call', async () => {
  const host = new MemoryHost();
  const seen: string[] = [];
  const cache = new ResponseCache(host, DIR, { onWarning: (m) => seen.push(m) });
  const key = cache.keyFor('scripted', request);
  host.files.set(cache.pathFor(key), '{"key": "trunc');
  const inner = new ScriptedClient(['fresh', 'again']);
  const client = withCache(inner, cache);
  const r = await client.complete(request);
  assert.equal(r.ok && r.text, 'fresh');
  assert.match(seen[0]!, /cache entry unreadable, treated as a miss/);

  host.failWrites = true;
  const r2 = await client.complete({ ...request, seed: 99 });
  assert.equal(r2.ok && r2.text, 'again');
  assert.match(cache.warnings.at(-1)!, /cache write failed: EACCES/);
});

test('evict rejects something that is not a cache key', async () => {
  await assert.rejects(new ResponseCache(new MemoryHost(), DIR).evict('../../etc/passwd'), /not a cache key/);
});

let server: FakeServer;
before(async () => {
  server = await startFakeServer();
});
after(() => server.close());

test('over HTTP: a cached openai client calls the server once for two identical requests', async () => {
  server.queue(ok('from the server'));
  const before = server.requests.length;
  const client = withCache(new OpenAICompatibleClient({ baseUrl: server.url, clock: steppingClock(), id: 'test-endpoint' }), new ResponseCache(new MemoryHost(), DIR));
  const a = await client.complete(request);
  const b = await client.complete(request);
  assert.equal(server.requests.length - before, 1);
  assert.equal(a.ok && b.ok && a.text === b.text, true);
  assert.equal(b.cached, true);
});
