// `waypoint doctor`'s probes: what an OpenAI-compatible endpoint does with the requests Waypoint sends. Every
// request goes through the same openai SDK the runs use (createOpenAISdk: same credential header, no environment
// fallback, never an `x-waypoint-*` header), one at a time, each with its own timeout. Results are values: a probe
// line (✓ / ✗ / ?) and the facts the architecture verdicts read (./verdicts.ts). An endpoint that cannot be used at
// all (refused, timed out, HTML, wrong path, key rejected, model unknown) ends the probing with one line.
import OpenAI from 'openai';
import type { Clock } from '../../host.js';
import { classifyOpenAIError, createOpenAISdk, redactKey } from '../openai.js';
import {
  azureDeployment,
  contextFromLlamaCppProps,
  contextFromLmStudio,
  contextFromModelEntry,
  contextFromOllamaPs,
  contextFromOllamaShow,
  detectProvider,
  embeddingCandidates,
  modelEntries,
  PROVIDER_LABELS,
  serverRoot,
  type ContextLength,
  type ModelEntry,
  type ProviderGuess,
} from './providers.js';

export type Mark = 'ok' | 'fail' | 'unknown';

/** `none`: no run advice (an endpoint only this VS Code window can reach, such as its Language Model bridge). */
export type Audience = 'cli' | 'vscode' | 'none';

export const PROBE_IDS = ['reach', 'model', 'chat', 'max_tokens', 'temperature', 'seed', 'embeddings', 'images', 'json_mode', 'context', 'latency', 'rate_limits'] as const;
export type ProbeId = (typeof PROBE_IDS)[number];

export const PROBE_LABELS: Record<ProbeId, string> = {
  reach: 'reachable',
  model: 'model listed',
  chat: 'chat completion',
  max_tokens: 'output token limit',
  temperature: 'temperature 0',
  seed: 'seed',
  embeddings: 'embeddings',
  images: 'images (image_url parts)',
  json_mode: 'JSON mode',
  context: 'context length',
  latency: 'latency',
  rate_limits: 'rate-limit headers',
};

export interface ProbeLine {
  id: ProbeId;
  mark: Mark;
  /** One line: the reason, or the setting to use. Never contains the API key. */
  detail: string;
}

/** What the probes found, for the verdicts and the report. */
export interface Findings {
  baseUrl: string;
  model: string;
  provider: ProviderGuess & { label: string };
  probes: ProbeLine[];
  /** The one line when the endpoint cannot be used at all (then `chatOk` is false and later probes did not run). */
  fatal?: string;
  chatOk: boolean;
  /** Which output-limit field the model takes; 'none' when it refuses both. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens' | 'none';
  /** The model answered past the limit it was given. */
  maxTokensIgnored?: boolean;
  temperatureZero?: boolean;
  seed?: boolean;
  embeddings?: { model: string; dimensions: number };
  images?: 'seen' | 'accepted' | 'refused';
  jsonMode?: boolean;
  context?: ContextLength;
  latencyMs?: { median: number; samples: number[] };
  /** `x-ratelimit-*` and `retry-after` headers of the last chat answer, and OpenRouter's key limits. */
  rateLimits?: Record<string, string>;
  /** The endpoint is Waypoint's reference server: a scripted policy, not an LLM. */
  scripted?: boolean;
}

export interface ProbeOptions {
  baseUrl: string;
  /** The model name sent in requests (without the `openai:` prefix). */
  model: string;
  apiKey?: string;
  /** The variable the key comes from, named in advice; never the key itself. */
  apiKeyEnv: string;
  /** Azure's classic deployment URLs: sent as `api-version`, with the key in the `api-key` header. */
  azureApiVersion?: string;
  /** The model for the embeddings probe; default: an embedding model the server lists, else `model`. */
  embeddingModel?: string;
  /** Who reads the advice: a command-line user (flags, variables) or a VS Code user (settings, commands). */
  audience?: Audience;
  /** Per request. */
  timeoutMs: number;
  clock: Clock;
  signal?: AbortSignal;
  /** Called as each probe line is settled (the CLI prints as it goes). */
  onProbe?(line: ProbeLine): void;
}

/** 16×16 solid red PNG (79 bytes): small enough for any endpoint, a colour any vision model names. */
export const TINY_RED_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR42mP4z8BAEmIY1TCqYfhqAACQ+f8B8u7oVwAAAABJRU5ErkJggg==';

const LATENCY_CALLS = 3;
/** The limit the output-limit probe asks for; a model that honours it stops far short of the counting it is asked for. */
const TINY_LIMIT = 8;

interface RawSeen {
  status: number;
  contentType: string;
  /** Body text of a failed or non-JSON answer (the SDK keeps only JSON error bodies). */
  body?: string;
  headers: Headers;
}

type CallResult<T> = { ok: true; data: T; headers: Headers; latencyMs: number } | { ok: false; error: unknown; seen?: RawSeen; latencyMs: number };

class Fatal extends Error {}

export async function probeEndpoint(o: ProbeOptions): Promise<Findings> {
  const baseUrl = o.baseUrl.replace(/\/+$/, '');
  const redact = (s: string) => redactKey(s, o.apiKey);
  let seen: RawSeen | undefined;
  const recordingFetch: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    const contentType = res.headers.get('content-type') ?? '';
    seen = { status: res.status, contentType, headers: res.headers };
    if (!res.ok || !/json|event-stream/i.test(contentType)) seen.body = await res.clone().text().catch(() => '');
    return res;
  };
  const azure = o.azureApiVersion !== undefined;
  const sdk = createOpenAISdk({
    baseUrl,
    apiKey: o.apiKey,
    timeoutMs: o.timeoutMs,
    fetch: recordingFetch,
    ...(azure ? { authStyle: 'api-key' as const, defaultQuery: { 'api-version': o.azureApiVersion! } } : {}),
  });

  const findings: Findings = { baseUrl, model: o.model, provider: label(detectProvider(baseUrl, {})), probes: [], chatOk: false };
  const settle = (id: ProbeId, mark: Mark, detail: string) => {
    const line = { id, mark, detail: redact(detail) };
    findings.probes.push(line);
    o.onProbe?.(line);
  };

  /** One request through the SDK; failures are values with what the server actually sent. */
  async function call<T>(run: (opts: OpenAI.RequestOptions) => Promise<{ data: T; response: Response }>): Promise<CallResult<T>> {
    seen = undefined;
    const timer = AbortSignal.timeout(o.timeoutMs);
    const signal = o.signal ? AbortSignal.any([o.signal, timer]) : timer;
    const start = o.clock.nowMs();
    try {
      const { data, response } = await run({ signal, timeout: o.timeoutMs, maxRetries: 0 });
      return { ok: true, data, headers: response.headers, latencyMs: o.clock.nowMs() - start };
    } catch (error) {
      const timedOut = timer.aborted && !o.signal?.aborted;
      return { ok: false, error: timedOut ? new OpenAI.APIConnectionTimeoutError() : error, seen, latencyMs: o.clock.nowMs() - start };
    }
  }
  const chat = (body: Record<string, unknown>) =>
    call<unknown>((opts) => sdk.chat.completions.create({ model: o.model, messages: [{ role: 'user', content: 'Reply with the single word: ready' }], ...body } as OpenAI.ChatCompletionCreateParamsNonStreaming, opts).withResponse());
  const get = (path: string) => call<unknown>((opts) => sdk.get<unknown>(path, opts).withResponse());
  const post = (path: string, body: unknown) => call<unknown>((opts) => sdk.post<unknown>(path, { ...opts, body }).withResponse());

  const keyAdvice = () =>
    (o.audience ?? 'cli') === 'cli'
      ? o.apiKey
        ? `the key in $${o.apiKeyEnv} was rejected: check it, or name another variable with --api-key-env`
        : `no key was sent: set $${o.apiKeyEnv} or name another variable with --api-key-env`
      : o.apiKey
        ? 'the stored key was rejected: replace it with "Waypoint: Set API Key…"'
        : 'no key is stored for this endpoint: store one with "Waypoint: Set API Key…"';
  /** The one line for a request that failed for a reason no other probe can get past; undefined when it is not one. */
  function fatalLine(r: Extract<CallResult<unknown>, { ok: false }>, what: string): string | undefined {
    const err = classifyOpenAIError(r.error, baseUrl, Date.parse(o.clock.isoNow()));
    if (looksLikeHtml(r.seen)) return `${what} answered with HTML, not JSON (HTTP ${r.seen!.status}${htmlTitle(r.seen!.body)}) — is the base URL right? it usually ends in /v1`;
    if (err.kind === 'timeout') return `no answer from ${baseUrl} within ${o.timeoutMs / 1000} s (${what}); is the server up and the host right? (--timeout to wait longer)`;
    if (err.kind === 'network') return connectionLine(r.error, baseUrl) ?? err.message;
    if (err.kind === 'cancelled') return 'cancelled';
    if (err.status === 401 || err.status === 403) return `key missing or rejected (HTTP ${err.status}) at ${what}: ${keyAdvice()}`;
    return undefined;
  }

  try {
    // 1. Reachability and auth: the model list.
    const models = await get('/models');
    let entries: ModelEntry[] | undefined;
    let modelsMissing = false;
    if (models.ok) {
      entries = modelEntries(models.data);
      findings.provider = label(detectProvider(baseUrl, { headers: models.headers, ...(entries ? { models: entries } : {}) }));
      if (typeof models.data === 'string' && /^\s*</.test(models.data)) throw new Fatal(`GET ${baseUrl}/models answered with HTML, not JSON (HTTP 200${htmlTitle(models.data)}) — is the base URL right? it usually ends in /v1`);
      if (entries) settle('reach', 'ok', `HTTP 200 from GET /models: ${entries.length} model(s); ${findings.provider.label} (${findings.provider.why})`);
      else settle('reach', 'unknown', `GET /models answered HTTP 200 but not with a model list ({"data": [...]})`);
    } else {
      const line = fatalLine(models, `GET ${baseUrl}/models`);
      if (line) throw new Fatal(line);
      modelsMissing = true;
    }
    findings.scripted = findings.provider.id === 'reference';

    // 2. Chat: a few words, nothing else set.
    const first = await chat({});
    if (!first.ok) {
      const line = fatalLine(first, `POST ${baseUrl}/chat/completions`);
      if (line) throw new Fatal(line);
      const err = classifyOpenAIError(first.error, baseUrl, Date.parse(o.clock.isoNow()));
      if (modelsMissing && err.status === 404) throw new Fatal(await wrongPathLine(first.seen));
      if (isModelNotFound(first)) throw new Fatal(`model '${o.model}' is not served at ${baseUrl}${entries?.length ? `; it lists: ${listSome(entries.map((e) => e.id))}` : ''} (${providerText(first)})`);
      if (modelsMissing) settle('reach', 'unknown', `GET /models: ${describe(models)}`);
      modelLine(entries);
      settle('chat', 'fail', describe(first));
      return findings;
    }
    if (modelsMissing) {
      const deployment = azureDeployment(baseUrl);
      settle('reach', 'unknown', deployment ? `an Azure deployment URL lists no models (GET /models: ${describe(models)}); chat answers` : `GET /models: ${describe(models)}; chat answers`);
      findings.provider = label(detectProvider(baseUrl, { headers: first.headers }));
      findings.scripted = findings.provider.id === 'reference';
    }
    const firstText = completionText(first.data);
    if (firstText === undefined) {
      modelLine(entries);
      settle('chat', 'fail', `HTTP 200 but not a chat completion: ${preview(first.data)}`);
      return findings;
    }
    findings.chatOk = true;
    modelLine(entries, true);
    settle('chat', 'ok', `answered ${JSON.stringify(clip(firstText, 60))} in ${seconds(first.latencyMs)}${findings.scripted ? ' — a scripted policy, not an LLM: with --model reference Waypoint sends it the role headers it answers by' : ''}`);
    let lastHeaders = first.headers;

    // 3. Output limit: which field, and whether it is honoured (a long answer asked for with a tiny limit).
    const counting = { messages: [{ role: 'user', content: 'Count from 1 to 200 in words, separated by commas. Do not stop early.' }] };
    let limited = await chat({ ...counting, max_tokens: TINY_LIMIT });
    let field: 'max_tokens' | 'max_completion_tokens' = 'max_tokens';
    let rejection: string | undefined;
    if (!limited.ok && mentions(limited, 'max_tokens')) {
      rejection = providerText(limited);
      limited = await chat({ ...counting, max_completion_tokens: TINY_LIMIT });
      field = 'max_completion_tokens';
    }
    if (!limited.ok) {
      findings.maxTokensField = 'none';
      settle('max_tokens', 'fail', rejection ? `refuses max_tokens (${clip(rejection, 100)}) and max_completion_tokens (${describe(limited)})` : `max_tokens refused: ${describe(limited)}`);
    } else {
      lastHeaders = limited.headers;
      findings.maxTokensField = field;
      const used = completionTokens(limited.data);
      const text = completionText(limited.data) ?? '';
      const cut = finishReason(limited.data) === 'length';
      // Tokens when the server reports them, else characters (about 4 a token, with room for short tokens).
      findings.maxTokensIgnored = !cut && (used !== undefined ? used > TINY_LIMIT + 2 : text.length > TINY_LIMIT * 4 * 3);
      const got = used !== undefined ? `${used} tokens` : `${text.length} characters`;
      const needs = rejection ? `needs max_completion_tokens (it refuses max_tokens: ${clip(rejection, 70)}): pass --max-tokens-field max_completion_tokens; ` : '';
      if (findings.maxTokensIgnored) {
        settle('max_tokens', 'fail', `${needs}ignores ${field}: asked for at most ${TINY_LIMIT} tokens, got ${got} (finish_reason ${finishReason(limited.data) ?? 'none'}); the prompts' maxOutputTokens and --max-tokens will not bound its answers`);
      } else settle('max_tokens', 'ok', `${needs}${field} honoured (asked for ${TINY_LIMIT}, got ${got}${cut ? ', finish_reason length' : ''})`);
    }

    // 4. Temperature 0 (every built-in prompt asks for it) and a seed.
    const temp = await chat({ temperature: 0 });
    findings.temperatureZero = temp.ok;
    settle('temperature', temp.ok ? 'ok' : 'fail', temp.ok ? 'temperature 0 accepted' : `temperature 0 refused: ${describe(temp)}`);
    const seeded = await chat({ seed: 7 });
    findings.seed = seeded.ok;
    settle('seed', seeded.ok ? 'ok' : 'fail', seeded.ok ? 'seed accepted (whether answers repeat with it is not checked)' : `seed refused: ${describe(seeded)}; do not pass --model-seed`);
    if (seeded.ok) lastHeaders = seeded.headers;

    // 5. Embeddings (LLaMAR's action matcher is to match free-form answers with them).
    const embModel = o.embeddingModel ?? embeddingCandidates(entries ?? [])[0] ?? o.model;
    const emb = await call<OpenAI.CreateEmbeddingResponse>((opts) => sdk.embeddings.create({ model: embModel, input: ['open the refrigerator', 'OpenObject(Fridge_1)'], encoding_format: 'float' }, opts).withResponse());
    const vector = emb.ok ? emb.data?.data?.[0]?.embedding : undefined;
    if (emb.ok && Array.isArray(vector) && vector.length > 0) {
      findings.embeddings = { model: embModel, dimensions: vector.length };
      settle('embeddings', 'ok', `${vector.length} dimensions from ${embModel}${o.embeddingModel ? '' : embModel === o.model ? ' (the chat model)' : ' (an embedding model it lists; --embedding-model picks another)'}`);
    } else {
      const why = emb.ok ? `HTTP 200 without an embedding vector: ${preview(emb.data)}` : describeEmbeddingFailure(emb);
      // When the route itself is missing, another model name will not help.
      const routeMissing = !emb.ok && /^not (served|enabled)/.test(why);
      settle('embeddings', 'fail', `${why}${o.embeddingModel || embModel !== o.model || routeMissing ? '' : '; name an embedding model with --embedding-model'}`);
    }

    // 6. Images as an image_url content part.
    const img = await chat({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What colour fills this image? Answer with one word.' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${TINY_RED_PNG_BASE64}` } }] }],
    });
    if (img.ok) {
      const answer = completionText(img.data) ?? '';
      findings.images = /\bred\b/i.test(answer) ? 'seen' : 'accepted';
      settle('images', findings.images === 'seen' ? 'ok' : 'unknown', findings.images === 'seen' ? `accepted and seen (a red square: ${JSON.stringify(clip(answer, 30))})` : `accepted, but the answer does not show the image was seen (${JSON.stringify(clip(answer, 50))})`);
    } else {
      findings.images = 'refused';
      settle('images', 'fail', `refused: ${describe(img)}`);
    }

    // 7. JSON mode.
    const js = await chat({ messages: [{ role: 'user', content: 'Reply with a JSON object with one key "ok" set to true.' }], response_format: { type: 'json_object' } });
    if (js.ok) {
      const parsed = tryJson(completionText(js.data) ?? '');
      findings.jsonMode = parsed !== undefined && typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
      settle('json_mode', findings.jsonMode ? 'ok' : 'unknown', findings.jsonMode ? 'response_format json_object gives a JSON object' : `response_format accepted, but the answer is not a JSON object (${JSON.stringify(clip(completionText(js.data) ?? '', 50))})`);
    } else {
      findings.jsonMode = false;
      settle('json_mode', 'fail', `response_format json_object refused: ${describe(js)}`);
    }

    // 8. Context length, where the server says it.
    const ctx = await contextLength(entries);
    if (ctx) findings.context = ctx;
    settle('context', ctx ? 'ok' : 'unknown', ctx ? `${ctx.tokens} tokens (${ctx.source}${ctx.note ? `; ${ctx.note}` : ''})` : contextUnknownText());

    // 9. Latency: the median of small calls.
    const samples: number[] = [];
    for (let i = 0; i < LATENCY_CALLS; i++) {
      const r = await chat({ messages: [{ role: 'user', content: 'Reply with OK.' }] });
      if (!r.ok) {
        settle('latency', 'fail', `call ${i + 1} of ${LATENCY_CALLS} failed: ${describe(r)}`);
        break;
      }
      samples.push(r.latencyMs);
      lastHeaders = r.headers;
    }
    if (samples.length === LATENCY_CALLS) {
      const sorted = [...samples].sort((a, b) => a - b);
      findings.latencyMs = { median: sorted[Math.floor(sorted.length / 2)]!, samples };
      settle('latency', 'ok', `median ${seconds(findings.latencyMs.median)} over ${LATENCY_CALLS} small calls (${samples.map(seconds).join(', ')})`);
    }

    // 10. Rate limits: the provider's headers, and OpenRouter's key endpoint.
    const limits = rateLimitHeaders(lastHeaders);
    if (findings.provider.id === 'openrouter') {
      const key = await get(`${serverRoot(baseUrl)}/api/v1/key`);
      const rl = key.ok ? (key.data as { data?: { rate_limit?: { requests?: unknown; interval?: unknown } } })?.data?.rate_limit : undefined;
      if (rl && typeof rl.requests === 'number') limits['openrouter key rate_limit'] = `${rl.requests} requests / ${String(rl.interval ?? '?')}`;
    }
    if (Object.keys(limits).length > 0) {
      findings.rateLimits = limits;
      settle('rate_limits', 'ok', Object.entries(limits).map(([k, v]) => `${k}: ${v}`).join(', '));
    } else settle('rate_limits', 'unknown', 'none sent (no x-ratelimit-* or retry-after headers); a sweep cannot pace itself from them');
    return findings;
  } catch (e) {
    if (!(e instanceof Fatal)) throw e;
    findings.fatal = redact(e.message);
    return findings;
  }

  function label(g: ProviderGuess): Findings['provider'] {
    return { ...g, label: PROVIDER_LABELS[g.id] };
  }

  function modelLine(entries: ModelEntry[] | undefined, chatAnswered = false): void {
    if (!entries) return;
    const ids = entries.map((e) => e.id);
    // Ollama lists tags: `llama3.2` is served as `llama3.2:latest`.
    const listed = ids.find((id) => id === o.model || id === `${o.model}:latest`);
    if (listed) return settle('model', 'ok', `'${listed}' is in /models`);
    // llama.cpp answers with its loaded model whatever the name; Azure lists base models, not deployments.
    if (chatAnswered) return settle('model', 'unknown', `'${o.model}' is not in /models (${listSome(ids)}), yet chat answers: the server may ignore the name`);
    settle('model', 'fail', `'${o.model}' is not in /models; it lists: ${listSome(ids)}`);
  }

  /** A 404 on both /models and /chat/completions: the base URL's path is wrong. Says the right one when it can. */
  async function wrongPathLine(answered: RawSeen | undefined): Promise<string> {
    const path = new URL(baseUrl).pathname;
    if (!/\/v1$/.test(path)) {
      const withV1 = `${baseUrl}/v1`;
      const r = await call<unknown>((opts) => sdk.get<unknown>(`${withV1}/models`, opts).withResponse());
      if (r.ok && modelEntries(r.data)) return `wrong path: ${baseUrl} has no /models or /chat/completions (HTTP 404), but ${withV1}/models answers: use --base-url ${withV1}`;
    }
    // Who said 404 helps when it is not the model server at all (a proxy, another web server).
    const body = answered?.body?.trim();
    const server = answered?.headers.get('server');
    const who = answered && body !== undefined && tryJson(body) === undefined ? ` (${body ? 'a non-JSON body' : 'an empty body'}${server ? `, server "${clip(server, 40)}"` : ''})` : '';
    return `wrong path: ${baseUrl} answers HTTP 404${who} to /models and /chat/completions — is the base URL right? it usually ends in /v1`;
  }

  async function contextLength(entries: ModelEntry[] | undefined): Promise<ContextLength | undefined> {
    const entry = entries?.find((e) => e.id === o.model);
    const root = serverRoot(baseUrl);
    const json = async (r: Promise<CallResult<unknown>>) => {
      const x = await r;
      return x.ok && typeof x.data === 'object' ? x.data : undefined;
    };
    switch (findings.provider.id) {
      case 'llamacpp':
        return contextFromLlamaCppProps(await json(get(`${root}/props`))) ?? (entry && contextFromModelEntry(entry));
      case 'ollama': {
        const running = contextFromOllamaPs(await json(get(`${root}/api/ps`)), o.model);
        if (running) return running;
        const show = contextFromOllamaShow(await json(post(`${root}/api/show`, { model: o.model })));
        if (show.numCtx) return { tokens: show.numCtx, source: 'num_ctx in /api/show parameters', ...(show.modelMax ? { note: `the model allows ${show.modelMax}` } : {}) };
        return undefined;
      }
      case 'lmstudio':
        return (
          contextFromLmStudio(await json(get(`${root}/api/v1/models`)), o.model) ??
          contextFromLmStudio(await json(get(`${root}/api/v0/models/${encodeURIComponent(o.model)}`)), o.model) ??
          (entry && contextFromModelEntry(entry))
        );
      default:
        return entry && contextFromModelEntry(entry);
    }
  }

  function contextUnknownText(): string {
    switch (findings.provider.id) {
      case 'ollama':
        return "not reported: Ollama runs the model with its default context (4096 tokens below 24 GiB of VRAM) unless OLLAMA_CONTEXT_LENGTH or a Modelfile's num_ctx sets more, and cuts longer prompts silently";
      case 'openai':
      case 'azure':
        return `not reported by ${findings.provider.label}'s /models (see the model's documentation)`;
      case 'reference':
        return 'not reported (the scripted policy has no context limit)';
      default:
        return 'not reported by this server';
    }
  }
}

function looksLikeHtml(seen: RawSeen | undefined): boolean {
  return !!seen && (/text\/html/i.test(seen.contentType) || /^\s*<(!doctype|html|head|body)/i.test(seen.body ?? ''));
}

function htmlTitle(body: string | undefined): string {
  const t = /<title[^>]*>([^<]{1,80})<\/title>/i.exec(body ?? '')?.[1]?.trim();
  return t ? `, "${t}"` : '';
}

/** The failure in one line: HTTP status and the provider's own message, or the connection's. */
function describe(r: CallResult<unknown>): string {
  if (r.ok) return 'ok';
  if (r.seen && looksLikeHtml(r.seen)) return `HTTP ${r.seen.status}, an HTML page${htmlTitle(r.seen.body)}`;
  const status = (r.error as { status?: unknown })?.status;
  if (typeof status === 'number') return `HTTP ${status}: ${providerText(r)}`;
  return connectionLine(r.error, '') ?? String((r.error as Error)?.message ?? r.error);
}

function describeEmbeddingFailure(r: Extract<CallResult<unknown>, { ok: false }>): string {
  const status = (r.error as { status?: unknown })?.status;
  // llama.cpp's server answers 501 unless started with --embeddings.
  if (status === 501) return `not enabled (HTTP 501: ${providerText(r)}); llama.cpp serves them when started with --embeddings`;
  if (status === 404 && !isModelNotFound(r)) return `not served (HTTP 404 on /embeddings: ${providerText(r)})`;
  return describe(r);
}

/** The provider's error message: the JSON error's `message` (or the whole error when it is a string), else the raw body. */
function providerText(r: Extract<CallResult<unknown>, { ok: false }>): string {
  const e = r.error as { error?: unknown; message?: unknown };
  const body = e?.error;
  if (typeof body === 'string' && body) return clip(body, 200);
  const m = (body as { message?: unknown } | undefined)?.message;
  if (typeof m === 'string' && m) return clip(m, 200);
  // vLLM before 0.10 and some proxies put `message` at the top level; the SDK keeps only `error`.
  const raw = tryJson(r.seen?.body ?? '') as { message?: unknown; detail?: unknown } | undefined;
  if (typeof raw?.message === 'string') return clip(raw.message, 200);
  if (typeof raw?.detail === 'string') return clip(raw.detail, 200);
  if (r.seen?.body) return clip(r.seen.body.replace(/\s+/g, ' ').trim(), 200) || `(empty body)`;
  return clip(String(e?.message ?? r.error).replace(/^\d{3}\s+/, ''), 200);
}

/** A 400/404 that names the model as unknown (OpenAI's model_not_found, Ollama's "not found, try pulling it"). */
function isModelNotFound(r: Extract<CallResult<unknown>, { ok: false }>): boolean {
  const status = (r.error as { status?: unknown })?.status;
  if (status !== 404 && status !== 400) return false;
  const code = ((r.error as { error?: { code?: unknown } })?.error?.code ?? (r.error as { code?: unknown })?.code) as unknown;
  return code === 'model_not_found' || code === 'DeploymentNotFound' || /model\b.*\b(not found|does not exist|not exist)|no model|unknown model|try pulling/i.test(providerText(r));
}

/** A 400 whose error names a request field (its `param`, or the field's name in the message). */
function mentions(r: CallResult<unknown>, field: string): boolean {
  if (r.ok) return false;
  const status = (r.error as { status?: unknown })?.status;
  if (status !== 400 && status !== 422) return false;
  const param = (r.error as { param?: unknown; error?: { param?: unknown } })?.param ?? (r.error as { error?: { param?: unknown } })?.error?.param;
  return param === field || providerText(r).includes(field);
}

/** A connection-level failure as the user should read it; undefined when the error is not one. */
function connectionLine(e: unknown, baseUrl: string): string | undefined {
  const code = errorCode(e);
  const where = baseUrl ? hostPort(baseUrl) : 'the server';
  if (code === 'ECONNREFUSED') return `connection refused at ${where}: nothing is listening there (is the server running? is the port right?)`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `host not found: ${baseUrl ? new URL(baseUrl).hostname : 'the server'} (check the base URL)`;
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return `connection to ${where} reset before an answer (${code})`;
  if (code && /CERT|SSL|TLS|SELF_SIGNED/i.test(code)) return `TLS failed with ${where}: ${code}`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `${where} is unreachable from this machine (${code})`;
  return undefined;
}

function hostPort(baseUrl: string): string {
  try {
    const u = new URL(baseUrl);
    return `${u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`;
  } catch {
    return baseUrl;
  }
}

function errorCode(e: unknown): string | undefined {
  for (let cur = e, depth = 0; cur && typeof cur === 'object' && depth < 6; cur = (cur as { cause?: unknown }).cause, depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string' && code) return code;
  }
  return undefined;
}

function completionText(data: unknown): string | undefined {
  const c = (data as { choices?: { message?: { content?: unknown } }[] } | null)?.choices?.[0]?.message?.content;
  return typeof c === 'string' ? c : undefined;
}

function finishReason(data: unknown): string | undefined {
  const f = (data as { choices?: { finish_reason?: unknown }[] } | null)?.choices?.[0]?.finish_reason;
  return typeof f === 'string' ? f : undefined;
}

function completionTokens(data: unknown): number | undefined {
  const n = (data as { usage?: { completion_tokens?: unknown } } | null)?.usage?.completion_tokens;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

/** `x-ratelimit-*`, `retry-after` and `retry-after-ms`, sorted by name. */
export function rateLimitHeaders(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  const names: string[] = [];
  h.forEach((_v, k) => names.push(k.toLowerCase()));
  for (const k of names.sort()) if (k.startsWith('x-ratelimit-') || k === 'retry-after' || k === 'retry-after-ms') out[k] = h.get(k)!;
  return out;
}

function tryJson(s: string): unknown {
  try {
    return JSON.parse(s.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    return undefined;
  }
}

function preview(data: unknown): string {
  return JSON.stringify(clip(typeof data === 'string' ? data : JSON.stringify(data) ?? String(data), 80));
}

function clip(s: string, n: number): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
}

function listSome(ids: string[]): string {
  return ids.length <= 6 ? ids.join(', ') : `${ids.slice(0, 6).join(', ')} and ${ids.length - 6} more`;
}

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}
