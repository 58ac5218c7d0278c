// Retries are one wrapper around any ModelClient (STYLE rule 13): the SDK's own retries are off, so the backoff,
// the jitter and the attempt count live here, where tests can drive them with a fake sleep and a seeded Rng.
import type { ModelErrorKind } from '../../protocol/trace.js';
import type { Rng } from '../host.js';
import type { ModelClient, ModelError, ModelRequest, ModelResult } from './client.js';

export interface RetryPolicy {
  /** Total calls including the first. Default 5. */
  maxAttempts?: number;
  /** First backoff before jitter. Default 500 ms. */
  baseDelayMs?: number;
  /** Upper bound of one computed backoff. Default 20 s. */
  maxDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the error is returned instead. Default 60 s. */
  maxRetryAfterMs?: number;
}

/** Waits `ms`; resolves early (without throwing) when `signal` aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const RETRYABLE_KINDS: ReadonlySet<ModelErrorKind> = new Set<ModelErrorKind>(['rate_limit', 'server', 'timeout', 'network']);

export const DEFAULT_RETRY_POLICY: Required<RetryPolicy> = {
  maxAttempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 60_000,
};

/** A real timer-based sleep for product paths (tests pass a fake one). */
export const timerSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * Parses a Retry-After value: delta-seconds ("2", "0.5") or an HTTP date. `nowWallMs` is the caller's wall clock
 * (epoch ms) so an HTTP date becomes a delay. Returns undefined when the value is absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, nowWallMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const v = value.trim();
  if (v === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowWallMs);
}

/** Backoff before attempt `attempt + 1` (attempt counts from 1): exponential, capped, "equal jitter" in [d/2, d). */
export function backoffMs(attempt: number, policy: Required<RetryPolicy>, rng: Rng): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(exp / 2 + (rng.next() * exp) / 2);
}

/**
 * Wraps `client` so retryable failures (rate_limit, server, timeout, network) are retried with backoff; other
 * kinds, and errors marked `permanent`, return at once with the provider's message. The result's `attempts` counts calls made and `latencyMs`
 * sums the calls' latencies and the waits between them.
 */
export function withRetries(client: ModelClient, policy: RetryPolicy, rng: Rng, sleep: Sleep): ModelClient {
  const p = fullPolicy(policy);
  return {
    id: client.id,
    close: client.close ? () => client.close!() : undefined,
    async complete(request: ModelRequest, options?: { signal?: AbortSignal }): Promise<ModelResult> {
      const signal = options?.signal;
      let totalMs = 0;
      for (let attempt = 1; ; attempt++) {
        const result = await client.complete(request, options);
        totalMs += result.latencyMs;
        if (result.ok) return { ...result, latencyMs: totalMs, attempts: attempt };
        const fail = (message: string): ModelResult => ({
          ...result,
          error: { ...result.error, message },
          latencyMs: totalMs,
          attempts: attempt,
        });
        const next = retryStep(result.error, attempt, p, rng);
        if ('stop' in next) return fail(next.stop);
        const waitMs = next.waitMs;
        await sleep(waitMs, signal);
        totalMs += waitMs;
        if (signal?.aborted) {
          return { ok: false, error: { kind: 'cancelled', message: 'model call cancelled while waiting to retry' }, latencyMs: totalMs, cached: false, attempts: attempt };
        }
      }
    },
  };
}

/**
 * After failed attempt number `attempt`: wait `waitMs` and call again, or stop with the message to return (the
 * error's own, or why retrying ends). One rule for every kind of call that retries (chat, embeddings).
 */
export function retryStep(error: ModelError, attempt: number, p: Required<RetryPolicy>, rng: Rng): { waitMs: number } | { stop: string } {
  if (!RETRYABLE_KINDS.has(error.kind) || error.permanent) return { stop: error.message };
  if (attempt >= p.maxAttempts) return { stop: `${error.message} (gave up after ${attempt} attempts)` };
  const retryAfter = error.retryAfterMs;
  if (retryAfter !== undefined && retryAfter > p.maxRetryAfterMs) {
    return { stop: `${error.message} (provider asks to wait ${(retryAfter / 1000).toFixed(1)} s, over the ${p.maxRetryAfterMs / 1000} s limit)` };
  }
  return { waitMs: retryAfter ?? backoffMs(attempt, p, rng) };
}

/** The policy with defaults filled in; refuses an attempt count that is not a positive integer. */
export function fullPolicy(policy: RetryPolicy): Required<RetryPolicy> {
  const p: Required<RetryPolicy> = { ...DEFAULT_RETRY_POLICY, ...stripUndefined(policy) };
  if (!Number.isInteger(p.maxAttempts) || p.maxAttempts < 1) {
    throw new Error(`withRetries: maxAttempts must be an integer >= 1, got ${p.maxAttempts}`);
  }
  return p;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
