// A misbehaving OpenAI-compatible endpoint (node:http on loopback) for fault cases. By default it answers every
// chat completion with the reference policy's text (the scripted MALMM roles, called in-process), so an episode
// runs normally; a case's `behave` function replaces chosen answers by faults: HTTP errors with Retry-After,
// hangs past the client's timeout, bodies cut mid-transfer, empty choices, garbage, or wrong-format text.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ChatMessage } from '../../../src/protocol/trace.js';
import { defaultReferenceModels, REFERENCE_MODEL_NAME } from '../../../src/core/llm/reference/policy.js';
import { registerReferencePolicies } from '../../../src/core/llm/reference/policies.js';
import { architectures } from '../../../src/architectures/registry.js';
import { roleFromPrompt } from '../../helpers/roleFromPrompt.js';

export type Reply =
  /** 200 with this text as the first choice's content. */
  | { kind: 'text'; text: string }
  /** 200 with the reference policy's answer. */
  | { kind: 'reference' }
  /** A JSON error body with this status (e.g. 429 + Retry-After, 500, 401). */
  | { kind: 'status'; status: number; headers?: Record<string, string>; message?: string }
  /** Any status, headers and body, sent as is. */
  | { kind: 'raw'; status: number; headers: Record<string, string>; body: string }
  /** Headers and the first part of a valid completion are sent, then the socket is destroyed. */
  | { kind: 'cut'; chunked: boolean }
  /** Never answers (the connection stays open until the client gives up or the server closes). */
  | { kind: 'hang' };

export interface ModelCall {
  /** 1-based over the server's lifetime. */
  index: number;
  /** "malmm/coder" etc., recognised from the system prompt's opening (a real endpoint gets no role metadata). */
  role: string | undefined;
  /** 1-based count of calls for this role. */
  roleIndex: number;
  messages: ChatMessage[];
  authorization: string | undefined;
  /** The reference policy's answer to this chat. */
  reference(): string;
}

export interface FakeModelServer {
  url: string;
  calls: ModelCall[];
  /** Resolves when the n-th call (1-based) has arrived. */
  arrived(n: number): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeModelServer(behave: (call: ModelCall) => Reply = () => ({ kind: 'reference' })): Promise<FakeModelServer> {
  registerReferencePolicies(architectures);
  const policy = defaultReferenceModels().get(REFERENCE_MODEL_NAME)!;
  const calls: ModelCall[] = [];
  const perRole = new Map<string, number>();
  const waiters: { n: number; resolve: () => void }[] = [];
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (b: Buffer) => parts.push(b));
    req.on('end', () => {
      try {
        handle(req, Buffer.concat(parts).toString('utf8'), res);
      } catch (e) {
        // A bug in a case's behaviour: answer 599 so the run fails loudly instead of hanging.
        if (!res.headersSent) res.writeHead(599, { 'content-type': 'text/plain' });
        res.end(`fake server error: ${(e as Error).message}`);
      }
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  function handle(req: IncomingMessage, raw: string, res: ServerResponse): void {
    if (!req.url?.endsWith('/chat/completions')) return sendJson(res, 404, { error: { message: `no route ${req.url}` } });
    const body = JSON.parse(raw) as { messages: { role: ChatMessage['role']; content: string; name?: string }[] };
    const messages: ChatMessage[] = body.messages.map((m) => ({ role: m.role, content: m.content, ...(m.name ? { name: m.name } : {}) }));
    const ref = roleFromPrompt(messages);
    const role = ref ? `${ref.arch}/${ref.role}` : undefined;
    const roleIndex = (perRole.get(role ?? '') ?? 0) + 1;
    perRole.set(role ?? '', roleIndex);
    const auth = req.headers.authorization;
    const call: ModelCall = { index: calls.length + 1, role, roleIndex, messages, authorization: Array.isArray(auth) ? auth[0] : auth, reference: () => policy.answer(messages, ref ? { meta: ref } : {}) };
    calls.push(call);
    for (const w of waiters.filter((w) => w.n <= calls.length)) w.resolve();
    const reply = behave(call);
    switch (reply.kind) {
      case 'reference':
        return sendJson(res, 200, completion(call.reference()));
      case 'text':
        return sendJson(res, 200, completion(reply.text));
      case 'status':
        return sendJson(res, reply.status, { error: { message: reply.message ?? `fake failure ${reply.status}`, type: 'server_error', code: null } }, reply.headers);
      case 'raw':
        res.writeHead(reply.status, reply.headers);
        return void res.end(reply.body);
      case 'cut': {
        const text = JSON.stringify(completion(call.reference()));
        const half = text.slice(0, Math.floor(text.length / 2));
        res.writeHead(200, reply.chunked ? { 'content-type': 'application/json' } : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
        // Flush the first half, then drop the connection as a crashing proxy would.
        res.write(half, () => res.destroy());
        return;
      }
      case 'hang':
        return;
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    calls,
    arrived: (n) => (calls.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve }))),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}

export function completion(text: string): object {
  return {
    id: 'chatcmpl-fault',
    object: 'chat.completion',
    created: 0,
    model: 'fault-model',
    choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}
