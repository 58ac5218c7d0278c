// The reference server through the openai SDK (non-streaming and streaming), raw fetch, and our own client.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startReferenceServer, type ReferenceServer } from '../../../../../src/core/llm/reference/server.js';
import { RolePolicyRegistry, roleDispatchPolicy, REFERENCE_LABEL } from '../../../../../src/core/llm/reference/policy.js';
import { roleMarkerLine } from '../../../../../src/core/llm/roleMarker.js';
import { OpenAICompatibleClient } from '../../../../../src/core/llm/openai.js';
import { steppingClock } from '../helpers/scriptedClient.js';

const registry = new RolePolicyRegistry();
registry.register('malmm', 'planner', (messages) => `1. pick ${messages.at(-1)!.content}\n2. place it`);
registry.register('malmm', 'broken', () => {
  throw new Error('no cube in the observation');
});

let server: ReferenceServer;
let sdk: OpenAI;
before(async () => {
  server = await startReferenceServer({ models: new Map([['reference', roleDispatchPolicy(registry)]]) });
  sdk = new OpenAI({ baseURL: server.url, apiKey: 'unused', maxRetries: 0 });
});
after(() => server.close());

const plannerMessages = (task: string) => [
  { role: 'system' as const, content: `${roleMarkerLine('malmm', 'planner')}\nYou are the planner.` },
  { role: 'user' as const, content: task },
];

test('listens on loopback with an ephemeral port and returns the /v1 URL', () => {
  assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  assert.ok(server.port > 0);
});

test('SDK non-streaming: policy answer, labelled model, fingerprint, usage (chars/4), header', async () => {
  const { data, response } = await sdk.chat.completions.create({ model: 'reference', messages: plannerMessages('red cube') }).withResponse();
  assert.equal(data.choices[0]!.message.content, '1. pick red cube\n2. place it');
  assert.equal(data.choices[0]!.finish_reason, 'stop');
  assert.equal(data.model, REFERENCE_LABEL);
  assert.match(data.system_fingerprint!, /reference \(scripted, not an LLM\)/);
  assert.equal(response.headers.get('x-waypoint-model'), 'reference-scripted');
  const promptChars = plannerMessages('red cube').reduce((n, m) => n + m.content.length, 0);
  assert.equal(data.usage!.prompt_tokens, Math.ceil(promptChars / 4));
  assert.equal(data.usage!.completion_tokens, Math.ceil('1. pick red cube\n2. place it'.length / 4));
  assert.equal(data.usage!.total_tokens, data.usage!.prompt_tokens + data.usage!.completion_tokens);
});

test('SDK streaming: deltas join to the same answer, then a finish chunk and a usage chunk', async () => {
  const stream = await sdk.chat.completions.create({ model: 'reference', messages: plannerMessages('blue block'), stream: true, stream_options: { include_usage: true } });
  let text = '';
  let deltas = 0;
  let finish: string | null = null;
  let usage: OpenAI.CompletionUsage | null | undefined;
  for await (const chunk of stream) {
    assert.equal(chunk.object, 'chat.completion.chunk');
    assert.equal(chunk.model, REFERENCE_LABEL);
    const c = chunk.choices[0];
    if (c?.delta.content) {
      text += c.delta.content;
      deltas++;
    }
    if (c?.finish_reason) finish = c.finish_reason;
    if (chunk.usage) usage = chunk.usage;
  }
  assert.equal(text, '1. pick blue block\n2. place it');
  assert.ok(deltas > 1, 'answer arrives in several deltas');
  assert.equal(finish, 'stop');
  assert.equal(usage?.completion_tokens, Math.ceil(text.length / 4));
});

test('raw SSE: data lines end with [DONE]', async () => {
  const res = await fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'reference', messages: plannerMessages('x'), stream: true }),
  });
  assert.match(res.headers.get('content-type')!, /text\/event-stream/);
  const lines = (await res.text()).split('\n').filter((l) => l !== '');
  assert.ok(lines.every((l) => l.startsWith('data: ')));
  assert.equal(lines.at(-1), 'data: [DONE]');
});

test('GET /v1/models via raw fetch lists reference, owned by the scripted label, and the embedding fixture', async () => {
  const res = await fetch(`${server.url}/models`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('x-waypoint-model'), 'reference-scripted');
  assert.deepEqual(await res.json(), {
    object: 'list',
    data: [
      { id: 'reference', object: 'model', created: 0, owned_by: REFERENCE_LABEL },
      { id: 'reference-embedding', object: 'model', created: 0, owned_by: 'reference-embedding (hashed bag of words with a synonym table, not a learned model)' },
    ],
  });
  const one = await sdk.models.retrieve('reference');
  assert.equal(one.owned_by, REFERENCE_LABEL);
});

test('malformed requests -> 400 with an OpenAI-style error body', async () => {
  const post = (body: string) => fetch(`${server.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const bad = await post('{"model": "reference", "messages": [');
  assert.equal(bad.status, 400);
  const e1 = (await bad.json()) as { error: { message: string; type: string; code: string } };
  assert.equal(e1.error.type, 'invalid_request_error');
  assert.equal(e1.error.code, 'invalid_json');
  assert.match(e1.error.message, /not valid JSON/);

  const noMessages = await post('{"model": "reference"}');
  assert.equal(noMessages.status, 400);
  assert.match(((await noMessages.json()) as { error: { message: string } }).error.message, /at messages/);

  const badRole = await post(JSON.stringify({ model: 'reference', messages: [{ role: 'wizard', content: 'hi' }] }));
  assert.equal(badRole.status, 400);
});

test('unknown model -> 404 model_not_found (SDK NotFoundError; our client: bad_request 404)', async () => {
  await assert.rejects(sdk.chat.completions.create({ model: 'gpt-9', messages: plannerMessages('x') }), (e: unknown) => e instanceof OpenAI.NotFoundError && /no model "gpt-9"/.test(e.message));
  const r = await new OpenAICompatibleClient({ baseUrl: server.url, clock: steppingClock() }).complete({ model: 'gpt-9', messages: plannerMessages('x') });
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.error.kind, 'bad_request');
    assert.equal(r.error.status, 404);
  }
});

test('unknown route -> 404 JSON; wrong method -> 405', async () => {
  const r = await fetch(`${server.url}/completions`, { method: 'POST', body: '{}' });
  assert.equal(r.status, 404);
  assert.equal(((await r.json()) as { error: { code: string } }).error.code, 'not_found');
  const m = await fetch(`${server.url}/chat/completions`);
  assert.equal(m.status, 405);
  assert.equal((await fetch(`${server.url}/embeddings`)).status, 405);
});

test('no policy for the role, or no marker -> HTTP 200 with a clear message', async () => {
  const none = await sdk.chat.completions.create({ model: 'reference', messages: [{ role: 'system', content: roleMarkerLine('roco', 'alice') }, { role: 'user', content: 'hi' }] });
  assert.match(none.choices[0]!.message.content!, /reference \(scripted, not an LLM\) has no policy for role "roco\/alice"\. Registered roles: malmm\/broken, malmm\/planner/);
  const noMarker = await sdk.chat.completions.create({ model: 'reference', messages: [{ role: 'user', content: 'hi' }] });
  assert.match(noMarker.choices[0]!.message.content!, /received no role \(no x-waypoint-arch \/ x-waypoint-role headers\)/);
});

test('the role travels as x-waypoint-* headers from our client (sendRequestMeta), not inside the messages', async () => {
  const client = new OpenAICompatibleClient({ baseUrl: server.url, clock: steppingClock(), sendRequestMeta: true });
  const r = await client.complete({ model: 'reference', meta: { arch: 'malmm', role: 'planner', callId: 'c1' }, messages: [{ role: 'system', content: 'You are the planner.' }, { role: 'user', content: 'blue cube' }] });
  assert.equal(r.ok && r.text, '1. pick blue cube\n2. place it');
  // Without sendRequestMeta (a real endpoint) the server hears no role.
  const plain = await new OpenAICompatibleClient({ baseUrl: server.url, clock: steppingClock() }).complete({ model: 'reference', meta: { arch: 'malmm', role: 'planner' }, messages: [{ role: 'user', content: 'x' }] });
  assert.match(plain.ok ? plain.text : '', /received no role/);
});

test('a policy that throws -> 500 policy_error, which our client reports as a server error', async () => {
  const messages = [{ role: 'system' as const, content: roleMarkerLine('malmm', 'broken') }, { role: 'user' as const, content: 'go' }];
  const r = await new OpenAICompatibleClient({ baseUrl: server.url, clock: steppingClock() }).complete({ model: 'reference', messages });
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.error.kind, 'server');
    assert.match(r.error.message, /reference policy "reference" failed: no cube in the observation/);
  }
});

test('max_tokens truncates (finish_reason length) as an endpoint would; n>1 is refused', async () => {
  const r = await sdk.chat.completions.create({ model: 'reference', messages: plannerMessages('red cube'), max_tokens: 2 });
  assert.equal(r.choices[0]!.message.content, '1. pick ', 'first 2 * 4 characters');
  assert.equal(r.choices[0]!.finish_reason, 'length');
  await assert.rejects(sdk.chat.completions.create({ model: 'reference', messages: plannerMessages('x'), n: 2 }), /n=2 is not supported/);
});

test('OpenAICompatibleClient end to end against the reference server: same answer twice (deterministic)', async () => {
  const c = new OpenAICompatibleClient({ baseUrl: server.url, clock: steppingClock(), id: 'reference' });
  const a = await c.complete({ model: 'reference', messages: plannerMessages('green cube'), temperature: 1, seed: 3 });
  const b = await c.complete({ model: 'reference', messages: plannerMessages('green cube'), temperature: 0.2 });
  assert.equal(a.ok && a.text, '1. pick green cube\n2. place it');
  assert.equal(b.ok && b.text, a.ok && a.text);
  assert.ok(a.ok && a.usage && a.usage.completionTokens > 0);
});

test('a taken port is a clear startup error', async () => {
  await assert.rejects(startReferenceServer({ port: server.port }), /EADDRINUSE/);
});
