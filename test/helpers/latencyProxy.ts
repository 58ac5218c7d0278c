// An HTTP proxy that holds every request for a delay before passing it on (a slow model endpoint in front of the
// reference server), and counts what it saw: requests, chat completions, the most requests in flight at once and
// the delays it added. The delay is fixed, or with `jitter` j drawn uniformly from [d(1-j), d(1+j)] by a seeded
// generator (a real endpoint's latency varies; a fixed one keeps episodes that started together in step). Used by
// the in-flight sweep test and `npm run bench:slow-endpoint`.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LatencyProxy {
  /** Base URL with /v1, to put where the target's URL would go. */
  url: string;
  /** `firstChatAt`: performance.now() when the first chat completion arrived (since the last reset). */
  readonly stats: { requests: number; chatCalls: number; inFlight: number; maxInFlight: number; firstChatAt?: number; delayMs: number };
  /** Zero the counters (between bench cells). */
  reset(): void;
  close(): Promise<void>;
}

/** `target`: the upstream base URL including /v1 (e.g. a ReferenceServer's url). */
export async function startLatencyProxy(target: string, delayMs: number, o: { jitter?: number; seed?: number } = {}): Promise<LatencyProxy> {
  const up = new URL(target);
  const stats: LatencyProxy['stats'] = { requests: 0, chatCalls: 0, inFlight: 0, maxInFlight: 0, delayMs: 0 };
  const jitter = Math.min(1, Math.max(0, o.jitter ?? 0));
  // mulberry32: a small seeded generator, so a bench's delays repeat from run to run.
  let seed = (o.seed ?? 1) >>> 0;
  const random = () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const path = up.pathname.replace(/\/v1\/?$/, '') + (req.url ?? '/');
    const out = httpRequest({ hostname: up.hostname, port: up.port, path, method: req.method, headers: { ...req.headers, host: up.host } }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    out.on('error', (e) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: ${e.message}`);
    });
    out.end(body);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      stats.requests++;
      if (req.method === 'POST' && /\/chat\/completions$/.test(req.url ?? '')) {
        stats.chatCalls++;
        stats.firstChatAt ??= performance.now();
      }
      stats.inFlight++;
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
      res.on('close', () => stats.inFlight--);
      const delay = delayMs * (1 + jitter * (2 * random() - 1));
      if (req.method === 'POST' && /\/chat\/completions$/.test(req.url ?? '')) stats.delayMs += delay;
      setTimeout(() => forward(req, res, Buffer.concat(chunks)), delay);
    });
  });
  // The SDK keeps connections alive; many episodes at once need many sockets.
  server.maxConnections = 10_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    stats,
    reset: () => Object.assign(stats, { requests: 0, chatCalls: 0, maxInFlight: stats.inFlight, firstChatAt: undefined, delayMs: 0 }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
