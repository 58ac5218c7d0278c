// withRetries: backoff, jitter, Retry-After and attempt counting, with a fake sleep (no real waiting).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { withRetries, backoffMs, parseRetryAfter, DEFAULT_RETRY_POLICY, type Sleep } from '../../../../src/core/llm/retry.js';
import { OpenAICompatibleClient } from '../../../../src/core/llm/openai.js';
import { seededRng } from '../../../../src/core/host.js';
import { ScriptedClient, steppingClock, msg } from './helpers/scriptedClient.js';
import { startFakeServer, ok, status, type FakeServer } from './helpers/fakeServer.js';

const request = { model: 'm', messages: msg('sys', 'user') };

function fakeSleep(onSleep?: () => void): { sleep: Sleep; waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms) => {
      waits.push(ms);
      onSleep?.();
    },
  };
}

test('rate_limit with Retry-After waits exactly that long, then succeeds; attempts and latency add up', async () => {
  const inner = new ScriptedClient([{ kind: 'rate_limit', message: 'slow down', status: 429, retryAfterMs: 2000 }, 'done']);
  const { sleep, waits } = fakeSleep();
  const r = await withRetries(inner, {}, seededRng(1), sleep).complete(request);
  assert.deepEqual(waits, [2000]);
  assert.equal(r.ok, true);
  assert.equal(r.attempts, 2);
  assert.equal(r.latencyMs, 10 + 2000 + 10);
  assert.equal(inner.requests.length, 2);
});

test('server, timeout and network errors back off exponentially with jitter inside [d/2, d)', async () => {
  const inner = new ScriptedClient([
    { kind: 'server', message: '500' },
    { kind: 'timeout', message: 't' },
    { kind: 'network', message: 'ECONNRESET' },
    'ok',
  ]);
  const { sleep, waits } = fakeSleep();
  const r = await withRetries(inner, { baseDelayMs: 500 }, seededRng(42), sleep).complete(request);
  assert.equal(r.ok, true);
  assert.equal(r.attempts, 4);
  assert.equal(waits.length, 3);
  [500, 1000, 2000].forEach((d, i) => {
    assert.ok(waits[i]! >= d / 2 && waits[i]! <= d, `wait ${i} = ${waits[i]} outside [${d / 2}, ${d}]`);
  });
});

test('the same seed gives the same jitter', async () => {
  const run = async () => {
    const { sleep, waits } = fakeSleep();
    await withRetries(new ScriptedClient([{ kind: 'server', message: 'x' }, { kind: 'server', message: 'x' }, 'ok']), {}, seededRng(9), sleep).complete(request);
    return waits;
  };
  assert.deepEqual(await run(), await run());
});

test('backoff is capped at maxDelayMs', () => {
  const rng = seededRng(3);
  for (let attempt = 1; attempt <= 30; attempt++) {
    const d = backoffMs(attempt, DEFAULT_RETRY_POLICY, rng);
    assert.ok(d <= 20_000, `attempt ${attempt}: ${d} ms over the cap`);
  }
  assert.ok(backoffMs(20, DEFAULT_RETRY_POLICY, rng) >= 10_000);
});

for (const kind of ['bad_request', 'auth', 'bad_response', 'cancelled'] as const) {
  test(`${kind} is not retried and keeps the provider message`, async () => {
    const inner = new ScriptedClient([{ kind, message: `provider says no (${kind})`, status: 400 }, 'unused']);
    const { sleep, waits } = fakeSleep();
    const r = await withRetries(inner, {}, seededRng(1), sleep).complete(request);
    assert.equal(r.ok, false);
    if (!r.ok) assert.equal(r.error.message, `provider says no (${kind})`);
    assert.equal(r.attempts, 1);
    assert.deepEqual(waits, []);
  });
}

test('a network error marked permanent (connection refused on loopback) returns at once, a plain one is retried', async () => {
  const inner = new ScriptedClient([{ kind: 'network', message: 'refused: nothing is listening', permanent: true }, 'unused']);
  const { sleep, waits } = fakeSleep();
  const r = await withRetries(inner, {}, seededRng(1), sleep).complete(request);
  assert.equal(r.attempts, 1);
  assert.deepEqual(waits, []);
  const flaky = new ScriptedClient([{ kind: 'network', message: 'ECONNRESET' }, 'done']);
  const again = await withRetries(flaky, {}, seededRng(1), fakeSleep().sleep).complete(request);
  assert.equal(again.ok, true);
  assert.equal(again.attempts, 2);
});

test('gives up after maxAttempts (default 5) and says so', async () => {
  const inner = new ScriptedClient(Array.from({ length: 6 }, () => ({ kind: 'server' as const, message: 'HTTP 502 bad gateway' })));
  const { sleep, waits } = fakeSleep();
  const r = await withRetries(inner, {}, seededRng(1), sleep).complete(request);
  assert.equal(r.ok, false);
  assert.equal(r.attempts, 5);
  assert.equal(waits.length, 4);
  assert.equal(inner.requests.length, 5);
  if (!r.ok) assert.match(r.error.message, /HTTP 502 bad gateway \(gave up after 5 attempts\)/);
});

test('a Retry-After beyond maxRetryAfterMs is returned, not waited for', async () => {
  const inner = new ScriptedClient([{ kind: 'rate_limit', message: 'quota', retryAfterMs: 3_600_000 }]);
  const { sleep, waits } = fakeSleep();
  const r = await withRetries(inner, {}, seededRng(1), sleep).complete(request);
  assert.equal(r.ok, false);
  assert.deepEqual(waits, []);
  if (!r.ok) {
    assert.equal(r.error.kind, 'rate_limit');
    assert.match(r.error.message, /asks to wait 3600\.0 s/);
  }
});

test('abort while waiting -> cancelled without another call', async () => {
  const ctl = new AbortController();
  const inner = new ScriptedClient([{ kind: 'server', message: 'x' }, 'unused']);
  const { sleep } = fakeSleep(() => ctl.abort());
  const r = await withRetries(inner, {}, seededRng(1), sleep).complete(request, { signal: ctl.signal });
  assert.equal(r.ok, false);
  if (!r.ok) assert.equal(r.error.kind, 'cancelled');
  assert.equal(inner.requests.length, 1);
});

test('rejects maxAttempts < 1', () => {
  assert.throws(() => withRetries(new ScriptedClient([]), { maxAttempts: 0 }, seededRng(1), fakeSleep().sleep), /maxAttempts/);
});

test('parseRetryAfter: seconds, fractions, HTTP dates, junk', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  assert.equal(parseRetryAfter('2', now), 2000);
  assert.equal(parseRetryAfter(' 0.5 ', now), 500);
  assert.equal(parseRetryAfter('Wed, 01 Jan 2025 00:00:10 GMT', now), 10_000);
  assert.equal(parseRetryAfter('Tue, 31 Dec 2024 23:59:00 GMT', now), 0);
  assert.equal(parseRetryAfter('soon', now), undefined);
  assert.equal(parseRetryAfter(null, now), undefined);
  assert.equal(parseRetryAfter('', now), undefined);
});

// Through the real client over HTTP.
let server: FakeServer;
before(async () => {
  server = await startFakeServer();
});
after(() => server.close());

test('over HTTP: 429 with Retry-After then 200 -> ok after 2 attempts, waiting the server-given time', async () => {
  server.queue(status(429, 'Rate limit reached', { 'retry-after': '1' }), ok('after the wait'));
  const { sleep, waits } = fakeSleep();
  const client = withRetries(new OpenAICompatibleClient({ baseUrl: server.url, apiKey: 'k', clock: steppingClock() }), {}, seededRng(1), sleep);
  const r = await client.complete(request);
  assert.equal(r.ok, true);
  if (r.ok) assert.equal(r.text, 'after the wait');
  assert.equal(r.attempts, 2);
  assert.deepEqual(waits, [1000]);
});

test('over HTTP: 500 then 200 -> ok after 2 attempts; 400 -> one attempt with the provider message', async () => {
  const { sleep, waits } = fakeSleep();
  const client = withRetries(new OpenAICompatibleClient({ baseUrl: server.url, apiKey: 'k', clock: steppingClock() }), {}, seededRng(1), sleep);
  server.queue(status(500, 'boom'), ok('recovered'));
  const a = await client.complete(request);
  assert.equal(a.ok, true);
  assert.equal(a.attempts, 2);
  assert.equal(waits.length, 1);

  server.queue(status(400, "'messages' must not be empty"));
  const before = server.requests.length;
  const b = await client.complete(request);
  assert.equal(b.ok, false);
  assert.equal(b.attempts, 1);
  assert.equal(server.requests.length - before, 1);
  if (!b.ok) assert.match(b.error.message, /'messages' must not be empty/);
});
