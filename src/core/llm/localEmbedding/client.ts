// The run's embedding client for a local sentence-transformers folder (`--embedding-model local:<dir>`): the model
// runs in this process, in TypeScript. One loaded model and vector cache per folder and process, so the episodes of a
// sweep worker share the weights and the vectors already computed (a text's vector depends on the text alone).
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { EmbeddingClient, EmbeddingResult } from '../embeddings.js';
import { loadSentenceModel, type SentenceModel } from './model.js';

/** Texts embedded per forward pass; between passes the event loop runs (other episodes, a cancel). */
const BATCH = 32;
/** Vectors kept per folder; beyond it the oldest go (a long sweep over many scenes). */
const MAX_CACHED = 50_000;

export class LocalEmbeddingClient implements EmbeddingClient {
  readonly model: string;
  readonly #sentence: SentenceModel;
  readonly #vectors: Map<string, number[]>;
  /** How many texts went through the model (the rest came from the cache). */
  computed = 0;

  /** `vectors`: the cache, shared by the clients of one folder. */
  constructor(model: string, sentence: SentenceModel, vectors = new Map<string, number[]>()) {
    this.model = model;
    this.#sentence = sentence;
    this.#vectors = vectors;
  }

  async embed(texts: readonly string[], options: { signal?: AbortSignal } = {}): Promise<EmbeddingResult> {
    const missing = [...new Set(texts.filter((t) => !this.#vectors.has(t)))];
    for (let i = 0; i < missing.length; i += BATCH) {
      if (options.signal?.aborted) return { ok: false, unsupported: false, error: { kind: 'cancelled', message: 'embedding call cancelled' } };
      const batch = missing.slice(i, i + BATCH);
      let vectors: Float32Array[];
      try {
        vectors = this.#sentence.embed(batch);
      } catch (e) {
        // An input the model cannot take: the matcher falls back to the lexical one for the episode, and says why.
        return { ok: false, unsupported: true, error: { kind: 'bad_response', message: `local embedding model ${this.model}: ${(e as Error).message}` } };
      }
      this.computed += batch.length;
      batch.forEach((t, j) => this.#vectors.set(t, Array.from(vectors[j]!)));
      while (this.#vectors.size > MAX_CACHED) this.#vectors.delete(this.#vectors.keys().next().value!);
      if (i + BATCH < missing.length) await new Promise((r) => setImmediate(r));
    }
    return { ok: true, vectors: texts.map((t) => this.#vectors.get(t)!) };
  }
}

const loaded = new Map<string, { stamp: string; sentence: SentenceModel; vectors: Map<string, number[]> }>();

/**
 * A client for a folder, whose model is loaded once per process (again if model.safetensors changed). `model` is
 * what the run header records. Throws LocalModelError (file and cause) when the folder cannot be used.
 */
export function localEmbeddingClient(dir: string, model: string): LocalEmbeddingClient {
  const weights = join(dir, 'model.safetensors');
  const st = existsSync(weights) ? statSync(weights) : undefined;
  const stamp = st ? `${st.size}:${st.mtimeMs}` : '';
  let hit = loaded.get(dir);
  if (!hit || hit.stamp !== stamp || stamp === '') {
    hit = { stamp, sentence: loadSentenceModel(dir), vectors: new Map() };
    loaded.set(dir, hit);
  }
  return new LocalEmbeddingClient(model, hit.sentence, hit.vectors);
}
