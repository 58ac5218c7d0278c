// A loopback OpenAI-compatible endpoint in the extension host that forwards chat completions to a ModelClient
// living there (VS Code's Language Model API). The run child reaches it with the ordinary openai client, so
// launchRun needs no special model kind. Bound to 127.0.0.1, guarded by a random bearer token; no vscode import.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as z from 'zod';
import type { ModelClient } from '../../core/llm/client.js';
import type { ModelErrorKind } from '../../protocol/trace.js';

const MAX_BODY_BYTES = 16 * 1024 * 1024;

const ChatRequest = z.object({
  model: z.string().min(1),
  messages: z.array(z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string(), name: z.string().optional() })).min(1),
  temperature: z.number().optional(),
  max_tokens: z.number().int().positive().optional(),
  max_completion_tokens: z.number().int().positive().optional(),
  seed: z.number().int().optional(),
});

/** HTTP status for each error kind, chosen so the openai client on the other side classifies it back the same way. */
export const STATUS_FOR_KIND: Record<ModelErrorKind, number> = {
  rate_limit: 429,
  server: 502,
  timeout: 408,
  network: 502,
  auth: 401,
  bad_request: 400,
  bad_response: 502,
  cancelled: 499,
};

function hasImages(body: unknown): boolean {
  const messages = (body as { messages?: unknown } | null)?.messages;
  return Array.isArray(messages) && messages.some((m) => Array.isArray((m as { content?: unknown })?.content) && ((m as { content: unknown[] }).content).some((p) => (p as { type?: unknown })?.type === 'image_url'));
}

export interface ModelProxy {
  /** e.g. http://127.0.0.1:41234/v1 */
  baseUrl: string;
  /** Bearer token the child must send (its "API key"). */
  token: string;
  close(): Promise<void>;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error(`request body over ${MAX_BODY_BYTES} bytes`));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startModelProxy(client: ModelClient, options: { log?(line: string): void } = {}): Promise<ModelProxy> {
  const token = randomBytes(24).toString('hex');
  const expected = Buffer.from(`Bearer ${token}`);
  let served = 0;
  const server = createServer((req, res) => {
    void (async () => {
      const auth = Buffer.from(String(req.headers.authorization ?? ''));
      if (auth.length !== expected.length || !timingSafeEqual(auth, expected)) return json(res, 401, { error: { message: 'missing or wrong bearer token for the Waypoint model proxy', type: 'auth' } });
      if (req.method !== 'POST' || !/^\/v1\/chat\/completions\/?(\?.*)?$/.test(req.url ?? '')) return json(res, 404, { error: { message: `not found: ${req.method} ${req.url}`, type: 'not_found' } });
      let body: unknown;
      try {
        body = JSON.parse(await readBody(req));
      } catch (err) {
        return json(res, 400, { error: { message: `request body is not JSON: ${err instanceof Error ? err.message : String(err)}`, type: 'bad_request' } });
      }
      // A run with vision on sends image parts; the bridge forwards text only, so it says so instead of a schema error.
      if (hasImages(body)) return json(res, 400, { error: { message: "images cannot be sent through the VS Code Language Model API bridge (it forwards text only); turn off the setting waypoint.run.vision, or use an OpenAI-compatible provider for a vision model", type: 'bad_request' } });
      const parsed = ChatRequest.safeParse(body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return json(res, 400, { error: { message: `invalid chat request at ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'schema mismatch'}`, type: 'bad_request' } });
      }
      const r = parsed.data;
      const abort = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) abort.abort();
      });
      const result = await client.complete(
        { model: r.model, messages: r.messages, temperature: r.temperature, maxTokens: r.max_completion_tokens ?? r.max_tokens, seed: r.seed },
        { signal: abort.signal },
      );
      served++;
      if (!result.ok) {
        options.log?.(`model proxy: ${result.error.kind}: ${result.error.message}`);
        return json(res, STATUS_FOR_KIND[result.error.kind], { error: { message: result.error.message, type: result.error.kind } });
      }
      json(res, 200, {
        id: `waypoint-proxy-${served}`,
        object: 'chat.completion',
        created: 0,
        model: r.model,
        choices: [{ index: 0, message: { role: 'assistant', content: result.text }, finish_reason: 'stop' }],
        ...(result.usage ? { usage: { prompt_tokens: result.usage.promptTokens, completion_tokens: result.usage.completionTokens, total_tokens: result.usage.promptTokens + result.usage.completionTokens } } : {}),
      });
    })().catch((err: unknown) => {
      options.log?.(`model proxy: request failed: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) json(res, 500, { error: { message: 'internal error in the Waypoint model proxy', type: 'server' } });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
