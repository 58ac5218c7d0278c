// `waypoint doctor`'s probes through the real openai SDK over HTTP against local fakes of each provider
// (providerFakes.ts): what each line says, what the verdicts conclude, what was sent (never x-waypoint-* headers,
// the key only in its header), and the one line a bad endpoint gets.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { architectureManifests } from '../../../../../src/architectures/manifests.js';
import { EXIT_CHAT_FAILS, formatReport, runDoctor, type DoctorReport } from '../../../../../src/core/llm/doctor/doctor.js';
import type { ProbeId } from '../../../../../src/core/llm/doctor/probes.js';
import { loadArchNeeds, type ArchNeeds } from '../../../../../src/core/llm/doctor/verdicts.js';
import { registerReferencePolicies } from '../../../../../src/core/llm/reference/policies.js';
import { architectures } from '../../../../../src/architectures/registry.js';
import { startReferenceServer } from '../../../../../src/core/llm/reference/server.js';
import { nodeIO } from '../../../../../src/core/node/nodeHost.js';
import { json, startFakeServer, type FakeServer, type Handler } from '../helpers/fakeServer.js';
import { answer, azureFake, htmlFake, KEY, limitIgnoringFake, llamaCppFake, lmStudioFake, ollamaFake, openaiFake, openRouterFake, vllmFake } from './providerFakes.js';

let archs: ArchNeeds[];
before(async () => {
  archs = await loadArchNeeds(nodeIO, join(process.cwd(), 'src', 'architectures'), architectureManifests.list());
});

let clockMs = 0;
const clock = { nowMs: () => (clockMs += 100), isoNow: () => '2026-11-27T12:00:00.000Z' };
const servers: FakeServer[] = [];
after(async () => {
  for (const s of servers) await s.close();
});

async function fake(handler: Handler): Promise<FakeServer> {
  const s = await startFakeServer(handler);
  servers.push(s);
  return s;
}

interface Run {
  report: DoctorReport;
  text: string;
  line(id: ProbeId): { mark: string; detail: string } | undefined;
  arch(id: string): DoctorReport['architectures'][number];
}

async function doctor(baseUrl: string, model: string, extra: { apiKey?: string; apiKeyEnv?: string; azureApiVersion?: string; timeoutMs?: number; modelArg?: string } = {}): Promise<Run> {
  const modelArg = extra.modelArg ?? `openai:${model}`;
  const report = await runDoctor({ baseUrl, model, modelArg, apiKeyEnv: extra.apiKeyEnv ?? 'OPENAI_API_KEY', timeoutMs: extra.timeoutMs ?? 5000, clock, archs, ...(extra.apiKey ? { apiKey: extra.apiKey } : {}), ...(extra.azureApiVersion ? { azureApiVersion: extra.azureApiVersion } : {}) });
  const text = formatReport(report, modelArg, extra.apiKey);
  return {
    report,
    text,
    line: (id) => report.findings.probes.find((p) => p.id === id),
    arch: (id) => report.architectures.find((a) => a.id === id)!,
  };
}

/** Every request a fake received: no Waypoint metadata header ever reaches a model. */
function assertNoWaypointHeaders(s: FakeServer): void {
  assert.ok(s.requests.length > 0);
  for (const r of s.requests) for (const h of Object.keys(r.headers)) assert.ok(!h.startsWith('x-waypoint-'), `${r.method} ${r.path} carried ${h}`);
}

test('OpenAI: every probe, the provider from its headers, rate limits turned into a sweep rateLimit; the key only in its header', async () => {
  const s = await fake(openaiFake());
  const r = await doctor(s.url, 'gpt-4o-mini', { apiKey: KEY });
  assert.equal(r.report.exitCode, 0);
  assert.equal(r.report.findings.provider.id, 'openai');
  for (const id of ['reach', 'model', 'chat', 'max_tokens', 'temperature', 'seed', 'embeddings', 'images', 'json_mode', 'latency', 'rate_limits'] as const) assert.equal(r.line(id)?.mark, 'ok', `${id}: ${r.line(id)?.detail}`);
  assert.equal(r.line('context')?.mark, 'unknown');
  assert.match(r.line('embeddings')!.detail, /^1536 dimensions from text-embedding-3-small/);
  assert.match(r.line('images')!.detail, /seen/);
  assert.match(r.line('latency')!.detail, /median 100 ms over 3 small calls/);
  assert.match(r.line('rate_limits')!.detail, /x-ratelimit-limit-requests: 500, x-ratelimit-limit-tokens: 200000/);
  assert.equal(r.report.advice?.command, `waypoint run --model openai:gpt-4o-mini --base-url ${s.url} --embedding-model text-embedding-3-small`);
  assert.match(r.report.advice!.sweep!, /embeddingModel: text-embedding-3-small \}/);
  assert.match(r.report.advice!.sweep!, /rateLimit: \{ requestsPerMinute: 500, tokensPerMinute: 200000 \}/);
  // MALMM's ≈28k need is more than "nearly every model" and OpenAI does not say its context: a doubt, not a failure.
  assert.equal(r.arch('malmm').mark, 'unknown');
  assert.match(r.arch('malmm').reasons.join(' '), /needs ≈\d+ tokens of context/);
  assert.equal(r.arch('llamar').mark, 'ok');
  assert.match(r.arch('llamar').reasons.join(' '), /action matching: this endpoint's embeddings with --embedding-model text-embedding-3-small \(the paper's matcher\)/);
  assert.match(r.arch('llamar').reasons.join(' '), /images: this model reads images: --vision/);
  assertNoWaypointHeaders(s);
  for (const q of s.requests) assert.equal(q.headers.authorization, `Bearer ${KEY}`);
  assert.ok(!r.text.includes(KEY) && !JSON.stringify(r.report).includes(KEY), 'the key is never in the report');
});

test('OpenAI reasoning model: refuses max_tokens (says to pass --max-tokens-field max_completion_tokens) and temperature 0 (every architecture blocked)', async () => {
  const s = await fake(openaiFake({ reasoning: true }));
  const r = await doctor(s.url, 'gpt-5-mini', { apiKey: KEY });
  assert.equal(r.report.exitCode, 0);
  assert.equal(r.report.findings.maxTokensField, 'max_completion_tokens');
  assert.equal(r.line('max_tokens')?.mark, 'ok');
  assert.match(r.line('max_tokens')!.detail, /needs max_completion_tokens \(it refuses max_tokens: Unsupported parameter.*pass --max-tokens-field max_completion_tokens; max_completion_tokens honoured/);
  assert.equal(r.line('temperature')?.mark, 'fail');
  assert.match(r.line('temperature')!.detail, /Only the default \(1\) value is supported/);
  assert.match(r.report.advice!.command, /--max-tokens-field max_completion_tokens --embedding-model text-embedding-3-small$/);
  assert.match(r.report.advice!.sweep!, /maxTokensField: max_completion_tokens/);
  for (const a of r.report.architectures) {
    assert.equal(a.mark, 'fail', a.id);
    assert.equal(a.reasons[0], 'its prompts ask for temperature 0, which the model refuses (see below)');
  }
  assert.match(r.report.advice!.notes.join(' '), /delete their temperature line/);
  assert.match(r.text, /Run with:\n.*\n  The built-in prompts ask for temperature 0, which this model refuses: copy them/);
  // The second limit request used the other field, and no request sent both.
  const bodies = s.requests.filter((q) => q.path.startsWith('/v1/chat')).map((q) => JSON.parse(q.body) as Record<string, unknown>);
  assert.ok(bodies.some((b) => b.max_completion_tokens === 8 && b.max_tokens === undefined));
  assert.ok(!bodies.some((b) => b.max_tokens !== undefined && b.max_completion_tokens !== undefined));
});

test('Azure OpenAI deployment URL: api-version query and api-key header (no Authorization), no model list, runs told to use the v1 endpoint', async () => {
  const s = await fake(azureFake('gpt4o-prod'));
  const base = s.url.replace(/\/v1$/, '/openai/deployments/gpt4o-prod');
  const r = await doctor(base, 'gpt4o-prod', { apiKey: KEY, azureApiVersion: '2024-10-21', apiKeyEnv: 'AZURE_OPENAI_API_KEY' });
  assert.equal(r.report.exitCode, 0);
  assert.equal(r.report.findings.provider.id, 'azure');
  assert.equal(r.line('reach')?.mark, 'unknown');
  assert.match(r.line('reach')!.detail, /HTTP 404: Resource not found; chat answers/);
  assert.equal(r.line('chat')?.mark, 'ok');
  assert.match(r.line('embeddings')!.detail, /HTTP 400: The embeddings operation does not work with the specified model/);
  assert.match(r.line('rate_limits')!.detail, /x-ratelimit-remaining-requests: 99/);
  for (const q of s.requests) {
    assert.equal(q.headers['api-key'], KEY);
    assert.equal(q.headers.authorization, undefined);
    assert.match(q.path, /[?&]api-version=2024-10-21/);
  }
  assert.match(r.arch('roco').reasons[0]!, /runs cannot call a deployment URL.*openai\/v1/);
  assert.match(r.report.advice!.command, /--base-url https:\/\/<resource>\.openai\.azure\.com\/openai\/v1 --api-key-env AZURE_OPENAI_API_KEY/);
  assertNoWaypointHeaders(s);
});

test('Azure: a wrong key is one line naming the variable', async () => {
  const s = await fake(azureFake());
  const r = await doctor(s.url.replace(/\/v1$/, '/openai/deployments/gpt4o-prod'), 'gpt4o-prod', { apiKey: 'wrong-key-1234', azureApiVersion: '2024-10-21', apiKeyEnv: 'AZURE_OPENAI_API_KEY' });
  assert.equal(r.report.exitCode, EXIT_CHAT_FAILS);
  assert.equal(r.text, `✗ key missing or rejected (HTTP 401) at GET ${s.url.replace(/\/v1$/, '/openai/deployments/gpt4o-prod')}/models: the key in $AZURE_OPENAI_API_KEY was rejected: check it, or name another variable with --api-key-env`);
});

test('Ollama: tagged model names, embeddings from the embedding model it lists, images refused, the loaded context from /api/ps, tight contexts get --max-tokens', async () => {
  const s = await fake(ollamaFake({ loadedContext: 4096 }));
  const r = await doctor(s.url, 'llama3.2');
  assert.equal(r.report.findings.provider.id, 'ollama');
  assert.equal(r.line('model')?.mark, 'ok');
  assert.match(r.line('model')!.detail, /'llama3\.2:latest' is in \/models/);
  assert.match(r.line('embeddings')!.detail, /^768 dimensions from nomic-embed-text:latest/);
  assert.equal(r.line('images')?.mark, 'fail');
  assert.match(r.line('images')!.detail, /does not support vision/);
  assert.equal(r.line('context')!.detail, '4096 tokens (context_length in /api/ps (the loaded model))');
  assert.equal(r.line('rate_limits')?.mark, 'unknown');
  assert.equal(r.arch('malmm').mark, 'fail');
  assert.match(r.arch('malmm').reasons[0]!, /^context 4096 is too short: its requests reach ≈\d+ tokens with the scripted policy \(.*\), plus up to 3000 of output; 32768 or more fits$/);
  assert.match(r.report.advice!.notes.join(' '), /OLLAMA_CONTEXT_LENGTH=<tokens> ollama serve/);
  // LLaMAR: 4096 is between its minimum and what an LLM's longer answers take; a smaller output limit helps.
  assert.equal(r.arch('llamar').mark, 'unknown');
  assert.deepEqual(r.arch('llamar').flags, ['--max-tokens 576']);
  assert.match(r.text, /\(llamar\) *add --max-tokens 576/);
  assert.equal(r.report.advice!.command, `waypoint run --model openai:llama3.2 --base-url ${s.url} --embedding-model nomic-embed-text:latest`);
  assert.ok(s.requests.some((q) => q.path === '/api/ps'));
  assertNoWaypointHeaders(s);
  for (const q of s.requests) assert.equal(q.headers.authorization, undefined, 'no key, no Authorization header');
});

test('Ollama without a loaded model: num_ctx from /api/show; without either, the default-context warning', async () => {
  const withNumCtx = await doctor((await fake(ollamaFake({ numCtx: 32768 }))).url, 'llama3.2');
  assert.equal(withNumCtx.line('context')!.detail, '32768 tokens (num_ctx in /api/show parameters; the model allows 131072)');
  const bare = await doctor((await fake(ollamaFake())).url, 'llama3.2');
  assert.equal(bare.line('context')?.mark, 'unknown');
  assert.match(bare.line('context')!.detail, /default context \(4096 tokens below 24 GiB of VRAM\).*cuts longer prompts silently/);
});

test("vLLM: max_model_len, the older top-level error shape's message, images and embeddings refused", async () => {
  const s = await fake(vllmFake({ maxModelLen: 32768 }));
  const r = await doctor(s.url, 'Qwen/Qwen2.5-7B-Instruct');
  assert.equal(r.report.findings.provider.id, 'vllm');
  assert.equal(r.line('context')!.detail, '32768 tokens (max_model_len in /models)');
  assert.equal(r.line('images')!.detail, 'refused: HTTP 400: Qwen/Qwen2.5-7B-Instruct is not a multimodal model');
  assert.match(r.line('embeddings')!.detail, /HTTP 400: The model does not support Embeddings API; name an embedding model with --embedding-model/);
  assert.match(r.arch('llamar').reasons.join(' '), /action matching: the lexical fallback matcher \(this endpoint serves no embeddings/);
  assert.match(r.arch('llamar').reasons.join(' '), /images: the text stand-in \(this model refuses images: leave --vision off\)/);
  assert.doesNotMatch(r.report.advice!.command, /--embedding-model/);
  assert.equal(r.arch('malmm').mark, 'ok');
  assert.match(r.arch('malmm').reasons.join(' '), /context 32768 ≥ the ≈\d+ it needs/);
});

test('LM Studio: JSON mode refused with its string error, the loaded context from /api/v1/models', async () => {
  const s = await fake(lmStudioFake());
  const r = await doctor(s.url, 'qwen2.5-7b-instruct');
  assert.equal(r.report.findings.provider.id, 'lmstudio');
  assert.equal(r.line('json_mode')!.detail, "response_format json_object refused: HTTP 400: 'response_format.type' must be 'json_schema' or 'text'");
  assert.equal(r.line('context')!.detail, '8192 tokens (loaded_instances[0].config.context_length in /api/v1/models)');
  assert.match(r.line('embeddings')!.detail, /from text-embedding-nomic-embed-text-v1\.5/);
  assert.equal(r.line('images')?.mark, 'fail');
});

test("llama.cpp: any model name answers, the per-slot context from /props, embeddings need --embeddings", async () => {
  const s = await fake(llamaCppFake({ nCtx: 8192, slots: 2 }));
  const r = await doctor(s.url, 'qwen');
  assert.equal(r.report.findings.provider.id, 'llamacpp');
  assert.equal(r.line('model')?.mark, 'unknown');
  assert.match(r.line('model')!.detail, /not in \/models .*yet chat answers/);
  assert.equal(r.line('context')!.detail, '4096 tokens (default_generation_settings.n_ctx in /props; per slot; the server shares its context among 2 slots)');
  assert.match(r.line('embeddings')!.detail, /not enabled \(HTTP 501.*started with --embeddings/);
  assert.match(r.line('images')!.detail, /HTTP 500: image input is not supported/);
});

test('OpenRouter: public model list (context from top_provider), the key checked by chat, rate limit from /api/v1/key', async () => {
  const s = await fake(openRouterFake());
  const base = s.url.replace(/\/v1$/, '/api/v1');
  const r = await doctor(base, 'meta-llama/llama-3.1-8b-instruct', { apiKey: KEY, apiKeyEnv: 'OPENROUTER_API_KEY' });
  assert.equal(r.report.findings.provider.id, 'openrouter');
  assert.equal(r.line('context')!.detail, '16384 tokens (top_provider.context_length in /models)');
  assert.match(r.line('rate_limits')!.detail, /openrouter key rate_limit: 200 requests \/ 10s/);
  assert.match(r.report.advice!.command, /--api-key-env OPENROUTER_API_KEY$/);
  const noKey = await doctor(base, 'meta-llama/llama-3.1-8b-instruct', { apiKeyEnv: 'OPENROUTER_API_KEY' });
  // The model list is public: it answers; chat is where the missing key shows.
  assert.equal(noKey.report.exitCode, EXIT_CHAT_FAILS);
  assert.equal(noKey.text.split('\n').at(-1), `✗ key missing or rejected (HTTP 401) at POST ${base}/chat/completions: no key was sent: set $OPENROUTER_API_KEY or name another variable with --api-key-env`);
});

test('a server that echoes the key in its errors: every line shows it redacted', async () => {
  const s = await fake((req, res) => {
    if (req.path.startsWith('/v1/models')) return json(res, 200, { object: 'list', data: [{ id: 'm', object: 'model', owned_by: 'me' }] });
    if (req.path.startsWith('/v1/embeddings')) return json(res, 400, { error: { message: `no embeddings for the caller with ${req.headers.authorization}` } });
    if (req.path.startsWith('/v1/chat')) return answer(res, JSON.parse(req.body), { refuseImage: (r) => json(r, 400, { error: { message: `images refused for ${req.headers.authorization}` } }) });
    json(res, 404, {});
  });
  const r = await doctor(s.url, 'm', { apiKey: KEY });
  assert.equal(r.line('embeddings')!.detail, 'HTTP 400: no embeddings for the caller with Bearer [redacted]; name an embedding model with --embedding-model');
  assert.equal(r.line('images')!.detail, 'refused: HTTP 400: images refused for Bearer [redacted]');
  assert.ok(!r.text.includes(KEY) && !JSON.stringify(r.report).includes(KEY));
});

test('a server that ignores max_tokens is named in one line; the verdicts note the unbounded answers', async () => {
  const s = await fake(limitIgnoringFake());
  const r = await doctor(s.url, 'local-model');
  assert.equal(r.report.exitCode, 0);
  assert.equal(r.line('max_tokens')?.mark, 'fail');
  assert.match(r.line('max_tokens')!.detail, /^ignores max_tokens: asked for at most 8 tokens, got \d+ characters \(finish_reason stop\)/);
  assert.match(r.arch('trajgen').reasons.join(' '), /answers are not cut at the prompts' limits \(up to 3000 tokens\)/);
});

test('bad endpoints: one line each, exit 3, nothing else probed', async (t) => {
  const one = (r: Run) => {
    assert.equal(r.report.exitCode, EXIT_CHAT_FAILS);
    assert.equal(r.report.findings.probes.length, 0, r.text);
    assert.equal(r.text.split('\n').length, 1, r.text);
    assert.match(r.text, /^✗ /);
    return r.text;
  };
  await t.test('wrong path, with the right one found', async () => {
    const s = await fake(ollamaFake());
    const root = s.url.replace(/\/v1$/, '');
    assert.equal(one(await doctor(root, 'llama3.2')), `✗ wrong path: ${root} has no /models or /chat/completions (HTTP 404), but ${root}/v1/models answers: use --base-url ${root}/v1`);
  });
  await t.test('wrong path', async () => {
    const s = await fake(openaiFake());
    const base = s.url.replace(/\/v1$/, '/openai/v1');
    assert.equal(one(await doctor(base, 'gpt-4o-mini', { apiKey: KEY })), `✗ wrong path: ${base} answers HTTP 404 to /models and /chat/completions — is the base URL right? it usually ends in /v1`);
  });
  await t.test('wrong path, answered by something that is not a model server', async () => {
    const s = await fake((_req, res) => {
      res.writeHead(404, { server: 'edge-proxy', 'content-length': '0' });
      res.end();
    });
    assert.equal(one(await doctor(s.url, 'm')), `✗ wrong path: ${s.url} answers HTTP 404 (an empty body, server "edge-proxy") to /models and /chat/completions — is the base URL right? it usually ends in /v1`);
  });
  await t.test('401 without a key; a rejected key is not echoed', async () => {
    const s = await fake(openaiFake());
    assert.match(one(await doctor(s.url, 'gpt-4o-mini')), /^✗ key missing or rejected \(HTTP 401\) at GET .*\/models: no key was sent: set \$OPENAI_API_KEY or name another variable with --api-key-env$/);
    const wrong = one(await doctor(s.url, 'gpt-4o-mini', { apiKey: 'sk-wrong-0000cdef' }));
    assert.match(wrong, /the key in \$OPENAI_API_KEY was rejected/);
    assert.ok(!wrong.includes('sk-wrong'));
  });
  await t.test('an HTML page (captive portal, proxy)', async () => {
    const s = await fake(htmlFake(200));
    assert.equal(one(await doctor(s.url, 'm')), `✗ GET ${s.url}/models answered with HTML, not JSON (HTTP 200, "Hotel WiFi - Sign in") — is the base URL right? it usually ends in /v1`);
    const bad = await fake(htmlFake(502));
    assert.equal(one(await doctor(bad.url, 'm')), `✗ GET ${bad.url}/models answered with HTML, not JSON (HTTP 502, "Hotel WiFi - Sign in") — is the base URL right? it usually ends in /v1`);
  });
  await t.test('connection refused', async () => {
    const port = await freePort();
    assert.equal(one(await doctor(`http://127.0.0.1:${port}/v1`, 'm')), `✗ connection refused at 127.0.0.1:${port}: nothing is listening there (is the server running? is the port right?)`);
  });
  await t.test('timeout', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`;
    try {
      assert.equal(one(await doctor(url, 'm', { timeoutMs: 300 })), `✗ no answer from ${url} within 0.3 s (GET ${url}/models); is the server up and the host right? (--timeout to wait longer)`);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});

test('a model the server does not have: reachable, then one line listing what it serves; exit 3', async () => {
  const s = await fake(openaiFake());
  const r = await doctor(s.url, 'gpt-nope', { apiKey: KEY });
  assert.equal(r.report.exitCode, EXIT_CHAT_FAILS);
  assert.deepEqual(r.report.findings.probes.map((p) => `${p.id} ${p.mark}`), ['reach ok']);
  const lines = r.text.split('\n');
  assert.equal(lines.length, 3);
  assert.match(lines[2]!, /^✗ model 'gpt-nope' is not served at .*; it lists: gpt-4o-mini, gpt-4o, text-embedding-3-small, text-embedding-3-large \(The model `gpt-nope` does not exist/);
  assert.equal(r.report.architectures.length, 0);
});

test("Waypoint's reference server: works, and is named a scripted policy, not an LLM; runs told to use --model reference", async () => {
  registerReferencePolicies(architectures);
  const server = await startReferenceServer({ port: 0 });
  try {
    const r = await doctor(server.url, 'reference');
    assert.equal(r.report.exitCode, 0);
    assert.equal(r.report.findings.scripted, true);
    assert.match(r.text, /Waypoint's reference server \(a scripted policy, not an LLM\)/);
    assert.match(r.line('chat')!.detail, /a scripted policy, not an LLM/);
    // It lists its embedding fixture, which the probe picks.
    assert.equal(r.line('embeddings')?.mark, 'ok');
    assert.match(r.line('embeddings')!.detail, /^1024 dimensions from reference-embedding \(an embedding model it lists/);
    assert.match(r.text, /\n  The reference server is a scripted policy, not an LLM/);
    assert.equal(r.report.advice!.command, `waypoint run --model reference --base-url ${server.url}`);
    for (const a of r.report.architectures) assert.equal(a.mark, 'ok', a.id);
  } finally {
    await server.close();
  }
});

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
