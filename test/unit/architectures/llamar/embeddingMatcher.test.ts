// LLaMAR's embedding matcher (issue 28): the paper maps free-form actions to admissible ones with sentence
// embeddings. Here the embeddings come over real HTTP (the openai SDK's embeddings.create) from the reference
// server's hashed-words fixture, started in the test; the rule still decides exact forms and refuses impossible
// pairs; an endpoint without embeddings, or a failing call, falls back to the lexical matcher, which the result names.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { admissibleActions, LEXICAL_THRESHOLD, matchAction, matchActionWithEmbeddings, similarity } from '../../../../src/architectures/llamar/actionMatcher.js';
import { EmbeddingCache, OpenAIEmbeddingClient, type EmbeddingClient } from '../../../../src/core/llm/embeddings.js';
import { REFERENCE_EMBEDDING_MODEL } from '../../../../src/core/llm/reference/embedding.js';
import { startReferenceServer, type ReferenceServer } from '../../../../src/core/llm/reference/server.js';
import type { ActorAnswer } from '../../../../src/architectures/llamar/parse.js';
import type { EventOf, TraceEvent } from '../../../../src/protocol/trace.js';
import { LLAMAR_KNOWN } from '../../../fixtures/answers/llamar.js';
import { policyClient, runLlamar } from './helpers.js';

const opts = { explore: true, exploreArgs: [3, 2] as [number, number] };
const clock = { nowMs: () => performance.now(), isoNow: () => new Date().toISOString() };

let server: ReferenceServer;
let bare: ReferenceServer;
before(async () => {
  server = await startReferenceServer({ port: 0 });
  bare = await startReferenceServer({ port: 0, embeddings: false });
});
after(async () => {
  await server.close();
  await bare.close();
});

/** The real HTTP client, counting the requests and texts it sends (the spy only counts; the call is the SDK's). */
function counted(baseUrl: string, model = REFERENCE_EMBEDDING_MODEL): EmbeddingClient & { requests: number; texts: number } {
  const real = new OpenAIEmbeddingClient({ baseUrl, model, clock });
  const c = {
    model,
    requests: 0,
    texts: 0,
    embed(texts: readonly string[], o?: { signal?: AbortSignal }) {
      c.requests++;
      c.texts += texts.length;
      return real.embed(texts, o);
    },
  };
  return c;
}

const SYNONYMS: [string, string][] = [
  ['open the refrigerator', 'Open(Fridge_1)'],
  ['pick up the computer', 'Pickup(Laptop_1)'],
  ['put the laptop on the couch', 'Put(Sofa_1)'],
  ['go to the TV', 'NavigateTo(Television_1)'],
  ['clean the dish object', 'Clean(Plate_1)'],
];
const show = (a: { name: string; args: unknown[] }) => `${a.name}(${a.args.join(',')})`;

test("the issue's synonyms are matched by the embedding matcher, over HTTP, against the reference embeddings", async () => {
  const client = counted(server.url);
  const cache = new EmbeddingCache(client);
  for (const [text, want] of SYNONYMS) {
    const r = await matchActionWithEmbeddings(text, LLAMAR_KNOWN, opts, cache);
    assert.ok(r.ok, `${text}: ${!r.ok && r.error}`);
    assert.equal(show(r.action), want, text);
    assert.equal(r.matcher, 'embedding', text);
    assert.ok(r.score >= 0.5 && r.score < 1, `${text}: score ${r.score}`);
    assert.equal(r.fallback, undefined);
  }
  // The admissible actions are embedded once per episode: the first request carries them all, later ones only
  // the new phrase (one text each).
  const all = admissibleActions(LLAMAR_KNOWN, opts).length;
  assert.equal(client.requests, SYNONYMS.length);
  assert.equal(client.texts, all + SYNONYMS.length);
});

test('the lexical score alone refuses these synonyms or picks another action: the embeddings are what match them', () => {
  const all = admissibleActions(LLAMAR_KNOWN, opts);
  const lexicalMisses = SYNONYMS.filter(([text, want]) => {
    const best = all.map((a) => ({ a, s: similarity(text, a.text) })).sort((x, y) => y.s - x.s)[0]!;
    return best.s < LEXICAL_THRESHOLD || show(best.a) !== want;
  });
  assert.deepEqual(lexicalMisses.map(([t]) => t), SYNONYMS.map(([t]) => t));
});

test('with embeddings, the rule still decides exact forms and refuses impossible pairs (never converted)', async () => {
  const client = counted(server.url);
  const cache = new EmbeddingCache(client);
  const exact = await matchActionWithEmbeddings('PickupObject(Tomato_2)', LLAMAR_KNOWN, opts, cache);
  assert.ok(exact.ok && exact.matcher === 'rule' && show(exact.action) === 'Pickup(Tomato_2)');
  for (const [text, why] of [
    ['open object Apple_1', /^Apple_1 cannot be opened \(an Apple does not open\); what can be done with Apple_1: /],
    ['PickupObject(Fridge_1)', /^Fridge_1 cannot be picked up \(a Fridge is fixed in place\)/],
    ['slice the laptop', /^Laptop_1 cannot be sliced/],
    ['open the apple', /^Apple_1 cannot be opened/],
    ['pick up the couch', /^Sofa_1 cannot be picked up/],
  ] as const) {
    const r = await matchActionWithEmbeddings(text, LLAMAR_KNOWN, opts, cache);
    assert.equal(r.ok, false, text);
    assert.match(!r.ok ? r.error : '', why, text);
  }
  // None of these needed the embeddings.
  assert.equal(client.requests, 0);
  // A phrase the embeddings place near no action, and one whose nearest action has another verb, are refused.
  const far = await matchActionWithEmbeddings('open the window', LLAMAR_KNOWN, opts, cache);
  assert.ok(!far.ok && far.matcher === 'embedding');
  assert.match(far.error, /"open the window" is not close to any admissible action \(closest by embedding: "open object Fridge_1" 0\.408/);
});

test('an endpoint without /v1/embeddings: the lexical matcher decides, the result says why, and it is not asked again', async () => {
  const client = counted(bare.url);
  const cache = new EmbeddingCache(client);
  const r = await matchActionWithEmbeddings('open the refrigerator', LLAMAR_KNOWN, opts, cache);
  assert.ok(r.ok && show(r.action) === 'Open(Fridge_1)');
  assert.equal(r.matcher, 'lexical');
  assert.match(r.fallback ?? '', /^no embeddings \(reference-embedding\): request rejected \(HTTP 404\) by http:\/\/127\.0\.0\.1:\d+\/v1: no route POST \/v1\/embeddings/);
  const again = await matchActionWithEmbeddings('go to the TV', LLAMAR_KNOWN, opts, cache);
  assert.ok(again.ok && again.matcher === 'lexical' && show(again.action) === 'NavigateTo(Television_1)');
  assert.equal(client.requests, 1);
  // A model the endpoint does not have is the same: 404 model_not_found, lexical from then on.
  const wrongModel = await matchActionWithEmbeddings('open the refrigerator', LLAMAR_KNOWN, opts, new EmbeddingCache(counted(server.url, 'text-embedding-3-small')));
  assert.ok(wrongModel.ok && wrongModel.matcher === 'lexical');
  assert.match(wrongModel.fallback ?? '', /embeds only with "reference-embedding"/);
  // Without an embedding model at all: the same answers, no fallback note.
  const plain = matchAction('open the refrigerator', LLAMAR_KNOWN, opts);
  assert.ok(plain.ok && plain.matcher === 'lexical' && plain.fallback === undefined);
});

test('a failing embedding call (HTTP 500): this match falls back, says why, and the next one asks again', async () => {
  let calls = 0;
  const failing = createServer((req, res) => {
    calls++;
    req.resume();
    req.on('end', () => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'embedding backend down', type: 'server_error' } }));
    });
  });
  await new Promise<void>((r) => failing.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(failing.address() as AddressInfo).port}/v1`;
    const cache = new EmbeddingCache(new OpenAIEmbeddingClient({ baseUrl: url, model: 'm', clock }));
    const r = await matchActionWithEmbeddings('put the laptop on the couch', LLAMAR_KNOWN, opts, cache);
    assert.ok(r.ok && r.matcher === 'lexical' && show(r.action) === 'Put(Sofa_1)');
    assert.match(r.fallback ?? '', /^the embedding call failed \(m\): server error \(HTTP 500\) from http:\/\/127\.0\.0\.1:\d+\/v1: embedding backend down/);
    await matchActionWithEmbeddings('go to the TV', LLAMAR_KNOWN, opts, cache);
    assert.equal(calls, 2, 'a server error is not taken as "no embeddings"');
  } finally {
    failing.closeAllConnections();
    await new Promise<void>((r) => failing.close(() => r()));
  }
});

/** The reference policy, except the Actor's first answer: free-form actions no rule reads. */
const freeFormFirstStep = () =>
  policyClient('reference', (role, nth) =>
    role === 'actor' && nth === 1 ? '{"memory": "", "reason": "Look for the groceries first.", "subtask": "find the items", "Alice\'s action": "look around the room", "Bob\'s action": "do nothing for now"}' : undefined,
  );

const actorActions = (events: TraceEvent[]) =>
  events.filter((e): e is EventOf<'parsed_output'> => e.type === 'parsed_output' && e.role === 'actor' && e.ok).map((e) => (e.value as ActorAnswer).actions);

test('in an episode: the embedding matcher decides free-form actions and the trace names it with its score', async () => {
  const { result, events } = await runLlamar({ task: 'put_bread_lettuce_tomato_fridge', agents: 2, model: freeFormFirstStep(), embeddings: new OpenAIEmbeddingClient({ baseUrl: server.url, model: REFERENCE_EMBEDDING_MODEL, clock }) });
  const first = actorActions(events)[0]!;
  assert.deepEqual([first.Alice!.matcher, first.Alice!.action.name, first.Bob!.matcher, first.Bob!.action.name], ['embedding', 'Explore', 'embedding', 'Idle']);
  assert.ok(first.Alice!.score > 0.5 && first.Alice!.score < 1);
  // The reference policy's own actions write the ids out: the rule takes them.
  assert.ok(actorActions(events).slice(1).every((a) => Object.values(a).every((m) => m.matcher === 'rule')));
  assert.equal(result.success, true, `${result.reason}: ${result.message}`);
});

test('in an episode: an embedding endpoint answering 500 leaves the lexical matcher to decide, recorded, and the episode goes on', async () => {
  const failing = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"error": {"message": "down"}}');
    });
  });
  await new Promise<void>((r) => failing.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(failing.address() as AddressInfo).port}/v1`;
    const { result, events } = await runLlamar({ task: 'put_bread_lettuce_tomato_fridge', agents: 2, model: freeFormFirstStep(), embeddings: new OpenAIEmbeddingClient({ baseUrl: url, model: 'm', clock }) });
    const first = actorActions(events)[0]!;
    assert.deepEqual([first.Alice!.matcher, first.Alice!.action.name, first.Bob!.action.name], ['lexical', 'Explore', 'Idle']);
    assert.match(first.Alice!.fallback ?? '', /^the embedding call failed \(m\): server error \(HTTP 500\)/);
    assert.equal(result.reason, 'subtasks_done', `${result.reason}: ${result.message}`);
    assert.ok((result.end.metrics.steps ?? 0) > 1);
  } finally {
    failing.closeAllConnections();
    await new Promise<void>((r) => failing.close(() => r()));
  }
});

test('the embeddingThreshold limit is the bar: at 0.9 the same free-form answer is refused by the embedding matcher and fed back', async () => {
  const { result, events } = await runLlamar({ task: 'put_bread_lettuce_tomato_fridge', agents: 2, model: freeFormFirstStep(), embeddings: new OpenAIEmbeddingClient({ baseUrl: server.url, model: REFERENCE_EMBEDDING_MODEL, clock }), limits: { embeddingThreshold: 0.9 } });
  const first = events.find((e): e is EventOf<'parsed_output'> => e.type === 'parsed_output' && e.role === 'actor')!;
  assert.equal(first.ok, false);
  assert.match(first.error ?? '', /Alice's action "look around the room": "look around the room" is not close to any admissible action \(closest by embedding: "explore" 0\.707/);
  assert.equal(result.end.archMetrics?.formatErrors, 1);
  assert.equal(events.find((e) => e.type === 'episode_start' && e.limits?.embeddingThreshold === 0.9) !== undefined, true);
});
