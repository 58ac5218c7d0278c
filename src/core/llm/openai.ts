// A ModelClient over the official `openai` SDK (chat completions) against any OpenAI-compatible base URL:
// OpenAI, Azure's v1 endpoint, Ollama, vLLM, LM Studio, or Waypoint's reference server.
// Everything the client needs is passed in (STYLE rule 6): it reads no environment variables or settings, and
// the API key never leaves the SDK's request headers (errors and texts are scrubbed of it).
import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionContentPart, ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { Clock } from '../host.js';
import type { ModelClient, ModelError, ModelRequest, ModelResult } from './client.js';
import { parseRetryAfter } from './retry.js';

export interface OpenAICompatibleOptions {
  /** e.g. "https://api.openai.com/v1", "http://127.0.0.1:11434/v1". */
  baseUrl: string;
  /** Handed in by the CLI (from an env var) or the extension (from SecretStorage). Omit for keyless local servers. */
  apiKey?: string;
  clock: Clock;
  /** Label used in the client id only; each request names its model. */
  model?: string;
  /** Overrides the default id `openai:<model>@<baseUrl>` (the id is part of the cache key, so give a stable one for ephemeral ports). */
  id?: string;
  /** Whole-request timeout (connect, headers and body). Default 120 s. */
  timeoutMs?: number;
  /** 'api-key' sends the key in an `api-key` header (Azure's classic endpoints) instead of `Authorization: Bearer`. */
  authStyle?: 'bearer' | 'api-key';
  /** Newer OpenAI models accept only `max_completion_tokens`; most local servers read `max_tokens`. Default 'max_tokens'. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** Extra query parameters, e.g. `{ 'api-version': '2024-10-21' }` for Azure. */
  defaultQuery?: Record<string, string>;
  /** Extra non-secret headers. */
  headers?: Record<string, string>;
  /**
   * Send the request's role metadata as `x-waypoint-*` headers. On for the reference model (it answers per role
   * from them); off for real endpoints, which have no use for them.
   */
  sendRequestMeta?: boolean;
}

/** Header names carrying RequestMeta to the reference model. */
export const META_HEADERS = { arch: 'x-waypoint-arch', role: 'x-waypoint-role', agent: 'x-waypoint-agent', callId: 'x-waypoint-call' } as const;

/** The response header by which Waypoint's reference server says what it is, on every answer. */
export const REFERENCE_HEADER = { name: 'x-waypoint-model', value: 'reference-scripted' } as const;

/** What an endpoint said it is (OpenAICompatibleClient.identify). */
export type EndpointIdentity =
  /** Waypoint's reference server (scripted policies, not LLMs), with the models it serves. */
  | { kind: 'reference'; models: string[] }
  /** Any other endpoint that answered (whatever the status). */
  | { kind: 'other' }
  /** No HTTP answer: refused, unreachable, timed out (the run's first call then says why). */
  | { kind: 'no_answer' };

const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** What building the SDK needs; the doctor (./doctor) builds its SDK through this too, so both send the same headers. */
export type OpenAISdkOptions = Pick<OpenAICompatibleOptions, 'baseUrl' | 'apiKey' | 'authStyle' | 'defaultQuery' | 'headers'> & {
  timeoutMs: number;
  /** A fetch to use instead of the global one (the doctor reads error bodies the SDK does not keep). */
  fetch?: typeof fetch;
};

/**
 * The openai SDK for an OpenAI-compatible endpoint, reading no environment variable: the key goes in
 * `Authorization: Bearer` (or Azure's `api-key` header), a keyless server gets no credential header, SDK retries
 * are off (withRetries decides), and only the given non-secret headers are added: never `x-waypoint-*`.
 */
export function createOpenAISdk(options: OpenAISdkOptions): OpenAI {
  const apiKey = options.apiKey === '' ? undefined : options.apiKey;
  const useApiKeyHeader = options.authStyle === 'api-key' && apiKey !== undefined;
  return new OpenAI({
    baseURL: options.baseUrl.replace(/\/+$/, ''),
    // The SDK insists on a credential; a keyless server gets a placeholder whose header is removed below.
    apiKey: apiKey ?? 'unused',
    // Explicit values so the SDK does not fall back to OPENAI_* environment variables.
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
    logLevel: 'off',
    maxRetries: 0,
    timeout: options.timeoutMs,
    defaultQuery: options.defaultQuery,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    defaultHeaders: {
      ...options.headers,
      ...(apiKey === undefined || useApiKeyHeader ? { Authorization: null } : {}),
      ...(useApiKeyHeader ? { 'api-key': apiKey } : {}),
    },
  });
}

export class OpenAICompatibleClient implements ModelClient {
  readonly id: string;
  readonly baseUrl: string;
  // A #private field: util.inspect and JSON.stringify of this client never show the SDK object (which holds the key).
  readonly #sdk: OpenAI;
  readonly #apiKey: string | undefined;
  readonly #clock: Clock;
  readonly #timeoutMs: number;
  readonly #maxTokensField: 'max_tokens' | 'max_completion_tokens';
  readonly #sendMeta: boolean;

  constructor(options: OpenAICompatibleOptions) {
    if (!/^https?:\/\//.test(options.baseUrl)) {
      throw new Error(`OpenAICompatibleClient: baseUrl must start with http:// or https://, got "${options.baseUrl}"`);
    }
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.id = options.id ?? `openai:${options.model ?? '*'}@${this.baseUrl}`;
    this.#apiKey = options.apiKey === '' ? undefined : options.apiKey;
    this.#clock = options.clock;
    this.#timeoutMs = options.timeoutMs ?? 120_000;
    this.#maxTokensField = options.maxTokensField ?? 'max_tokens';
    this.#sendMeta = options.sendRequestMeta ?? false;
    this.#sdk = createOpenAISdk({ ...options, apiKey: this.#apiKey, timeoutMs: this.#timeoutMs });
  }

  async complete(request: ModelRequest, options?: { signal?: AbortSignal }): Promise<ModelResult> {
    const start = this.#clock.nowMs();
    const signal = options?.signal;
    const elapsed = () => Math.max(0, this.#clock.nowMs() - start);
    const fail = (error: ModelError): ModelResult => ({
      ok: false,
      error: { ...error, message: this.#redact(error.message) },
      latencyMs: elapsed(),
      cached: false,
      attempts: 1,
    });
    if (signal?.aborted) return fail({ kind: 'cancelled', message: 'model call cancelled before it started' });

    // One controller for both causes of abort, so the timeout also covers reading the body.
    const ctl = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ctl.abort();
    }, this.#timeoutMs);
    const onAbort = () => ctl.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const headers = this.#sendMeta && request.meta ? metaHeaders(request.meta) : undefined;
      const completion: unknown = await this.#sdk.chat.completions.create(this.#body(request), { signal: ctl.signal, maxRetries: 0, timeout: this.#timeoutMs, headers });
      const parsed = readCompletion(completion);
      if ('error' in parsed) return fail(parsed.error);
      return { ok: true, text: this.#redact(parsed.text), usage: parsed.usage, latencyMs: elapsed(), cached: false, attempts: 1 };
    } catch (e) {
      if (timedOut) return fail({ kind: 'timeout', message: `no complete response within ${this.#timeoutMs / 1000} s from ${this.baseUrl}` });
      if (signal?.aborted) return fail({ kind: 'cancelled', message: 'model call cancelled' });
      return fail(classifyOpenAIError(e, this.baseUrl, Date.parse(this.#clock.isoNow())));
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * Asks the endpoint what it is: one GET /models with the same credentials as the chat calls, and no role
   * metadata. Waypoint's reference server says so in its x-waypoint-model header; a real endpoint never does.
   */
  async identify(options: { timeoutMs?: number } = {}): Promise<EndpointIdentity> {
    const timeout = options.timeoutMs ?? 5000;
    try {
      const res = await this.#sdk.models.list({ maxRetries: 0, timeout }).asResponse();
      if (res.headers.get(REFERENCE_HEADER.name) !== REFERENCE_HEADER.value) {
        await res.body?.cancel().catch(() => undefined);
        return { kind: 'other' };
      }
      const body = (await res.json()) as { data?: { id?: unknown }[] };
      return { kind: 'reference', models: (body.data ?? []).map((d) => d.id).filter((id): id is string => typeof id === 'string') };
    } catch (e) {
      return e instanceof OpenAI.APIError && typeof e.status === 'number' ? { kind: 'other' } : { kind: 'no_answer' };
    }
  }

  #body(request: ModelRequest): ChatCompletionCreateParamsNonStreaming {
    const messages = request.messages.map((m): ChatCompletionMessageParam => {
      // OpenAI restricts `name` to [A-Za-z0-9_-]; agent names in group chats may carry spaces.
      const name = m.name === undefined ? undefined : m.name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
      // Images go as data URLs in a user message's content parts (the only role that may carry them).
      if (m.role === 'user' && m.parts?.some((p) => p.type === 'image')) {
        const content = m.parts.map((p): ChatCompletionContentPart => {
          if (p.type === 'text') return { type: 'text', text: p.text };
          if (!p.dataBase64) return { type: 'text', text: `[image ${p.sha256.slice(0, 12)} not available${p.alt ? `: ${p.alt}` : ''}]` };
          return { type: 'image_url', image_url: { url: `data:${p.mediaType};base64,${p.dataBase64}` } };
        });
        return name ? { role: 'user', content, name } : { role: 'user', content };
      }
      return name ? { role: m.role, content: m.content, name } : { role: m.role, content: m.content };
    });
    const body: ChatCompletionCreateParamsNonStreaming = { model: request.model, messages };
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (request.seed !== undefined) body.seed = request.seed;
    if (request.maxTokens !== undefined) body[this.#maxTokensField] = request.maxTokens;
    return body;
  }

  #redact(s: string): string {
    return redactKey(s, this.#apiKey);
  }
}

/** `s` with every occurrence of the key replaced (keys under 4 characters are too short to find safely). */
export function redactKey(s: string, key: string | undefined): string {
  return key && key.length >= 4 ? s.split(key).join('[redacted]') : s;
}

/** An error the openai SDK threw, as a ModelError value (one line, cause first). `nowWallMs` converts an HTTP-date Retry-After. */
export function classifyOpenAIError(e: unknown, baseUrl: string, nowWallMs: number): ModelError {
  if (e instanceof OpenAI.APIConnectionTimeoutError) return { kind: 'timeout', message: `connection to ${baseUrl} timed out` };
  if (e instanceof OpenAI.APIUserAbortError) return { kind: 'cancelled', message: 'model call cancelled' };
  if (e instanceof OpenAI.APIConnectionError) return networkError(e, baseUrl);
  if (e instanceof OpenAI.APIError && typeof e.status === 'number') {
    const status = e.status;
    const provider = providerMessage(e);
    const retryAfterMs = retryAfterFrom(e.headers, nowWallMs);
    const withRetry = retryAfterMs === undefined ? {} : { retryAfterMs };
    if (status === 429) return { kind: 'rate_limit', status, message: `rate limited (HTTP 429) by ${baseUrl}: ${provider}`, ...withRetry };
    if (status >= 500) return { kind: 'server', status, message: `server error (HTTP ${status}) from ${baseUrl}: ${provider}`, ...withRetry };
    if (status === 401 || status === 403) return { kind: 'auth', status, message: `not authorised (HTTP ${status}) by ${baseUrl}: ${provider}` };
    if (status === 408) return { kind: 'timeout', status, message: `request timed out (HTTP 408) at ${baseUrl}: ${provider}`, ...withRetry };
    return { kind: 'bad_request', status, message: `request rejected (HTTP ${status}) by ${baseUrl}: ${provider}` };
  }
  if (e instanceof SyntaxError) return { kind: 'bad_response', message: `response from ${baseUrl} is not valid JSON: ${e.message}` };
  const code = errorCode(e);
  if (code && TIMEOUT_CODES.has(code)) return { kind: 'timeout', message: `connection to ${baseUrl} timed out (${code})` };
  if ((code && NETWORK_CODES.has(code)) || /terminated|other side closed|socket hang up/i.test(String((e as Error)?.message))) {
    return { kind: 'network', message: `connection to ${baseUrl} failed while reading the response (${code ?? String((e as Error).message)})` };
  }
  // The SDK threw something it does not document; keep it a value so one call never crashes a sweep.
  return { kind: 'bad_response', message: `unexpected error from the openai SDK calling ${baseUrl}: ${String((e as Error)?.message ?? e)}` };
}

function metaHeaders(meta: NonNullable<ModelRequest['meta']>): Record<string, string> {
  const out: Record<string, string> = { [META_HEADERS.arch]: meta.arch, [META_HEADERS.role]: meta.role };
  if (meta.agent) out[META_HEADERS.agent] = meta.agent;
  if (meta.callId) out[META_HEADERS.callId] = meta.callId;
  return out;
}

function readCompletion(completion: unknown): { text: string; usage?: { promptTokens: number; completionTokens: number } } | { error: ModelError } {
  if (typeof completion !== 'object' || completion === null) {
    const preview = String(completion).slice(0, 80).replace(/\s+/g, ' ');
    return { error: { kind: 'bad_response', message: `response is not a JSON chat completion (got text: "${preview}")` } };
  }
  const c = completion as Partial<ChatCompletion>;
  if (!Array.isArray(c.choices)) return { error: { kind: 'bad_response', message: 'response JSON has no "choices" array' } };
  if (c.choices.length === 0) return { error: { kind: 'bad_response', message: 'response has an empty "choices" array' } };
  const choice = c.choices[0]!;
  const content = choice.message?.content;
  if (typeof content !== 'string') {
    const refusal = choice.message?.refusal;
    const why = refusal ? `refusal: ${refusal}` : `finish_reason: ${choice.finish_reason ?? 'none'}`;
    return { error: { kind: 'bad_response', message: `first choice has no text content (${why})` } };
  }
  const u = c.usage;
  const usage = u && Number.isInteger(u.prompt_tokens) && Number.isInteger(u.completion_tokens) ? { promptTokens: u.prompt_tokens, completionTokens: u.completion_tokens } : undefined;
  return usage ? { text: content, usage } : { text: content };
}

function providerMessage(e: InstanceType<typeof OpenAI.APIError>): string {
  const body = e.error as unknown;
  if (typeof body === 'string' && body) return body;
  const m = (body as { message?: unknown } | undefined)?.message;
  if (typeof m === 'string' && m) return m;
  return e.message.replace(/^\d{3}\s+/, '');
}

function retryAfterFrom(headers: Headers | undefined, nowWallMs: number): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.round(Number(ms));
  return parseRetryAfter(headers.get('retry-after'), nowWallMs);
}

function networkError(e: Error, baseUrl: string): ModelError {
  const code = errorCode(e);
  if (code && TIMEOUT_CODES.has(code)) return { kind: 'timeout', message: `connection to ${baseUrl} timed out (${code})` };
  const msg = deepestMessage(e);
  // On this machine a refused connection means no server is running there; waiting will not start one.
  if (code === 'ECONNREFUSED' && isLoopback(baseUrl)) {
    return { kind: 'network', permanent: true, message: `connection to ${baseUrl} refused: nothing is listening on that port (is the server running?)` };
  }
  // fetch refuses some ports outright (e.g. 6000, 6667); no retry changes that.
  if (msg === 'bad port') return { kind: 'network', permanent: true, message: `connection to ${baseUrl} failed: fetch does not allow that port` };
  const detail = code && !msg.includes(code) ? `${code}: ${msg}` : msg;
  return { kind: 'network', message: `connection to ${baseUrl} failed (${detail})` };
}

function isLoopback(baseUrl: string): boolean {
  try {
    const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

/** The first `code` (ECONNRESET, ENOTFOUND, ...) in an error's cause chain. */
function errorCode(e: unknown): string | undefined {
  for (let cur = e, depth = 0; cur && typeof cur === 'object' && depth < 6; cur = (cur as { cause?: unknown }).cause, depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string' && code) return code;
  }
  return undefined;
}

function deepestMessage(e: unknown): string {
  let msg = 'connection error';
  for (let cur = e, depth = 0; cur && typeof cur === 'object' && depth < 6; cur = (cur as { cause?: unknown }).cause, depth++) {
    const m = (cur as { message?: unknown }).message;
    if (typeof m === 'string' && m) msg = m;
  }
  return msg;
}
