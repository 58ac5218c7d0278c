// A local HTTP server for client tests: each request is handed to the next queued handler (or the default one),
// and every request is recorded (method, path, headers, body) so tests can assert what the client sent.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (req: RecordedRequest, res: ServerResponse) => void;

export interface FakeServer {
  url: string;
  requests: RecordedRequest[];
  /** Queue handlers for the next requests, in order. */
  queue(...handlers: Handler[]): void;
  /** Resolves when the n-th request (1-based) has arrived. */
  arrived(n: number): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeServer(defaultHandler: Handler = (_req, res) => json(res, 404, { error: { message: 'no handler queued' } })): Promise<FakeServer> {
  const pending: Handler[] = [];
  const requests: RecordedRequest[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (b: Buffer) => parts.push(b));
    req.on('end', () => {
      const rec: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(parts).toString('utf8') };
      requests.push(rec);
      for (const w of waiters.filter((w) => w.n <= requests.length)) w.resolve();
      (pending.shift() ?? defaultHandler)(rec, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    queue: (...hs) => pending.push(...hs),
    arrived: (n) => (requests.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve }))),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export function completion(text: string, usage = { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 }) {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 0,
    model: 'test-model',
    choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage,
  };
}

export const ok = (text: string): Handler => (_req, res) => json(res, 200, completion(text));
export const status = (code: number, message: string, headers: Record<string, string> = {}): Handler => (_req, res) =>
  json(res, code, { error: { message, type: 'test_error', code: null } }, headers);
