// The response cache is an object with rules (STYLE rule 15): constructed and passed in, never a module switch.
// Key = version prefix + SHA-256 of canonical JSON (sorted keys) of the client id, model, messages, parameters,
// seed, repeat index and sample index. Identical concurrent calls run once; errors and empty answers are never stored.
import { createHash } from 'node:crypto';
import type { TokenUsage } from '../../protocol/trace.js';
import type { HostIO } from '../host.js';
import type { ModelClient, ModelRequest, ModelResult } from './client.js';

/** Bump when the key inputs or the entry format change, so old entries are never read as new ones. */
export const CACHE_KEY_VERSION = 'llm-v1';

export interface CacheEntry {
  key: string;
  text: string;
  usage?: TokenUsage;
  clientId: string;
  model: string;
}

/** JSON with object keys sorted at every depth and undefined members dropped, so equal values hash equally. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`canonicalJson: non-finite number ${value}`);
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export class ResponseCache {
  /** Problems that did not stop a call (unreadable entry, failed write), oldest first. */
  readonly warnings: string[] = [];
  readonly #host: HostIO;
  readonly #dir: string;
  readonly #onWarning?: (message: string) => void;
  readonly #inFlight = new Map<string, Promise<ModelResult>>();

  /** `dir` e.g. "<workspace>/.waypoint/cache"; entries go to `<dir>/<first 2 hex>/<hash>.json`. */
  constructor(host: HostIO, dir: string, options: { onWarning?: (message: string) => void } = {}) {
    this.#host = host;
    this.#dir = dir.replace(/\/+$/, '');
    this.#onWarning = options.onWarning;
  }

  keyFor(clientId: string, request: ModelRequest): string {
    const input = {
      clientId,
      model: request.model,
      // Image parts count by their hash; their bytes are not part of the key.
      messages: request.messages.map((m) => ({ role: m.role, content: m.content, name: m.name, images: m.parts?.flatMap((p) => (p.type === 'image' ? [p.sha256] : [])) })),
      temperature: request.temperature,
      maxTokens: request.maxTokens,
      seed: request.seed,
      repeatIndex: request.repeatIndex ?? 0,
      // Left out when 0, so the keys of single-sample calls stay what they were.
      sampleIndex: request.sampleIndex ? request.sampleIndex : undefined,
    };
    return `${CACHE_KEY_VERSION}:${createHash('sha256').update(canonicalJson(input)).digest('hex')}`;
  }

  pathFor(key: string): string {
    const hash = hashOf(key);
    return `${this.#dir}/${hash.slice(0, 2)}/${hash}.json`;
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    const path = this.pathFor(key);
    if (!(await this.#host.exists(path))) return undefined;
    let entry: unknown;
    try {
      entry = JSON.parse(await this.#host.readText(path));
    } catch (e) {
      this.#warn(`cache entry unreadable, treated as a miss: ${(e as Error).message} (${path})`);
      return undefined;
    }
    const ok = typeof entry === 'object' && entry !== null && (entry as CacheEntry).key === key && typeof (entry as CacheEntry).text === 'string' && (entry as CacheEntry).text !== '';
    if (!ok) {
      this.#warn(`cache entry malformed or for another key, treated as a miss (${path})`);
      return undefined;
    }
    return entry as CacheEntry;
  }

  /** Stores a non-empty answer. Empty texts are refused (returns false) so an empty reply is never replayed. */
  async set(entry: CacheEntry): Promise<boolean> {
    if (entry.text === '') return false;
    const path = this.pathFor(entry.key);
    await this.#host.mkdirp(path.slice(0, path.lastIndexOf('/')));
    await this.#host.writeText(path, JSON.stringify(entry));
    return true;
  }

  /** Removes an entry, e.g. when its answer later proves unparseable. Returns whether one existed. */
  async evict(key: string): Promise<boolean> {
    const path = this.pathFor(key);
    if (!(await this.#host.exists(path))) return false;
    await this.#host.remove(path);
    return true;
  }

  /**
   * Returns the stored answer for `key` (cached: true) or runs `call` once, however many callers ask at the same
   * time; callers that joined a running call also get `cached: true` and attempts 0 (they made no call).
   */
  async wrap(key: string, meta: { clientId: string; model: string }, call: () => Promise<ModelResult>): Promise<ModelResult> {
    const running = this.#inFlight.get(key);
    if (running) {
      const r = await running;
      return r.ok ? { ...r, cached: true, attempts: 0 } : r;
    }
    const p = this.#lookupOrCall(key, meta, call);
    this.#inFlight.set(key, p);
    try {
      return await p;
    } finally {
      this.#inFlight.delete(key);
    }
  }

  async #lookupOrCall(key: string, meta: { clientId: string; model: string }, call: () => Promise<ModelResult>): Promise<ModelResult> {
    const hit = await this.get(key);
    if (hit) return { ok: true, text: hit.text, usage: hit.usage, latencyMs: 0, cached: true, attempts: 0 };
    const result = await call();
    if (result.ok && result.text !== '') {
      try {
        await this.set({ key, text: result.text, usage: result.usage, clientId: meta.clientId, model: meta.model });
      } catch (e) {
        // The answer is still good; a cache that cannot be written only costs a future call.
        this.#warn(`cache write failed: ${(e as Error).message} (${this.pathFor(key)})`);
      }
    }
    return result;
  }

  #warn(message: string): void {
    this.warnings.push(message);
    this.#onWarning?.(message);
  }
}

/** A client that answers from `cache` when it can (results carry `cached: true`) and stores fresh answers. */
export function withCache(client: ModelClient, cache: ResponseCache): ModelClient & { keyFor(request: ModelRequest): string } {
  return {
    id: client.id,
    close: client.close ? () => client.close!() : undefined,
    keyFor: (request) => cache.keyFor(client.id, request),
    complete(request, options) {
      const key = cache.keyFor(client.id, request);
      return cache.wrap(key, { clientId: client.id, model: request.model }, () => client.complete(request, options));
    },
  };
}

function hashOf(key: string): string {
  const m = /^[a-z0-9-]+:([0-9a-f]{64})$/.exec(key);
  if (!m) throw new Error(`ResponseCache: not a cache key: "${key}"`);
  return m[1]!;
}
