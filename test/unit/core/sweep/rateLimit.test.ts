// Rate limits against a local fake OpenAI-compatible endpoint that counts requests (and tokens) per window: the
// openai SDK over real HTTP, gated by the sweep's RateLimiter through the same wrapper launchRun uses.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { nodeClock } from '../../../../src/core/node/nodeHost.js';
import { OpenAICompatibleClient } from '../../../../src/core/llm/openai.js';
import { RateLimiter, withMeter } from '../../../../src/core/sweep/rateLimit.js';

async function fakeEndpoint(usage: { prompt: number; completion: number }) {
  const arrivals: number[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      arrivals.push(Date.now());
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: 'fake', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'ok' } }], usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, arrivals, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** The most requests that arrived within any window of `ms`. */
function maxPerWindow(arrivals: number[], ms: number): number {
  const a = [...arrivals].sort((x, y) => x - y);
  let best = 0;
  for (let i = 0; i < a.length; i++) {
    let j = i;
    while (j < a.length && a[j]! - a[i]! < ms) j++;
    best = Math.max(best, j - i);
  }
  return best;
}

const WINDOW = 400;

test('requests per window are never exceeded, however many workers ask at once', async () => {
  const ep = await fakeEndpoint({ prompt: 10, completion: 5 });
  try {
    const limiter = new RateLimiter({ requestsPerMinute: 3 }, nodeClock, undefined, WINDOW);
    const meter = { acquire: (e: number) => limiter.acquire(e), spent: () => {} };
    const clients = [0, 1, 2].map(() => withMeter(new OpenAICompatibleClient({ baseUrl: ep.url, clock: nodeClock, model: 'fake' }), meter));
    const t0 = Date.now();
    const results = await Promise.all(Array.from({ length: 9 }, (_, i) => clients[i % 3]!.complete({ model: 'fake', messages: [{ role: 'user', content: `q${i}` }], maxTokens: 8 })));
    assert.ok(results.every((r) => r.ok));
    assert.equal(ep.arrivals.length, 9);
    // Small slack for HTTP latency between the grant and the arrival.
    assert.ok(maxPerWindow(ep.arrivals, WINDOW - 60) <= 3, `at most 3 per window, saw ${maxPerWindow(ep.arrivals, WINDOW - 60)}`);
    assert.ok(Date.now() - t0 >= 2 * WINDOW, '9 requests at 3 per window need at least two full windows');
  } finally {
    await ep.close();
  }
});

test('tokens per window use the reported usage', async () => {
  const ep = await fakeEndpoint({ prompt: 60, completion: 40 });
  try {
    // 250 tokens per window and 100 per call (a 240-character prompt, at most 40 tokens of answer): two calls fit,
    // the third waits for the window to move.
    const limiter = new RateLimiter({ tokensPerMinute: 250 }, nodeClock, undefined, WINDOW);
    let spent = 0;
    const client = withMeter(new OpenAICompatibleClient({ baseUrl: ep.url, clock: nodeClock, model: 'fake' }), { acquire: (e) => limiter.acquire(e), spent: (p, c) => void (spent += p + c) });
    for (let i = 0; i < 6; i++) assert.ok((await client.complete({ model: 'fake', messages: [{ role: 'user', content: 'x'.repeat(240) }], maxTokens: 40 })).ok);
    assert.equal(spent, 600);
    assert.ok(maxPerWindow(ep.arrivals, WINDOW - 60) <= 2, `saw ${maxPerWindow(ep.arrivals, WINDOW - 60)} in one window`);
  } finally {
    await ep.close();
  }
});
