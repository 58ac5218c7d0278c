// Sentence embeddings from an OpenAI-compatible `/v1/embeddings` endpoint (OpenAI, Ollama, vLLM, llama.cpp's server,
// Waypoint's reference server), over the same `openai` SDK and credentials as the chat calls. LLaMAR's action matcher
// uses them as the paper uses its SentenceBERT. Calls resolve to values: a failure says whether the endpoint has no
// embeddings at all (the matcher then stops asking for the episode) or the call failed this time.
import type OpenAI from 'openai';
import type { Clock, Rng } from '../host.js';
import type { ModelError } from './client.js';
import { classifyOpenAIError, createOpenAISdk, redactKey, type OpenAISdkOptions } from './openai.js';
import { fullPolicy, retryStep, type RetryPolicy, type Sleep } from './retry.js';

export type EmbeddingResult =
  /** `promptTokens`: the endpoint's usage count, when it sent one (a sweep's budget counts it). */
  | { ok: true; vectors: number[][]; promptTokens?: number }
  /** `unsupported`: the endpoint or model serves no embeddings (404, 400, 405, 501, ...): asking again will not help. */
  | { ok: false; unsupported: boolean; error: ModelError };

export interface EmbeddingClient {
  /** The embedding model, as recorded in the run header. */
  readonly model: string;
  embed(texts: readonly string[], options?: { signal?: AbortSignal }): Promise<EmbeddingResult>;
}

/** What an episode's loop may ask of the run's embedding model (EpisodeContext.embeddings). */
export interface EpisodeEmbeddings {
  readonly model: string;
  /** One vector per text, in order. */
  vectors(texts: readonly string[], signal?: AbortSignal): Promise<EmbeddingResult>;
}

export interface OpenAIEmbeddingOptions extends Omit<OpenAISdkOptions, 'timeoutMs'> {
  model: string;
  clock: Clock;
  /** Whole-request timeout. Default 30 s (an embedding call is small; a stuck one should not hold the episode). */
  timeoutMs?: number;
}

export class OpenAIEmbeddingClient implements EmbeddingClient {
  readonly model: string;
  readonly #sdk: OpenAI;
  readonly #baseUrl: string;
  readonly #apiKey: string | undefined;
  readonly #clock: Clock;
  readonly #timeoutMs: number;

  constructor(options: OpenAIEmbeddingOptions) {
    this.model = options.model;
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#apiKey = options.apiKey === '' ? undefined : options.apiKey;
    this.#clock = options.clock;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#sdk = createOpenAISdk({ ...options, apiKey: this.#apiKey, timeoutMs: this.#timeoutMs });
  }

  async embed(texts: readonly string[], options: { signal?: AbortSignal } = {}): Promise<EmbeddingResult> {
    if (texts.length === 0) return { ok: true, vectors: [] };
    try {
      // float: every server that has the route understands it (the SDK's default base64 is not universal).
      const r = await this.#sdk.embeddings.create({ model: this.model, input: [...texts], encoding_format: 'float' }, { signal: options.signal, maxRetries: 0, timeout: this.#timeoutMs });
      const data = Array.isArray(r?.data) ? r.data : undefined;
      const vectors = data ? [...data].sort((a, b) => a.index - b.index).map((d) => d.embedding) : [];
      if (vectors.length !== texts.length || vectors.some((v) => !Array.isArray(v) || v.length === 0 || v.some((x) => typeof x !== 'number'))) {
        return { ok: false, unsupported: true, error: { kind: 'bad_response', message: `${this.#baseUrl}/embeddings answered without ${texts.length} embedding vector${texts.length === 1 ? '' : 's'} for ${this.model}` } };
      }
      const used = (r as { usage?: { prompt_tokens?: unknown } }).usage?.prompt_tokens;
      return { ok: true, vectors, ...(typeof used === 'number' && Number.isFinite(used) ? { promptTokens: used } : {}) };
    } catch (e) {
      const error = classifyOpenAIError(e, this.#baseUrl, Date.parse(this.#clock.isoNow()));
      const message = redactKey(error.message, this.#apiKey);
      // A request the endpoint refuses as such (no route, no such model, not enabled) will be refused again.
      const unsupported = error.kind === 'bad_request' || error.status === 501;
      return { ok: false, unsupported, error: { ...error, message } };
    }
  }
}

/**
 * Retries an embedding call as chat calls are retried (retry.ts): the same retryable kinds, backoff and Retry-After
 * rule and attempt count. An endpoint without embeddings (`unsupported`) is not asked again.
 */
export function withEmbeddingRetries(client: EmbeddingClient, policy: RetryPolicy, rng: Rng, sleep: Sleep): EmbeddingClient {
  const p = fullPolicy(policy);
  return {
    model: client.model,
    async embed(texts, options = {}) {
      for (let attempt = 1; ; attempt++) {
        const r = await client.embed(texts, options);
        if (r.ok || r.unsupported) return r;
        const next = retryStep(r.error, attempt, p, rng);
        if ('stop' in next) return { ...r, error: { ...r.error, message: next.stop } };
        await sleep(next.waitMs, options.signal);
        if (options.signal?.aborted) return { ok: false, unsupported: false, error: { kind: 'cancelled', message: 'embedding call cancelled while waiting to retry' } };
      }
    },
  };
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * One episode's embeddings: every text is embedded once (the admissible actions recur step after step), and the
 * texts still missing go in one request. After an `unsupported` answer it stops asking and says why each time.
 */
export class EmbeddingCache implements EpisodeEmbeddings {
  readonly #client: EmbeddingClient;
  readonly #vectors = new Map<string, number[]>();
  #off: ModelError | undefined;

  constructor(client: EmbeddingClient) {
    this.#client = client;
  }

  get model(): string {
    return this.#client.model;
  }

  async vectors(texts: readonly string[], signal?: AbortSignal): Promise<EmbeddingResult> {
    if (this.#off) return { ok: false, unsupported: true, error: this.#off };
    const missing = [...new Set(texts.filter((t) => !this.#vectors.has(t)))];
    if (missing.length > 0) {
      const r = await this.#client.embed(missing, signal ? { signal } : {});
      if (!r.ok) {
        if (r.unsupported) this.#off = r.error;
        return r;
      }
      missing.forEach((t, i) => this.#vectors.set(t, r.vectors[i]!));
    }
    return { ok: true, vectors: texts.map((t) => this.#vectors.get(t)!) };
  }
}
