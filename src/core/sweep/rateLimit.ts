// Model rate limits for a sweep: requests and tokens per sliding window (a minute), shared by every worker. A
// request waits until both fit; its tokens are estimated before the call (characters / 4) and corrected to the
// reported usage after it, so a tokens-per-minute limit holds even though the answer's length is unknown up front.
// A request counts in the window from its grant until a window after its answer: the provider counts arrivals,
// which fall somewhere between the two, so this holds however slow the network or the machine is.
import type { ModelClient, ModelRequest } from '../llm/client.js';
import type { EmbeddingClient } from '../llm/embeddings.js';

export interface RateLimits {
  requestsPerMinute?: number;
  tokensPerMinute?: number;
}

export interface Grant {
  id: number;
  /** Reports the tokens the call actually used (replaces the estimate). */
  settle(tokens: number): void;
}

export class RateLimiter {
  #events: { t: number; tokens: number; id: number; open: boolean }[] = [];
  #next = 1;
  #queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly limits: RateLimits,
    private readonly clock: { nowMs(): number } = { nowMs: () => Date.now() },
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
    /** The window; a minute unless a test shortens it. */
    private readonly windowMs = 60_000,
  ) {}

  get active(): boolean {
    return this.limits.requestsPerMinute !== undefined || this.limits.tokensPerMinute !== undefined;
  }

  /** Waits until one more request of `estTokens` fits in the window (callers are served in arrival order). */
  acquire(estTokens: number): Promise<Grant> {
    const turn = this.#queue.then(() => this.#waitForRoom(estTokens));
    this.#queue = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  }

  async #waitForRoom(est: number): Promise<Grant> {
    const rpm = this.limits.requestsPerMinute ?? Infinity;
    const tpm = this.limits.tokensPerMinute ?? Infinity;
    for (;;) {
      const now = this.clock.nowMs();
      this.#events = this.#events.filter((e) => e.open || e.t > now - this.windowMs);
      const used = this.#events.reduce((a, e) => a + e.tokens, 0);
      // A single request larger than the whole token limit still goes, alone in an empty window.
      const tokensFit = used + est <= tpm || this.#events.length === 0;
      if (this.#events.length < rpm && tokensFit) {
        const ev = { t: now, tokens: est, id: this.#next++, open: true };
        this.#events.push(ev);
        return {
          id: ev.id,
          settle: (tokens) => {
            ev.tokens = tokens;
            ev.t = this.clock.nowMs();
            ev.open = false;
          },
        };
      }
      // Wait for the oldest answered request to leave the window (or poll while all are in flight).
      const closed = this.#events.filter((e) => !e.open).map((e) => e.t);
      await this.sleep(closed.length > 0 ? Math.max(5, Math.min(...closed) + this.windowMs - now + 1) : 20);
    }
  }
}

export function estimateTokens(req: ModelRequest): number {
  let chars = 0;
  for (const m of req.messages) chars += typeof m.content === 'string' ? m.content.length : JSON.stringify(m.content).length;
  return Math.ceil(chars / 4) + (req.maxTokens ?? 256);
}

/** Usage seen by a metered client: every request that reached the endpoint. */
export interface Meter {
  acquire(estTokens: number): Promise<{ settle(tokens: number): void }>;
  /** Actual usage of one call (for the budget). */
  spent(promptTokens: number, completionTokens: number): void;
}

/** The client that reaches the endpoint, gated by a meter (a local RateLimiter, or one in the parent process). */
export function withMeter(client: ModelClient, meter: Meter): ModelClient {
  return {
    id: client.id,
    async complete(req, options) {
      const grant = await meter.acquire(estimateTokens(req));
      const r = await client.complete(req, options);
      const p = r.ok ? (r.usage?.promptTokens ?? 0) : 0;
      const c = r.ok ? (r.usage?.completionTokens ?? 0) : 0;
      grant.settle(r.ok && r.usage ? p + c : estimateTokens(req));
      meter.spent(p, c);
      return r;
    },
    close: client.close?.bind(client),
  };
}

/** Tokens of an embedding request before the answer: characters / 4, as for chat prompts. */
export function estimateEmbeddingTokens(texts: readonly string[]): number {
  return Math.ceil(texts.reduce((a, t) => a + t.length, 0) / 4);
}

/**
 * An embedding client gated by the same meter as the chat calls: each request counts against the requests and
 * tokens per minute, and its input tokens against the budget (the endpoint's usage, else the estimate).
 */
export function withEmbeddingMeter(client: EmbeddingClient, meter: Meter): EmbeddingClient {
  return {
    model: client.model,
    async embed(texts, options) {
      const est = estimateEmbeddingTokens(texts);
      const grant = await meter.acquire(est);
      const r = await client.embed(texts, options);
      const used = r.ok ? (r.promptTokens ?? est) : 0;
      grant.settle(r.ok ? used : est);
      meter.spent(used, 0);
      return r;
    },
  };
}
