// The reference model served over a local OpenAI-compatible HTTP endpoint, so offline runs exercise the same
// client path (openai SDK over HTTP) as a real model. It is a scripted policy, not an LLM, and says so in every
// response: the `model` field, `system_fingerprint`, `/v1/models` `owned_by`, and an `x-waypoint-model` header.
// Answers are deterministic: temperature is accepted and ignored; the request's seed reaches the policies, where
// only the reference-flawed profile uses it (with the conversation) to draw its seeded mistakes.
// POST /v1/embeddings serves `reference-embedding`, a hashed-words fixture (./embedding.ts), for LLaMAR's matcher.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as z from 'zod';
import type { ChatMessage } from '../../../protocol/trace.js';
import type { Clock } from '../../host.js';
import type { RequestMeta } from '../client.js';
import { META_HEADERS, REFERENCE_HEADER } from '../openai.js';
import { REFERENCE_EMBEDDING_LABEL, REFERENCE_EMBEDDING_MODEL, referenceEmbedding } from './embedding.js';
import { defaultReferenceModels, type ScriptedPolicy } from './policy.js';

export { REFERENCE_HEADER };
const MAX_BODY_BYTES = 8 * 1024 * 1024;

export interface ReferenceServerOptions {
  /** 0 or omitted: an ephemeral port. */
  port?: number;
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  /** Served models keyed by model name. Default: `reference` over the default role-policy registry. */
  models?: ReadonlyMap<string, ScriptedPolicy>;
  /** For the `created` field; without one `created` is 0, which keeps responses byte-for-byte deterministic. */
  clock?: Clock;
  /** Serve POST /v1/embeddings with the hashed-words fixture (./embedding.ts). Default true. */
  embeddings?: boolean;
}

export interface ReferenceServer {
  /** Base URL including `/v1`, e.g. http://127.0.0.1:41234/v1 */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Rough token count used in `usage`: characters / 4, rounded up. Not a tokenizer. */
export function approxTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The role metadata the engine sends as headers (openai.ts META_HEADERS). */
function metaFrom(req: IncomingMessage): RequestMeta | undefined {
  const h = (name: string) => {
    const v = req.headers[name];
    return typeof v === 'string' && v.length > 0 ? v : undefined;
  };
  const arch = h(META_HEADERS.arch);
  const role = h(META_HEADERS.role);
  if (!arch || !role) return undefined;
  const agent = h(META_HEADERS.agent);
  const callId = h(META_HEADERS.callId);
  return { arch, role, ...(agent ? { agent } : {}), ...(callId ? { callId } : {}) };
}

export function scriptedLabel(modelName: string): string {
  return `${modelName} (scripted, not an LLM)`;
}

const TextPart = z.object({ type: z.literal('text'), text: z.string() });
// Images are accepted (the seeds' vision modes send them) and not looked at: the policies read text only.
const ImageUrlPart = z.object({ type: z.literal('image_url'), image_url: z.object({ url: z.string() }) });
const WireMessage = z.object({
  role: z.enum(['system', 'developer', 'user', 'assistant']),
  content: z.union([z.string(), z.array(z.union([TextPart, ImageUrlPart])), z.null()]).optional(),
  name: z.string().optional(),
});
const ChatRequest = z.object({
  model: z.string().min(1),
  messages: z.array(WireMessage).min(1),
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().nullish() }).nullish(),
  n: z.number().int().nullish(),
  max_tokens: z.number().int().positive().nullish(),
  max_completion_tokens: z.number().int().positive().nullish(),
  temperature: z.number().nullish(),
  seed: z.number().int().nullish(),
});

const EmbeddingRequest = z.object({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(z.string()).min(1).max(2048)]),
  encoding_format: z.enum(['float', 'base64']).nullish(),
  dimensions: z.number().int().nullish(),
  user: z.string().nullish(),
});

class HttpError extends Error {
  constructor(readonly status: number, readonly type: string, readonly code: string, message: string) {
    super(message);
  }
}

export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const models = options.models ?? defaultReferenceModels();
  const embeddings = options.embeddings ?? true;
  const host = options.host ?? '127.0.0.1';
  let counter = 0;
  const created = () => (options.clock ? Math.floor(Date.parse(options.clock.isoNow()) / 1000) : 0);

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      const err = e instanceof HttpError ? e : new HttpError(500, 'server_error', 'internal_error', `reference server error: ${(e as Error)?.message ?? String(e)}`);
      sendError(res, err);
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!.replace(/\/+$/, '');
    if (path === '/v1/models') {
      if (req.method !== 'GET') throw new HttpError(405, 'invalid_request_error', 'method_not_allowed', `${req.method} is not allowed on /v1/models; use GET`);
      const data = [...models.keys()].sort().map(modelEntry);
      if (embeddings) data.push(embeddingEntry());
      return sendJson(res, 200, { object: 'list', data });
    }
    if (path.startsWith('/v1/models/')) {
      const name = decodeURIComponent(path.slice('/v1/models/'.length));
      if (embeddings && name === REFERENCE_EMBEDDING_MODEL) return sendJson(res, 200, embeddingEntry());
      if (!models.has(name)) throw unknownModel(name);
      return sendJson(res, 200, modelEntry(name));
    }
    if (path === '/v1/embeddings' && embeddings) {
      if (req.method !== 'POST') throw new HttpError(405, 'invalid_request_error', 'method_not_allowed', `${req.method} is not allowed on /v1/embeddings; use POST`);
      return embed(req, res);
    }
    if (path === '/v1/chat/completions') {
      if (req.method !== 'POST') throw new HttpError(405, 'invalid_request_error', 'method_not_allowed', `${req.method} is not allowed on /v1/chat/completions; use POST`);
      return chat(req, res);
    }
    throw new HttpError(404, 'invalid_request_error', 'not_found', `no route ${req.method} ${path}; the reference server serves GET /v1/models, POST /v1/chat/completions${embeddings ? ' and POST /v1/embeddings' : ''}`);
  }

  async function embed(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readRequest(req, EmbeddingRequest, 'embeddings request');
    if (body.model !== REFERENCE_EMBEDDING_MODEL) {
      throw new HttpError(404, 'invalid_request_error', 'model_not_found', `the reference server embeds only with "${REFERENCE_EMBEDDING_MODEL}" (a hashed-words fixture), not "${body.model}"`);
    }
    const inputs = typeof body.input === 'string' ? [body.input] : body.input;
    const data = inputs.map((text, index) => {
      const v = referenceEmbedding(text);
      // The SDK asks for base64 by default: little-endian float32, as OpenAI sends it.
      const embedding = body.encoding_format === 'base64' ? Buffer.from(new Float32Array(v).buffer).toString('base64') : v;
      return { object: 'embedding', index, embedding };
    });
    const tokens = inputs.reduce((n, t) => n + approxTokens(t), 0);
    return sendJson(res, 200, { object: 'list', data, model: REFERENCE_EMBEDDING_LABEL, usage: { prompt_tokens: tokens, total_tokens: tokens } });
  }

  async function chat(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readRequest(req, ChatRequest, 'chat completion request');
    if (body.n !== undefined && body.n !== null && body.n !== 1) {
      throw new HttpError(400, 'invalid_request_error', 'unsupported_parameter', `the reference model returns one choice; n=${body.n} is not supported`);
    }
    const policy = models.get(body.model);
    if (!policy) throw unknownModel(body.model);

    const messages: ChatMessage[] = body.messages.map((m) => ({
      role: m.role === 'developer' ? 'system' : m.role,
      content: typeof m.content === 'string' ? m.content : (m.content ?? []).map((p) => (p.type === 'text' ? p.text : '')).join(''),
      ...(m.name ? { name: m.name } : {}),
    }));
    let text: string;
    try {
      text = policy.answer(messages, { meta: metaFrom(req), seed: body.seed ?? undefined });
    } catch (e) {
      throw new HttpError(500, 'server_error', 'policy_error', `reference policy "${policy.id}" failed: ${(e as Error)?.message ?? String(e)}`);
    }
    // Honour the token limit as an LLM endpoint would (approximate tokens, see approxTokens).
    const limit = body.max_completion_tokens ?? body.max_tokens ?? undefined;
    let finish: 'stop' | 'length' = 'stop';
    if (limit !== undefined && approxTokens(text) > limit) {
      text = text.slice(0, limit * 4);
      finish = 'length';
    }
    const usage = {
      prompt_tokens: messages.reduce((n, m) => n + approxTokens(m.content), 0),
      completion_tokens: approxTokens(text),
      total_tokens: 0,
    };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    const common = {
      id: `chatcmpl-reference-${++counter}`,
      created: created(),
      model: scriptedLabel(body.model),
      system_fingerprint: `${scriptedLabel(body.model)}; policy ${policy.id}`,
    };
    if (!body.stream) {
      return sendJson(res, 200, {
        ...common,
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: finish }],
        usage,
      });
    }
    const includeUsage = body.stream_options?.include_usage === true;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', [REFERENCE_HEADER.name]: REFERENCE_HEADER.value });
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      res.write(`data: ${JSON.stringify({ ...common, object: 'chat.completion.chunk', choices, ...(includeUsage ? { usage: null } : {}), ...extra })}\n\n`);
    chunk([{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }]);
    for (const piece of splitForStreaming(text)) chunk([{ index: 0, delta: { content: piece }, logprobs: null, finish_reason: null }]);
    chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: finish }]);
    if (includeUsage) chunk([], { usage });
    res.end('data: [DONE]\n\n');
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}/v1`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // Keep-alive sockets (the SDK's fetch pools them) would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}

function modelEntry(name: string) {
  return { id: name, object: 'model', created: 0, owned_by: scriptedLabel(name) };
}

function embeddingEntry() {
  return { id: REFERENCE_EMBEDDING_MODEL, object: 'model', created: 0, owned_by: REFERENCE_EMBEDDING_LABEL };
}

function unknownModel(name: string): HttpError {
  return new HttpError(404, 'invalid_request_error', 'model_not_found', `the reference server has no model "${name}"; GET /v1/models lists the served ones`);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), [REFERENCE_HEADER.name]: REFERENCE_HEADER.value });
  res.end(text);
}

function sendError(res: ServerResponse, err: HttpError): void {
  if (res.headersSent) {
    res.destroy(err);
    return;
  }
  sendJson(res, err.status, { error: { message: err.message, type: err.type, code: err.code, param: null } });
}

/** A JSON body checked against its schema; a malformed one is a 400 naming the field, as OpenAI's servers answer. */
async function readRequest<T>(req: IncomingMessage, schema: z.ZodType<T>, what: string): Promise<T> {
  const raw = await readBody(req);
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (e) {
    throw new HttpError(400, 'invalid_request_error', 'invalid_json', `request body is not valid JSON: ${(e as Error).message}`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new HttpError(400, 'invalid_request_error', 'invalid_request', `invalid ${what} at ${issue.path.length ? issue.path.join('.') : 'body'}: ${issue.message}`);
  }
  return parsed.data;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (b: Buffer) => {
      size += b.length;
      // Over the limit: answer 413 at once and drain the rest without keeping it.
      if (size > MAX_BODY_BYTES) reject(new HttpError(413, 'invalid_request_error', 'request_too_large', `request body over ${MAX_BODY_BYTES} bytes`));
      else parts.push(b);
    });
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

/** Word-sized pieces (whitespace kept with the word before it), so a streaming client sees several deltas. */
function splitForStreaming(text: string): string[] {
  const pieces = text.match(/\S+\s*|\s+/g) ?? [];
  return pieces.length ? pieces : [''];
}
