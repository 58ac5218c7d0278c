// The loopback proxy that lets a run child use a model living in the extension host: the real openai client on
// one side, a scripted ModelClient on the other.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { nodeClock } from '../../../../src/core/node/nodeHost.js';
import type { ModelClient, ModelRequest, ModelResult } from '../../../../src/core/llm/client.js';
import { OpenAICompatibleClient } from '../../../../src/core/llm/openai.js';
import { startModelProxy } from '../../../../src/extension/lm/modelProxy.js';

const seen: ModelRequest[] = [];
let next: ModelResult = { ok: true, text: 'hello', usage: { promptTokens: 3, completionTokens: 1 }, latencyMs: 1, cached: false, attempts: 1 };
const scripted: ModelClient = { id: 'scripted', complete: async (r) => (seen.push(r), next) };
const proxy = await startModelProxy(scripted);
after(() => proxy.close());
const client = (key = proxy.token) => new OpenAICompatibleClient({ baseUrl: proxy.baseUrl, apiKey: key, clock: nodeClock, model: 'vscode-lm/x/y' });

test('a chat completion goes through with its messages and parameters', async () => {
  const r = await client().complete({ model: 'vscode-lm/x/y', messages: [{ role: 'system', content: 's' }, { role: 'user', content: 'u' }], temperature: 0.3, maxTokens: 50, seed: 4 });
  assert.equal(r.ok, true);
  assert.equal(r.ok && r.text, 'hello');
  assert.deepEqual(r.ok && r.usage, { promptTokens: 3, completionTokens: 1 });
  assert.deepEqual(seen.at(-1), { model: 'vscode-lm/x/y', messages: [{ role: 'system', content: 's' }, { role: 'user', content: 'u' }], temperature: 0.3, maxTokens: 50, seed: 4 });
  assert.match(proxy.baseUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
});

test('error kinds survive the round trip', async () => {
  for (const kind of ['rate_limit', 'auth', 'bad_request', 'server'] as const) {
    next = { ok: false, error: { kind, message: `scripted ${kind}` }, latencyMs: 1, cached: false, attempts: 1 };
    const r = await client().complete({ model: 'm', messages: [{ role: 'user', content: 'u' }] });
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.equal(r.error.kind, kind);
      assert.match(r.error.message, new RegExp(`scripted ${kind}`));
    }
  }
});

test('a request with images (a run with vision on) is refused with the setting to change, before the model is called', async () => {
  const before = seen.length;
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
  const r = await client().complete({ model: 'm', messages: [{ role: 'user', content: 'u', parts: [{ type: 'text', text: 'u' }, { type: 'image', mediaType: 'image/png', sha256: '0'.repeat(64), dataBase64: png }] }] });
  assert.equal(r.ok, false);
  assert.equal(!r.ok && r.error.kind, 'bad_request');
  assert.match(!r.ok ? r.error.message : '', /images cannot be sent through the VS Code Language Model API bridge .* turn off the setting waypoint\.run\.vision/);
  assert.equal(seen.length, before);
});

test('a wrong token is refused before the model is called', async () => {
  const before = seen.length;
  const r = await client('not-the-token').complete({ model: 'm', messages: [{ role: 'user', content: 'u' }] });
  assert.equal(r.ok, false);
  assert.equal(!r.ok && r.error.kind, 'auth');
  assert.equal(seen.length, before);
});
