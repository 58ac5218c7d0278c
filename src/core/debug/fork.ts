// What Restart Frame needs around an episode: a file reader that remembers every prompt text it served (by
// SHA-256) and can serve a parent's texts again, and a model client that replays the parent's answers for the
// turns before the fork point, lets a person type the next answer (`send`), and counts real model calls.
import { resolve } from 'node:path';
import type { EventLog } from './eventLog.js';
import type { HostIO } from '../host.js';
import type { ModelClient, ModelRequest, ModelResult } from '../llm/client.js';
import { sha256Hex } from '../engine/hash.js';

export function normalizePath(p: string): string {
  return resolve(p);
}

/** Reads files through `io`; remembers prompt texts by hash; serves pinned texts for some paths until unpinned. */
export class PromptTextStore {
  private readonly bySha = new Map<string, string>();
  private pinned = new Map<string, string>();

  /** The HostIO a run should use: prompt files go through the store, everything else straight to `io`. */
  readonly host: HostIO;

  constructor(private readonly io: HostIO) {
    this.host = {
      readText: async (path) => {
        const pin = this.pinned.get(normalizePath(path));
        if (pin !== undefined) return pin;
        const text = await io.readText(path);
        if (path.endsWith('.prompt')) this.remember(text);
        return text;
      },
      writeText: (path, text) => io.writeText(path, text),
      appendText: (path, text) => io.appendText(path, text),
      exists: (path) => io.exists(path),
      list: (dir) => io.list(dir),
      mkdirp: (dir) => io.mkdirp(dir),
      remove: (path) => io.remove(path),
    };
  }

  remember(text: string): string {
    const sha = sha256Hex(text);
    this.bySha.set(sha, text);
    return sha;
  }

  textOf(sha: string): string | undefined {
    return this.bySha.get(sha);
  }

  /** Current text and hash of a file on disk (remembered), or undefined when it cannot be read. */
  async current(path: string): Promise<{ text: string; sha: string } | undefined> {
    try {
      const text = await this.io.readText(path);
      return { text, sha: this.remember(text) };
    } catch {
      return undefined;
    }
  }

  pin(texts: Map<string, string>): void {
    this.pinned = new Map([...texts].map(([p, t]) => [normalizePath(p), t]));
  }

  unpin(): void {
    this.pinned.clear();
  }
}

/** One of the parent's model answers, in call order, for a fork to replay. */
export interface RecordedAnswer {
  role: string;
  agent?: string;
  text: string;
}

/** The parent's answers before role call number `upTo` (0-based among its role calls). Throws when one is missing. */
export function recordedAnswers(log: EventLog, upTo: number): RecordedAnswer[] {
  const out: RecordedAnswer[] = [];
  for (const e of log.events) {
    if (out.length >= upTo) break;
    if (e.type !== 'role_call') continue;
    const r = log.events.find((x) => x.type === 'model_response' && x.callId === e.callId);
    if (!r || r.type !== 'model_response' || !r.ok || r.text === undefined) {
      throw new Error(`cannot replay turn ${e.turn} (${e.role}, call ${e.callId}): the run has no answer for it`);
    }
    out.push({ role: e.role, ...(e.agent !== undefined ? { agent: e.agent } : {}), text: r.text });
  }
  return out;
}

export interface SessionModelHooks {
  /** A recorded answer replaces a model call (fork prefix); returns undefined once the prefix is used up. */
  replay?(request: ModelRequest): ModelResult | undefined;
  /** Called for each call the wrapped client really makes (after replay and typed answers). */
  onModelCall?(request: ModelRequest): void;
}

/**
 * Replays a fork's recorded answers in order. A request whose role differs from the recording means the episode
 * took another path; from there on the model answers (reported through `onDiverged`).
 */
export class PrefixReplay {
  private used = 0;
  private diverged = false;

  constructor(
    private readonly answers: readonly RecordedAnswer[],
    private readonly onDone: () => void,
    private readonly onDiverged: (message: string) => void,
  ) {
    if (answers.length === 0) queueMicrotask(() => this.onDone());
  }

  get replayed(): number {
    return this.used;
  }

  get done(): boolean {
    return this.diverged || this.used >= this.answers.length;
  }

  next(request: ModelRequest): ModelResult | undefined {
    if (this.done) return undefined;
    const want = this.answers[this.used]!;
    const role = request.meta?.role;
    if (role !== want.role || (want.agent !== undefined && request.meta?.agent !== want.agent)) {
      this.diverged = true;
      this.onDiverged(`the re-run asked ${role ?? 'a role'}${request.meta?.agent ? ` (${request.meta.agent})` : ''} where the original asked ${want.role}${want.agent ? ` (${want.agent})` : ''} at call ${this.used + 1}; the model answers from here on`);
      this.onDone();
      return undefined;
    }
    this.used++;
    if (this.used === this.answers.length) this.onDone();
    return { ok: true, text: want.text, latencyMs: 0, cached: true, attempts: 0 };
  }
}

/** The session's model client: typed answers first, then a fork's replayed answers, then the real model. */
export class SessionModel {
  /** Text typed with `send`, used for the next model call. */
  typed: string | undefined;
  replay: PrefixReplay | undefined;
  /** Calls that reached the model (not replayed, not typed) during the current run. */
  calls = 0;

  wrap(client: ModelClient): ModelClient {
    return {
      id: client.id,
      close: client.close ? () => client.close!() : undefined,
      complete: async (request, options) => {
        if (options?.signal?.aborted) return { ok: false, error: { kind: 'cancelled', message: 'model call cancelled' }, latencyMs: 0, cached: false, attempts: 0 };
        if (this.typed !== undefined) {
          const text = this.typed;
          this.typed = undefined;
          // The replayed prefix moves on as if the model had answered this call.
          this.replay?.next(request);
          return { ok: true, text, latencyMs: 0, cached: false, attempts: 0, human: true };
        }
        const replayed = this.replay?.next(request);
        if (replayed) return replayed;
        this.calls++;
        return client.complete(request, options);
      },
    };
  }
}
