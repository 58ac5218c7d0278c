// Local stand-ins for the OpenAI-compatible servers `waypoint doctor` meets, each answering in its provider's own
// shapes and quirks (sources in src/core/llm/doctor/providers.ts): model lists, error bodies, refusals, headers.
// Each is a router for test/unit/core/llm/helpers/fakeServer.ts, which records every request.
import type { ServerResponse } from 'node:http';
import { json, type Handler, type RecordedRequest } from '../helpers/fakeServer.js';

export const KEY = 'sk-doctor-SECRET-0123456789abcdef';

interface ChatBody {
  model?: string;
  messages?: { role: string; content: string | { type: string; text?: string; image_url?: unknown }[] }[];
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  seed?: number;
  response_format?: { type?: string };
}

export interface Behaviour {
  /** Answers name the colour of an image part; otherwise `refuseImage` decides. */
  vision?: boolean;
  /** Status and body for a request with an image part when not a vision model. */
  refuseImage?: (res: ServerResponse) => void;
  /** Answers past the output limit, with finish_reason "stop" (a server that ignores max_tokens). */
  ignoresLimit?: boolean;
  /** Reports usage (most servers do). */
  usage?: boolean;
  headers?: Record<string, string>;
}

const NUMBERS = Array.from({ length: 200 }, (_, i) => `n${i + 1}`).join(', ');

/** A chat completion for the probe's request, the way a cooperative model would answer it. */
export function answer(res: ServerResponse, body: ChatBody, b: Behaviour): void {
  const msgs = body.messages ?? [];
  const last = msgs[msgs.length - 1];
  const parts = typeof last?.content === 'string' ? [{ type: 'text', text: last.content }] : (last?.content ?? []);
  const text = parts.map((p) => p.text ?? '').join(' ');
  if (parts.some((p) => p.type === 'image_url') && !b.vision) return b.refuseImage!(res);
  let content = parts.some((p) => p.type === 'image_url') ? 'Red.' : body.response_format?.type === 'json_object' ? '{"ok": true}' : /Count from 1/.test(text) ? NUMBERS : /OK/.test(text) ? 'OK' : 'ready';
  const words = content.split(/\s+/);
  const limit = body.max_completion_tokens ?? body.max_tokens;
  let finish = 'stop';
  if (limit !== undefined && words.length > limit && !b.ignoresLimit) {
    content = words.slice(0, limit).join(' ');
    finish = 'length';
  }
  const usage = { prompt_tokens: Math.ceil(text.length / 4), completion_tokens: content.split(/\s+/).length, total_tokens: 0 };
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
  json(res, 200, { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: body.model, choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finish }], ...(b.usage === false ? {} : { usage }) }, b.headers);
}

function embedding(res: ServerResponse, model: string, dims: number, headers?: Record<string, string>): void {
  json(res, 200, { object: 'list', data: [{ object: 'embedding', index: 0, embedding: Array.from({ length: dims }, (_, i) => ((i % 7) - 3) / 10) }], model, usage: { prompt_tokens: 4, total_tokens: 4 } }, headers);
}

const parse = (req: RecordedRequest): ChatBody => (req.body ? (JSON.parse(req.body) as ChatBody) : {});
const pathOf = (req: RecordedRequest) => req.path.split('?')[0]!;
const bearer = (req: RecordedRequest) => req.headers.authorization === `Bearer ${KEY}`;

/**
 * OpenAI. `reasoning` models (the o-series, gpt-5) refuse max_tokens and any temperature but 1. Errors are
 * `{error: {message, type, param, code}}`; answers carry x-ratelimit-* and openai-* headers.
 */
export function openaiFake(o: { reasoning?: boolean } = {}): Handler {
  const chatModel = o.reasoning ? 'gpt-5-mini' : 'gpt-4o-mini';
  const headers = {
    'openai-processing-ms': '210',
    'openai-version': '2020-10-01',
    'x-ratelimit-limit-requests': '500',
    'x-ratelimit-limit-tokens': '200000',
    'x-ratelimit-remaining-requests': '499',
    'x-ratelimit-remaining-tokens': '199970',
    'x-ratelimit-reset-requests': '120ms',
    'x-ratelimit-reset-tokens': '9ms',
  };
  const err = (res: ServerResponse, status: number, message: string, param: string | null, code: string | null) => json(res, status, { error: { message, type: 'invalid_request_error', param, code } }, headers);
  return (req, res) => {
    if (!req.headers.authorization) return err(res, 401, "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth.", null, null);
    if (!bearer(req)) return err(res, 401, 'Incorrect API key provided: sk-wrong*****cdef. You can find your API key at https://platform.openai.com/account/api-keys.', null, 'invalid_api_key');
    const path = pathOf(req);
    if (req.method === 'GET' && path === '/v1/models') {
      return json(res, 200, { object: 'list', data: [chatModel, 'gpt-4o', 'text-embedding-3-small', 'text-embedding-3-large'].map((id) => ({ id, object: 'model', created: 1715367049, owned_by: 'system' })) }, headers);
    }
    if (path === '/v1/chat/completions') {
      const body = parse(req);
      if (body.model !== chatModel && body.model !== 'gpt-4o') return err(res, 404, `The model \`${body.model}\` does not exist or you do not have access to it.`, null, 'model_not_found');
      if (o.reasoning && body.max_tokens !== undefined) return err(res, 400, "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", 'max_tokens', 'unsupported_parameter');
      if (o.reasoning && body.temperature !== undefined && body.temperature !== 1) return err(res, 400, `Unsupported value: 'temperature' does not support ${body.temperature} with this model. Only the default (1) value is supported.`, 'temperature', 'unsupported_value');
      return answer(res, body, { vision: true, headers });
    }
    if (path === '/v1/embeddings') {
      const model = parse(req).model!;
      if (!model.startsWith('text-embedding')) return err(res, 400, `This model does not support embeddings: ${model}`, 'model', 'invalid_model');
      return embedding(res, model, 1536, headers);
    }
    return err(res, 404, `Invalid URL (${req.method} ${path})`, null, null);
  };
}

/**
 * Azure OpenAI, classic deployment URLs: /openai/deployments/<name>/..., the key in an `api-key` header, an
 * `api-version` query parameter (without it: 404 "Resource not found"); errors `{error: {code, message}}`;
 * API Management headers on every answer. The deployment lists no models.
 */
export function azureFake(deployment = 'gpt4o-prod'): Handler {
  const headers = { 'apim-request-id': 'b1c2', 'x-ms-region': 'Sweden Central', 'x-ratelimit-remaining-requests': '99', 'x-ratelimit-remaining-tokens': '99000' };
  const err = (res: ServerResponse, status: number, code: string, message: string) => json(res, status, { error: { code, message } }, headers);
  return (req, res) => {
    const url = new URL(req.path, 'http://x');
    if (!url.searchParams.get('api-version')) return err(res, 404, '404', 'Resource not found');
    if (req.headers['api-key'] !== KEY) return err(res, 401, '401', 'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.');
    const m = /^\/openai\/deployments\/([^/]+)\/(.+)$/.exec(url.pathname);
    if (!m) return err(res, 404, '404', 'Resource not found');
    if (m[1] !== deployment) return err(res, 404, 'DeploymentNotFound', 'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.');
    if (m[2] === 'chat/completions') return answer(res, parse(req), { vision: true, headers });
    if (m[2] === 'embeddings') return err(res, 400, 'OperationNotSupported', `The embeddings operation does not work with the specified model, ${deployment}. Please choose different model and try again.`);
    return err(res, 404, '404', 'Resource not found');
  };
}

/**
 * Ollama's /v1 layer: models owned by "library" with tags; unknown models "not found, try pulling it first";
 * errors `{error: {message, type}}`; images refused by a text-only model; native /api/ps and /api/show.
 */
export function ollamaFake(o: { loadedContext?: number; numCtx?: number } = {}): Handler {
  const err = (res: ServerResponse, status: number, message: string) => json(res, status, { error: { message, type: status === 404 ? 'not_found_error' : 'invalid_request_error', param: null, code: null } });
  const known = (m: string | undefined) => (m ?? '').replace(/:latest$/, '');
  return (req, res) => {
    const path = pathOf(req);
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end('Ollama is running');
    }
    if (path === '/v1/models') return json(res, 200, { object: 'list', data: ['llama3.2:latest', 'nomic-embed-text:latest'].map((id) => ({ id, object: 'model', created: 1730000000, owned_by: 'library' })) });
    if (path === '/v1/chat/completions') {
      const body = parse(req);
      if (!['llama3.2', 'nomic-embed-text'].includes(known(body.model))) return err(res, 404, `model "${body.model}" not found, try pulling it first`);
      return answer(res, body, { refuseImage: (r) => err(r, 400, `registry.ollama.ai/library/llama3.2:latest does not support vision`) });
    }
    if (path === '/v1/embeddings') {
      const body = parse(req);
      if (known(body.model) === 'nomic-embed-text') return embedding(res, body.model!, 768);
      return err(res, 400, `"${body.model}" does not support embeddings`);
    }
    if (path === '/api/ps') return json(res, 200, { models: o.loadedContext ? [{ name: 'llama3.2:latest', model: 'llama3.2:latest', size: 3_300_000_000, digest: 'a80c', details: { family: 'llama' }, expires_at: '2026-11-27T12:00:00Z', size_vram: 3_300_000_000, context_length: o.loadedContext }] : [] });
    if (path === '/api/show') return json(res, 200, { parameters: `${o.numCtx ? `num_ctx                        ${o.numCtx}\n` : ''}stop                           "<|eot_id|>"`, model_info: { 'general.architecture': 'llama', 'llama.context_length': 131072 }, capabilities: ['completion', 'tools'] });
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('404 page not found');
  };
}

/**
 * vLLM: models owned by "vllm" with `max_model_len`; the older top-level error shape `{object: "error", message,
 * type, param, code}`; a request longer than the model's context is refused; text-only models refuse images;
 * a generative model refuses the embeddings API.
 */
export function vllmFake(o: { maxModelLen?: number } = {}): Handler {
  const model = 'Qwen/Qwen2.5-7B-Instruct';
  const maxLen = o.maxModelLen ?? 4096;
  const err = (res: ServerResponse, message: string) => json(res, 400, { object: 'error', message, type: 'BadRequestError', param: null, code: 400 });
  return (req, res) => {
    const path = pathOf(req);
    if (path === '/v1/models') return json(res, 200, { object: 'list', data: [{ id: model, object: 'model', created: 1730000000, owned_by: 'vllm', root: model, parent: null, max_model_len: maxLen, permission: [] }] });
    if (path === '/v1/chat/completions') {
      const body = parse(req);
      if (body.model !== model) return json(res, 404, { object: 'error', message: `The model \`${body.model}\` does not exist.`, type: 'NotFoundError', param: null, code: 404 });
      const limit = body.max_completion_tokens ?? body.max_tokens ?? 0;
      if (20 + limit > maxLen) return err(res, `This model's maximum context length is ${maxLen} tokens. However, you requested ${20 + limit} tokens (20 in the messages, ${limit} in the completion). Please reduce the length of the messages or completion.`);
      return answer(res, body, { refuseImage: (r) => err(r, `${model} is not a multimodal model`) });
    }
    if (path === '/v1/embeddings') return err(res, 'The model does not support Embeddings API');
    return json(res, 404, { detail: 'Not Found' });
  };
}

/**
 * LM Studio: /v1/models with ids only (owned by "organization_owner"); errors `{error: "<text>"}`; refuses
 * response_format json_object ("must be 'json_schema' or 'text'"); the native /api/v1/models says the loaded context.
 */
export function lmStudioFake(): Handler {
  const model = 'qwen2.5-7b-instruct';
  const err = (res: ServerResponse, status: number, message: string) => json(res, status, { error: message });
  return (req, res) => {
    const path = pathOf(req);
    if (path === '/v1/models') return json(res, 200, { data: [model, 'text-embedding-nomic-embed-text-v1.5'].map((id) => ({ id, object: 'model', owned_by: 'organization_owner' })), object: 'list' });
    if (path === '/v1/chat/completions') {
      const body = parse(req);
      if (body.response_format && body.response_format.type !== 'json_schema' && body.response_format.type !== 'text') return err(res, 400, "'response_format.type' must be 'json_schema' or 'text'");
      return answer(res, body, { refuseImage: (r) => err(r, 400, 'Model does not support images. Please use a model that does.') });
    }
    if (path === '/v1/embeddings') return embedding(res, parse(req).model!, 768);
    if (path === '/api/v1/models') {
      return json(res, 200, {
        models: [
          { type: 'llm', publisher: 'qwen', key: model, display_name: 'Qwen2.5 7B Instruct', architecture: 'qwen2', max_context_length: 32768, loaded_instances: [{ id: model, config: { context_length: 8192, parallel: 4 } }], capabilities: { vision: false, trained_for_tool_use: true } },
          { type: 'embedding', publisher: 'nomic-ai', key: 'text-embedding-nomic-embed-text-v1.5', max_context_length: 2048, loaded_instances: [] },
        ],
      });
    }
    return err(res, 404, `Unexpected endpoint or method. (${req.method} ${path})`);
  };
}

/**
 * llama.cpp's server: one loaded model whatever the request names; models owned by "llamacpp" with
 * `meta.n_ctx_train`; the running context in /props; embeddings 501 unless started with --embeddings; images
 * refused without a multimodal projector.
 */
export function llamaCppFake(o: { nCtx?: number; slots?: number } = {}): Handler {
  const err = (res: ServerResponse, status: number, type: string, message: string) => json(res, status, { error: { code: status, message, type } });
  return (req, res) => {
    const path = pathOf(req);
    if (path === '/v1/models') {
      return json(res, 200, { object: 'list', data: [{ id: 'models/qwen2.5-7b-instruct-q4_k_m.gguf', object: 'model', created: 1730000000, owned_by: 'llamacpp', meta: { vocab_type: 2, n_vocab: 152064, n_ctx_train: 32768, n_embd: 3584, n_params: 7615616512, size: 4677120000 } }] });
    }
    if (path === '/props') return json(res, 200, { default_generation_settings: { n_ctx: Math.floor((o.nCtx ?? 8192) / (o.slots ?? 1)), temperature: 0.8 }, total_slots: o.slots ?? 1, chat_template: 'chatml', build_info: 'b5000' });
    if (path === '/v1/chat/completions') return answer(res, parse(req), { refuseImage: (r) => err(r, 500, 'server_error', 'image input is not supported - hint: if this is unexpected, you may need to provide the mmproj') });
    if (path === '/v1/embeddings') return err(res, 501, 'not_supported_error', 'This server does not support embeddings. Start it with `--embeddings`');
    return err(res, 404, 'not_found_error', 'File Not Found');
  };
}

/**
 * OpenRouter (base URL /api/v1): a public model list with context_length, pricing, architecture and top_provider;
 * chat needs the key; /api/v1/key gives the key's rate limit; errors `{error: {code, message}}`.
 */
export function openRouterFake(): Handler {
  const model = 'meta-llama/llama-3.1-8b-instruct';
  const err = (res: ServerResponse, status: number, message: string) => json(res, status, { error: { code: status, message } });
  return (req, res) => {
    const path = pathOf(req);
    if (path === '/api/v1/models') {
      return json(res, 200, {
        data: [
          {
            id: model,
            canonical_slug: 'meta-llama/llama-3.1-8b-instruct',
            name: 'Meta: Llama 3.1 8B Instruct',
            created: 1721692800,
            context_length: 131072,
            architecture: { modality: 'text->text', input_modalities: ['text'], output_modalities: ['text'], tokenizer: 'Llama3', instruct_type: 'llama3' },
            pricing: { prompt: '0.00000002', completion: '0.00000005' },
            top_provider: { context_length: 16384, max_completion_tokens: 16384, is_moderated: false },
            supported_parameters: ['max_tokens', 'temperature', 'seed', 'response_format'],
          },
        ],
      });
    }
    if (!bearer(req)) return err(res, 401, 'No auth credentials found');
    if (path === '/api/v1/key') return json(res, 200, { data: { label: 'sk-or-v1-abc...xyz', limit: null, usage: 0.12, is_free_tier: false, rate_limit: { requests: 200, interval: '10s' } } });
    if (path === '/api/v1/chat/completions') return answer(res, parse(req), { refuseImage: (r) => err(r, 404, 'No endpoints found that support image input') });
    if (path === '/api/v1/embeddings') return err(res, 404, 'Not Found');
    return err(res, 404, 'Not Found');
  };
}

/** A server that answers chat past any output limit (finish_reason "stop", no usage), and lists nothing. */
export function limitIgnoringFake(): Handler {
  return (req, res) => {
    const path = pathOf(req);
    if (path === '/v1/models') return json(res, 200, { object: 'list', data: [{ id: 'local-model', object: 'model', owned_by: 'me' }] });
    if (path === '/v1/chat/completions') return answer(res, parse(req), { ignoresLimit: true, usage: false, vision: true });
    return json(res, 404, { error: { message: 'not here' } });
  };
}

/** A captive portal or a misconfigured proxy: every path answers an HTML page. */
export function htmlFake(status = 200): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!DOCTYPE html><html><head><title>Hotel WiFi - Sign in</title></head><body>Please sign in</body></html>');
  };
}
