// OpenAICompatibleClient through the real openai SDK over HTTP against a local fake server.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenAICompatibleClient } from '../../../../src/core/llm/openai.js';
import type { ModelResult } from '../../../../src/core/llm/client.js';
import { startFakeServer, json, ok, status, completion, type FakeServer } from './helpers/fakeServer.js';
import { steppingClock, msg } from './helpers/scriptedClient.js';

const KEY = 'sk-test-SECRET-0123456789abcdef';
let server: FakeServer;
before(async () => {
  server = await startFakeServer();
});
after(() => server.close());

const request = { model: 'test-model', messages: msg('You are a planner.', 'Stack the cubes.'), temperature: 0.2, maxTokens: 64, seed: 7 };
const client = (extra: Partial<ConstructorParameters<typeof OpenAICompatibleClient>[0]> = {}) =>
  new OpenAICompatibleClient({ baseUrl: server.url, apiKey: KEY, clock: steppingClock(), model: 'test-model', ...extra });

function assertFail(r: ModelResult, kind: string): asserts r is Extract<ModelResult, { ok: false }> {
  assert.equal(r.ok, false, `expected a ${kind} failure, got ${JSON.stringify(r)}`);
  if (!r.ok) assert.equal(r.error.kind, kind, r.error.message);
}

test('success: sends model, temperature, max_tokens, seed and bearer key; reports text, usage, latency', async () => {
  server.queue(ok('PLAN: pick red'));
  const before = server.requests.length;
  const r = await client().complete(request);
  assert.deepEqual(r, { ok: true, text: 'PLAN: pick red', usage: { promptTokens: 11, completionTokens: 3 }, latencyMs: 5, cached: false, attempts: 1 });
  const sent = server.requests[before]!;
  assert.equal(sent.method, 'POST');
  assert.equal(sent.path, '/v1/chat/completions');
  assert.equal(sent.headers.authorization, `Bearer ${KEY}`);
  const body = JSON.parse(sent.body);
  assert.equal(body.model, 'test-model');
  assert.equal(body.temperature, 0.2);
  assert.equal(body.max_tokens, 64);
  assert.equal(body.seed, 7);
  assert.deepEqual(body.messages, request.messages);
});

test('max_completion_tokens field when configured; group-chat names sanitised', async () => {
  server.queue(ok('x'));
  const before = server.requests.length;
  await client({ maxTokensField: 'max_completion_tokens' }).complete({ ...request, messages: [{ role: 'user', content: 'hi', name: 'Robot Alice' }] });
  const body = JSON.parse(server.requests[before]!.body);
  assert.equal(body.max_completion_tokens, 64);
  assert.equal(body.max_tokens, undefined);
  assert.equal(body.messages[0].name, 'Robot_Alice');
});

test('429 with Retry-After seconds -> rate_limit with retryAfterMs; the SDK does not retry by itself', async () => {
  server.queue(status(429, 'Rate limit reached for requests', { 'retry-after': '2' }));
  const before = server.requests.length;
  const r = await client().complete(request);
  assertFail(r, 'rate_limit');
  assert.equal(r.error.status, 429);
  assert.equal(r.error.retryAfterMs, 2000);
  assert.match(r.error.message, /Rate limit reached for requests/);
  assert.equal(server.requests.length - before, 1);
});

test('429 with an HTTP-date Retry-After is converted against the injected clock', async () => {
  server.queue(status(429, 'slow down', { 'retry-after': 'Wed, 01 Jan 2025 00:00:03 GMT' }));
  const r = await client({ clock: steppingClock('2025-01-01T00:00:00.000Z') }).complete(request);
  assertFail(r, 'rate_limit');
  assert.equal(r.error.retryAfterMs, 3000);
});

test('retry-after-ms takes precedence', async () => {
  server.queue(status(503, 'overloaded', { 'retry-after-ms': '250', 'retry-after': '9' }));
  const r = await client().complete(request);
  assertFail(r, 'server');
  assert.equal(r.error.retryAfterMs, 250);
});

test('500 -> server', async () => {
  server.queue(status(500, 'The server had an error'));
  const r = await client().complete(request);
  assertFail(r, 'server');
  assert.equal(r.error.status, 500);
  assert.match(r.error.message, /The server had an error/);
});

test('400 keeps the provider message -> bad_request', async () => {
  server.queue(status(400, "Invalid value for 'temperature': must be <= 2"));
  const r = await client().complete(request);
  assertFail(r, 'bad_request');
  assert.equal(r.error.status, 400);
  assert.match(r.error.message, /Invalid value for 'temperature': must be <= 2/);
});

test('404 (unknown model) -> bad_request; Ollama-style string error bodies keep their text', async () => {
  server.queue((_q, res) => json(res, 404, { error: "model 'llama9' not found" }));
  const r = await client().complete(request);
  assertFail(r, 'bad_request');
  assert.equal(r.error.status, 404);
  assert.match(r.error.message, /model 'llama9' not found/);
});

test('401 and 403 -> auth', async () => {
  server.queue(status(401, 'Incorrect API key provided'), status(403, 'Project does not have access'));
  assertFail(await client().complete(request), 'auth');
  const r = await client().complete(request);
  assertFail(r, 'auth');
  assert.equal(r.error.status, 403);
});

test('garbage JSON body -> bad_response', async () => {
  server.queue((_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"choices": [ this is not json');
  });
  const r = await client().complete(request);
  assertFail(r, 'bad_response');
  assert.match(r.error.message, /not valid JSON/);
});

test('non-JSON content type -> bad_response', async () => {
  server.queue((_q, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html>proxy login</html>');
  });
  const r = await client().complete(request);
  assertFail(r, 'bad_response');
  assert.match(r.error.message, /not a JSON chat completion/);
});

test('empty choices and null content -> bad_response', async () => {
  server.queue(
    (_q, res) => json(res, 200, { ...completion('x'), choices: [] }),
    (_q, res) => json(res, 200, { ...completion('x'), choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: 'I cannot help' }, finish_reason: 'stop' }] }),
  );
  const a = await client().complete(request);
  assertFail(a, 'bad_response');
  assert.match(a.error.message, /empty "choices"/);
  const b = await client().complete(request);
  assertFail(b, 'bad_response');
  assert.match(b.error.message, /refusal: I cannot help/);
});

test('no reply before the timeout -> timeout', async () => {
  server.queue(() => {
    /* never answer; close() drops the socket */
  });
  const r = await client({ timeoutMs: 50 }).complete(request);
  assertFail(r, 'timeout');
});

test('headers sent but the body stalls past the timeout -> timeout (the timer covers the body too)', async () => {
  server.queue((_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"id": "x", ');
  });
  const r = await client({ timeoutMs: 50 }).complete(request);
  assertFail(r, 'timeout');
});

test('connection reset -> network', async () => {
  server.queue((_q, res) => res.socket?.destroy());
  const r = await client().complete(request);
  assertFail(r, 'network');
  assert.match(r.error.message, /connection to .* failed/);
});

test('connection refused on loopback -> a permanent network error: nothing listens there, so no retry', async () => {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  const r = await client({ baseUrl: `http://127.0.0.1:${port}/v1` }).complete(request);
  assertFail(r, 'network');
  assert.match(r.error.message, /refused: nothing is listening on that port/);
  assert.equal(r.error.permanent, true);
});

test('abort via AbortSignal -> cancelled (before and during the call)', async () => {
  const pre = new AbortController();
  pre.abort();
  assertFail(await client().complete(request, { signal: pre.signal }), 'cancelled');

  server.queue(() => {
    /* hold */
  });
  const ctl = new AbortController();
  const n = server.requests.length + 1;
  const pending = client().complete(request, { signal: ctl.signal });
  await server.arrived(n);
  ctl.abort();
  assertFail(await pending, 'cancelled');
});

test('keyless client sends no Authorization header; environment variables are not read', async () => {
  const saved = { key: process.env.OPENAI_API_KEY, base: process.env.OPENAI_BASE_URL };
  process.env.OPENAI_API_KEY = 'sk-from-env-should-not-be-used';
  process.env.OPENAI_BASE_URL = 'http://127.0.0.1:9/v1';
  try {
    server.queue(ok('fine'));
    const before = server.requests.length;
    const r = await new OpenAICompatibleClient({ baseUrl: server.url, clock: steppingClock() }).complete(request);
    assert.equal(r.ok, true);
    assert.equal(server.requests[before]!.headers.authorization, undefined);
  } finally {
    if (saved.key === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = saved.key;
    if (saved.base === undefined) delete process.env.OPENAI_BASE_URL;
    else process.env.OPENAI_BASE_URL = saved.base;
  }
});

test('api-key auth style (Azure classic) sends the key in api-key, not Authorization, and adds the query', async () => {
  server.queue(ok('azure'));
  const before = server.requests.length;
  await client({ authStyle: 'api-key', defaultQuery: { 'api-version': '2024-10-21' } }).complete(request);
  const sent = server.requests[before]!;
  assert.equal(sent.headers['api-key'], KEY);
  assert.equal(sent.headers.authorization, undefined);
  assert.match(sent.path, /api-version=2024-10-21/);
});

test('the API key never appears in results, errors or the client object, even when the server echoes it', async () => {
  const echo = (code: number) => (q: { headers: Record<string, unknown> }, res: Parameters<typeof json>[0]) => {
    const seen = JSON.stringify(q.headers);
    if (code === 200) json(res, 200, completion(`headers were ${seen}`));
    else json(res, code, { error: { message: `bad key in ${seen}` } });
  };
  server.queue(echo(200), echo(400), echo(401), echo(500), echo(429));
  const results: ModelResult[] = [];
  for (let i = 0; i < 5; i++) results.push(await client().complete(request));
  assert.equal(results[0]!.ok, true);
  assert.deepEqual(results.slice(1).map((r) => (r.ok ? 'ok' : r.error.kind)), ['bad_request', 'auth', 'server', 'rate_limit']);
  const dump = JSON.stringify(results);
  assert.ok(dump.includes('[redacted]'), 'the echoed key was replaced');
  assert.ok(!dump.includes(KEY), 'key leaked into a result');
  const c = client();
  assert.ok(!inspect(c, { depth: 10, showHidden: true }).includes(KEY), 'key visible through util.inspect');
  assert.ok(!JSON.stringify(c).includes(KEY), 'key visible through JSON.stringify');
  assert.ok(!c.id.includes(KEY));
});

test('rejects a base URL without a scheme', () => {
  assert.throws(() => new OpenAICompatibleClient({ baseUrl: 'localhost:11434', clock: steppingClock() }), /baseUrl must start with http/);
});
