// Answers from recorded texts, per role, in order: used by tests and by re-runs of a recorded trace.
// The role comes from the request's metadata (arch and role), which the engine sends with every call.
import type { ModelClient, ModelRequest, ModelResult } from './client.js';

/**
 * Recorded answers keyed by "architecture/role", by bare "role", or by "*" (any request, including one without a
 * role metadata); the most specific key present wins.
 */
export type RecordedAnswers = Readonly<Record<string, readonly string[]>>;

export class ReplayClient implements ModelClient {
  readonly id: string;
  readonly #answers: Map<string, readonly string[]>;
  readonly #used = new Map<string, number>();

  constructor(recorded: RecordedAnswers, options: { id?: string } = {}) {
    this.id = options.id ?? 'replay';
    this.#answers = new Map(Object.entries(recorded));
  }

  async complete(request: ModelRequest, options?: { signal?: AbortSignal }): Promise<ModelResult> {
    if (options?.signal?.aborted) return fail('cancelled', 'model call cancelled');
    const ref = request.meta;
    const candidates = ref ? [`${ref.arch}/${ref.role}`, ref.role, '*'] : ['*'];
    const key = candidates.find((k) => this.#answers.has(k));
    const roleName = ref ? `${ref.arch}/${ref.role}` : '(no role metadata)';
    if (key === undefined) {
      const known = [...this.#answers.keys()].sort().join(', ') || '(none)';
      return fail('bad_request', `replay has no recorded answers for role ${roleName}; recorded: ${known}`);
    }
    const list = this.#answers.get(key)!;
    const i = this.#used.get(key) ?? 0;
    if (i >= list.length) return fail('bad_request', `replay ran out of recorded answers for role ${roleName} (used all ${list.length} under "${key}")`);
    this.#used.set(key, i + 1);
    return { ok: true, text: list[i]!, latencyMs: 0, cached: false, attempts: 1 };
  }

  /** Answers not yet used, per key (sorted), e.g. to warn that a re-run diverged from the recording. */
  remaining(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const k of [...this.#answers.keys()].sort()) out[k] = this.#answers.get(k)!.length - (this.#used.get(k) ?? 0);
    return out;
  }
}

function fail(kind: 'cancelled' | 'bad_request', message: string): ModelResult {
  return { ok: false, error: { kind, message }, latencyMs: 0, cached: false, attempts: 1 };
}
