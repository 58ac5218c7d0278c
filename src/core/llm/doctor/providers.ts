// Which server answers at a base URL, and where it says its context length. Pure functions over what the endpoint
// returned, so each provider's response shapes are unit-tested without a network. The shapes come from the
// providers' own documentation and code (read November 2026):
// - vLLM: `/v1/models` entries carry `max_model_len` (ModelCard in vllm-project/vllm:vllm/entrypoints/openai/protocol.py).
// - OpenRouter: `/api/v1/models` entries carry `context_length` and `top_provider.context_length`
//   (openrouter.ai/docs, TopProviderInfo); `/api/v1/key` gives the key's `rate_limit`.
// - llama.cpp's server: `/v1/models` entries are owned by "llamacpp" with `meta.n_ctx_train` (newer builds also
//   `meta.n_ctx`); `GET /props` gives the running context (`n_ctx`, or `default_generation_settings.n_ctx` in
//   older builds), per slot when the server runs several (ggml-org/llama.cpp:tools/server/README.md).
// - Ollama: `/v1/models` entries are owned by the model's namespace ("library"); the context is not in them.
//   `GET /api/ps` gives a loaded model's `context_length` (api/types.go ProcessModelResponse); `POST /api/show`
//   gives `model_info["<arch>.context_length"]` (the model's maximum) and `parameters` (a `num_ctx` line when the
//   Modelfile sets one). The /v1 layer cannot set num_ctx; longer prompts are cut silently (docs/context-length.mdx,
//   docs/api/openai-compatibility.mdx).
// - LM Studio: `/v1/models` has ids only; `GET /api/v1/models` lists `models[]` with `key`, `max_context_length` and
//   `loaded_instances[].config.context_length`; the older `GET /api/v0/models/{id}` has `max_context_length`
//   (lmstudio-ai/docs:1_developer/2_rest/list.md, endpoints.mdx).
// - OpenAI and Azure OpenAI list no context length.
// - Waypoint's reference server marks every answer with `x-waypoint-model: reference-scripted` and owns its models
//   as "<name> (scripted, not an LLM)" (../reference/server.ts).

export type ProviderId = 'reference' | 'openai' | 'azure' | 'openrouter' | 'ollama' | 'lmstudio' | 'llamacpp' | 'vllm' | 'unknown';

export const PROVIDER_LABELS: Record<ProviderId, string> = {
  reference: "Waypoint's reference server (a scripted policy, not an LLM)",
  openai: 'OpenAI',
  azure: 'Azure OpenAI',
  openrouter: 'OpenRouter',
  ollama: 'Ollama',
  lmstudio: 'LM Studio',
  llamacpp: "llama.cpp's server",
  vllm: 'vLLM',
  unknown: 'an OpenAI-compatible server',
};

export interface ProviderGuess {
  id: ProviderId;
  /** What gave it away, for the report. */
  why: string;
}

/** One entry of a `/models` list as the server sent it (only `id` is common to all). */
export type ModelEntry = Record<string, unknown> & { id: string };

/** The entries of a `/models` answer (`{data: [...]}`); undefined when it is not that shape. */
export function modelEntries(body: unknown): ModelEntry[] | undefined {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return undefined;
  return data.filter((d): d is ModelEntry => typeof d === 'object' && d !== null && typeof (d as { id?: unknown }).id === 'string');
}

function hostOf(baseUrl: string): { host: string; port: string } {
  try {
    const u = new URL(baseUrl);
    return { host: u.hostname.toLowerCase(), port: u.port };
  } catch {
    return { host: '', port: '' };
  }
}

export function isAzureHost(baseUrl: string): boolean {
  return /\.(openai\.azure\.com|cognitiveservices\.azure\.com|services\.ai\.azure\.com)$/.test(hostOf(baseUrl).host);
}

/** An Azure URL of the classic form `.../openai/deployments/<name>` (needs `api-version` and the `api-key` header). */
export function azureDeployment(baseUrl: string): string | undefined {
  if (!isAzureHost(baseUrl)) return undefined;
  return /\/openai\/deployments\/([^/?#]+)/.exec(new URL(baseUrl).pathname)?.[1];
}

/**
 * The provider, from the host, the headers of its answers and the owners in its model list. The host decides for
 * the hosted services; local servers are told apart by what they write in `owned_by` (their default ports only
 * break a tie).
 */
export function detectProvider(baseUrl: string, evidence: { headers?: Headers; models?: ModelEntry[] }): ProviderGuess {
  if (evidence.headers?.get('x-waypoint-model') === 'reference-scripted') return { id: 'reference', why: 'it answers with x-waypoint-model: reference-scripted' };
  const owners = new Set((evidence.models ?? []).map((m) => (typeof m.owned_by === 'string' ? m.owned_by : '')));
  if ([...owners].some((o) => o.endsWith('(scripted, not an LLM)'))) return { id: 'reference', why: 'its models are owned by "… (scripted, not an LLM)"' };
  const { host, port } = hostOf(baseUrl);
  if (host === 'api.openai.com') return { id: 'openai', why: `host ${host}` };
  if (isAzureHost(baseUrl)) return { id: 'azure', why: `host ${host}` };
  if (host === 'openrouter.ai' || host.endsWith('.openrouter.ai')) return { id: 'openrouter', why: `host ${host}` };
  // Behind a proxy or a custom domain, the answers still show whose they are.
  const h = evidence.headers;
  if (h?.has('apim-request-id') || h?.has('x-ms-region')) return { id: 'azure', why: 'Azure API Management headers (apim-request-id, x-ms-region)' };
  if (h?.has('openai-processing-ms') || h?.has('openai-version')) return { id: 'openai', why: 'OpenAI headers (openai-processing-ms, openai-version)' };
  const models = evidence.models ?? [];
  if (models.some((m) => m.pricing !== undefined && typeof m.context_length === 'number')) return { id: 'openrouter', why: 'models carry pricing and context_length' };
  if (owners.has('vllm') || models.some((m) => typeof m.max_model_len === 'number')) return { id: 'vllm', why: owners.has('vllm') ? 'models owned by "vllm"' : 'models carry max_model_len' };
  if (owners.has('llamacpp') || models.some((m) => typeof (m.meta as { n_ctx_train?: unknown } | undefined)?.n_ctx_train === 'number')) return { id: 'llamacpp', why: 'models owned by "llamacpp"' };
  if (owners.has('organization_owner') || (models.length === 0 && port === '1234')) return { id: 'lmstudio', why: owners.has('organization_owner') ? 'models owned by "organization_owner"' : 'port 1234' };
  if (owners.has('library') || port === '11434') return { id: 'ollama', why: owners.has('library') ? 'models owned by "library"' : 'port 11434' };
  return { id: 'unknown', why: 'no provider-specific sign in its answers' };
}

export interface ContextLength {
  tokens: number;
  /** Where the number came from, e.g. "max_model_len in /v1/models". */
  source: string;
  /** What the number does not say (a training maximum the server may not run with, a per-slot share). */
  note?: string;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : undefined);

/** The context length a `/models` entry states, by the field names the providers above use. */
export function contextFromModelEntry(entry: ModelEntry): ContextLength | undefined {
  const mml = num(entry.max_model_len);
  if (mml) return { tokens: mml, source: 'max_model_len in /models' };
  const top = num((entry.top_provider as { context_length?: unknown } | undefined)?.context_length);
  const cl = num(entry.context_length);
  if (cl || top) return { tokens: top ?? cl!, source: top ? 'top_provider.context_length in /models' : 'context_length in /models' };
  const meta = entry.meta as { n_ctx?: unknown; n_ctx_train?: unknown } | undefined;
  const nCtx = num(meta?.n_ctx);
  if (nCtx) return { tokens: nCtx, source: 'meta.n_ctx in /models' };
  const lmLoaded = num(entry.loaded_context_length);
  if (lmLoaded) return { tokens: lmLoaded, source: 'loaded_context_length in /models' };
  const window = num(entry.context_window) ?? num(entry.max_context_length);
  if (window) return { tokens: window, source: `${entry.context_window !== undefined ? 'context_window' : 'max_context_length'} in /models` };
  const train = num(meta?.n_ctx_train);
  if (train) return { tokens: train, source: 'meta.n_ctx_train in /models', note: 'the training maximum; the server may run with less' };
  return undefined;
}

/** llama.cpp `GET /props`: the running context per slot. */
export function contextFromLlamaCppProps(body: unknown): ContextLength | undefined {
  const b = body as { n_ctx?: unknown; total_slots?: unknown; default_generation_settings?: { n_ctx?: unknown } } | null;
  const perSlot = num(b?.default_generation_settings?.n_ctx);
  const total = num(b?.n_ctx);
  const slots = num(b?.total_slots);
  if (perSlot) return { tokens: perSlot, source: 'default_generation_settings.n_ctx in /props', ...(slots && slots > 1 ? { note: `per slot; the server shares its context among ${slots} slots` } : {}) };
  if (total) return { tokens: slots && slots > 1 ? Math.floor(total / slots) : total, source: 'n_ctx in /props', ...(slots && slots > 1 ? { note: `${total} shared among ${slots} slots` } : {}) };
  return undefined;
}

/** Ollama `GET /api/ps`: the context a loaded model runs with. */
export function contextFromOllamaPs(body: unknown, model: string): ContextLength | undefined {
  const models = (body as { models?: unknown } | null)?.models;
  if (!Array.isArray(models)) return undefined;
  const want = withTag(model);
  const m = models.find((x) => typeof x === 'object' && x !== null && (withTag(String((x as { name?: unknown }).name ?? '')) === want || withTag(String((x as { model?: unknown }).model ?? '')) === want)) as { context_length?: unknown } | undefined;
  const n = num(m?.context_length);
  return n ? { tokens: n, source: 'context_length in /api/ps (the loaded model)' } : undefined;
}

/** Ollama `POST /api/show`: `num_ctx` when the Modelfile sets one, and the model's own maximum. */
export function contextFromOllamaShow(body: unknown): { numCtx?: number; modelMax?: number } {
  const b = body as { parameters?: unknown; model_info?: Record<string, unknown> } | null;
  const numCtx = typeof b?.parameters === 'string' ? num(Number(/(?:^|\n)\s*num_ctx\s+(\d+)/.exec(b.parameters)?.[1])) : undefined;
  let modelMax: number | undefined;
  for (const [k, v] of Object.entries(b?.model_info ?? {})) if (k.endsWith('.context_length')) modelMax = num(v) ?? modelMax;
  return { ...(numCtx ? { numCtx } : {}), ...(modelMax ? { modelMax } : {}) };
}

/** LM Studio `GET /api/v1/models` (newer) or `GET /api/v0/models/{id}` (older). */
export function contextFromLmStudio(body: unknown, model: string): ContextLength | undefined {
  const list = (body as { models?: unknown } | null)?.models;
  if (Array.isArray(list)) {
    const m = list.find((x) => (x as { key?: unknown })?.key === model || (x as { id?: unknown })?.id === model) as
      | { max_context_length?: unknown; loaded_instances?: { config?: { context_length?: unknown } }[] }
      | undefined;
    const loaded = num(m?.loaded_instances?.[0]?.config?.context_length);
    if (loaded) return { tokens: loaded, source: 'loaded_instances[0].config.context_length in /api/v1/models' };
    const max = num(m?.max_context_length);
    if (max) return { tokens: max, source: 'max_context_length in /api/v1/models', note: 'the model is not loaded; LM Studio loads it with the context set in its load settings, often less' };
    return undefined;
  }
  const b = body as { loaded_context_length?: unknown; max_context_length?: unknown } | null;
  const loaded = num(b?.loaded_context_length);
  if (loaded) return { tokens: loaded, source: 'loaded_context_length in /api/v0/models' };
  const max = num(b?.max_context_length);
  return max ? { tokens: max, source: 'max_context_length in /api/v0/models', note: "the model's maximum; LM Studio loads it with the context set in its load settings, often less" } : undefined;
}

function withTag(name: string): string {
  return name.includes(':') ? name : `${name}:latest`;
}

/** Embedding models a server lists, best guess first (an explicit --embedding-model always wins). */
export function embeddingCandidates(models: readonly ModelEntry[]): string[] {
  const ids = models.map((m) => m.id).filter((id) => /embed|(^|[/_-])(bge|e5|gte|minilm)([/_-]|$)/i.test(id));
  const preferred = ['text-embedding-3-small', 'nomic-embed-text', 'nomic-embed-text:latest'];
  return ids.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  function rank(id: string): number {
    const i = preferred.indexOf(id);
    return i < 0 ? preferred.length : i;
  }
}

/** The server root for provider-native paths: the base URL without a trailing /v1 (or /api/v1 for OpenRouter). */
export function serverRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/(api\/)?v1$/, '');
}
